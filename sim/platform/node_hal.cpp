#include "sim/platform/node_hal.h"

#include "fw/param_keys.h"
#include "hw/node_map.h"

#include <cstdio>
#include <stdexcept>

namespace starfish::platform {

namespace {
std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}
} // namespace

NodeHal::NodeHal(const NodeIdentity &identity, const config::Config &cfg, node::NodeCpu &cpu,
                 node::NodeMemory &memory)
    : hal_{this}, identity_(identity), cfg_(cfg), cpu_(cpu), memory_(memory), bus_("bus"),
      allocator_(memory.size()) {
    cpu_.set_posted_sink([this](uint32_t addr, uint32_t value) {
        if (!write_posted(addr, value)) {
            fail("hal_reg_write: the posted write to " + hex32(addr) +
                 " failed or took time (the device's postable registers are wrong)");
        }
    });
}

unsigned NodeHal::cp_node(unsigned k) {
    if (k >= identity_.cp_count) {
        fail("hal_cp_node(" + std::to_string(k) + "): there are " +
             std::to_string(identity_.cp_count) + " CPs");
    }
    return k;
}

unsigned NodeHal::iop_node(unsigned k) {
    if (k >= identity_.iop_count) {
        fail("hal_iop_node(" + std::to_string(k) + "): there are " +
             std::to_string(identity_.iop_count) + " IOPs");
    }
    return identity_.cp_count + k;
}

int NodeHal::thread_spawn(hal_thread_fn fn, void *arg, const char *name) {
    if (fn == nullptr) {
        fail("hal_thread_spawn with a null function");
    }
    hal_t *h = handle();
    return cpu_.spawn([fn, h, arg] { fn(h, arg); }, name != nullptr ? name : "thread") ? 0 : -1;
}

void NodeHal::sem_init(hal_sem_t *s, uint32_t initial) {
    if (s == nullptr) {
        fail("hal_sem_init with a null semaphore");
    }
    s->count = initial;
    s->handle = cpu_.new_semaphore();
}

void NodeHal::sem_wait(hal_sem_t *s) {
    if (s == nullptr) {
        fail("hal_sem_wait with a null semaphore");
    }
    cpu_.sem_wait(s->handle, s->count);
}

void NodeHal::sem_post(hal_sem_t *s) {
    if (s == nullptr) {
        fail("hal_sem_post with a null semaphore");
    }
    cpu_.sem_post(s->handle, s->count);
}

int NodeHal::sem_wait_timeout(hal_sem_t *s, uint64_t cycles) {
    if (s == nullptr) {
        fail("hal_sem_wait_timeout with a null semaphore");
    }
    if (cycles == 0) {
        fail("hal_sem_wait_timeout with a timeout of 0 cycles");
    }
    return cpu_.sem_wait_for(s->handle, s->count, cycles) ? 0 : -1;
}

void NodeHal::irq_register(unsigned line, hal_irq_fn fn, void *arg) {
    hal_t *h = handle();
    if (fn == nullptr) {
        cpu_.set_handler(line, {});
    } else {
        cpu_.set_handler(line, [fn, h, arg] { fn(h, arg); });
    }
}

void *NodeHal::mem_alloc(uint32_t bytes, uint32_t align) {
    if (align != 0 && (align & (align - 1)) != 0) {
        fail("hal_mem_alloc: alignment " + std::to_string(align) + " is not a power of two");
    }
    cpu_.charge(cpu_.params().costs.cycles(node::HalCharge::MemAlloc));
    auto addr = allocator_.allocate(bytes, align);
    if (!addr) {
        return nullptr;
    }
    return memory_.span(*addr, 0);
}

void NodeHal::mem_free(void *p) {
    if (p == nullptr) {
        return;
    }
    cpu_.charge(cpu_.params().costs.cycles(node::HalCharge::MemAlloc));
    if (!memory_.owns(p) || !allocator_.release(memory_.address_of(p))) {
        fail("hal_mem_free of a pointer that hal_mem_alloc did not return (or already freed)");
    }
}

uint32_t NodeHal::mem_addr(const void *p) {
    if (!memory_.owns(p)) {
        fail("hal_mem_addr of a pointer outside node memory");
    }
    return memory_.address_of(p);
}

void *NodeHal::mem_ptr(uint32_t addr) {
    return addr < memory_.size() ? memory_.span(addr, 0) : nullptr;
}

// ---- the register bus ------------------------------------------------------------

void NodeHal::attach_device(const std::string &name, uint32_t base, uint32_t size,
                            TargetSocket &regs, const std::vector<uint32_t> &postable,
                            const std::vector<uint32_t> &postable_when_quiet,
                            common::OperandPort *operands) {
    const std::string device = "node " + std::to_string(identity_.node_id) + ": device " + name;
    auto words = [&](const std::vector<uint32_t> &offsets) {
        uint64_t bits = 0;
        for (uint32_t offset : offsets) {
            if (offset % 4 != 0 || offset >= 256 || offset >= size) {
                throw std::invalid_argument(device +
                                            ": postable register offsets must be word offsets "
                                            "below 256 inside the window");
            }
            bits |= uint64_t(1) << (offset / 4);
        }
        return bits;
    };
    uint64_t postable_words = words(postable);
    uint64_t quiet_words = words(postable_when_quiet);
    if ((postable_words & quiet_words) != 0) {
        throw std::invalid_argument(device + ": a register is listed as postable both always and "
                                             "when quiet");
    }
    if (base < HW_DEV_BASE || size == 0 || uint64_t(base) + size > 0x100000000ull) {
        throw std::invalid_argument(device +
                                    " window must lie in the device region above HW_DEV_BASE");
    }
    for (const Window &w : windows_) {
        if (base < w.base + w.size && w.base < base + size) {
            throw std::invalid_argument(device + " window overlaps " + w.name);
        }
    }
    bus_.bind(regs);
    windows_.push_back(Window{name, base, size, static_cast<unsigned>(windows_.size()),
                              postable_words, quiet_words, operands});
}

const NodeHal::Window *NodeHal::window_of(uint32_t addr) const {
    for (const Window &w : windows_) {
        if (addr - w.base < w.size) {
            return &w;
        }
    }
    return nullptr;
}

NodeHal::Posting NodeHal::Window::posting(uint32_t offset) const {
    if (offset >= 256) {
        return Posting::No;
    }
    const uint32_t word = offset / 4;
    if ((postable_words >> word & 1) != 0) {
        return Posting::Always;
    }
    return (quiet_words >> word & 1) != 0 ? Posting::WhenQuiet : Posting::No;
}

void NodeHal::register_access(bool write, uint32_t addr, uint32_t &value) {
    const char *service = write ? "hal_reg_write" : "hal_reg_read";
    cpu_.charge(cpu_.params().costs.cycles(node::register_access_charge(write)));
    const Window *w = window_of(addr);
    if (write && addr % 4 == 0 && w != nullptr) {
        Posting posting = w->posting(addr - w->base);
        if (posting != Posting::No && cpu_.post_write(addr, value, posting == Posting::WhenQuiet)) {
            return; // seen by no one before the CPU reaches it (NodeCpu::post_write)
        }
    }
    // The access is externally visible: it happens when the CPU has caught up.
    cpu_.sync();
    if (addr % 4 != 0) {
        fail(std::string(service) + ": address " + hex32(addr) + " is not word aligned");
    }
    if (addr < HW_DEV_BASE && addr < memory_.size()) {
        fail(std::string(service) + ": address " + hex32(addr) +
             " is node memory, not a device register");
    }
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const bool ok = w != nullptr && transport(*w, write, addr, value, delay);
    cpu_.note_device_access();
    if (w == nullptr) {
        fail(std::string(service) + ": address " + hex32(addr) + " maps to no device");
    }
    if (!ok) {
        fail(std::string(service) + ": the device at " + hex32(addr) +
             " answered with an error response");
    }
    cpu_.charge_ps(delay.value());
}

bool NodeHal::transport(const Window &w, bool write, uint32_t addr, uint32_t &value,
                        sc_core::sc_time &delay) {
    // One payload for every access: constructing one allocates its extension
    // array, and accesses never nest (b_transport does not wait).
    tlm::tlm_generic_payload &trans = payload_;
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(addr - w.base);
    trans.set_data_ptr(reinterpret_cast<unsigned char *>(&value));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    bus_[w.socket_index]->b_transport(trans, delay);
    return trans.is_response_ok();
}

bool NodeHal::write_posted(uint32_t addr, uint32_t value) {
    const Window *w = window_of(addr);
    if (w == nullptr) {
        return false;
    }
    if (w->operands != nullptr) {
        return w->operands->write_operand(addr - w->base, value);
    }
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    return transport(*w, true, addr, value, delay) && delay == sc_core::SC_ZERO_TIME;
}

uint32_t NodeHal::reg_read(uint32_t addr) {
    uint32_t value = 0;
    register_access(false, addr, value);
    return value;
}

void NodeHal::reg_write(uint32_t addr, uint32_t value) {
    register_access(true, addr, value);
}

const config::ParamSpec &NodeHal::config_spec(const char *service, const char *key) {
    if (key == nullptr) {
        fail(std::string(service) + " with a null key");
    }
    const config::ParamSpec *spec = cfg_.registry().find(key);
    if (spec == nullptr) {
        fail(std::string(service) + ": unknown configuration key '" + key + "'");
    }
    return *spec;
}

int64_t NodeHal::config_int(const char *key) {
    const config::ParamSpec &spec = config_spec("hal_config_int", key);
    // The firmware names its keys at run time (fw/param_keys.h): typed here, by
    // the registered type.
    if (spec.type == config::ParamType::Int) {
        return cfg_.get_int(config::IntKey{key});
    }
    if (spec.type == config::ParamType::Bool) {
        return cfg_.get_bool(config::BoolKey{key}) ? 1 : 0;
    }
    fail(std::string("hal_config_int: '") + key + "' is a " + config::param_type_name(spec.type) +
         " parameter, not an integer or boolean");
}

double NodeHal::config_real(const char *key) {
    const config::ParamSpec &spec = config_spec("hal_config_real", key);
    if (spec.type != config::ParamType::Real && spec.type != config::ParamType::Int) {
        fail(std::string("hal_config_real: '") + key + "' is a " +
             config::param_type_name(spec.type) + " parameter, not a number or integer");
    }
    if (spec.type == config::ParamType::Int) {
        return static_cast<double>(cfg_.get_int(config::IntKey{key}));
    }
    return cfg_.get_real(config::RealKey{key});
}

const char *NodeHal::config_string(const char *key) {
    const config::ParamSpec &spec = config_spec("hal_config_string", key);
    if (spec.type != config::ParamType::String) {
        fail(std::string("hal_config_string: '") + key + "' is a " +
             config::param_type_name(spec.type) + " parameter, not a string");
    }
    return cfg_.get_string(config::StringKey{key}).c_str();
}

void NodeHal::export_value(const char *name, uint64_t value) {
    if (name == nullptr) {
        fail("hal_export with a null name");
    }
    exports_[name] = value;
}

void NodeHal::observe(trace::TraceHub *hub, const std::string &scope) {
    using trace::SignalKind;
    using trace::TimelineRole;
    hub_ = hub;
    fw_scope_ = scope + ".fw";
    const std::string fs = scope + ".fs";
    probe_signals_.assign(HAL_PROBE_DDIO_BUFFER + 1, {});
    if (identity_.role != HAL_ROLE_IOP) {
        return;
    }
    const std::string &kind = cfg_.get_string(keys::fs_kind);
    if (kind == "spfs") {
        const char *names[] = {"cache_used", "cache_dirty", "cache_filling"};
        for (int p = HAL_PROBE_CACHE_USED; p <= HAL_PROBE_CACHE_FILLING; ++p) {
            probe_signals_[p].push_back(
                hub->signal({fs, names[p], SignalKind::Int, 16, TimelineRole::Counter, ""}));
        }
    } else if (kind == "ddio") {
        auto buffers = static_cast<unsigned>(identity_.disks_per_iop *
                                             cfg_.get_int(keys::ddio_buffers_per_disk));
        for (unsigned b = 0; b < buffers; ++b) {
            probe_signals_[HAL_PROBE_DDIO_BUFFER].push_back(hub->signal(
                {fs, "buf" + std::to_string(b), SignalKind::Text, 6, TimelineRole::Slices, "idle"},
                {0, "idle"}));
        }
    }
}

void NodeHal::probe(hal_probe_t probe, uint32_t index, int64_t value) {
    // A probe of another file system or beyond the declared buffers is not shown.
    if (hub_ == nullptr || static_cast<size_t>(probe) >= probe_signals_.size() ||
        index >= probe_signals_[probe].size()) {
        return;
    }
    uint32_t sig = probe_signals_[probe][index];
    uint64_t t = cpu_.now_with_pending_ps();
    if (probe == HAL_PROBE_DDIO_BUFFER) {
        static const char *const kState[] = {"idle", "disk", "pieces"};
        hub_->set_text(sig, t, value >= 0 && value <= 2 ? kState[value] : "?");
    } else {
        hub_->set(sig, t, value);
    }
}

void NodeHal::note(const char *op, hal_note_dir_t dir, uint64_t id, const char *fields) {
    if (hub_ == nullptr) {
        return;
    }
    if (op == nullptr || op[0] == '\0') {
        fail("hal_note with an empty op");
    }
    trace::Direction d = dir == HAL_NOTE_BEGIN ? trace::Direction::Begin
                         : dir == HAL_NOTE_END ? trace::Direction::End
                                               : trace::Direction::Instant;
    // Ids are the firmware's per node; the node in the high bits makes them unique
    // in the run, as the NI does for messages.
    uint64_t run_id =
        d == trace::Direction::Instant ? 0 : (static_cast<uint64_t>(identity_.node_id) << 40) | id;
    hub_->log({cpu_.now_with_pending_ps(), "FW", fw_scope_, d, op, run_id,
               fields != nullptr ? fields : ""});
}

} // namespace starfish::platform

// ---- the C functions of fw/include/fw/hal.h ------------------------------------

using starfish::platform::NodeHal;

namespace {
NodeHal &bound(hal_t *h) {
    return *h->binding;
}
} // namespace

extern "C" {

unsigned hal_node_id(hal_t *h) {
    return bound(h).identity().node_id;
}
hal_role_t hal_role(hal_t *h) {
    return bound(h).identity().role;
}
unsigned hal_role_index(hal_t *h) {
    return bound(h).identity().role_index;
}
unsigned hal_cp_count(hal_t *h) {
    return bound(h).identity().cp_count;
}
unsigned hal_iop_count(hal_t *h) {
    return bound(h).identity().iop_count;
}
unsigned hal_disks_per_iop(hal_t *h) {
    return bound(h).identity().disks_per_iop;
}
unsigned hal_trial(hal_t *h) {
    return bound(h).identity().trial;
}
unsigned hal_cp_node(hal_t *h, unsigned k) {
    return bound(h).cp_node(k);
}
unsigned hal_iop_node(hal_t *h, unsigned k) {
    return bound(h).iop_node(k);
}

uint64_t hal_now_cycles(hal_t *h) {
    return bound(h).now_cycles();
}
void hal_cycles(hal_t *h, uint32_t n) {
    bound(h).cycles(n);
}
void hal_sleep_cycles(hal_t *h, uint64_t n) {
    bound(h).sleep_cycles(n);
}

int hal_thread_spawn(hal_t *h, hal_thread_fn fn, void *arg, const char *name) {
    return bound(h).thread_spawn(fn, arg, name);
}
void hal_thread_exit(hal_t *h) {
    bound(h).thread_exit();
}
void hal_yield(hal_t *h) {
    bound(h).yield();
}

void hal_sem_init(hal_t *h, hal_sem_t *s, uint32_t initial) {
    bound(h).sem_init(s, initial);
}
void hal_sem_wait(hal_t *h, hal_sem_t *s) {
    bound(h).sem_wait(s);
}
void hal_sem_post(hal_t *h, hal_sem_t *s) {
    bound(h).sem_post(s);
}
int hal_sem_wait_timeout(hal_t *h, hal_sem_t *s, uint64_t cycles) {
    return bound(h).sem_wait_timeout(s, cycles);
}

// Names for reports (sim/platform/fw_names.h).
void hal_sem_name(hal_t *h, const hal_sem_t *s, const char *name, int work_queue) {
    if (s != nullptr) {
        bound(h).names().name_semaphore(s->handle, name, work_queue != 0);
    }
}
void hal_report_register(hal_t *h, hal_report_fn fn, void *arg) {
    bound(h).names().add_reporter(fn, arg);
}
void hal_report_line(hal_t *h, const char *text) {
    bound(h).names().add_line(text);
}

void hal_irq_register(hal_t *h, unsigned line, hal_irq_fn fn, void *arg) {
    bound(h).irq_register(line, fn, arg);
}

void *hal_mem_alloc(hal_t *h, uint32_t bytes, uint32_t align) {
    return bound(h).mem_alloc(bytes, align);
}
void hal_mem_free(hal_t *h, void *p) {
    bound(h).mem_free(p);
}
uint32_t hal_mem_addr(hal_t *h, const void *p) {
    return bound(h).mem_addr(p);
}
void *hal_mem_ptr(hal_t *h, uint32_t addr) {
    return bound(h).mem_ptr(addr);
}

uint32_t hal_reg_read(hal_t *h, uint32_t addr) {
    return bound(h).reg_read(addr);
}
void hal_reg_write(hal_t *h, uint32_t addr, uint32_t value) {
    bound(h).reg_write(addr, value);
}

int64_t hal_config_int(hal_t *h, const char *key) {
    return bound(h).config_int(key);
}
double hal_config_real(hal_t *h, const char *key) {
    return bound(h).config_real(key);
}
const char *hal_config_string(hal_t *h, const char *key) {
    return bound(h).config_string(key);
}

void hal_set_context(hal_t *h, void *ctx) {
    bound(h).set_context(ctx);
}
void *hal_context(hal_t *h) {
    return bound(h).context();
}

int hal_observed(hal_t *h) {
    return bound(h).observed() ? 1 : 0;
}
void hal_probe(hal_t *h, hal_probe_t probe, uint32_t index, int64_t value) {
    bound(h).probe(probe, index, value);
}
void hal_note(hal_t *h, const char *op, hal_note_dir_t dir, uint64_t id, const char *fields) {
    bound(h).note(op, dir, id, fields);
}
void hal_export(hal_t *h, const char *name, uint64_t value) {
    bound(h).export_value(name, value);
}
void hal_fail(hal_t *h, const char *message) {
    bound(h).fail(message != nullptr ? message : "hal_fail");
}

} // extern "C"
