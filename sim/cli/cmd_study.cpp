#include "sim/cli/cmd_study.h"

#include "hw/config/config_error.h"
#include "sim/cli/common.h"
#include "sim/parameters.h"
#include "sim/report/run_result.h"
#include "sim/report/study_table.h"
#include "sim/runner/host_clock.h"
#include "sim/study/study.h"
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

// "1h02m", "3m07s", "12s".
std::string duration_text(double s) {
    long t = std::lround(std::max(s, 0.0));
    char buf[32];
    if (t >= 3600) {
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
    } else if (t >= 60) {
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    } else {
        std::snprintf(buf, sizeof buf, "%lds", t);
    }
    return buf;
}

void write_text(const std::string &path, const std::function<void(std::ostream &)> &fill) {
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        if (!out) {
            throw std::runtime_error("cannot write '" + path + "'");
        }
        fill(out);
        if (!out.flush()) {
            throw std::runtime_error("error writing '" + path + "'");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "'");
    }
}

int run_study_command(const StudyCommandOptions &opts) {
    HostClock clock;
    config::Config base = load_config(opts.common);
    std::string path = opts.file;
    std::ifstream probe(path);
    if (!probe) {
        // A bare name refers to a shipped study (sim/studies/NAME.json).
        std::string shipped =
            std::string(studies_dir()) + "/" + path +
            (path.size() > 5 && path.substr(path.size() - 5) == ".json" ? "" : ".json");
        if (std::ifstream(shipped)) {
            path = shipped;
        }
    }
    StudySpec spec = load_study(path);
    std::vector<StudyCell> cells = expand_study(spec, base);
    // Every cell's workload kind must exist before anything runs.
    for (const auto &c : cells) {
        try {
            workload_kind(c.cfg.get_string("workload.kind"));
        } catch (const std::runtime_error &e) {
            throw config::ConfigError(spec.name + ": " + e.what());
        }
    }
    std::ostream &out = opts.common.human();
    size_t total = 0;
    for (const auto &c : cells) {
        total += static_cast<size_t>(c.cfg.get_int("workload.trials"));
    }
    HostStats host;
    host.parallel = opts.jobs > 0 ? opts.jobs : trial_parallelism(base);
    out << "study " << spec.name << ": " << cells.size() << " configurations, " << total
        << " trials, " << host.parallel << " at once\n";
    if (!spec.description.empty()) {
        out << "  " << spec.description << "\n";
    }
    out << std::flush;

    // The data-corruption test hook changes results without changing the
    // configuration, so such runs neither read nor fill the cache.
    const char *corrupt = std::getenv("STARFISH_DEBUG_CORRUPT_DATA");
    bool use_cache = !opts.no_cache && !(corrupt != nullptr && std::string(corrupt) == "1");
    std::string cache_dir = opts.cache_dir.empty() ? default_trial_cache_dir() : opts.cache_dir;
    std::optional<TrialCache> cache;
    if (use_cache && !cache_dir.empty()) {
        cache.emplace(cache_dir, simulator_identity());
        out << "  result cache: " << cache_dir << (opts.fresh ? " (--fresh: every trial runs)" : "")
            << "\n";
    }
    out << std::flush;

    auto trial = [](const config::Config &cfg, int t) {
        return workload_kind(cfg.get_string("workload.kind")).run_trial(cfg, t);
    };
    StudyRunOptions run;
    run.jobs = host.parallel;
    run.cost = [](const config::Config &cfg) {
        const auto &kind = workload_kind(cfg.get_string("workload.kind"));
        return kind.cost_estimate ? kind.cost_estimate(cfg) : 1.0;
    };
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
    auto results = run_study(spec, cells, trial, run);

    RunResult doc("study", base);
    doc.doc()["study"] = json{{"name", spec.name}, {"description", spec.description}};
    json cells_json = json::array();
    bool all_verified = true;
    for (const auto &c : results) {
        for (const auto &t : c.trials) {
            all_verified = all_verified && t.value("verified", false);
            if (t.contains("host") && t["host"].value("cached", false)) {
                ++host.cached_trials; // measured by an earlier run, not this one
                continue;
            }
            host.sim_s += t.value("sim_s", 0.0);
            host.cpu_s += t.value("host_cpu_s", 0.0);
            host.events += t.value("events", 0ull);
        }
        cells_json.push_back(
            json{{"overrides", c.overrides}, {"summary", c.summary}, {"trials", c.trials}});
    }
    doc.doc()["cells"] = cells_json;
    ComparisonStats st = compare_stats(results);
    json summary{{"cells", results.size()}, {"verified", all_verified}};
    if (st.cells > 0) {
        summary["published_cells"] = st.cells;
        summary["median_abs_error_pct"] = st.median_abs_error_pct;
        summary["worst_error_pct"] = st.worst_error_pct;
        summary["worst_cell"] = st.worst_cell;
        summary["within_5pct"] = st.within_5pct;
        summary["within_10pct"] = st.within_10pct;
    }
    doc.set_summary(summary);

    print_study_table(out, results);
    host.wall_s = clock.elapsed_s();
    doc.set_host(host);
    if (!opts.common.json_path.empty()) {
        doc.write(opts.common.json_path);
    }
    if (!opts.csv_path.empty()) {
        write_text(opts.csv_path, [&](std::ostream &o) { write_study_csv(o, results); });
    }
    if (!opts.markdown_path.empty()) {
        write_text(opts.markdown_path, [&](std::ostream &o) { write_study_markdown(o, results); });
    }
    out << host.line() << "\n";
    if (!all_verified) {
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
