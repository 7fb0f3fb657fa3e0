#include "sim/cli/cmd_reproduce.h"

#include "hw/config/config_error.h"
#include "sim/cli/common.h"
#include "sim/study/reproduce.h"
#include "sim/workload/workload.h"

#include <memory>

namespace starfish::sim {

namespace {

struct ReproduceCommandOptions {
    CommonOptions common;
    std::vector<std::string> studies;
    std::string out_dir = "reproduce-report";
    int trials = 0;
    bool quick = false;
    std::string published;
    int jobs = 0;
    std::string cache_dir;
    bool no_cache = false;
    bool no_memory_check = false;
    bool slurm = false;
    bool wait = false;
    size_t chunk = 0;
    SlurmOptions submit;
};

// The command as typed, for the report's "how this was made" line.
std::string command_line(const ReproduceCommandOptions &o) {
    std::string cmd = "starfish reproduce";
    for (const auto &s : o.studies) {
        cmd += " " + s;
    }
    for (const auto &c : o.common.config_files) {
        cmd += " --config " + c;
    }
    for (const auto &s : o.common.overrides) {
        cmd += " --set " + s;
    }
    cmd += " --out " + o.out_dir;
    if (o.trials > 0) {
        cmd += " --trials " + std::to_string(o.trials);
    }
    if (o.quick) {
        cmd += " --quick";
    }
    if (!o.published.empty()) {
        cmd += " --published " + o.published;
    }
    if (o.jobs > 0) {
        cmd += " --jobs " + std::to_string(o.jobs);
    }
    if (o.slurm) {
        cmd += " --slurm";
    }
    return cmd;
}

int run_reproduce_command(const ReproduceCommandOptions &o) {
    ReproduceOptions opts(load_config(o.common));
    opts.studies = o.studies;
    opts.out_dir = o.out_dir;
    opts.trials = o.trials;
    opts.quick = o.quick;
    opts.published = o.published;
    opts.jobs = o.jobs > 0 ? o.jobs : trial_parallelism(opts.base);
    opts.cache_dir = o.cache_dir;
    opts.no_cache = o.no_cache;
    opts.no_memory_check = o.no_memory_check;
    opts.command_line = command_line(o);
    opts.json_path = o.common.json_path;
    opts.slurm = o.slurm;
    opts.wait = o.wait;
    opts.chunk = o.chunk;
    opts.submit = o.submit;
    if (!o.slurm &&
        (o.wait || o.chunk > 0 || o.submit.max_parallel > 0 || !o.submit.partition.empty() ||
         !o.submit.time_limit.empty() || !o.submit.sbatch_args.empty())) {
        throw config::ConfigError("--wait, --chunk, --max-parallel, --partition, --time and "
                                  "--sbatch-arg go with --slurm");
    }
    return run_reproduce(opts, o.common.human());
}

} // namespace

void add_reproduce_command(CLI::App &app, int &exit_status) {
    auto opts = std::make_shared<ReproduceCommandOptions>();
    CLI::App *cmd = app.add_subcommand(
        "reproduce", "run the paper's studies, sensitivity and tuning experiments and write a "
                     "report with tables and figures (docs/reproduce.md)");
    add_common_options(cmd, opts->common);
    cmd->add_option("study", opts->studies,
                    "studies to run, by name (sim/studies) or file; default: every shipped study "
                    "with a report section");
    cmd->add_option("-o,--out", opts->out_dir,
                    "report directory (created; default: "
                    "reproduce-report)");
    cmd->add_option("--trials", opts->trials, "trials per cell instead of each study's own")
        ->check(CLI::Range(1, 1000));
    cmd->add_flag("--quick", opts->quick,
                  "smoke run: every file 1/80 of its size (10 MB -> 128 KB), one trial");
    cmd->add_option("--published", opts->published,
                    "a further published table (CSV: layout, method, record, pattern, mbps, "
                    "presort); its values win over the shipped table's")
        ->check(CLI::ExistingFile);
    cmd->add_option("-j,--jobs", opts->jobs,
                    "trials simulated at once (default: workload.jobs, 0 = one per core)")
        ->check(CLI::Range(0, 256));
    cmd->add_option("--cache-dir", opts->cache_dir,
                    "result cache directory (default: $STARFISH_CACHE_DIR, else "
                    "$XDG_CACHE_HOME/starfish/trials, else ~/.cache/starfish/trials)")
        ->check(non_empty_directory_name());
    cmd->add_flag("--no-cache", opts->no_cache, "neither read nor write the result cache");
    add_memory_check_option(cmd, opts->no_memory_check);
    cmd->add_flag("--slurm", opts->slurm,
                  "run the trials as Slurm job arrays through OUT/slurm (docs/cluster.md); run "
                  "the command again (or add --wait) for the report");
    cmd->add_flag("--wait", opts->wait, "--slurm: wait for the jobs, then make the report");
    cmd->add_option("--chunk", opts->chunk,
                    "--slurm: trials per array task (default: about 30 s of work per task)");
    cmd->add_option("--max-parallel", opts->submit.max_parallel,
                    "--slurm: array tasks running at once (default: no limit)")
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--partition", opts->submit.partition, "--slurm: Slurm partition");
    cmd->add_option("--time", opts->submit.time_limit, "--slurm: time limit of each array task");
    cmd->add_option("--sbatch-arg", opts->submit.sbatch_args,
                    "--slurm: a further sbatch option for the batch script (repeatable)");
    cmd->callback([opts, &exit_status] { exit_status = run_reproduce_command(*opts); });
}

} // namespace starfish::sim
