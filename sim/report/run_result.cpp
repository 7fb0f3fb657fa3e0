#include "sim/report/run_result.h"

#include <cstdio>

namespace starfish::sim {

using nlohmann::json;

const char *starfish_version() {
    return STARFISH_VERSION;
}

json HostStats::to_json() const {
    json out{{"wall_s", wall_s},
             {"sim_s", sim_s},
             {"cpu_s", cpu_s},
             {"sim_s_per_wall_s", wall_s > 0 ? sim_s / wall_s : 0.0},
             {"events", events},
             {"events_per_wall_s", wall_s > 0 ? static_cast<double>(events) / wall_s : 0.0},
             {"parallel_trials", parallel}};
    if (cached_trials > 0) {
        out["cached_trials"] = cached_trials;
    }
    return out;
}

std::string HostStats::line() const {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "host: %.2f s wall, %.4f s simulated (%.3g simulated s per wall s), "
                  "%llu events (%.3g per wall s), %d trial process%s at once",
                  wall_s, sim_s, wall_s > 0 ? sim_s / wall_s : 0.0, events,
                  wall_s > 0 ? static_cast<double>(events) / wall_s : 0.0, parallel,
                  parallel == 1 ? "" : "es");
    std::string text = buf;
    if (cached_trials > 0) {
        text += "; " + std::to_string(cached_trials) + " trial" + (cached_trials == 1 ? "" : "s") +
                " from the cache (not run, not counted)";
    }
    return text;
}

RunResult::RunResult(const std::string &command, const config::Config &cfg) {
    doc_ = json{{"starfish_version", starfish_version()},
                {"command", command},
                {"config", cfg.to_flat_json()},
                {"trials", json::array()},
                {"summary", json::object()},
                {"host", json::object()}};
}

void RunResult::write(const OutputTarget &target) const {
    write_output(target, doc_.dump(2) + "\n");
}

} // namespace starfish::sim
