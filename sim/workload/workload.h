#pragma once
// Workload kinds (workload.kind): what one trial of `starfish run` simulates, how
// trials are summarised, and how they are shown.
//
// A trial runs in its own process (SystemC elaborates once per process): it builds
// the machine from the configuration, runs it, verifies the data and returns a
// JSON document. Every trial document has at least
//   trial, verified (bool), sim_s (simulated seconds), events (simulation events)
// and, for transfers, mb_s and elapsed_s (docs/transfer.md).

#include "hw/config/config.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace starfish::sim {

// The host memory one trial needs: bytes, and what makes it that large (the keys,
// for the message that refuses a run the machine cannot hold).
struct HostMemory {
    double bytes = 0;
    std::string reason;
};

struct WorkloadKind {
    // Runs trial `trial` in the current process.
    std::function<nlohmann::json(const config::Config &cfg, int trial)> run_trial;
    // Summary over the trials (e.g. mean_mb_s, cv, ci95_mb_s).
    std::function<nlohmann::json(const config::Config &cfg,
                                 const std::vector<nlohmann::json> &trials)>
        summarize;
    // One line describing what runs ("DDIO presort rbc, 8-byte records, ...").
    std::function<std::string(const config::Config &cfg)> describe;
    // One progress line for a finished trial ("31.2 MB/s, verified").
    std::function<std::string(const nlohmann::json &trial)> trial_line;
    // The human-readable result table.
    std::function<void(std::ostream &out, const config::Config &cfg,
                       const std::vector<nlohmann::json> &trials, const nlohmann::json &summary)>
        print;
    // Relative expected host time of one trial (simulation events it is expected to
    // take), for starting a study's longest trials first; any positive scale.
    std::function<double(const config::Config &cfg)> cost_estimate;
    // Numeric fields every trial document has: what a study's "metric" may name.
    std::vector<std::string> metrics;
    // Host memory one trial process is expected to use (sim/workload/host_memory.h).
    std::function<HostMemory(const config::Config &cfg)> host_memory;
};

// The kind named by workload.kind; throws std::runtime_error if it is not built in.
const WorkloadKind &workload_kind(const std::string &name);

// One trial of the configuration's workload kind, in this process. A trial that
// ran out of node memory says which key sets it (machine.node_memory_kb) and which
// keys size what the firmware allocates.
nlohmann::json run_checked_trial(const config::Config &cfg, int trial);

// Trials simulated at once: workload.jobs, or one per host core when 0.
int trial_parallelism(const config::Config &cfg);

// Host CPU seconds (user + system) this process has used: a trial's host_cpu_s.
double host_cpu_seconds();

} // namespace starfish::sim
