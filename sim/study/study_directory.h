#pragma once
// A study laid out in a directory, for schedulers that run its trials as separate
// jobs (docs/cluster.md). `starfish study plan` writes D/manifest.json: every
// trial (cell x trial number) with a stable id and, through its cell, its
// effective configuration. Each result is D/trials/<id>.json, an entry of the
// trial cache (sim/study/trial_cache.h, flat layout) whose id is the hash of its
// key, so it is written under a temporary name and renamed, and carries the key
// it was computed for. The result files are the source of truth for what is
// done; the manifest never changes after planning.
//
// Array task I runs the trials [I*chunk, (I+1)*chunk) of the manifest's list.

#include "hw/config/config.h"
#include "sim/study/study.h"
#include "sim/study/trial_cache.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace starfish::sim {

// Slurm's default MaxArraySize is 1001: array indices 0..1000.
constexpr size_t kMaxArrayTasks = 1001;
// Work per array task the automatic chunk aims at: long enough that the
// scheduler's start-up (seconds) is small beside it, short enough to spread a
// study over many nodes.
constexpr double kTargetTaskSeconds = 30.0;

// One study of the directory (`starfish reproduce --slurm` plans several).
struct DirectoryStudy {
    StudySpec spec;
    std::string path;          // the study file, absolute
    nlohmann::json definition; // the study file's document, kept so collect needs no source
    std::vector<StudyCell> cells;
};

struct ManifestTrial {
    std::string id;   // TrialCache::entry_name: same configuration, trial and build -> same id
    size_t study = 0; // index into StudyManifest::studies
    size_t cell = 0;
    int trial = 0;
    double estimated_s = 0; // estimated_trial_seconds, for the chunks
};

struct StudyManifest {
    std::string simulator; // simulator_identity() of the build that planned it
    nlohmann::json base;   // the base configuration (flat), for the result JSON
    std::vector<DirectoryStudy> studies;
    // Every trial once (a trial shared by two studies, the same id, is listed and
    // run once), ordered so that every array task has about the same estimated
    // work (balanced_order); the study's order within a task.
    std::vector<ManifestTrial> trials;
    size_t chunk = 1; // trials per array task

    size_t tasks() const { return trials.empty() ? 0 : (trials.size() + chunk - 1) / chunk; }
};

// A study with its cells as planned (e.g. adjusted by `starfish reproduce --quick`);
// reads the study file's document again. Throws config::ConfigError naming it.
DirectoryStudy directory_study(StudySpec spec, const std::string &path,
                               std::vector<StudyCell> cells);

// The study's file read as a DirectoryStudy (cells expanded on base).
DirectoryStudy load_directory_study(const std::string &path, const config::Config &base);

// Trials per array task: at least kTargetTaskSeconds of estimated work
// (trial_seconds, one per trial) and at most max_tasks tasks.
size_t choose_chunk(const std::vector<double> &trial_seconds, size_t max_tasks = kMaxArrayTasks);

// A permutation of the trials (indices into costs, the estimated seconds) whose
// consecutive runs of `chunk` have about equal total cost: the long trials (the
// 8-byte cyclic SPFS cells take a hundred times the others) are spread over the
// tasks instead of filling a few. Each run is in ascending index order.
std::vector<size_t> balanced_order(const std::vector<double> &costs, size_t chunk);

// Estimated host seconds of one trial of the configuration (workload cost).
double estimated_trial_seconds(const config::Config &cfg);

// The manifest for these studies; chunk 0 chooses it (choose_chunk). Throws
// config::ConfigError when a study has no cells of its own or an explicit chunk
// needs more than kMaxArrayTasks tasks.
StudyManifest plan_manifest(std::vector<DirectoryStudy> studies, const config::Config &base,
                            size_t chunk = 0);

// D/manifest.json (temporary name, then renamed) and the directories trials/ and
// logs/. Throws std::runtime_error naming the path when it cannot be written.
void write_manifest(const StudyManifest &manifest, const std::string &dir);

// Reads D/manifest.json and rebuilds every cell's configuration; every trial's id
// is computed again and must match. Throws config::ConfigError naming the file.
StudyManifest read_manifest(const std::string &dir);

// The base configuration the manifest was planned with.
config::Config manifest_base_config(const StudyManifest &manifest, const std::string &dir);

// Throws config::ConfigError unless this process is the build that planned the
// manifest: results of two builds are never mixed in one directory.
void require_same_simulator(const StudyManifest &manifest, const std::string &dir);

// Where the results live: a TrialCache over D/trials with the manifest's identity.
TrialCache directory_results(const StudyManifest &manifest, const std::string &dir);

// The configuration of a manifest trial.
const config::Config &trial_config(const StudyManifest &manifest, const ManifestTrial &t);

// Manifest trial indices [first, last) of array task `task`; empty past the end.
std::pair<size_t, size_t> task_trials(size_t task, size_t chunk, size_t trial_count);

// The array tasks that hold these trial indices, ascending, each once.
std::vector<size_t> tasks_of(const std::vector<size_t> &trials, size_t chunk);

// "0-3,7,9-10": an ascending list of indices as a Slurm --array range list.
std::string array_ranges(const std::vector<size_t> &indices);

// What the result files say.
struct DirectoryState {
    std::vector<size_t> done;          // manifest trial indices with a verified result
    std::vector<size_t> failed;        // with a result whose data did not verify
    std::vector<size_t> missing;       // without one (never run, its process failed, unreadable)
    std::vector<std::string> problems; // one line per file that exists but is corrupt

    // The trials to run again: missing and failed, ascending.
    std::vector<size_t> to_run() const;
};
DirectoryState scan_results(const StudyManifest &manifest, const std::string &dir);

// `starfish study run-index`: runs the trials of array task `task` that are not
// done (no valid result, or one whose data did not verify), `jobs` at a time,
// writing each result file as its trial ends (an unreadable file is reported on
// `err` and its trial run again). A trial that fails (its process, or its data)
// is named on `err`, the others go on. Progress to `out`. Returns true when every
// trial of the task is done.
bool run_task(const StudyManifest &manifest, const std::string &dir, size_t task, size_t chunk,
              int jobs, std::ostream &out, std::ostream &err);

// The results of study `study` in the local runner's form (cells in order, trials
// in order, summarised and compared as run_study does); each trial is marked as
// taken from a store ("host": {"cached": true}), since this command did not run
// it. Trials without a valid result are added to `missing` (manifest indices) and
// the unreadable ones to `problems`; the results are complete only when nothing
// was added.
std::vector<CellResult> collect_study(const StudyManifest &manifest, const std::string &dir,
                                      size_t study, std::vector<size_t> &missing,
                                      std::vector<std::string> &problems);

// "tiny cell 'ddio rb' trial 1 (id 0123456789abcdef, array task 3)".
std::string describe_trial(const StudyManifest &manifest, size_t index);

} // namespace starfish::sim
