#include "sim/platform/node_hal_params.h"

namespace starfish::platform {

namespace {
const char *const kHalCostProvenance =
    "estimate: typical 50 MHz RISC kernel path; calibrated on the contiguous-layout tables "
    "(docs/calibration.md)";
} // namespace

void declare_node_hal_params(config::Registry &reg) {
    reg.add_int("cost.reg_read_cycles", 4, "cycles", {0, 1000000},
                "CPU cycles of a 32-bit device register read (uncached load)", kHalCostProvenance);
    reg.add_int("cost.reg_write_cycles", 2, "cycles", {0, 1000000},
                "CPU cycles of a 32-bit device register write (uncached store)",
                kHalCostProvenance);
    reg.add_int("cost.mem_alloc_cycles", 40, "cycles", {0, 1000000},
                "CPU cycles of hal_mem_alloc (and of hal_mem_free)", kHalCostProvenance);
}

HalCosts HalCosts::from(const config::Config &cfg) {
    HalCosts c;
    c.reg_read_cycles = static_cast<uint32_t>(cfg.get_int("cost.reg_read_cycles"));
    c.reg_write_cycles = static_cast<uint32_t>(cfg.get_int("cost.reg_write_cycles"));
    c.mem_alloc_cycles = static_cast<uint32_t>(cfg.get_int("cost.mem_alloc_cycles"));
    return c;
}

} // namespace starfish::platform
