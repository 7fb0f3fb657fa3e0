#pragma once
// A node's local memory. Firmware buffers live here so that the DMA engines (the
// network interface, the SCSI host adapter) can reach them. DMA engines use direct
// pointers (the TLM DMI idea) through span(); the TLM socket serves anything that
// wants ordinary b_transport access.
//
// The bytes are anonymous host memory mapped with MAP_NORESERVE: pages are zero
// until first touched and cost nothing before, so 32 nodes can each have a memory
// large enough to hold a whole 100 MB file without the host paying for it.

#include "tlm_models/node/node_memory_params.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <string>

namespace starfish::node {

class NodeMemory : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<NodeMemory> socket;

    NodeMemory(sc_core::sc_module_name name, uint32_t size_bytes);
    ~NodeMemory() override;
    NodeMemory(const NodeMemory &) = delete;
    NodeMemory &operator=(const NodeMemory &) = delete;

    uint32_t size() const { return size_; }
    // Pointer to [addr, addr + len) or nullptr if any of it lies outside memory.
    uint8_t *span(uint32_t addr, uint32_t len);
    const uint8_t *span(uint32_t addr, uint32_t len) const;
    // Address of a pointer into this memory (for firmware that allocated a buffer
    // and must hand its address to a DMA engine); throws if p is not inside.
    uint32_t address_of(const void *p) const;
    // True when p points into [base, base + size].
    bool owns(const void *p) const;
    bool contains(uint32_t addr, uint32_t len) const { return len <= size_ && addr <= size_ - len; }

private:
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &trans, tlm::tlm_dmi &dmi);
    unsigned transport_dbg(tlm::tlm_generic_payload &trans);

    uint8_t *bytes_ = nullptr;
    uint32_t size_ = 0;
};

} // namespace starfish::node
