#pragma once
// Parameters of a node's CPU model (tlm_models/node/node_cpu.h): the costs of the
// HAL's scheduling services (interrupt entry/exit, context switches, threads,
// semaphores, yield), the per-node thread limit and the host stack of a firmware
// thread. docs/node.md explains when each cost is charged.

#include "hw/config/config.h"
#include "hw/config/key.h"
#include "hw/config/registry.h"
#include "tlm_models/node/hal_cost_rules.h"

#include <cstdint>

// The keys of the CPU's parameters besides the HAL costs (hal_cost_rules.h).
namespace starfish::keys {
inline constexpr config::IntKey machine_node_thread_limit{"machine.node_thread_limit"};
inline constexpr config::IntKey machine_fw_stack_kb{"machine.fw_stack_kb"};
inline constexpr config::BoolKey speed_cpu_posted_writes{"speed.cpu_posted_writes"};
inline constexpr config::BoolKey speed_cpu_skip_quiet_sync{"speed.cpu_skip_quiet_sync"};
} // namespace starfish::keys

namespace starfish::node {

// cost.* of the scheduler services, machine.fw_stack_kb, machine.node_thread_limit and
// the CPU's host speed-ups speed.cpu_posted_writes, speed.cpu_skip_quiet_sync.
void declare_node_cpu_params(config::Registry &registry);

struct NodeCpuParams {
    uint64_t cycle_ps = 20000; // from machine.cpu_mhz
    // Every HAL service cost (the CPU charges the scheduling ones, the HAL
    // binding the register and memory ones).
    HalCostRules costs;
    uint32_t thread_limit = 256;     // live firmware threads per node
    uint32_t stack_bytes = 64 << 10; // host stack of each firmware thread
    // Host speed-ups (CpuSyncShortcuts; results identical either way): posted
    // register writes, and synchronisation points left out while quiet.
    bool posted_writes = true;
    bool skip_quiet_sync = true;

    static NodeCpuParams from(const config::Config &cfg);
};

// Integer picoseconds of one CPU cycle at machine.cpu_mhz.
uint64_t cpu_cycle_ps(const config::Config &cfg);

} // namespace starfish::node
