#pragma once
// The binding of the firmware HAL (fw/include/fw/hal.h) to a node model: every
// hal_* function runs on the node's NodeCpu, allocates in its NodeMemory, and
// reaches the node's devices over its register bus: the device windows of
// hw/node_map.h and a TLM-2.0 b_transport into the device's register socket.
// `struct hal` is defined here.

#include "fw/hal.h"
#include "hw/config/config.h"
#include "sim/platform/fw_names.h"
#include "sim/platform/node_allocator.h"
#include "tlm_models/common/operand_port.h"
#include "tlm_models/common/trace_hub.h"
#include "tlm_models/node/node_cpu.h"
#include "tlm_models/node/node_memory.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace starfish::platform {
class NodeHal;
}

// The firmware's handle of its node (opaque to the firmware).
struct hal {
    starfish::platform::NodeHal *binding;
};

namespace starfish::platform {

struct NodeIdentity {
    unsigned node_id = 0;
    hal_role_t role = HAL_ROLE_CP;
    unsigned role_index = 0;
    unsigned cp_count = 1;
    unsigned iop_count = 0;
    unsigned disks_per_iop = 0;
    unsigned trial = 0;
};

class NodeHal {
public:
    using TargetSocket =
        tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;

    // Built during the node's elaboration: the register bus's initiator socket
    // ("bus") belongs to the module being built.
    NodeHal(const NodeIdentity &identity, const config::Config &cfg, node::NodeCpu &cpu,
            node::NodeMemory &memory);
    NodeHal(const NodeHal &) = delete;
    NodeHal &operator=(const NodeHal &) = delete;

    hal_t *handle() { return &hal_; }
    // Maps a device's registers at [base, base + size) of the node's address space
    // and binds the register bus to its socket (Node::attach_device). postable,
    // postable_when_quiet: offsets (below 256) of the registers whose writes may be
    // posted always or only when nothing happens before the write (Posting);
    // operands: where posted writes go, if not through regs.
    void attach_device(const std::string &name, uint32_t base, uint32_t size, TargetSocket &regs,
                       const std::vector<uint32_t> &postable,
                       const std::vector<uint32_t> &postable_when_quiet,
                       common::OperandPort *operands);
    const NodeIdentity &identity() const { return identity_; }
    // hal_export values by name (a repeated name keeps the last value).
    const std::map<std::string, uint64_t> &exports() const { return exports_; }
    const NodeAllocator &allocator() const { return allocator_; }
    void *context() const { return context_; }
    void set_context(void *ctx) { context_ = ctx; }

    // The services behind the C functions (see hal.h for their contract).
    unsigned cp_node(unsigned k);
    unsigned iop_node(unsigned k);
    uint64_t now_cycles() const { return cpu_.now_cycles(); }
    void cycles(uint32_t n) { cpu_.charge(n); }
    void sleep_cycles(uint64_t n) { cpu_.sleep(n); }
    int thread_spawn(hal_thread_fn fn, void *arg, const char *name);
    void thread_exit() { cpu_.exit_thread(); }
    void yield() { cpu_.yield(); }
    void sem_init(hal_sem_t *s, uint32_t initial);
    void sem_wait(hal_sem_t *s);
    void sem_post(hal_sem_t *s);
    int sem_wait_timeout(hal_sem_t *s, uint64_t cycles);
    // Semaphore names and report functions the firmware registered (reports only).
    FirmwareNames &names() { return names_; }
    void irq_register(unsigned line, hal_irq_fn fn, void *arg);
    void *mem_alloc(uint32_t bytes, uint32_t align);
    void mem_free(void *p);
    uint32_t mem_addr(const void *p);
    void *mem_ptr(uint32_t addr);
    uint32_t reg_read(uint32_t addr);
    void reg_write(uint32_t addr, uint32_t value);
    int64_t config_int(const char *key);
    double config_real(const char *key);
    const char *config_string(const char *key);
    void export_value(const char *name, uint64_t value);
    // Observation (docs/observe.md): the firmware's probes become signals of
    // `<scope>.fs` (declared here from the configuration: an SPFS IOP's cache
    // occupancy, a DDIO IOP's buffer states) and its notes lines of `<scope>.fw`.
    // Before sc_start.
    void observe(trace::TraceHub *hub, const std::string &scope);
    bool observed() const { return hub_ != nullptr; }
    void probe(hal_probe_t probe, uint32_t index, int64_t value);
    void note(const char *op, hal_note_dir_t dir, uint64_t id, const char *fields);
    [[noreturn]] void fail(const std::string &message) { cpu_.fail(message); }

private:
    // Whether a register write may be posted (NodeCpu::post_write). Only an operand
    // may be: a writable register without side effects, with no delay annotation,
    // whose value its device reads only when a later access from the CPU triggers it.
    enum class Posting {
        No,
        Always,
        // Only while nothing can happen before the write's time (NodeCpu::post_write):
        // for operands whose write the firmware treats as a point where interrupts
        // are served before the code that follows it.
        WhenQuiet
    };
    // A device's register window.
    struct Window {
        std::string name;
        uint32_t base;
        uint32_t size;
        unsigned socket_index;   // of bus_
        uint64_t postable_words; // bit k: the register at offset 4k is postable
        uint64_t quiet_words;    // bit k: ... postable when quiet
        common::OperandPort *operands;
        Posting posting(uint32_t offset) const;
    };

    const config::ParamSpec &config_spec(const char *service, const char *key);
    // hal_reg_read/hal_reg_write: the charge, posting, the CPU's catching up, the
    // device window and the TLM access.
    void register_access(bool write, uint32_t addr, uint32_t &value);
    const Window *window_of(uint32_t addr) const; // nullptr: no device there
    // One b_transport into the window's device; false on an error response.
    bool transport(const Window &w, bool write, uint32_t addr, uint32_t &value,
                   sc_core::sc_time &delay);
    // Applies a posted write (the device's OperandPort, or an access that must take
    // no time); false if the device answered with an error.
    bool write_posted(uint32_t addr, uint32_t value);

    hal hal_;
    const NodeIdentity identity_;
    const config::Config &cfg_;
    node::NodeCpu &cpu_;
    node::NodeMemory &memory_;
    tlm_utils::multi_passthrough_initiator_socket<NodeHal> bus_;
    std::vector<Window> windows_;
    tlm::tlm_generic_payload payload_; // reused by transport()
    NodeAllocator allocator_;
    std::map<std::string, uint64_t> exports_;
    void *context_ = nullptr;
    FirmwareNames names_;
    trace::TraceHub *hub_ = nullptr;
    std::string fw_scope_;
    // Signal handle per probe and index; kNoSignal where none was declared.
    static constexpr uint32_t kNoSignal = 0xffffffffu;
    std::vector<std::vector<uint32_t>> probe_signals_;
};

} // namespace starfish::platform
