#include "sim/cli/cmd_study.h"

#include "hw/config/config_error.h"
#include "sim/cli/common.h"
#include "sim/parameters.h"
#include "sim/report/run_result.h"
#include "sim/report/study_result.h"
#include "sim/report/study_table.h"
#include "sim/report/text_file.h"
#include "sim/runner/host_clock.h"
#include "sim/study/study.h"
#include "sim/study/study_workload.h"
#include "sim/study/trial_cache.h"
#include "sim/workload/workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

namespace starfish::sim {

using nlohmann::json;

namespace {

struct StudyCommandOptions {
    CommonOptions common;
    std::string file;
    std::string csv_path;
    std::string markdown_path;
    int jobs = 0;
    bool fresh = false;    // run every trial, overwriting its cache entry
    bool no_cache = false; // neither read nor write the cache
    std::string cache_dir; // "" = default_trial_cache_dir()
};

int run_study_command(const StudyCommandOptions &opts) {
    HostClock clock;
    config::Config base = load_config(opts.common);
    StudySpec spec = load_study(resolve_study_path(opts.file, studies_dir()));
    std::vector<StudyCell> cells = expand_study(spec, base);
    check_workload_kinds(spec, cells);
    std::ostream &out = opts.common.human();
    size_t total = study_trials(cells).size();
    HostStats host;
    host.parallel = opts.jobs > 0 ? opts.jobs : trial_parallelism(base);
    out << "study " << spec.name << ": " << cells.size() << " configurations, " << total
        << " trials, " << host.parallel << " at once\n";
    if (!spec.description.empty()) {
        out << "  " << spec.description << "\n";
    }
    out << std::flush;

    std::optional<TrialCache> cache = study_trial_cache(opts.no_cache, opts.cache_dir);
    if (cache) {
        out << "  result cache: " << cache->dir()
            << (opts.fresh ? " (--fresh: every trial runs)" : "") << "\n";
    }
    out << std::flush;

    StudyRunOptions run;
    run.jobs = host.parallel;
    run.cost = workload_trial_cost;
    run.cache = cache ? &*cache : nullptr;
    run.fresh = opts.fresh;
    run.on_warning = [](const std::string &w) { std::cerr << "starfish: warning: " << w << "\n"; };
    run.on_progress = [&](const TrialProgress &p, const json &result) {
        const auto &kind = workload_kind(cells[p.cell].cfg.get_string("workload.kind"));
        out << "  [" << p.done << "/" << p.total << "] " << cell_label(cells[p.cell].overrides)
            << " trial " << p.trial << ": " << kind.trial_line(result);
        if (p.cached) {
            out << " (cached)";
        } else if (p.eta_s >= 0) {
            out << "  ETA " << duration_text(p.eta_s);
        }
        out << "\n" << std::flush;
    };
    auto results = run_study(spec, cells, run_workload_trial, run);

    RunResult doc = study_result(spec, base, results, host);
    print_study_table(out, results);
    host.wall_s = clock.elapsed_s();
    doc.set_host(host);
    if (!opts.common.json_path.empty()) {
        doc.write(opts.common.json_path);
    }
    if (!opts.csv_path.empty()) {
        write_text_file(opts.csv_path, [&](std::ostream &o) { write_study_csv(o, results); });
    }
    if (!opts.markdown_path.empty()) {
        write_text_file(opts.markdown_path,
                        [&](std::ostream &o) { write_study_markdown(o, results); });
    }
    out << host.line() << "\n";
    if (!study_verified(doc)) {
        std::cerr << "starfish: study failed: data verification failed in some trial\n";
        return kExitRunFailed;
    }
    return kExitOk;
}

} // namespace

void add_study_command(CLI::App &app, int &exit_status) {
    auto opts = std::make_shared<StudyCommandOptions>();
    CLI::App *cmd = app.add_subcommand(
        "study", "run a study: a grid of configurations x trials, summarised per cell and "
                 "compared with a published table (docs/studies.md)");
    add_common_options(cmd, opts->common);
    cmd->add_option("file", opts->file,
                    "study file, or the name of one in sim/studies (e.g. ddio-main)")
        ->required();
    cmd->add_option("--csv", opts->csv_path, "also write the per-cell table as CSV to FILE");
    cmd->add_option("--markdown", opts->markdown_path,
                    "also write the per-cell table as Markdown to FILE");
    cmd->add_option("-j,--jobs", opts->jobs,
                    "trials simulated at once (default: workload.jobs, 0 = one per core)")
        ->check(CLI::Range(0, 256));
    cmd->add_flag("--fresh", opts->fresh,
                  "run every trial even if its result is cached, and overwrite the cache entry");
    cmd->add_flag("--no-cache", opts->no_cache, "neither read nor write the result cache");
    cmd->add_option("--cache-dir", opts->cache_dir,
                    "result cache directory (default: $STARFISH_CACHE_DIR, else "
                    "$XDG_CACHE_HOME/starfish/trials, else ~/.cache/starfish/trials)");
    cmd->callback([opts, &exit_status] { exit_status = run_study_command(*opts); });
}

} // namespace starfish::sim
