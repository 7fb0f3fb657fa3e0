#include "sim/platform/watchdog_params.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace starfish::platform {

void declare_watchdog_params(config::Registry &reg) {
    reg.add_real(keys::sim_watchdog_ms, 10000, "ms", {0, 1e9},
                 "deadlock watchdog: a run fails with a report per node when it ends with "
                 "firmware threads blocked, or when the machine makes no progress for this "
                 "much simulated time; 0 switches it off (docs/watchdog.md)",
                 "convention: far longer than any quiet stretch of a working run (a seek is "
                 "under 30 ms, a whole 10 MB transfer takes seconds)");
    reg.add_check([](const config::Config &cfg) -> std::string {
        double ms = cfg.get_real(keys::sim_watchdog_ms);
        if (ms != 0 && ms < kMinWatchdogMs) {
            char text[64];
            std::snprintf(text, sizeof text, "%g", ms);
            return std::string("sim.watchdog_ms = ") + text + " is below the " +
                   std::to_string(static_cast<int>(kMinWatchdogMs)) +
                   " ms a working run can be quiet for (a disk access takes up to 30 ms of "
                   "controller, seek and rotation); 0 switches the watchdog off";
        }
        return "";
    });
}

WatchdogParams WatchdogParams::from(const config::Config &cfg) {
    WatchdogParams p;
    p.period_ps = static_cast<uint64_t>(std::llround(cfg.get_real(keys::sim_watchdog_ms) * 1e9));
    return p;
}

} // namespace starfish::platform
