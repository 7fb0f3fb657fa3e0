#pragma once
// One JSON document per run: the command, the effective configuration, the
// per-trial figures, a summary and the host section (wall and simulated time).

#include "hw/config/config.h"
#include "sim/report/safe_output.h"

#include <nlohmann/json.hpp>
#include <string>

namespace starfish::sim {

struct HostStats {
    double wall_s = 0;             // wall-clock seconds for the whole command
    double sim_s = 0;              // simulated seconds summed over trials
    double cpu_s = 0;              // host CPU seconds summed over trial processes
    unsigned long long events = 0; // simulation events (messages, disk requests, ...)
    int parallel = 1;              // trial processes run at once
    // Trials taken from the study result cache: not run, so not counted in sim_s,
    // cpu_s or events, which measure this command's own work.
    size_t cached_trials = 0;

    nlohmann::json to_json() const;
    // "host: 1.23 s wall, 0.33 s simulated (0.27 sim s/wall s), ..."
    std::string line() const;
};

class RunResult {
public:
    RunResult(const std::string &command, const config::Config &cfg);

    nlohmann::json &doc() { return doc_; }
    const nlohmann::json &doc() const { return doc_; }
    void add_trial(const nlohmann::json &trial) { doc_["trials"].push_back(trial); }
    void set_summary(const nlohmann::json &summary) { doc_["summary"] = summary; }
    void set_host(const HostStats &host) { doc_["host"] = host.to_json(); }

    // Writes the document to an output checked before the run (safe_output.h): a
    // file is replaced whole or not at all, a FIFO or device is written in place.
    void write(const OutputTarget &target) const;

private:
    nlohmann::json doc_;
};

// Version string of the build ("0.1.0").
const char *starfish_version();

} // namespace starfish::sim
