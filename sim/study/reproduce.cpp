#include "sim/study/reproduce.h"

#include "fw/param_keys.h"
#include "hw/config/config_error.h"
#include "hw/config/json_text.h"
#include "sim/parameters.h"
#include "sim/report/methods_table.h"
#include "sim/report/run_result.h"
#include "sim/report/safe_output.h"
#include "sim/report/study_result.h"
#include "sim/report/study_table.h"
#include "sim/runner/host_clock.h"
#include "sim/runner/subprocess.h"
#include "sim/study/study_directory.h"
#include "sim/study/study_workload.h"
#include "sim/study/trial_cache.h"
#include "sim/workload/host_memory.h"
#include "sim/workload/workload.h"
#include "sim/workload_params.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

namespace starfish::sim {

using config::ConfigError;
using nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> shipped_report_studies(const std::string &studies_dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(studies_dir, ec)) {
        if (entry.path().extension() != ".json") {
            continue;
        }
        StudySpec spec = load_study(entry.path().string());
        if (!spec.report.is_null()) {
            names.push_back(spec.name);
        }
    }
    if (ec) {
        throw ConfigError("cannot list the study directory '" + studies_dir + "': " + ec.message());
    }
    std::sort(names.begin(), names.end());
    return names;
}

void adjust_cell(StudyCell &cell, int trials, double file_scale) {
    auto change = [&](const std::string &key, const json &value) {
        cell.cfg.set(key, value, "starfish reproduce");
        if (cell.overrides.contains(key)) {
            cell.overrides[key] = value;
        }
    };
    if (trials > 0) {
        change(keys::workload_trials.name, trials);
    }
    if (file_scale == 1.0) {
        cell.cfg.validate();
        return;
    }
    // A scaled file can be too small for a two-dimensional pattern (fewer rows or
    // columns than the CPs it is distributed over): double it until it fits.
    double full = cell.cfg.get_real(keys::workload_file_mb);
    for (double mb = full * file_scale;; mb *= 2) {
        change(keys::workload_file_mb.name, std::min(mb, full));
        try {
            cell.cfg.validate();
            return;
        } catch (const ConfigError &) {
            if (mb >= full) {
                throw;
            }
        }
    }
}

namespace {

constexpr int kExitRunFailedStatus = 1; // the starfish command's "a run failed"

// The ETA's cost of a trial: the workload's events plus the start of a trial.
double eta_cost(const config::Config &cfg) {
    return workload_trial_events(cfg);
}

std::string dir_of(const std::string &path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

// A derived study names its source; look beside the derived study's file first.
std::string source_path(const ReproduceStudy &derived, const std::string &studies_dir) {
    std::string beside = dir_of(derived.path) + "/" + derived.spec.derived_from + ".json";
    return std::ifstream(beside) ? beside
                                 : resolve_study_path(derived.spec.derived_from, studies_dir);
}

} // namespace

std::vector<ReproduceStudy> plan_reproduce(const ReproduceOptions &opts,
                                           const std::string &studies_dir) {
    std::vector<std::string> names =
        opts.studies.empty() ? shipped_report_studies(studies_dir) : opts.studies;
    std::vector<ReproduceStudy> plan;
    auto planned = [&](const std::string &name) {
        return std::any_of(plan.begin(), plan.end(),
                           [&](const ReproduceStudy &s) { return s.spec.name == name; });
    };
    for (const auto &name : names) {
        ReproduceStudy study;
        study.path = resolve_study_path(name, studies_dir);
        study.spec = load_study(study.path);
        if (planned(study.spec.name)) {
            continue;
        }
        if (!study.spec.derived_from.empty() && !planned(study.spec.derived_from)) {
            ReproduceStudy source;
            source.path = source_path(study, studies_dir);
            source.spec = load_study(source.path);
            if (!source.spec.derived_from.empty()) {
                throw ConfigError(study.path + ": its source study " + source.spec.name +
                                  " is itself derived; name a study with cells");
            }
            source.requested = false;
            plan.push_back(std::move(source));
        }
        plan.push_back(std::move(study));
    }
    int trials = opts.trials > 0 ? opts.trials : (opts.quick ? 1 : 0);
    double scale = opts.quick ? kQuickFileScale : 1.0;
    for (auto &study : plan) {
        if (!study.spec.derived_from.empty()) {
            continue;
        }
        study.cells = expand_study(study.spec, opts.base);
        check_workload_kinds(study.spec, study.cells);
        for (auto &cell : study.cells) {
            try {
                adjust_cell(cell, trials, scale);
            } catch (const ConfigError &e) {
                throw ConfigError("study " + study.spec.name + " cell " + cell.overrides.dump() +
                                  (opts.quick ? " with --quick" : "") + ": " + e.what());
            }
        }
    }
    return plan;
}

namespace {

// --published FILE as a table for one study's cells: the study's compare columns
// plus presort; nullopt when the study compares with nothing or no file is named.
// The study's own table is read here too, so a bad table stops the run before
// anything runs.
std::optional<PublishedTable> further_published(const StudySpec &spec, const std::string &file) {
    if (!spec.compare) {
        return std::nullopt;
    }
    PublishedTable own(*spec.compare);
    if (file.empty()) {
        return std::nullopt;
    }
    StudyCompare further = *spec.compare;
    further.file = file;
    further.value_column = "mbps"; // a user's table holds values as printed,
    further.low_column.clear();    // without bounds
    further.high_column.clear();
    further.columns.emplace_back("presort", keys::fs_presort.name);
    return PublishedTable(further);
}

// Overall progress across the studies: trials and cells done, and the ETA from
// the estimated cost of the trials still to run (cache hits are free).
class Progress {
public:
    Progress(std::ostream &out, size_t total_trials, double cost_to_run)
        : out_(out), total_trials_(total_trials), cost_left_(cost_to_run) {}

    void start_study(const ReproduceStudy &study, size_t trials) {
        study_cells_done_ = 0;
        study_trials_done_ = 0;
        study_trials_ = trials;
        study_cells_ = study.cells.size();
        name_ = study.spec.name;
        cell_trials_done_.assign(study.cells.size(), 0);
    }

    void trial_done(const ReproduceStudy &study, const TrialProgress &p, double cost) {
        ++done_;
        ++study_trials_done_;
        if (!p.cached) {
            cost_done_ += cost;
            cost_left_ = std::max(cost_left_ - cost, 0.0);
        }
        auto need = static_cast<size_t>(study.cells[p.cell].cfg.get_int(keys::workload_trials));
        bool cell_complete = ++cell_trials_done_[p.cell] == need;
        study_cells_done_ += cell_complete;
        bool study_complete = study_trials_done_ == study_trials_;
        // A line per finished cell, at most every 2 s; between cells a line per
        // trial once 15 s have passed, so a run whose first cells take a minute
        // (five trials of an 8-byte SPFS cell) shows it is moving.
        double quiet_s = last_line_.elapsed_s();
        if ((cell_complete && quiet_s >= 2.0) || quiet_s >= 15.0 || study_complete) {
            line();
        }
    }

private:
    void line() {
        out_ << "  " << name_ << ": cells " << study_cells_done_ << "/" << study_cells_
             << ", trials " << study_trials_done_ << "/" << study_trials_ << "; all studies "
             << done_ << "/" << total_trials_ << " trials";
        if (cost_done_ > 0) {
            out_ << ", ETA " << duration_text(clock_.elapsed_s() * cost_left_ / cost_done_);
        }
        out_ << "\n" << std::flush;
        last_line_ = HostClock();
    }

    std::ostream &out_;
    size_t total_trials_;
    double cost_left_;
    double cost_done_ = 0;
    size_t done_ = 0;
    std::string name_;
    size_t study_cells_ = 0, study_cells_done_ = 0;
    size_t study_trials_ = 0, study_trials_done_ = 0;
    std::vector<size_t> cell_trials_done_;
    HostClock clock_;
    HostClock last_line_;
};

std::string utc_now() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

// An interpreter for the report scripts: $STARFISH_PYTHON, else python3 on PATH,
// else /usr/bin/python3 — the first that has matplotlib; without one, the first
// that runs at all makes the tables and index only.
std::string report_python(bool &with_figures) {
    std::vector<std::string> candidates{"python3", "/usr/bin/python3"};
    if (const char *env = std::getenv("STARFISH_PYTHON"); env != nullptr && *env) {
        candidates = {env};
    }
    for (const auto &c : candidates) {
        if (run_program({c, "-c", "import matplotlib"}, ProgramOutput::Quiet) == 0) {
            with_figures = true;
            return c;
        }
    }
    with_figures = false;
    for (const auto &c : candidates) {
        if (run_program({c, "-c", "pass"}, ProgramOutput::Quiet) == 0) {
            return c;
        }
    }
    return "";
}

// --slurm: the study directory for the plan's trials, planned or checked against
// the plan; submits what is missing. Returns the manifest when every result is
// there; else nullopt with `status` the command's exit status.
std::optional<StudyManifest> slurm_results(const std::vector<ReproduceStudy> &plan,
                                           const ReproduceOptions &opts, const std::string &dir,
                                           std::ostream &out, int &status) {
    std::vector<DirectoryStudy> studies;
    for (const auto &study : plan) {
        if (study.spec.derived_from.empty()) {
            studies.push_back(directory_study(study.spec, study.path, study.cells));
        }
    }
    StudyManifest m = plan_manifest(std::move(studies), opts.base, opts.chunk);
    if (fs::exists(dir + "/manifest.json")) {
        StudyManifest planned = read_manifest(dir);
        require_same_simulator(planned, dir);
        auto ids = [](const StudyManifest &x) {
            std::vector<std::string> v;
            for (const auto &t : x.trials) {
                v.push_back(t.id);
            }
            return v;
        };
        if (ids(planned) != ids(m)) {
            throw ConfigError(dir + " holds the trials of another reproduce command (other " +
                              "studies, options or configuration); use another --out");
        }
        m = std::move(planned);
    } else {
        write_manifest(m, dir);
    }
    DirectoryState state = scan_results(m, dir);
    out << "  slurm: " << dir << ": " << m.trials.size() << " trials in " << m.tasks()
        << " array tasks, " << state.done.size() << " done\n"
        << std::flush;
    if (state.to_run().empty()) {
        return m;
    }
    for (const auto &p : state.problems) {
        std::cerr << "starfish: warning: " << p << " (its trial runs again)\n";
    }
    QueueView queue = query_queue(read_jobs(dir));
    if (!queue.available) {
        throw SlurmError("cannot ask Slurm what is queued: " + queue.problem);
    }
    if (queue.lines.empty()) {
        SlurmJob job = submit_tasks(m, dir, tasks_of(state.to_run(), m.chunk), opts.submit);
        out << "  slurm: submitted job " << job.id << " (--array=" << job.array << ")\n";
    } else {
        out << "  slurm: " << queue.lines.size() << " array task(s) still pending or running\n";
    }
    if (!opts.wait) {
        out << "  run the same command again when the jobs have finished (`starfish study status "
               "--dir "
            << dir << "`), or add --wait\n";
        status = 0;
        return std::nullopt;
    }
    wait_for_queue(dir, out);
    state = scan_results(m, dir);
    if (!state.to_run().empty()) {
        std::cerr << "starfish: " << state.to_run().size() << " trials have no verified result "
                  << "after the jobs ended; array tasks "
                  << array_ranges(tasks_of(state.to_run(), m.chunk)) << " (logs in " << dir
                  << "/logs); run the command again to resubmit them\n";
        status = kExitRunFailedStatus;
        return std::nullopt;
    }
    return m;
}

} // namespace

int run_reproduce(const ReproduceOptions &opts, std::ostream &out) {
    HostClock clock;
    std::string started = utc_now();
    check_output_directory(opts.out_dir, "--out");
    if (opts.slurm) {
        check_slurm_options(opts.submit);
    }
    OutputTarget json_out = check_output(opts.json_path, "--json");
    std::vector<ReproduceStudy> plan = plan_reproduce(opts, studies_dir());
    if (!opts.slurm) {
        std::vector<HostMemory> trials;
        for (const auto &study : plan) {
            std::vector<HostMemory> more = study_host_memory(study.cells);
            trials.insert(trials.end(), more.begin(), more.end());
        }
        check_host_memory(trials, opts.jobs, opts.no_memory_check);
    }
    std::vector<std::optional<PublishedTable>> published;
    for (const auto &study : plan) {
        published.push_back(further_published(study.spec, opts.published));
    }
    // With --slurm the study directory holds the results; the local cache is not used.
    std::optional<TrialCache> cache =
        study_trial_cache(opts.no_cache || opts.slurm, opts.cache_dir);

    // What is left to run: a trial whose cache entry exists, or that an earlier
    // study of this run shares, costs nothing.
    std::set<std::string> entries;
    size_t total_trials = 0, cached_trials = 0, total_cells = 0;
    double cost_to_run = 0;
    std::vector<std::pair<size_t, size_t>> study_counts; // trials, cached
    for (const auto &study : plan) {
        size_t trials = 0, cached = 0;
        for (const auto &t : study_trials(study.cells)) {
            const config::Config &cfg = study.cells[t.cell].cfg;
            ++trials;
            bool hit = false;
            if (cache) {
                hit = !entries.insert(cache->entry_path(cfg, t.trial)).second ||
                      cache->has_entry(cfg, t.trial);
            }
            cached += hit;
            if (!hit) {
                cost_to_run += eta_cost(cfg);
            }
        }
        study_counts.emplace_back(trials, cached);
        total_trials += trials;
        cached_trials += cached;
        total_cells += study.cells.size();
    }

    fs::path out_dir(opts.out_dir);
    for (const char *sub : {"data", "tables"}) {
        std::error_code ec;
        fs::create_directories(out_dir / sub, ec);
        if (ec) {
            throw std::runtime_error("--out '" + config::printable((out_dir / sub).string()) +
                                     "': cannot create the directory (" + ec.message() + ")");
        }
    }
    out << "reproduce: " << plan.size() << " studies, " << total_cells << " cells, " << total_trials
        << " trials (" << cached_trials << " from the cache), " << opts.jobs << " at once"
        << (opts.quick ? ", --quick" : "") << "\n"
        << "  report: " << out_dir.string() << "\n";
    if (cache) {
        out << "  result cache: " << cache->dir() << "\n";
    }
    out << std::flush;
    std::optional<StudyManifest> slurm;
    const std::string slurm_dir = fs::absolute(out_dir / "slurm").lexically_normal().string();
    if (opts.slurm) {
        int status = 0;
        slurm = slurm_results(plan, opts, slurm_dir, out, status);
        if (!slurm) {
            return status;
        }
    }

    Progress progress(out, total_trials, cost_to_run);
    json manifest_studies = json::array();
    bool all_verified = true;
    size_t slurm_study = 0; // the manifest's studies are the plan's with cells, in order
    for (size_t s = 0; s < plan.size(); ++s) {
        const ReproduceStudy &study = plan[s];
        json entry{{"name", study.spec.name},
                   {"path", fs::absolute(study.path).lexically_normal().string()},
                   {"description", study.spec.description},
                   {"requested", study.requested}};
        if (!study.spec.report.is_null()) {
            entry["report"] = study.spec.report;
        }
        if (!study.spec.derived_from.empty()) {
            entry["from"] = study.spec.derived_from;
            manifest_studies.push_back(entry);
            continue;
        }
        out << "study " << s + 1 << "/" << plan.size() << " " << study.spec.name << ": "
            << study.cells.size() << " cells, " << study_counts[s].first << " trials ("
            << study_counts[s].second << " from the cache)\n"
            << std::flush;
        HostClock study_clock;
        progress.start_study(study, study_counts[s].first);
        StudyRunOptions run;
        run.jobs = opts.jobs;
        run.cost = workload_trial_cost;
        run.cache = cache ? &*cache : nullptr;
        run.on_warning = [](const std::string &w) {
            std::cerr << "starfish: warning: " << w << "\n";
        };
        run.on_progress = [&](const TrialProgress &p, const json &) {
            progress.trial_done(study, p, eta_cost(study.cells[p.cell].cfg));
        };
        std::vector<CellResult> results;
        if (slurm) {
            std::vector<size_t> missing;
            std::vector<std::string> problems;
            results = collect_study(*slurm, slurm_dir, slurm_study++, missing, problems);
            if (!missing.empty()) { // a result file vanished since the check
                throw std::runtime_error(describe_trial(*slurm, missing.front()) +
                                         " has no result in " + slurm_dir);
            }
        } else {
            results = run_study(study.spec, study.cells, run_workload_trial, run);
        }
        if (published[s]) {
            attach_published(results, study.cells, *published[s]); // wins over the study's own
        }

        HostStats host;
        host.parallel = opts.jobs;
        RunResult doc = study_result(study.spec, opts.base, results, host);
        host.wall_s = study_clock.elapsed_s();
        doc.set_host(host);
        doc.doc()["reproduce"] = json{{"quick", opts.quick},
                                      {"file_scale", opts.quick ? kQuickFileScale : 1.0},
                                      {"trials", opts.trials}};
        bool verified = study_verified(doc);
        all_verified = all_verified && verified;
        std::string name = study.spec.name;
        write_output_file((out_dir / "data" / (name + ".json")).string(), "the report's data",
                          [&](std::ostream &o) { o << doc.doc().dump(2) << "\n"; });
        write_output_file((out_dir / "tables" / (name + ".csv")).string(), "the report's table",
                          [&](std::ostream &o) { write_study_csv(o, results); });
        write_output_file((out_dir / "tables" / (name + ".md")).string(), "the report's table",
                          [&](std::ostream &o) { write_study_markdown(o, results); });
        if (wants_methods_table(study.spec)) {
            MethodsTable methods = methods_table(study.spec, opts.base, results);
            std::string csv = "tables/" + methods_path(name + ".csv");
            std::string markdown = "tables/" + methods_path(name + ".md");
            write_output_file((out_dir / csv).string(), "the report's methods table",
                              [&](std::ostream &o) { write_methods_csv(o, methods); });
            write_output_file((out_dir / markdown).string(), "the report's methods table",
                              [&](std::ostream &o) { write_methods_markdown(o, methods); });
            entry["methods_csv"] = csv;
            entry["methods_markdown"] = markdown;
        }

        out << "  " << name << " done in " << duration_text(host.wall_s)
            << (verified ? "" : "; DATA WRONG in some trial");
        ComparisonStats st = compare_stats(results);
        if (st.cells > 0) {
            char buf[160];
            std::snprintf(buf, sizeof buf,
                          "; %d cells with a published value, median |error| "
                          "%.1f%%, worst %.1f%% (%s)",
                          st.cells, st.median_abs_error_pct, st.worst_error_pct,
                          st.worst_cell.c_str());
            out << buf;
        }
        out << "\n" << std::flush;
        entry["data"] = "data/" + name + ".json";
        entry["csv"] = "tables/" + name + ".csv";
        entry["markdown"] = "tables/" + name + ".md";
        entry["cells"] = study.cells.size();
        entry["trials"] = study_counts[s].first;
        entry["trials_from_cache"] = host.cached_trials;
        entry["wall_s"] = host.wall_s;
        entry["verified"] = verified;
        manifest_studies.push_back(entry);
    }

    json manifest{{"starfish_version", starfish_version()},
                  {"simulator", simulator_identity()},
                  {"command", opts.command_line},
                  {"started_utc", started},
                  {"simulation_wall_s", clock.elapsed_s()},
                  {"quick", opts.quick},
                  {"file_scale", opts.quick ? kQuickFileScale : 1.0},
                  {"trials", opts.trials > 0 ? opts.trials : (opts.quick ? 1 : 0)},
                  {"jobs", opts.jobs},
                  {"cache_dir", cache ? cache->dir() : ""},
                  {"published", opts.published.empty()
                                    ? json::array()
                                    : json::array({fs::absolute(opts.published).string()})},
                  {"config", opts.base.to_flat_json()},
                  {"studies", manifest_studies}};
    write_output_file((out_dir / "reproduce.json").string(), "the report's manifest",
                      [&](std::ostream &o) { o << manifest.dump(2) << "\n"; });
    write_output(json_out, manifest.dump(2) + "\n");

    bool with_figures = false;
    std::string python = report_python(with_figures);
    if (python.empty()) {
        std::cerr << "starfish: cannot make the report: no python3 found (scripts/install-deps.sh "
                     "installs python3 and python3-matplotlib)\n";
        return kExitRunFailedStatus;
    }
    std::vector<std::string> argv{python, std::string(report_scripts_dir()) + "/make_report.py",
                                  out_dir.string()};
    if (!with_figures) {
        argv.push_back("--no-figures");
    }
    out << std::flush;
    int status =
        run_program(argv, opts.json_path == "-" ? ProgramOutput::ToStderr : ProgramOutput::Inherit);
    if (status != 0) {
        std::cerr << "starfish: the report script " << argv[1] << " failed (exit status " << status
                  << ")\n";
        return kExitRunFailedStatus;
    }
    out << "report: " << (out_dir / "index.md").string() << " (" << duration_text(clock.elapsed_s())
        << " wall)\n";
    if (!with_figures) {
        std::cerr << "starfish: figures not made: no Python with matplotlib (install "
                     "python3-matplotlib, e.g. with scripts/install-deps.sh, or set "
                     "STARFISH_PYTHON)\n";
        return kExitRunFailedStatus;
    }
    if (!all_verified) {
        std::cerr << "starfish: reproduce failed: data verification failed in some trial\n";
        return kExitRunFailedStatus;
    }
    return 0;
}

} // namespace starfish::sim
