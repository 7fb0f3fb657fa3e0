#include "sim/platform/node_hal_params.h"

#include "tlm_models/node/hal_cost_rules.h"

namespace starfish::platform {

namespace {
const char *const kHalCostProvenance =
    "estimate: typical 50 MHz RISC kernel path; calibrated on the contiguous-layout tables "
    "(docs/calibration.md)";
} // namespace

void declare_node_hal_params(config::Registry &reg) {
    using node::hal_charge_key;
    using node::HalCharge;
    reg.add_int(hal_charge_key(HalCharge::RegRead), 4, "cycles", {0, 1000000},
                "CPU cycles of a 32-bit device register read (uncached load)", kHalCostProvenance);
    reg.add_int(hal_charge_key(HalCharge::RegWrite), 2, "cycles", {0, 1000000},
                "CPU cycles of a 32-bit device register write (uncached store)",
                kHalCostProvenance);
    reg.add_int(hal_charge_key(HalCharge::MemAlloc), 40, "cycles", {0, 1000000},
                "CPU cycles of hal_mem_alloc (and of hal_mem_free)", kHalCostProvenance);
}

} // namespace starfish::platform
