#pragma once
// The SCSI host adapter of an IOP: the initiator on one SCSI bus, programmed by
// firmware through the registers and command descriptors of hw/scsi_regs.h. It
// reads descriptors from node memory, selects targets, moves data by DMA
// (direct pointers into NodeMemory) and reports completions through a done FIFO
// and a level interrupt.

#include "tlm_models/common/device_fault.h"
#include "tlm_models/common/register_block.h"
#include "tlm_models/node/node_memory.h"
#include "tlm_models/storage/scsi_bus.h"
#include "tlm_models/storage/scsi_host_adapter_params.h"

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace starfish::storage {

struct ScsiAdapterStats {
    uint64_t submitted = 0;
    uint64_t completed = 0;
    uint64_t check_conditions = 0;
    uint64_t response_ps_total = 0; // SUBMIT to completion, summed
    uint64_t response_ps_max = 0;
    nlohmann::json to_json() const;
};

class ScsiHostAdapter : public sc_core::sc_module, public ScsiInitiator, public ScsiBusClient {
public:
    // 32-bit accesses; the address is taken modulo HW_SCSI_STRIDE, so the offset in
    // the window or the full node address both work.
    tlm_utils::simple_target_socket<ScsiHostAdapter> regs;
    sc_core::sc_out<bool> irq; // level: done FIFO not empty
    // Programming errors ("SCSI adapter k"); bound to its node's fault sink.
    common::DeviceFaultPort fault;

    SC_HAS_PROCESS(ScsiHostAdapter);
    // The adapter becomes the bus's initiator. node_id and adapter_index name it
    // in registers and error messages.
    ScsiHostAdapter(sc_core::sc_module_name name, const ScsiAdapterParams &params,
                    node::NodeMemory &memory, ScsiBus &bus, unsigned node_id,
                    unsigned adapter_index);

    // Register access at a byte offset within the window (what b_transport does);
    // for drivers written in C++ and for tests. A programming error sets ERROR and
    // ERROR_INFO, is reported through `fault` (naming node, adapter and register;
    // the simulation stops) and leaves the adapter's queues as they were; a read
    // then returns 0. Through b_transport the access gets an error response.
    uint32_t read_reg(uint32_t offset);
    void write_reg(uint32_t offset, uint32_t value);

    ScsiAdapterStats stats() const { return stats_; }
    bool irq_level() const;
    // A command is queued or in progress at some target.
    bool busy() const;
    // The queues in words, one line per target with commands ("target 0: 2 queued,
    // first READ(10) LBA 4704 x 16 submitted at 0.0123 s") and the done FIFO; empty
    // when idle (the deadlock watchdog's report, docs/watchdog.md).
    std::vector<std::string> queue_report() const;

    // ScsiInitiator
    uint8_t *data_window(unsigned target, uint32_t offset, uint32_t len) override;
    void command_complete(unsigned target, const ScsiResult &result, uint64_t now_ps) override;
    // ScsiBusClient (token = target id)
    ScsiBusStep bus_granted(uint32_t token, uint64_t now_ps) override;
    ScsiBusStep bus_phase_done(uint32_t token, uint64_t now_ps) override;

private:
    struct Queued {
        uint32_t desc_addr;
        uint32_t tag;
        uint32_t addr;
        uint32_t length;
        ScsiCommand cmd;
        uint64_t submitted_ps;
    };

    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    void submit(uint32_t desc_addr);
    void fail(uint32_t code, uint32_t info, uint32_t offset, const std::string &what);
    std::string reg_name(uint32_t offset) const;
    uint32_t pop_done();
    uint32_t queue_free(unsigned target) const;
    void update_irq();
    void drive_irq();

    ScsiAdapterParams params_;
    common::RegisterBlock regs_; // the hw/scsi_regs.h window
    node::NodeMemory &memory_;
    ScsiBus &bus_;
    unsigned node_id_;
    unsigned adapter_index_;
    std::vector<std::deque<Queued>> queues_; // per target; front is the active command
    std::deque<uint32_t> done_;
    uint32_t ctrl_ = 0;
    uint32_t error_ = 0;
    uint32_t error_info_ = 0;
    bool access_failed_ = false; // the register access being served failed
    ScsiAdapterStats stats_;
    sc_core::sc_event irq_changed_;
};

} // namespace starfish::storage
