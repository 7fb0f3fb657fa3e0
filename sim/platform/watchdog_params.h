#pragma once
// The deadlock watchdog's parameter (sim.watchdog_ms), docs/watchdog.md.

#include "hw/config/config.h"
#include "hw/config/key.h"
#include "hw/config/registry.h"

#include <cstdint>

// The key of the watchdog's parameter (hw/config/key.h).
namespace starfish::keys {
inline constexpr config::RealKey sim_watchdog_ms{"sim.watchdog_ms"};
} // namespace starfish::keys

namespace starfish::platform {

struct WatchdogParams {
    // Simulated time without progress that counts as a stall, and the interval of
    // the progress checks; 0 switches the watchdog off (also its end-of-run check).
    uint64_t period_ps = 0;

    bool enabled() const { return period_ps > 0; }
    static WatchdogParams from(const config::Config &cfg);
};

// The smallest sim.watchdog_ms accepted (but 0, off). A working run's quiet
// stretches that the watchdog cannot see as waiting (CPU work between events of
// a node, a message crossing the torus) are far shorter; below this a healthy
// run was reported stalled (2PIO at 0.1 ms).
constexpr double kMinWatchdogMs = 1.0;

void declare_watchdog_params(config::Registry &registry);

} // namespace starfish::platform
