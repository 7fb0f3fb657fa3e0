#pragma once
// Costs of the HAL services that the node's HAL binding (sim/platform/node_hal.h)
// charges itself: device register accesses and node-memory allocation. The
// scheduling services' costs are the CPU model's (tlm_models/node/node_cpu_params.h).

#include "hw/config/config.h"
#include "hw/config/registry.h"

#include <cstdint>

namespace starfish::platform {

// cost.reg_read_cycles, cost.reg_write_cycles, cost.mem_alloc_cycles.
void declare_node_hal_params(config::Registry &registry);

struct HalCosts {
    uint32_t reg_read_cycles = 0;
    uint32_t reg_write_cycles = 0;
    uint32_t mem_alloc_cycles = 0; // charged by hal_mem_alloc and by hal_mem_free

    static HalCosts from(const config::Config &cfg);
};

} // namespace starfish::platform
