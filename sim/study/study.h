#pragma once
// Studies: a grid of configurations ("cells") run for several trials each,
// summarised per cell and optionally compared with a published table.
//
// A study file (sim/studies/*.json) holds:
//   "description": text
//   "set":   {key: value, ...}            applied to every cell
//   "vary":  [{key: [v1, v2, ...]}, ...]  the grid, first axis outermost; an axis
//            named "cases" takes a list of {key: value} objects applied together
//   "skip":  [{key: value, ...}, ...]     cells matching all pairs are left out
//   "metric": trial field summarised per cell (default "mb_s")
//   "compare": {"file": CSV, "value": column, "columns": {csv column: key}}
//            the published value of the metric for each cell
// See docs/studies.md.

#include "hw/config/config.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace starfish::sim {

struct StudyCompare {
    std::string file;                                         // CSV path, resolved
    std::string value_column;                                 // e.g. "mbps"
    std::vector<std::pair<std::string, std::string>> columns; // csv column -> config key
};

struct StudySpec {
    std::string name;
    std::string description;
    nlohmann::json set = nlohmann::json::object();
    std::vector<std::pair<std::string, std::vector<nlohmann::json>>> axes;
    std::vector<nlohmann::json> skip;
    std::string metric = "mb_s"; // trial field summarised per cell
    std::optional<StudyCompare> compare;
};

struct StudyCell {
    nlohmann::json overrides; // the varying keys and their values for this cell (flat)
    config::Config cfg;
};

// Reads and checks a study file; a relative compare file is resolved against the
// study file's directory.
// Throws config::ConfigError naming the file and the problem.
StudySpec load_study(const std::string &path);
StudySpec parse_study(const nlohmann::json &doc, const std::string &origin,
                      const std::string &base_dir);

// The cells of the grid, each validated on top of `base`. Throws ConfigError
// naming the cell when one is invalid.
std::vector<StudyCell> expand_study(const StudySpec &spec, const config::Config &base);

// Published values keyed by cell; nullopt where the table has no row.
class PublishedTable {
public:
    PublishedTable() = default;
    explicit PublishedTable(const StudyCompare &compare);
    std::optional<double> lookup(const config::Config &cfg) const;

private:
    StudyCompare compare_;
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

using TrialFunction = std::function<nlohmann::json(const config::Config &cfg, int trial)>;

struct CellResult {
    nlohmann::json overrides;
    std::vector<nlohmann::json> trials;
    nlohmann::json summary; // mean, cv, ci95, (published, error_pct)
};

// Relative expected run time of one trial of a cell (any positive scale).
using TrialCostFunction = std::function<double(const config::Config &cfg)>;

class TrialCache;

// What on_progress sees after each trial (run or taken from the cache).
struct TrialProgress {
    size_t done = 0;  // trials finished so far, cached ones included
    size_t total = 0; // trials in the study
    size_t cell = 0;  // index into the study's cells
    int trial = 0;
    bool cached = false;
    double eta_s = -1; // estimated wall seconds until the last trial ends; < 0 unknown
};

struct StudyRunOptions {
    int jobs = 1;
    // With jobs > 1, trials start longest expected first so every process stays
    // busy to the end; results are still returned in the study's order.
    TrialCostFunction cost;
    // Trials found here are not run; every trial run is stored here. nullptr: no cache.
    const TrialCache *cache = nullptr;
    bool fresh = false; // ignore cached results (and overwrite them)
    std::function<void(const TrialProgress &, const nlohmann::json &result)> on_progress;
    std::function<void(const std::string &)> on_warning; // unreadable cache entries etc.
};

// Runs every cell's trials (workload.trials each) as isolated processes, at most
// `jobs` at a time. A trial taken from the cache gets "host": {"cached": true}.
std::vector<CellResult> run_study(const StudySpec &spec, const std::vector<StudyCell> &cells,
                                  const TrialFunction &trial, const StudyRunOptions &options);

// The same with study order, no cache; on_progress(done, total, cell index, trial
// result) after each trial.
std::vector<CellResult> run_study(
    const StudySpec &spec, const std::vector<StudyCell> &cells, const TrialFunction &trial,
    int jobs,
    const std::function<void(size_t, size_t, size_t, const nlohmann::json &)> &on_progress = {});

// The order trials start in: indices into costs, largest cost first (ties keep
// their order) when jobs > 1, else 0, 1, 2, ...
std::vector<size_t> trial_start_order(const std::vector<double> &costs, int jobs);

} // namespace starfish::sim
