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
//   "report": {...}  how `starfish reproduce` presents the study (tables, figures);
//            read by sim/report/make_report.py, carried through untouched here
//   "from":  name of another study: this one has no cells of its own and is
//            computed from that study's results by the report (paper-summary)
//   "table": "cells" (default) or "methods": `starfish study` also prints the
//            methods side by side (sim/report/methods_table.h)
// See docs/studies.md and docs/reproduce.md.

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
    std::string value_column;                                 // e.g. "mean"
    std::vector<std::pair<std::string, std::string>> columns; // csv column -> config key
    // Optional ("interval": [low, high]): the columns bounding the published value
    // itself, e.g. "mean_lo", "mean_hi" (its rounding, narrowed by the ratios).
    std::string low_column{};
    std::string high_column{};
};

struct StudySpec {
    std::string name;
    std::string description;
    nlohmann::json set = nlohmann::json::object();
    std::vector<std::pair<std::string, std::vector<nlohmann::json>>> axes;
    std::vector<nlohmann::json> skip;
    std::string metric = "mb_s"; // trial field summarised per cell
    std::optional<StudyCompare> compare;
    nlohmann::json report;    // null, or the "report" object (docs/reproduce.md)
    std::string derived_from; // "" for a study with cells of its own

    std::string table = "cells"; // or "methods": also the methods side by side
};

struct StudyCell {
    nlohmann::json overrides; // the varying keys and their values for this cell (flat)
    config::Config cfg;
};

// A JSON file's document. Throws config::ConfigError naming the file (`what`:
// "study file", "manifest", ...) when it cannot be read or parsed.
nlohmann::json read_json_document(const std::string &path, const std::string &what);

// Reads and checks a study file; a relative compare file is resolved against the
// study file's directory.
// Throws config::ConfigError naming the file and the problem.
StudySpec load_study(const std::string &path);
StudySpec parse_study(const nlohmann::json &doc, const std::string &origin,
                      const std::string &base_dir);

// A study file's path: `name_or_path` itself when it is a readable file, else the
// shipped study of that name (studies_dir/NAME.json, ".json" optional). A bare name
// that is neither throws ConfigError with the closest shipped name and the list; a
// path (with a '/') is returned for load_study to say what is wrong with it.
std::string resolve_study_path(const std::string &name_or_path, const std::string &studies_dir);

// The most cells a study's grid may have: each cell holds a whole configuration
// (about 90 KB), and a grid is expanded whole before anything runs.
constexpr size_t kMaxStudyCells = 10000;

// Cells of the grid before 'skip' (the product of the axes' lengths; a double, so
// an absurd grid does not overflow).
double grid_size(const StudySpec &spec);

// Throws ConfigError saying how many cells the grid has when it has more than
// kMaxStudyCells; nothing is expanded.
void check_grid_size(const StudySpec &spec);

// The cells of the grid, each validated on top of `base`. Throws ConfigError
// naming the cell when one is invalid, when the grid is too large
// (check_grid_size), or when the study is derived from another (it has no cells
// of its own).
std::vector<StudyCell> expand_study(const StudySpec &spec, const config::Config &base);

// One trial of one cell: what a run executes (its effective configuration is
// cells[cell].cfg, its seed stream the trial number).
struct StudyTrial {
    size_t cell = 0;
    int trial = 0;
};

// Every cell's trials (workload.trials each) in the study's order: cell by cell,
// trial 0, 1, ... within a cell.
std::vector<StudyTrial> study_trials(const std::vector<StudyCell> &cells);

// A cell's published value and, when the compare names an interval, its bounds.
struct PublishedEntry {
    double value = 0.0;
    std::optional<std::pair<double, double>> interval;
};

// Published values keyed by cell; nullopt where the table has no row. An empty
// field in a matching column matches any value (e.g. `presort` of SPFS rows).
class PublishedTable {
public:
    PublishedTable() = default;
    explicit PublishedTable(const StudyCompare &compare);
    // The cell's row, read once: its value and bounds (a value outside its bounds
    // is refused); nullopt when the table lacks the cell.
    std::optional<PublishedEntry> entry(const config::Config &cfg) const;
    std::optional<double> lookup(const config::Config &cfg) const;

private:
    const std::vector<std::string> *find_row(const config::Config &cfg) const;
    size_t column_index(const std::string &col) const;
    double number(const std::vector<std::string> &row, const std::string &col) const;

    StudyCompare compare_;
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

using TrialFunction = std::function<nlohmann::json(const config::Config &cfg, int trial)>;

// The trial document of a trial whose process failed (an exception, a crash, the
// watchdog): {"trial", "verified": false, "failed": why}. It has no metric.
nlohmann::json failed_trial(int trial, const std::string &error);
bool trial_failed(const nlohmann::json &result);

struct CellResult {
    nlohmann::json overrides;
    std::vector<nlohmann::json> trials;
    nlohmann::json summary; // mean, cv, ci95, (published, error_pct)
};

// Sets summary.published and summary.error_pct of every cell the table has a value
// for (replacing an earlier value), and summary.published_low and published_high
// when the table bounds it (removing earlier ones when it does not), leaving the
// other cells alone.
void attach_published(std::vector<CellResult> &results, const std::vector<StudyCell> &cells,
                      const PublishedTable &table);

// Every cell's summary of its trials' metric (mean, cv, ci95, min, max, trials)
// and, when the study compares, its published value: what run_study returns once
// the trials are in `results` (one CellResult per cell, trials in order).
std::vector<CellResult> summarise_cells(const StudySpec &spec, const std::vector<StudyCell> &cells,
                                        std::vector<CellResult> results);

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
// `jobs` at a time. A trial taken from the cache gets "host": {"cached": true}; a
// cached trial whose data did not verify runs again. A trial whose process fails
// is recorded as failed_trial() and the others go on (summaries count it in
// "failed_trials"); only trials that ran to their end are cached.
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
