#pragma once
// Which HAL service charges which cost (cost.*) and when: the one statement of
// these rules, used by the machine (NodeCpu for the scheduling services, the HAL
// binding sim/platform/node_hal for registers and memory) and by the firmware
// tests' fake HAL (tests/fw/fake_hal.cpp), so the two cannot charge a service
// differently. SystemC-free. The cycles come from the configuration; the keys are
// declared by node_cpu_params.cpp and sim/platform/node_hal_params.cpp under the
// names of hal_charge_key() (keys::cost_*_cycles below).

#include "hw/config/config.h"
#include "hw/config/key.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>

// The keys of the charges' cycles, declared by node_cpu_params.cpp (the scheduling
// services) and sim/platform/node_hal_params.cpp (registers and memory).
namespace starfish::keys {
inline constexpr config::IntKey cost_reg_read_cycles{"cost.reg_read_cycles"};
inline constexpr config::IntKey cost_reg_write_cycles{"cost.reg_write_cycles"};
inline constexpr config::IntKey cost_irq_entry_cycles{"cost.irq_entry_cycles"};
inline constexpr config::IntKey cost_irq_exit_cycles{"cost.irq_exit_cycles"};
inline constexpr config::IntKey cost_context_switch_cycles{"cost.context_switch_cycles"};
inline constexpr config::IntKey cost_thread_create_cycles{"cost.thread_create_cycles"};
inline constexpr config::IntKey cost_thread_exit_cycles{"cost.thread_exit_cycles"};
inline constexpr config::IntKey cost_sem_post_cycles{"cost.sem_post_cycles"};
inline constexpr config::IntKey cost_thread_wakeup_cycles{"cost.thread_wakeup_cycles"};
inline constexpr config::IntKey cost_sem_wait_cycles{"cost.sem_wait_cycles"};
inline constexpr config::IntKey cost_yield_cycles{"cost.yield_cycles"};
inline constexpr config::IntKey cost_mem_alloc_cycles{"cost.mem_alloc_cycles"};
} // namespace starfish::keys

namespace starfish::node {

// One charge of a HAL service, each with its own cost.* key; the comment says
// which service charges it, to which activity, and when.
enum class HalCharge : uint8_t {
    RegRead,       // hal_reg_read, before the access
    RegWrite,      // hal_reg_write, before the access (posted or not)
    IrqEntry,      // to the handler, before it runs
    IrqExit,       // to the handler, after it returns
    ContextSwitch, // to a thread that gets the CPU after a different thread
                   // (charges_context_switch)
    ThreadCreate,  // hal_thread_spawn, to the caller, also when the thread limit refuses it
    ThreadExit,    // a thread that returns or calls hal_thread_exit
    SemPost,       // hal_sem_post
    ThreadWakeup,  // a hal_sem_post that wakes a waiter, on top of SemPost, to the poster
    SemWait,       // hal_sem_wait and hal_sem_wait_timeout, once per call, blocking or not
    Yield,         // hal_yield
    MemAlloc,      // hal_mem_alloc, and hal_mem_free of a non-null pointer
};
inline constexpr size_t kHalChargeCount = 12;

// keys::cost_reg_read_cycles, ...: the configuration key of a charge's cycles.
config::IntKey hal_charge_key(HalCharge charge);
// "reg_read", ...: the short name of a charge (the fake HAL's cost categories).
const char *hal_charge_name(HalCharge charge);
// Every charge, in the order of HalCharge.
const std::array<HalCharge, kHalChargeCount> &all_hal_charges();

// The charge of a register access.
inline HalCharge register_access_charge(bool write) {
    return write ? HalCharge::RegWrite : HalCharge::RegRead;
}

// Does a thread that gets the CPU pay a context switch? Thread ids are the CPU's
// own (never 0); previous_thread is the last thread the CPU ran, 0 if none yet:
// the first thread a CPU runs and a thread that gets the CPU back with no other
// thread in between pay none.
inline bool charges_context_switch(uint64_t previous_thread, uint64_t next_thread) {
    return previous_thread != 0 && previous_thread != next_thread;
}

// The cycles of each charge.
class HalCostRules {
public:
    HalCostRules() = default; // every charge 0 cycles
    // Reads every hal_charge_key() from the configuration.
    static HalCostRules from(const config::Config &cfg);
    // Reads every hal_charge_key() through `cycles_of` (the fake HAL's own store).
    static HalCostRules from(const std::function<uint32_t(config::IntKey key)> &cycles_of);

    uint32_t cycles(HalCharge charge) const { return cycles_[static_cast<size_t>(charge)]; }

private:
    std::array<uint32_t, kHalChargeCount> cycles_{};
};

} // namespace starfish::node
