#pragma once
// What every command that runs studies (`starfish study`, `starfish reproduce`)
// needs besides the runner: the trial and cost functions of the cells' workload
// kinds, and the result cache the command options ask for.

#include "sim/study/study.h"
#include "sim/study/trial_cache.h"
#include "sim/workload/workload.h"

#include <optional>
#include <string>
#include <vector>

namespace starfish::sim {

// Every cell's workload.kind is built in and gives the study's metric (a numeric
// field of every trial, WorkloadKind::metrics); throws config::ConfigError naming
// the study otherwise, so nothing runs.
void check_workload_kinds(const StudySpec &spec, const std::vector<StudyCell> &cells);

// The host memory of every trial of the cells (sim/workload/host_memory.h), for
// check_host_memory.
std::vector<HostMemory> study_host_memory(const std::vector<StudyCell> &cells);

// One trial of the cell's workload kind, in the current process (run_study runs
// it in a child).
nlohmann::json run_workload_trial(const config::Config &cfg, int trial);

// The relative host time of one trial: the kind's cost_estimate, else 1.
double workload_trial_cost(const config::Config &cfg);

// The host work of one trial in simulation events: workload_trial_cost plus the
// start of a trial process and the machine's elaboration, about 20 000 events'
// worth (without it thousands of tiny --quick trials would look free).
double workload_trial_events(const config::Config &cfg);

// The cache in `dir_option`, else default_trial_cache_dir(); none with `no_cache`,
// when no directory can be found, or under the data-corruption test hook
// (STARFISH_DEBUG_CORRUPT_DATA=1 changes results without changing the
// configuration, so such runs neither read nor fill the cache).
std::optional<TrialCache> study_trial_cache(bool no_cache, const std::string &dir_option);

} // namespace starfish::sim
