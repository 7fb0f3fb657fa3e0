#include "tlm_models/node/node_cpu_params.h"

#include "hw/machine_keys.h"
#include "tlm_models/node/hal_cost_rules.h"

#include <cmath>
#include <string>

namespace starfish::node {

namespace {
const char *const kCostProvenance =
    "estimate: typical 50 MHz RISC kernel path; calibrated on the contiguous-layout tables "
    "(docs/calibration.md)";

void add_cost(config::Registry &reg, HalCharge charge, long long def, const std::string &meaning) {
    reg.add_int(hal_charge_key(charge), def, "cycles", {0, 1000000}, meaning, kCostProvenance);
}

uint32_t get_u32(const config::Config &cfg, config::IntKey key) {
    return static_cast<uint32_t>(cfg.get_int(key));
}
} // namespace

void declare_node_cpu_params(config::Registry &reg) {
    add_cost(reg, HalCharge::IrqEntry, 20,
             "CPU cycles to enter an interrupt handler (save state, find the handler)");
    add_cost(reg, HalCharge::IrqExit, 10, "CPU cycles to return from an interrupt handler");
    add_cost(reg, HalCharge::ContextSwitch, 30,
             "CPU cycles charged to a thread that gets the CPU after a different thread");
    add_cost(reg, HalCharge::ThreadCreate, 100, "CPU cycles of hal_thread_spawn");
    add_cost(reg, HalCharge::ThreadExit, 20, "CPU cycles of a thread's exit");
    add_cost(reg, HalCharge::SemPost, 5, "CPU cycles of hal_sem_post");
    add_cost(reg, HalCharge::SemWait, 5, "CPU cycles of hal_sem_wait");
    add_cost(reg, HalCharge::ThreadWakeup, 15,
             "extra CPU cycles of a hal_sem_post that wakes a waiting thread (charged to the "
             "poster)");
    add_cost(reg, HalCharge::Yield, 10, "CPU cycles of hal_yield");
    reg.add_int(keys::machine_node_thread_limit, 256, "threads", {1, 65536},
                "live firmware threads per node (hal_thread_spawn fails beyond it)",
                "estimate: not published; far above what the firmware needs (a few per disk "
                "plus the request-server pool)");
    reg.add_int(keys::machine_fw_stack_kb, 64, "KB", {16, 65536},
                "host stack of each firmware thread (a simulator resource, not node memory)",
                "estimate: room for an 8 KB block on a thread's stack plus deep call chains");
    reg.add_bool(keys::speed_cpu_posted_writes, true,
                 "post register writes that only hold a device operand (the NI's TX_* "
                 "operands) instead of synchronising the CPU for each (false: every register "
                 "write synchronises); an exact speed-up, the results are identical either way",
                 "exact: a host speed-up only; off gives the same results "
                 "(test_node_speed_switches)");
    reg.add_bool(keys::speed_cpu_skip_quiet_sync, true,
                 "leave out a CPU synchronisation point that orders nothing (inside a handler, "
                 "or while the simulation has nothing to do before the pending work ends), and "
                 "post the registers allowed only then (false: every synchronisation point is "
                 "taken); an exact speed-up, the results are identical either way",
                 "exact: a host speed-up only; off gives the same results "
                 "(test_node_speed_switches)");
}

uint64_t cpu_cycle_ps(const config::Config &cfg) {
    return static_cast<uint64_t>(std::llround(1e6 / cfg.get_real(keys::machine_cpu_mhz)));
}

NodeCpuParams NodeCpuParams::from(const config::Config &cfg) {
    NodeCpuParams p;
    p.cycle_ps = cpu_cycle_ps(cfg);
    p.costs = HalCostRules::from(cfg);
    p.thread_limit = get_u32(cfg, keys::machine_node_thread_limit);
    p.stack_bytes = get_u32(cfg, keys::machine_fw_stack_kb) * 1024u;
    p.posted_writes = cfg.get_bool(keys::speed_cpu_posted_writes);
    p.skip_quiet_sync = cfg.get_bool(keys::speed_cpu_skip_quiet_sync);
    return p;
}

} // namespace starfish::node
