#pragma once
// The binding of the firmware HAL (fw/include/fw/hal.h) to a node model: every
// hal_* function runs on the node's NodeCpu, allocates in its NodeMemory, and
// reaches devices through the node's register decode. `struct hal` is defined here.

#include "fw/hal.h"
#include "hw/config/config.h"
#include "sim/platform/fw_names.h"
#include "sim/platform/node_allocator.h"
#include "tlm_models/common/trace_hub.h"
#include "tlm_models/node/node_cpu.h"
#include "tlm_models/node/node_memory.h"

#include <systemc>

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

// A node's device-register path (implemented by Node).
class RegisterBus {
public:
    enum class Result { Ok, Unmapped, DeviceError };
    virtual ~RegisterBus() = default;
    // One 32-bit access at a node-physical address; delay is the device's annotation.
    virtual Result access(bool write, uint32_t addr, uint32_t &value, sc_core::sc_time &delay) = 0;
    // Whether a write to this word-aligned address may be posted (NodeCpu::post_write).
    // Only an operand may be: a writable register without side effects, with no
    // delay annotation, whose value its device reads only when a later access from
    // the CPU triggers it.
    enum class Posting {
        No,
        Always,
        // Only while nothing can happen before the write's time (NodeCpu::post_write):
        // for operands whose write the firmware treats as a point where interrupts
        // are served before the code that follows it.
        WhenQuiet
    };
    virtual Posting posting(uint32_t addr) const = 0;
    // Applies a posted write (the device's OperandPort, or an access that must take
    // no time); false if the device answered with an error.
    virtual bool write_posted(uint32_t addr, uint32_t value) = 0;
};

class NodeHal {
public:
    NodeHal(const NodeIdentity &identity, const config::Config &cfg, node::NodeCpu &cpu,
            node::NodeMemory &memory, RegisterBus &bus);
    NodeHal(const NodeHal &) = delete;
    NodeHal &operator=(const NodeHal &) = delete;

    hal_t *handle() { return &hal_; }
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
    const config::ParamSpec &config_spec(const char *service, const char *key);
    void register_access(bool write, uint32_t addr, uint32_t &value);

    hal hal_;
    const NodeIdentity identity_;
    const config::Config &cfg_;
    node::NodeCpu &cpu_;
    node::NodeMemory &memory_;
    RegisterBus &bus_;
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
