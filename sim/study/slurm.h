#pragma once
// A study directory's array tasks on Slurm (docs/cluster.md): the batch script,
// submission with sbatch, the scheduler's view with squeue, and the record of
// submitted jobs (D/jobs.json). Only the client commands every cluster has are
// used; accounting (sacct) is often disabled, so nothing depends on it: the
// result files say what is done, squeue what is still queued or running.

#include "sim/study/study_directory.h"

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace starfish::sim {

// A Slurm command is missing, refused the submission, or failed (exit status 1).
class SlurmError : public std::runtime_error {
public:
    explicit SlurmError(const std::string &what) : std::runtime_error(what) {}
};

struct SlurmOptions {
    int max_parallel = 0;                 // array tasks running at once (%P); 0: no limit
    std::string partition;                // "" = the cluster's default
    std::string time_limit;               // "" = the partition's default
    std::vector<std::string> sbatch_args; // further sbatch options, each starting with '-'
};

// Throws config::ConfigError (exit status 2, before anything is submitted) when an
// option cannot go into the batch script: --partition or --time with anything but
// letters, digits and _ . : , + = -; an --sbatch-arg that is not an option or holds
// a control character (a newline would start a shell command).
void check_slurm_options(const SlurmOptions &options);

// D/starfish-array.sh: #SBATCH lines for the job name, the logs (D/logs/%A_%a.out)
// and the options, then `starfish study run-index` for $SLURM_ARRAY_TASK_ID with
// the manifest's chunk and $SLURM_CPUS_PER_TASK trial processes. `starfish` and
// `dir` must be absolute; the log path is double-quoted (a directory may hold
// spaces; Slurm's '%' doubled), the command's arguments shell-quoted. Throws
// config::ConfigError as check_slurm_options does, and for a directory holding a
// control character or a double quote.
std::string batch_script(const StudyManifest &manifest, const std::string &dir,
                         const std::string &starfish, const SlurmOptions &options);
std::string batch_script_path(const std::string &dir);

struct SlurmJob {
    std::string id;    // the array job's id
    std::string array; // the --array specification it was submitted with
    std::string submitted_utc;
};

// The jobs submitted for the directory, oldest first (D/jobs.json; none yet: empty).
std::vector<SlurmJob> read_jobs(const std::string &dir);

// The array tasks of the directory's jobs that squeue lists (pending or running).
struct QueueView {
    bool available = true; // false: squeue is missing or failed; `problem` says why
    std::string problem;
    std::vector<std::string> lines; // "123_4 RUNNING 0:42 node17"
};
QueueView query_queue(const std::vector<SlurmJob> &jobs);

// Writes the batch script (again) and submits `tasks` (array indices) with
// `sbatch --parsable --array=RANGES[%P]`; records the job in D/jobs.json and
// returns it. Throws SlurmError when sbatch is missing or refuses.
SlurmJob submit_tasks(const StudyManifest &manifest, const std::string &dir,
                      const std::vector<size_t> &tasks, const SlurmOptions &options);

// Throws SlurmError when a job of the directory is still pending or running:
// submitting again would run its trials twice.
void require_empty_queue(const std::string &dir);

// `starfish study status`: done and missing trials, unreadable result files, the
// missing array tasks, the submitted jobs and what squeue shows of them. Returns
// true when every trial has its result.
bool print_directory_status(const StudyManifest &manifest, const std::string &dir,
                            std::ostream &out);

// Polls squeue every `interval_s` seconds until no job of the directory is pending
// or running (or squeue cannot answer), printing a line when the count changes.
void wait_for_queue(const std::string &dir, std::ostream &out, double interval_s = 2.0);

} // namespace starfish::sim
