#pragma once
// Costs of the HAL services that the node's HAL binding (sim/platform/node_hal.h)
// charges itself: device register accesses and node-memory allocation. The
// scheduling services' costs are the CPU model's (tlm_models/node/node_cpu_params.h);
// which service charges which cost is tlm_models/node/hal_cost_rules.h.

#include "hw/config/registry.h"

namespace starfish::platform {

// cost.reg_read_cycles, cost.reg_write_cycles, cost.mem_alloc_cycles.
void declare_node_hal_params(config::Registry &registry);

} // namespace starfish::platform
