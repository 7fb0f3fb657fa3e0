#include "sim/study/study_workload.h"

#include "hw/config/config_error.h"
#include "hw/config/json_text.h"
#include "sim/workload/host_memory.h"
#include "sim/workload/workload.h"
#include "sim/workload_params.h"

#include <algorithm>
#include <cstdlib>

namespace starfish::sim {

void check_workload_kinds(const StudySpec &spec, const std::vector<StudyCell> &cells) {
    for (const auto &c : cells) {
        const std::string &name = c.cfg.get_string(keys::workload_kind);
        const WorkloadKind *kind = nullptr;
        try {
            kind = &workload_kind(name);
        } catch (const std::runtime_error &e) {
            throw config::ConfigError(spec.name + ": " + e.what());
        }
        const auto &m = kind->metrics;
        if (std::find(m.begin(), m.end(), spec.metric) == m.end()) {
            std::string allowed;
            for (const auto &k : m) {
                allowed += (allowed.empty() ? "" : ", ") + k;
            }
            throw config::ConfigError("study " + spec.name + ": 'metric' is '" +
                                      config::printable(spec.metric) + "', which a " + name +
                                      " trial does not give; it may be one of: " + allowed);
        }
    }
}

std::vector<HostMemory> study_host_memory(const std::vector<StudyCell> &cells) {
    std::vector<HostMemory> trials;
    for (const auto &c : cells) {
        HostMemory one = host_memory_estimate(c.cfg);
        trials.insert(trials.end(), static_cast<size_t>(c.cfg.get_int(keys::workload_trials)), one);
    }
    return trials;
}

nlohmann::json run_workload_trial(const config::Config &cfg, int trial) {
    return run_checked_trial(cfg, trial);
}

double workload_trial_cost(const config::Config &cfg) {
    const auto &kind = workload_kind(cfg.get_string(keys::workload_kind));
    return kind.cost_estimate ? kind.cost_estimate(cfg) : 1.0;
}

double workload_trial_events(const config::Config &cfg) {
    constexpr double kTrialStartEvents = 20000;
    return workload_trial_cost(cfg) + kTrialStartEvents;
}

std::optional<TrialCache> study_trial_cache(bool no_cache, const std::string &dir_option) {
    const char *corrupt = std::getenv("STARFISH_DEBUG_CORRUPT_DATA");
    if (no_cache || (corrupt != nullptr && std::string(corrupt) == "1")) {
        return std::nullopt;
    }
    std::string dir = dir_option.empty() ? default_trial_cache_dir() : dir_option;
    if (dir.empty()) {
        return std::nullopt;
    }
    return TrialCache(dir, simulator_identity());
}

} // namespace starfish::sim
