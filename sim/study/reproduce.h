#pragma once
// `starfish reproduce`: runs the paper's studies (sim/studies/ files with a
// "report" section) through the study runner and its result cache, writes each
// study's data and tables into a report directory, and has the report scripts
// (sim/report/make_report.py) add Table III, the figures and index.md.
// See docs/reproduce.md.

#include "hw/config/config.h"
#include "sim/study/slurm.h"
#include "sim/study/study.h"

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace starfish::sim {

// --quick: every cell's file is this fraction of its configured size (10 MB ->
// 128 KB, 16 blocks: one per disk of the default machine), doubled where a
// two-dimensional pattern needs more rows or columns; one trial.
constexpr double kQuickFileScale = 1.0 / 80.0;

struct ReproduceOptions {
    explicit ReproduceOptions(config::Config base_config) : base(std::move(base_config)) {}

    config::Config base;              // default.json, --config, --set
    std::vector<std::string> studies; // names or files; empty = every shipped report study
    std::string out_dir;
    int trials = 0;        // > 0: every cell runs this many trials
    bool quick = false;    // kQuickFileScale and one trial (unless trials > 0)
    std::string published; // a further published table (columns of the study's compare + presort)
    int jobs = 1;          // trial processes at once
    std::string cache_dir; // "" = default_trial_cache_dir()
    bool no_cache = false;
    bool no_memory_check = false; // run even when the host memory estimate is too large
    std::string command_line;     // as typed, for the report
    std::string json_path;        // also write the run's manifest here ("-" = standard output)
    // --slurm: the trials run as Slurm job arrays through the study directory
    // OUT/slurm (docs/cluster.md) instead of local processes; the report is made
    // once every result is there.
    bool slurm = false;
    bool wait = false; // --slurm: wait for the jobs, then make the report
    size_t chunk = 0;  // --slurm: trials per array task (0: chosen)
    SlurmOptions submit;
};

// A study as the command runs it: its cells already carry the --quick/--trials
// adjustments. A study computed from another (paper-summary) has no cells.
struct ReproduceStudy {
    StudySpec spec;
    std::string path;
    std::vector<StudyCell> cells;
    bool requested = true; // false: run only because a requested study is computed from it
};

// The shipped studies that have a "report" section, by name.
std::vector<std::string> shipped_report_studies(const std::string &studies_dir);

// The studies to run in order, each study a derived one needs placed before it;
// cells expanded on opts.base and adjusted. Throws config::ConfigError naming the
// study (and cell) when a file or a configuration is invalid: nothing runs then.
std::vector<ReproduceStudy> plan_reproduce(const ReproduceOptions &opts,
                                           const std::string &studies_dir);

// Applies --trials and --quick to one cell: workload.trials, and workload.file_mb
// scaled, then doubled while the file is too small for the cell's pattern (never
// beyond its configured size); a key among the cell's varying values is changed
// there too, so tables and figures show what ran. Throws config::ConfigError when
// the cell is invalid even so.
void adjust_cell(StudyCell &cell, int trials, double file_scale);

// Runs everything and writes the report; progress and the final summary go to
// `out`. Returns the command's exit status (0, or 1 when some trial's data did not
// verify or the figures could not be made). With opts.slurm: plans OUT/slurm (or
// checks that it holds the same plan), submits the tasks whose results are missing
// unless some are still queued, and returns 0 without a report while results are
// missing, unless opts.wait (then waits, and 1 when some are still missing).
int run_reproduce(const ReproduceOptions &opts, std::ostream &out);

} // namespace starfish::sim
