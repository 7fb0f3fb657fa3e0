#include "sim/cli/cmd_study.h"

#include "hw/config/config_error.h"
#include "hw/config/json_text.h"
#include "sim/cli/common.h"
#include "sim/parameters.h"
#include "sim/report/methods_table.h"
#include "sim/report/run_result.h"
#include "sim/report/safe_output.h"
#include "sim/report/study_result.h"
#include "sim/report/study_table.h"
#include "sim/runner/host_clock.h"
#include "sim/study/slurm.h"
#include "sim/study/study.h"
#include "sim/study/study_directory.h"
#include "sim/study/study_workload.h"
#include "sim/study/trial_cache.h"
#include "sim/workload/host_memory.h"
#include "sim/workload/workload.h"
#include "sim/workload_params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

namespace starfish::sim {

using nlohmann::json;

namespace {

// Where a study's results go besides the terminal (local run and collect alike),
// checked before anything runs (sim/report/safe_output.h).
struct StudyOutputs {
    OutputTarget json, csv, markdown;
    OutputTarget methods_csv, methods_markdown; // beside a regular --csv/--markdown file
};

// Checks the three outputs (exit status 2 before anything runs); at most one may be
// standard output, and the terminal output then goes to stderr.
StudyOutputs check_study_outputs(CommonOptions &common, const std::string &csv_path,
                                 const std::string &markdown_path) {
    StudyOutputs o;
    o.json = check_output(common.json_path, "--json");
    o.csv = check_output(csv_path, "--csv");
    o.markdown = check_output(markdown_path, "--markdown");
    int on_stdout = 0;
    for (const auto *t : {&o.json, &o.csv, &o.markdown}) {
        on_stdout += t->kind == OutputTarget::Kind::Stdout;
    }
    if (on_stdout > 1) {
        throw config::ConfigError("only one of --json, --csv and --markdown can be '-' "
                                  "(standard output)");
    }
    common.other_output_on_stdout =
        o.csv.kind == OutputTarget::Kind::Stdout || o.markdown.kind == OutputTarget::Kind::Stdout;
    if (o.csv.kind == OutputTarget::Kind::File) {
        o.methods_csv = check_output(methods_path(csv_path), "--csv (its methods table)", false);
    }
    if (o.markdown.kind == OutputTarget::Kind::File) {
        o.methods_markdown =
            check_output(methods_path(markdown_path), "--markdown (its methods table)", false);
    }
    return o;
}

// Every trial that failed, by cell and trial: its process failed (the error) or
// its data did not verify.
std::vector<std::string> failed_trials(const std::vector<CellResult> &results) {
    std::vector<std::string> lines;
    for (const auto &c : results) {
        for (const auto &t : c.trials) {
            if (t.value("verified", false)) {
                continue;
            }
            std::string why =
                trial_failed(t)
                    ? t["failed"].get<std::string>()
                    : "data verification failed (" +
                          t.value("check", json::object()).value("first_error", std::string("")) +
                          ")";
            lines.push_back("cell '" + cell_label(c.overrides) + "' trial " +
                            t.value("trial", json(-1)).dump() + ": " + why);
        }
    }
    return lines;
}

struct StudyCommandOptions {
    CommonOptions common;
    std::string file;
    std::string csv_path;
    std::string markdown_path;
    int jobs = 0;
    bool fresh = false;    // run every trial, overwriting its cache entry
    bool no_cache = false; // neither read nor write the cache
    std::string cache_dir; // "" = default_trial_cache_dir()
    bool no_memory_check = false;
};

// The per-cell table, the result files and the host line of a finished study;
// the exit status (1 when some trial's data did not verify). The same for a local
// run and for `study collect`, so both print and write the same results.
int report_study(const StudySpec &spec, const config::Config &base,
                 const std::vector<CellResult> &results, HostStats host, const HostClock &clock,
                 const StudyOutputs &outputs, std::ostream &out) {
    RunResult doc = study_result(spec, base, results, host);
    print_study_table(out, results);
    std::optional<MethodsTable> methods;
    if (wants_methods_table(spec)) {
        methods = methods_table(spec, base, results);
        print_methods_table(out, *methods);
    }
    host.wall_s = clock.elapsed_s();
    doc.set_host(host);
    doc.write(outputs.json);
    // A regular file gets the methods table beside it (FILE-methods.csv); standard
    // output, a FIFO or a device gets it after the per-cell table.
    auto table_and_methods = [&](const OutputTarget &target,
                                 void (*cells)(std::ostream &, const std::vector<CellResult> &),
                                 void (*rows)(std::ostream &, const MethodsTable &)) {
        bool beside = target.kind == OutputTarget::Kind::File;
        write_output(target, [&](std::ostream &o) {
            cells(o, results);
            if (methods && !beside) {
                o << "\n";
                rows(o, *methods);
            }
        });
    };
    table_and_methods(outputs.csv, write_study_csv, write_methods_csv);
    table_and_methods(outputs.markdown, write_study_markdown, write_methods_markdown);
    if (methods) {
        write_output(outputs.methods_csv, [&](std::ostream &o) { write_methods_csv(o, *methods); });
        write_output(outputs.methods_markdown,
                     [&](std::ostream &o) { write_methods_markdown(o, *methods); });
    }
    out << host.line() << "\n";
    std::vector<std::string> failed = failed_trials(results);
    if (!failed.empty()) {
        std::cerr << "starfish: study failed: " << failed.size() << " trial"
                  << (failed.size() == 1 ? "" : "s") << " failed (the other results are "
                  << "written; a failed trial has no measurement):\n";
        for (const auto &line : failed) {
            std::cerr << "  " << config::printable(line, 2000) << "\n";
        }
        return kExitRunFailed;
    }
    return kExitOk;
}

void print_study_header(std::ostream &out, const StudySpec &spec, size_t cells, size_t trials) {
    out << "study " << spec.name << ": " << cells << " configurations, " << trials << " trials";
}

int run_study_command(StudyCommandOptions &opts) {
    HostClock clock;
    config::Config base = load_config(opts.common);
    StudySpec spec = load_study(resolve_study_path(opts.file, studies_dir()));
    std::vector<StudyCell> cells = expand_study(spec, base);
    check_workload_kinds(spec, cells);
    StudyOutputs outputs = check_study_outputs(opts.common, opts.csv_path, opts.markdown_path);
    std::ostream &out = opts.common.human();
    size_t total = study_trials(cells).size();
    HostStats host;
    host.parallel = opts.jobs > 0 ? opts.jobs : trial_parallelism(base);
    check_host_memory(study_host_memory(cells), host.parallel, opts.no_memory_check);
    print_study_header(out, spec, cells.size(), total);
    out << ", " << host.parallel << " at once\n";
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
        const auto &kind = workload_kind(cells[p.cell].cfg.get_string(keys::workload_kind));
        out << "  [" << p.done << "/" << p.total << "] " << cell_label(cells[p.cell].overrides)
            << " trial " << p.trial << ": "
            << (trial_failed(result) ? "FAILED (listed at the end)" : kind.trial_line(result));
        if (p.cached) {
            out << " (cached)";
        } else if (p.eta_s >= 0) {
            out << "  ETA " << duration_text(p.eta_s);
        }
        out << "\n" << std::flush;
    };
    auto results = run_study(spec, cells, run_workload_trial, run);
    return report_study(spec, base, results, host, clock, outputs, out);
}

// --- the study directory and Slurm (docs/cluster.md) ---

struct DirectoryCommandOptions {
    CommonOptions common; // plan: --config, --set
    std::string dir;
    std::string study;
    size_t chunk = 0;
    bool force = false;
    long long index = 0; // signed, so "-1" is refused rather than wrapped
    bool no_memory_check = false;
    int jobs = 1;
    bool slurm = false;
    SlurmOptions submit;
    bool wait = false;
    std::string csv_path;
    std::string markdown_path;
};

// The directory as an absolute path: batch scripts and logs name it on other nodes.
std::string absolute_dir(const std::string &dir) {
    return std::filesystem::absolute(dir).lexically_normal().string();
}

int plan_command(const DirectoryCommandOptions &o) {
    std::string dir = absolute_dir(o.dir);
    if (std::filesystem::exists(dir + "/manifest.json") && !o.force) {
        throw config::ConfigError(dir + " already holds a study manifest; its results belong to "
                                        "it (use another --dir, or --force to plan it again)");
    }
    config::Config base = load_config(o.common);
    std::vector<DirectoryStudy> studies;
    studies.push_back(load_directory_study(resolve_study_path(o.study, studies_dir()), base));
    StudyManifest m = plan_manifest(std::move(studies), base, o.chunk);
    write_manifest(m, dir);
    std::cout << "planned " << m.studies.front().spec.name << " in " << dir << ": "
              << m.studies.front().cells.size() << " cells, " << m.trials.size() << " trials, "
              << m.tasks() << (m.tasks() == 1 ? " array task" : " array tasks") << " of " << m.chunk
              << (m.chunk == 1 ? " trial" : " trials")
              << (o.chunk == 0 ? " (chunk chosen for about " +
                                     std::to_string(static_cast<int>(kTargetTaskSeconds)) +
                                     " s of work per task)"
                               : "")
              << "\n  manifest: " << dir << "/manifest.json\n";
    return kExitOk;
}

int run_index_command(const DirectoryCommandOptions &o) {
    std::string dir = absolute_dir(o.dir);
    StudyManifest m = read_manifest(dir);
    require_same_simulator(m, dir);
    size_t chunk = o.chunk > 0 ? o.chunk : m.chunk;
    size_t tasks = (m.trials.size() + chunk - 1) / chunk;
    if (static_cast<size_t>(o.index) >= tasks) {
        throw config::ConfigError("--index " + std::to_string(o.index) +
                                  " is past the last array task (" + std::to_string(tasks - 1) +
                                  "; " + std::to_string(m.trials.size()) + " trials, chunk " +
                                  std::to_string(chunk) + ")");
    }
    auto [first, last] = task_trials(static_cast<size_t>(o.index), chunk, m.trials.size());
    std::vector<HostMemory> trials;
    for (size_t i = first; i < last; ++i) {
        trials.push_back(host_memory_estimate(trial_config(m, m.trials[i])));
    }
    check_host_memory(trials, o.jobs, o.no_memory_check);
    bool complete =
        run_task(m, dir, static_cast<size_t>(o.index), chunk, o.jobs, std::cout, std::cerr);
    return complete ? kExitOk : kExitRunFailed;
}

void require_slurm(const DirectoryCommandOptions &o, const char *command) {
    if (!o.slurm) {
        throw config::ConfigError(std::string("`starfish study ") + command +
                                  "` needs --slurm (the only scheduler it submits to; "
                                  "docs/cluster.md)");
    }
}

int submit_command(const DirectoryCommandOptions &o, bool only_missing) {
    require_slurm(o, only_missing ? "resubmit" : "submit");
    check_slurm_options(o.submit);
    std::string dir = absolute_dir(o.dir);
    StudyManifest m = read_manifest(dir);
    require_same_simulator(m, dir);
    DirectoryState state = scan_results(m, dir);
    for (const auto &p : state.problems) {
        std::cerr << "starfish: warning: " << p << " (its trial runs again)\n";
    }
    std::vector<size_t> to_run = state.to_run();
    if (to_run.empty()) {
        std::cout << "every trial of " << dir << " has its result: nothing to submit\n";
        return kExitOk;
    }
    require_empty_queue(dir);
    std::vector<size_t> tasks;
    if (only_missing) {
        tasks = tasks_of(to_run, m.chunk);
    } else {
        for (size_t t = 0; t < m.tasks(); ++t) {
            tasks.push_back(t);
        }
    }
    SlurmJob job = submit_tasks(m, dir, tasks, o.submit);
    std::cout << "submitted job " << job.id << ": " << tasks.size()
              << " array task(s) (--array=" << job.array << ") for " << to_run.size()
              << " missing or failed trial(s) of " << m.trials.size()
              << "\n  script: " << batch_script_path(dir) << "\n  logs: " << dir << "/logs/"
              << job.id << "_<task>.out\n";
    return kExitOk;
}

int status_command(const DirectoryCommandOptions &o) {
    std::string dir = absolute_dir(o.dir);
    StudyManifest m = read_manifest(dir);
    if (m.simulator != simulator_identity()) {
        std::cout << "note: planned by simulator " << m.simulator << ", this is "
                  << simulator_identity() << "\n";
    }
    if (o.wait) {
        wait_for_queue(dir, std::cout);
    }
    return print_directory_status(m, dir, std::cout) ? kExitOk : kExitRunFailed;
}

int collect_command(DirectoryCommandOptions &o) {
    HostClock clock;
    std::string dir = absolute_dir(o.dir);
    StudyManifest m = read_manifest(dir);
    require_same_simulator(m, dir);
    StudyOutputs outputs = check_study_outputs(o.common, o.csv_path, o.markdown_path);
    if (m.studies.size() != 1) {
        throw config::ConfigError(dir + " holds the " + std::to_string(m.studies.size()) +
                                  " studies of a `starfish reproduce --slurm`: run that command "
                                  "again for their report");
    }
    std::ostream &out = o.common.human();
    std::vector<size_t> missing;
    std::vector<std::string> problems;
    const DirectoryStudy &study = m.studies.front();
    auto results = collect_study(m, dir, 0, missing, problems);
    for (const auto &p : problems) {
        std::cerr << "starfish: unreadable result, counted as missing: " << p << "\n";
    }
    if (!missing.empty()) {
        std::cerr << "starfish: " << missing.size() << " of " << m.trials.size()
                  << " trials have no result; array tasks to run again: "
                  << array_ranges(tasks_of(missing, m.chunk)) << " (`starfish study resubmit --dir "
                  << dir << " --slurm`)\n";
        for (size_t i = 0; i < missing.size() && i < 10; ++i) {
            std::cerr << "  missing: " << describe_trial(m, missing[i]) << "\n";
        }
        return kExitRunFailed;
    }
    config::Config base = manifest_base_config(m, dir);
    print_study_header(out, study.spec, study.cells.size(), study_trials(study.cells).size());
    out << ", collected from " << dir << "\n";
    if (!study.spec.description.empty()) {
        out << "  " << study.spec.description << "\n";
    }
    HostStats host;
    host.parallel = 1;
    return report_study(study.spec, base, results, host, clock, outputs, out);
}

void add_dir_option(CLI::App *cmd, DirectoryCommandOptions &o) {
    cmd->add_option("--dir", o.dir, "the study directory (manifest.json, trials/, logs/)")
        ->required();
}

void add_slurm_options(CLI::App *cmd, DirectoryCommandOptions &o) {
    cmd->add_flag("--slurm", o.slurm, "submit to Slurm as a job array (required)");
    cmd->add_option("--max-parallel", o.submit.max_parallel,
                    "array tasks running at once (--array=...%P; default: no limit)")
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--partition", o.submit.partition, "Slurm partition (default: the cluster's)");
    cmd->add_option("--time", o.submit.time_limit,
                    "time limit of each array task, as sbatch --time (default: the partition's)");
    cmd->add_option("--sbatch-arg", o.submit.sbatch_args,
                    "a further sbatch option for the batch script, e.g. --sbatch-arg=--mem=4G "
                    "(repeatable)");
}

void add_directory_commands(CLI::App *study, int &exit_status) {
    auto o = std::make_shared<DirectoryCommandOptions>();
    CLI::App *plan = study->add_subcommand(
        "plan", "write DIR/manifest.json: every cell x trial of STUDY with a stable id and its "
                "effective configuration, for running on a cluster (docs/cluster.md)");
    add_config_options(plan, o->common);
    plan->add_option("study", o->study, "study file, or the name of one in sim/studies")
        ->required();
    add_dir_option(plan, *o);
    plan->add_option("--chunk", o->chunk,
                     "trials per array task (default: chosen for about 30 s of work per task, "
                     "at most 1001 tasks)");
    plan->add_flag("--force", o->force, "plan again over an existing manifest");
    plan->callback([o, &exit_status] { exit_status = plan_command(*o); });

    CLI::App *run_index = study->add_subcommand(
        "run-index", "run the trials of one array task that have no result yet (what each "
                     "Slurm array task runs)");
    add_dir_option(run_index, *o);
    run_index->add_option("--index", o->index, "array task index ($SLURM_ARRAY_TASK_ID)")
        ->required()
        ->check(CLI::NonNegativeNumber);
    add_memory_check_option(run_index, o->no_memory_check);
    run_index->add_option("--chunk", o->chunk, "trials per array task (default: the manifest's)");
    run_index->add_option("-j,--jobs", o->jobs, "trial processes at once (default 1)")
        ->check(CLI::Range(1, 256));
    run_index->callback([o, &exit_status] { exit_status = run_index_command(*o); });

    CLI::App *submit =
        study->add_subcommand("submit", "submit every array task of DIR with sbatch");
    add_dir_option(submit, *o);
    add_slurm_options(submit, *o);
    submit->callback([o, &exit_status] { exit_status = submit_command(*o, false); });

    CLI::App *resubmit = study->add_subcommand(
        "resubmit", "submit an array of just the tasks whose results are missing");
    add_dir_option(resubmit, *o);
    add_slurm_options(resubmit, *o);
    resubmit->callback([o, &exit_status] { exit_status = submit_command(*o, true); });

    CLI::App *status = study->add_subcommand(
        "status", "done and missing trials, and what squeue shows of the directory's jobs "
                  "(exit status 1 while trials are missing)");
    add_dir_option(status, *o);
    status->add_flag("--wait", o->wait,
                     "first wait until none of the directory's jobs is pending or running");
    status->callback([o, &exit_status] { exit_status = status_command(*o); });

    CLI::App *collect = study->add_subcommand(
        "collect", "the study's table, JSON, CSV and Markdown from DIR's results, as "
                   "`starfish study` prints them (exit status 1 naming what is missing)");
    add_dir_option(collect, *o);
    collect->add_option("--json", o->common.json_path,
                        "write the result as JSON to FILE ('-' = stdout)");
    collect->add_option("--csv", o->csv_path, "also write the per-cell table as CSV to FILE");
    collect->add_option("--markdown", o->markdown_path,
                        "also write the per-cell table as Markdown to FILE");
    collect->callback([o, &exit_status] { exit_status = collect_command(*o); });
}

} // namespace

void add_study_command(CLI::App &app, int &exit_status) {
    auto opts = std::make_shared<StudyCommandOptions>();
    CLI::App *cmd = app.add_subcommand(
        "study", "run a study: a grid of configurations x trials, summarised per cell and "
                 "compared with a published table (docs/studies.md)");
    add_common_options(cmd, opts->common);
    cmd->add_option("file", opts->file,
                    "study file, or the name of one in sim/studies (e.g. ddio-main)");
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
                    "$XDG_CACHE_HOME/starfish/trials, else ~/.cache/starfish/trials)")
        ->check(non_empty_directory_name());
    add_memory_check_option(cmd, opts->no_memory_check);
    add_directory_commands(cmd, exit_status);
    cmd->require_subcommand(0, 1);
    cmd->callback([cmd, opts, &exit_status] {
        if (!cmd->get_subcommands().empty()) {
            return; // plan, run-index, submit, ...: their own callback ran
        }
        if (opts->file.empty()) {
            throw CLI::RequiredError("a study file or name (or one of: plan, run-index, submit, "
                                     "status, resubmit, collect)");
        }
        exit_status = run_study_command(*opts);
    });
}

} // namespace starfish::sim
