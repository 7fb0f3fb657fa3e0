#include "hw/platform/watchdog_params.h"

#include <cmath>

namespace starfish::platform {

void declare_watchdog_params(config::Registry &reg) {
    reg.add_real("sim.watchdog_ms", 10000, "ms", {0, 1e9},
                 "deadlock watchdog: a run fails with a report per node when it ends with "
                 "firmware threads blocked, or when the machine makes no progress for this "
                 "much simulated time; 0 switches it off (docs/watchdog.md)",
                 "convention: far longer than any quiet stretch of a working run (a seek is "
                 "under 30 ms, a whole 10 MB transfer takes seconds)");
}

WatchdogParams WatchdogParams::from(const config::Config &cfg) {
    WatchdogParams p;
    p.period_ps = static_cast<uint64_t>(std::llround(cfg.get_real("sim.watchdog_ms") * 1e9));
    return p;
}

} // namespace starfish::platform
