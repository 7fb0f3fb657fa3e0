#include "sim/study/slurm.h"

#include "hw/config/config_error.h"
#include "hw/config/input_file.h"
#include "hw/config/json_text.h"
#include "sim/report/safe_output.h"
#include "sim/runner/subprocess.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <thread>

namespace starfish::sim {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string jobs_path(const std::string &dir) {
    return dir + "/jobs.json";
}

// 'text' with every ' closed, escaped and reopened: safe in any POSIX shell.
std::string shell_quote(const std::string &text) {
    std::string out = "'";
    for (char c : text) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

bool is_control(char c) {
    auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
}

// --partition and --time go into #SBATCH lines: partition names, lists of them and
// Slurm time formats use only these characters; a newline would start a command.
void check_slurm_word(const std::string &option, const std::string &value) {
    for (char c : value) {
        bool ok = std::isalnum(static_cast<unsigned char>(c)) ||
                  std::string("_.:,+=-").find(c) != std::string::npos;
        if (!ok) {
            throw config::ConfigError(option + " '" + config::printable(value) +
                                      "': only letters, digits and _ . : , + = - are allowed");
        }
    }
}

// A path inside a double-quoted #SBATCH value: Slurm's own '%' patterns doubled.
std::string sbatch_path(const std::string &path) {
    for (char c : path) {
        if (is_control(c) || c == '"') {
            throw config::ConfigError("the study directory '" + config::printable(path) +
                                      "' holds a control character or a double quote, which "
                                      "cannot be written into the batch script");
        }
    }
    std::string out;
    for (char c : path) {
        out += c == '%' ? std::string("%%") : std::string(1, c);
    }
    return out;
}

std::string utc_now() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) {
        s.pop_back();
    }
    return s;
}

void write_jobs(const std::string &dir, const std::vector<SlurmJob> &jobs) {
    json doc = json::array();
    for (const auto &j : jobs) {
        doc.push_back(
            json{{"job_id", j.id}, {"array", j.array}, {"submitted_utc", j.submitted_utc}});
    }
    std::string problem = replace_file_atomically(jobs_path(dir), doc.dump(1) + "\n");
    if (!problem.empty()) {
        throw SlurmError("the job record " + jobs_path(dir) + " not written: " + problem);
    }
}

} // namespace

void check_slurm_options(const SlurmOptions &options) {
    check_slurm_word("--partition", options.partition);
    check_slurm_word("--time", options.time_limit);
    for (const auto &arg : options.sbatch_args) {
        if (arg.empty() || arg[0] != '-' ||
            std::any_of(arg.begin(), arg.end(), [](char c) { return is_control(c); })) {
            throw config::ConfigError("--sbatch-arg '" + config::printable(arg) +
                                      "' is not an sbatch option (write it as --name=value, "
                                      "without control characters)");
        }
    }
}

std::string batch_script_path(const std::string &dir) {
    return dir + "/starfish-array.sh";
}

std::string batch_script(const StudyManifest &manifest, const std::string &dir,
                         const std::string &starfish, const SlurmOptions &options) {
    std::string name = manifest.studies.empty() ? "study" : manifest.studies.front().spec.name;
    for (char &c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
            c = '_'; // a job name is a word
        }
    }
    check_slurm_options(options);
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# Array task I runs trials [I*" << manifest.chunk << ", (I+1)*" << manifest.chunk
      << ") of " << dir << "/manifest.json\n"
      << "# (" << manifest.trials.size() << " trials, " << manifest.tasks()
      << " tasks). Written by `starfish study submit --slurm`; `starfish study resubmit`\n"
      << "# submits it again for the tasks whose results are missing (docs/cluster.md).\n"
      << "#SBATCH --job-name=starfish-" << name << "\n"
      << "#SBATCH --output=\"" << sbatch_path(dir) << "/logs/%A_%a.out\"\n";
    if (!options.partition.empty()) {
        s << "#SBATCH --partition=" << options.partition << "\n";
    }
    if (!options.time_limit.empty()) {
        s << "#SBATCH --time=" << options.time_limit << "\n";
    }
    for (const auto &arg : options.sbatch_args) {
        s << "#SBATCH " << arg << "\n";
    }
    s << "set -eu\n"
      << "exec " << shell_quote(starfish) << " study run-index --dir " << shell_quote(dir)
      << " --index \"$SLURM_ARRAY_TASK_ID\" --chunk " << manifest.chunk
      << " --jobs \"${SLURM_CPUS_PER_TASK:-1}\"\n";
    return s.str();
}

std::vector<SlurmJob> read_jobs(const std::string &dir) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(jobs_path(dir), ec))) {
        return {};
    }
    config::InputFile in = config::read_regular_file(jobs_path(dir), 64u << 20);
    if (!in.ok) {
        throw config::ConfigError(jobs_path(dir) + " " + in.problem);
    }
    std::vector<SlurmJob> jobs;
    try {
        for (const auto &j : json::parse(in.text)) {
            jobs.push_back(SlurmJob{j.at("job_id").get<std::string>(),
                                    j.at("array").get<std::string>(),
                                    j.at("submitted_utc").get<std::string>()});
        }
    } catch (const json::exception &e) {
        throw config::ConfigError(jobs_path(dir) + ": malformed job record (" +
                                  config::printable(e.what(), 300) + ")");
    }
    return jobs;
}

QueueView query_queue(const std::vector<SlurmJob> &jobs) {
    QueueView view;
    // One call per job: squeue refuses a whole list when one id has left its memory.
    for (const auto &job : jobs) {
        CapturedRun run = run_program_captured(
            {"squeue", "--noheader", "--array", "--jobs=" + job.id, "--format=%i %T %M %R"});
        if (!run.started) {
            view.available = false;
            view.problem = "squeue not found on PATH";
            return view;
        }
        if (run.exit_status != 0) {
            if (run.err.find("Invalid job id") != std::string::npos) {
                continue; // finished long enough ago that the controller forgot it
            }
            view.available = false;
            view.problem = "squeue failed (exit status " + std::to_string(run.exit_status) +
                           "): " + trimmed(run.err);
            return view;
        }
        std::istringstream lines(run.out);
        for (std::string line; std::getline(lines, line);) {
            if (!trimmed(line).empty()) {
                view.lines.push_back(trimmed(line));
            }
        }
    }
    return view;
}

void require_empty_queue(const std::string &dir) {
    QueueView view = query_queue(read_jobs(dir));
    if (!view.available) {
        throw SlurmError("cannot ask Slurm what is queued: " + view.problem);
    }
    if (!view.lines.empty()) {
        throw SlurmError(std::to_string(view.lines.size()) + " array task(s) of " + dir +
                         " are still pending or running (first: " + view.lines.front() +
                         "); wait for them (`starfish study status --dir " + dir +
                         " --wait`) or cancel them with scancel, then submit again");
    }
}

SlurmJob submit_tasks(const StudyManifest &manifest, const std::string &dir,
                      const std::vector<size_t> &tasks, const SlurmOptions &options) {
    std::error_code ec;
    std::string starfish = fs::read_symlink("/proc/self/exe", ec).string();
    if (ec) {
        throw SlurmError("cannot find this starfish executable's path: " + ec.message());
    }
    std::string script = batch_script_path(dir);
    std::string text = batch_script(manifest, dir, starfish, options);
    std::string problem = replace_file_atomically(script, text);
    if (!problem.empty()) {
        throw SlurmError("the batch script not written: " + problem);
    }
    fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add,
                    ec);
    SlurmJob job;
    job.array = array_ranges(tasks);
    if (options.max_parallel > 0) {
        job.array += "%" + std::to_string(options.max_parallel);
    }
    CapturedRun run =
        run_program_captured({"sbatch", "--parsable", "--array=" + job.array, script});
    if (!run.started) {
        throw SlurmError("sbatch not found on PATH: submit from a machine with the Slurm client "
                         "commands (a cluster's login node; Debian package slurm-client)");
    }
    if (run.exit_status != 0) {
        throw SlurmError("sbatch refused the submission (exit status " +
                         std::to_string(run.exit_status) + "): " + trimmed(run.err) + " [script " +
                         script + ", --array=" + job.array + "]");
    }
    // --parsable prints "jobid" or "jobid;cluster".
    std::string out = trimmed(run.out);
    job.id = out.substr(0, out.find(';'));
    if (job.id.empty() || job.id.find_first_not_of("0123456789") != std::string::npos) {
        throw SlurmError("sbatch printed no job id: '" + out + "' " + trimmed(run.err));
    }
    job.submitted_utc = utc_now();
    std::vector<SlurmJob> jobs = read_jobs(dir);
    jobs.push_back(job);
    write_jobs(dir, jobs);
    return job;
}

bool print_directory_status(const StudyManifest &manifest, const std::string &dir,
                            std::ostream &out) {
    DirectoryState state = scan_results(manifest, dir);
    out << "study directory " << dir << ": ";
    for (size_t s = 0; s < manifest.studies.size(); ++s) {
        out << (s ? ", " : "") << manifest.studies[s].spec.name << " ("
            << manifest.studies[s].cells.size() << " cells)";
    }
    out << "; " << manifest.trials.size() << " trials in " << manifest.tasks() << " array tasks of "
        << manifest.chunk << "\n"
        << "  done " << state.done.size() << ", failed " << state.failed.size() << ", missing "
        << state.missing.size() << "\n";
    for (const auto &p : state.problems) {
        out << "  unreadable: " << p << "\n";
    }
    std::vector<size_t> to_run = state.to_run();
    if (!to_run.empty()) {
        out << "  array tasks to run again: " << array_ranges(tasks_of(to_run, manifest.chunk))
            << "\n";
        size_t shown = 0;
        for (size_t i : to_run) {
            if (++shown > 10) {
                out << "  ... and " << to_run.size() - 10 << " more\n";
                break;
            }
            bool failed = std::binary_search(state.failed.begin(), state.failed.end(), i);
            out << (failed ? "  failed (data verification): " : "  missing: ")
                << describe_trial(manifest, i) << "\n";
        }
    }
    std::vector<SlurmJob> jobs = read_jobs(dir);
    for (const auto &j : jobs) {
        out << "  job " << j.id << ": --array=" << j.array << ", submitted " << j.submitted_utc
            << "\n";
    }
    if (!jobs.empty()) {
        QueueView view = query_queue(jobs);
        if (!view.available) {
            out << "  queue: unknown (" << view.problem << ")\n";
        } else if (view.lines.empty()) {
            out << "  queue: no task of these jobs is pending or running\n";
        } else {
            out << "  queue: " << view.lines.size() << " task(s) pending or running\n";
            for (const auto &line : view.lines) {
                out << "    " << line << "\n";
            }
        }
    }
    return to_run.empty();
}

void wait_for_queue(const std::string &dir, std::ostream &out, double interval_s) {
    size_t last = static_cast<size_t>(-1);
    for (;;) {
        QueueView view = query_queue(read_jobs(dir));
        if (!view.available) {
            out << "  queue: cannot wait (" << view.problem << ")\n" << std::flush;
            return;
        }
        if (view.lines.empty()) {
            return;
        }
        if (view.lines.size() != last) {
            last = view.lines.size();
            out << "  waiting: " << last << " array task(s) pending or running\n" << std::flush;
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(interval_s));
    }
}

} // namespace starfish::sim
