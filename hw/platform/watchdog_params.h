#pragma once
// The deadlock watchdog's parameter (sim.watchdog_ms), docs/watchdog.md.

#include "hw/config/config.h"
#include "hw/config/registry.h"

#include <cstdint>

namespace starfish::platform {

struct WatchdogParams {
    // Simulated time without progress that counts as a stall, and the interval of
    // the progress checks; 0 switches the watchdog off (also its end-of-run check).
    uint64_t period_ps = 0;

    bool enabled() const { return period_ps > 0; }
    static WatchdogParams from(const config::Config &cfg);
};

void declare_watchdog_params(config::Registry &registry);

} // namespace starfish::platform
