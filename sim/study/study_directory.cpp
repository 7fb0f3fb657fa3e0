#include "sim/study/study_directory.h"

#include "hw/config/config_error.h"
#include "hw/config/json_text.h"
#include "sim/parameters.h"
#include "sim/report/run_result.h"
#include "sim/report/safe_output.h"
#include "sim/report/study_table.h"
#include "sim/runner/isolated_run.h"
#include "sim/study/study_workload.h"
#include "sim/workload/workload.h"
#include "sim/workload_params.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <ostream>
#include <queue>
#include <set>

namespace starfish::sim {

using config::ConfigError;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr int kManifestFormat = 1;

// Host speed for the automatic chunk: estimated cost units (workload_trial_events,
// an SPFS request's event each) per wall second of one trial process. estimate:
// `starfish run` on the shared two-core development host at load average 11 gave
// 1.5 x 10^5 (SPFS rc, 8-byte records, 0.5 MB) and 3.8 x 10^5 (DDIO rb, 100 MB,
// in these units); an idle core is faster. Only the task length follows from it,
// and that only has to be right within a few times (docs/cluster.md, "Chunks").
constexpr double kEventsPerSecond = 2.0e5;

std::string manifest_path(const std::string &dir) {
    return dir + "/manifest.json";
}

// FNV-1a 64 of the manifest's canonical JSON without its digest: a manifest
// changed after planning (a study's definition, a cell, a trial) is refused.
std::string manifest_digest(json doc) {
    doc.erase("digest");
    return content_digest(doc.dump());
}

config::Config config_from_flat(const json &flat, const std::string &origin) {
    config::Config cfg(parameter_registry());
    if (!flat.is_object()) {
        throw ConfigError(origin + ": the configuration must be an object of key: value");
    }
    for (auto it = flat.begin(); it != flat.end(); ++it) {
        cfg.set(it.key(), *it, origin);
    }
    cfg.validate();
    return cfg;
}

StudySpec spec_from_definition(const json &definition, const std::string &path,
                               const std::string &name) {
    std::string base_dir = fs::path(path).parent_path().string();
    StudySpec spec = parse_study(definition, path, base_dir.empty() ? "." : base_dir);
    spec.name = name;
    return spec;
}

} // namespace

DirectoryStudy directory_study(StudySpec spec, const std::string &path,
                               std::vector<StudyCell> cells) {
    DirectoryStudy study;
    study.path = fs::absolute(path).lexically_normal().string();
    study.spec = std::move(spec);
    study.definition = read_json_document(study.path, "study file");
    study.cells = std::move(cells);
    return study;
}

DirectoryStudy load_directory_study(const std::string &path, const config::Config &base) {
    StudySpec spec = load_study(path);
    std::vector<StudyCell> cells = expand_study(spec, base);
    check_workload_kinds(spec, cells);
    return directory_study(std::move(spec), path, std::move(cells));
}

double estimated_trial_seconds(const config::Config &cfg) {
    return workload_trial_events(cfg) / kEventsPerSecond;
}

size_t choose_chunk(const std::vector<double> &trial_seconds, size_t max_tasks) {
    size_t n = trial_seconds.size();
    if (n == 0) {
        return 1;
    }
    double total = std::accumulate(trial_seconds.begin(), trial_seconds.end(), 0.0);
    double mean = std::max(total / static_cast<double>(n), 1e-6);
    // The small allowance keeps 30 / 0.01 at 3000 despite rounding.
    auto by_time = static_cast<size_t>(std::ceil(kTargetTaskSeconds / mean - 1e-9));
    size_t by_limit = (n + max_tasks - 1) / max_tasks;
    return std::clamp(std::max(by_time, by_limit), size_t{1}, n);
}

StudyManifest plan_manifest(std::vector<DirectoryStudy> studies, const config::Config &base,
                            size_t chunk) {
    StudyManifest m;
    m.simulator = simulator_identity();
    m.base = base.to_flat_json();
    m.studies = std::move(studies);
    TrialCache ids("", m.simulator, TrialCache::Layout::Flat);
    std::set<std::string> seen;
    std::vector<double> seconds;
    for (size_t s = 0; s < m.studies.size(); ++s) {
        const DirectoryStudy &study = m.studies[s];
        if (!study.spec.derived_from.empty()) {
            throw ConfigError("study " + study.spec.name + " has no cells of its own");
        }
        for (const auto &t : study_trials(study.cells)) {
            const config::Config &cfg = study.cells[t.cell].cfg;
            std::string id = ids.entry_name(cfg, t.trial);
            if (seen.insert(id).second) {
                m.trials.push_back(ManifestTrial{id, s, t.cell, t.trial});
                seconds.push_back(estimated_trial_seconds(cfg));
            }
        }
    }
    m.chunk = chunk > 0 ? chunk : choose_chunk(seconds);
    if (m.tasks() > kMaxArrayTasks) {
        throw ConfigError("--chunk " + std::to_string(chunk) + " gives " +
                          std::to_string(m.tasks()) + " array tasks for " +
                          std::to_string(m.trials.size()) + " trials; Slurm's default " +
                          "MaxArraySize allows " + std::to_string(kMaxArrayTasks) +
                          " (use a larger chunk, or 0 to choose it)");
    }
    std::vector<ManifestTrial> in_study_order = std::move(m.trials);
    m.trials.clear();
    for (size_t i : balanced_order(seconds, m.chunk)) {
        m.trials.push_back(in_study_order[i]);
        m.trials.back().estimated_s = seconds[i];
    }
    return m;
}

std::vector<size_t> balanced_order(const std::vector<double> &costs, size_t chunk) {
    const size_t n = costs.size();
    const size_t tasks = n == 0 ? 0 : (n + chunk - 1) / chunk;
    std::vector<size_t> by_cost(n);
    std::iota(by_cost.begin(), by_cost.end(), size_t{0});
    std::stable_sort(by_cost.begin(), by_cost.end(),
                     [&](size_t a, size_t b) { return costs[a] > costs[b]; });
    // Longest first, each to the least loaded task that still has room (the last
    // task holds what is left over): every task ends with about the same work.
    using Load = std::pair<double, size_t>; // (cost so far, task)
    std::priority_queue<Load, std::vector<Load>, std::greater<Load>> open;
    for (size_t t = 0; t < tasks; ++t) {
        open.push({0.0, t});
    }
    std::vector<std::vector<size_t>> members(tasks);
    for (size_t i : by_cost) {
        auto [load, t] = open.top();
        open.pop();
        members[t].push_back(i);
        size_t room = t + 1 < tasks ? chunk : n - (tasks - 1) * chunk;
        if (members[t].size() < room) {
            open.push({load + costs[i], t});
        }
    }
    std::vector<size_t> order;
    for (auto &task : members) {
        std::sort(task.begin(), task.end()); // the study's order within a task
        order.insert(order.end(), task.begin(), task.end());
    }
    return order;
}

void write_manifest(const StudyManifest &m, const std::string &dir) {
    for (const char *sub : {"trials", "logs"}) {
        std::error_code ec;
        fs::create_directories(fs::path(dir) / sub, ec);
        if (ec) {
            throw std::runtime_error("cannot create '" + (fs::path(dir) / sub).string() +
                                     "': " + ec.message());
        }
    }
    json studies = json::array();
    for (const auto &s : m.studies) {
        json cells = json::array();
        for (const auto &c : s.cells) {
            cells.push_back(json{{"overrides", c.overrides}, {"config", c.cfg.to_flat_json()}});
        }
        studies.push_back(json{{"name", s.spec.name},
                               {"path", s.path},
                               {"definition", s.definition},
                               {"cells", cells}});
    }
    json trials = json::array();
    for (const auto &t : m.trials) {
        trials.push_back(json{{"id", t.id},
                              {"study", t.study},
                              {"cell", t.cell},
                              {"trial", t.trial},
                              {"estimated_s", t.estimated_s}});
    }
    json doc{{"format", kManifestFormat}, {"starfish_version", starfish_version()},
             {"simulator", m.simulator},  {"chunk", m.chunk},
             {"tasks", m.tasks()},        {"config", m.base},
             {"studies", studies},        {"trials", trials}};
    doc["digest"] = manifest_digest(doc);
    std::string problem = replace_file_atomically(manifest_path(dir), doc.dump(1) + "\n");
    if (!problem.empty()) {
        throw std::runtime_error("the manifest of " + dir + " not written: " + problem);
    }
}

StudyManifest read_manifest(const std::string &dir) {
    const std::string path = manifest_path(dir);
    if (!fs::exists(path)) {
        throw ConfigError("'" + dir + "' is not a study directory: no manifest.json (make one " +
                          "with `starfish study plan STUDY --dir " + dir + "`)");
    }
    json doc = read_json_document(path, "manifest");
    auto fail = [&](const std::string &msg) { throw ConfigError(path + ": " + msg); };
    if (!doc.is_object() || !doc.contains("digest") || doc["digest"] != manifest_digest(doc)) {
        fail("its digest does not match its content: it was changed after it was planned (or "
             "planned by an older build); plan the directory again (`starfish study plan "
             "STUDY --dir " +
             dir + " --force`)");
    }
    try {
        if (!doc.is_object() || doc.value("format", 0) != kManifestFormat) {
            fail("not a study manifest of format " + std::to_string(kManifestFormat));
        }
        StudyManifest m;
        m.simulator = doc.at("simulator").get<std::string>();
        m.base = doc.at("config");
        m.chunk = doc.at("chunk").get<size_t>();
        if (m.chunk == 0) {
            fail("chunk must be at least 1");
        }
        for (const auto &s : doc.at("studies")) {
            DirectoryStudy study;
            study.path = s.at("path").get<std::string>();
            study.definition = s.at("definition");
            study.spec =
                spec_from_definition(study.definition, study.path, s.at("name").get<std::string>());
            for (const auto &c : s.at("cells")) {
                std::string origin = path + " study " + study.spec.name + " cell " +
                                     config::printable_json(c.at("overrides"), 200);
                study.cells.push_back(
                    StudyCell{c.at("overrides"), config_from_flat(c.at("config"), origin)});
            }
            m.studies.push_back(std::move(study));
        }
        TrialCache ids("", m.simulator, TrialCache::Layout::Flat);
        for (const auto &t : doc.at("trials")) {
            ManifestTrial trial{t.at("id").get<std::string>(), t.at("study").get<size_t>(),
                                t.at("cell").get<size_t>(), t.at("trial").get<int>(),
                                t.value("estimated_s", 0.0)};
            if (trial.study >= m.studies.size() ||
                trial.cell >= m.studies[trial.study].cells.size()) {
                fail("trial " + trial.id + " names a study or cell the manifest does not have");
            }
            const config::Config &cfg = m.studies[trial.study].cells[trial.cell].cfg;
            if (ids.entry_name(cfg, trial.trial) != trial.id) {
                fail("trial " + trial.id +
                     " does not match its configuration (the manifest was edited, or this "
                     "build reads the configuration differently)");
            }
            m.trials.push_back(std::move(trial));
        }
        return m;
    } catch (const json::exception &e) {
        fail("malformed manifest (" + config::printable(e.what(), 300) + ")");
    }
    return {};
}

config::Config manifest_base_config(const StudyManifest &m, const std::string &dir) {
    return config_from_flat(m.base, manifest_path(dir) + " config");
}

void require_same_simulator(const StudyManifest &m, const std::string &dir) {
    if (m.simulator != simulator_identity()) {
        throw ConfigError(manifest_path(dir) + " was planned by simulator " + m.simulator +
                          ", this is " + simulator_identity() +
                          "; results of two builds are never mixed: use the build that planned "
                          "it, or plan a new directory");
    }
}

TrialCache directory_results(const StudyManifest &m, const std::string &dir) {
    return TrialCache(dir + "/trials", m.simulator, TrialCache::Layout::Flat);
}

const config::Config &trial_config(const StudyManifest &m, const ManifestTrial &t) {
    return m.studies[t.study].cells[t.cell].cfg;
}

std::pair<size_t, size_t> task_trials(size_t task, size_t chunk, size_t trial_count) {
    size_t first = std::min(task * chunk, trial_count);
    return {first, std::min(first + chunk, trial_count)};
}

std::vector<size_t> tasks_of(const std::vector<size_t> &trials, size_t chunk) {
    std::set<size_t> tasks;
    for (size_t t : trials) {
        tasks.insert(t / chunk);
    }
    return {tasks.begin(), tasks.end()};
}

std::string array_ranges(const std::vector<size_t> &indices) {
    std::string out;
    for (size_t i = 0; i < indices.size();) {
        size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) {
            ++j;
        }
        out += (out.empty() ? "" : ",") + std::to_string(indices[i]);
        if (j > i) {
            out += "-" + std::to_string(indices[j]);
        }
        i = j + 1;
    }
    return out;
}

std::vector<size_t> DirectoryState::to_run() const {
    std::vector<size_t> all = missing;
    all.insert(all.end(), failed.begin(), failed.end());
    std::sort(all.begin(), all.end());
    return all;
}

DirectoryState scan_results(const StudyManifest &m, const std::string &dir) {
    DirectoryState state;
    TrialCache results = directory_results(m, dir);
    for (size_t i = 0; i < m.trials.size(); ++i) {
        std::string warning;
        auto result = results.read(trial_config(m, m.trials[i]), m.trials[i].trial, warning);
        if (result && TrialCache::done(*result)) {
            state.done.push_back(i);
        } else if (result) {
            state.failed.push_back(i);
        } else {
            state.missing.push_back(i);
            if (!warning.empty()) {
                state.problems.push_back(warning);
            }
        }
    }
    return state;
}

std::string describe_trial(const StudyManifest &m, size_t index) {
    const ManifestTrial &t = m.trials[index];
    const DirectoryStudy &s = m.studies[t.study];
    return s.spec.name + " cell '" + cell_label(s.cells[t.cell].overrides) + "' trial " +
           std::to_string(t.trial) + " (id " + t.id + ", array task " +
           std::to_string(index / m.chunk) + ")";
}

bool run_task(const StudyManifest &m, const std::string &dir, size_t task, size_t chunk, int jobs,
              std::ostream &out, std::ostream &err) {
    auto [first, last] = task_trials(task, chunk, m.trials.size());
    TrialCache results = directory_results(m, dir);
    std::vector<size_t> to_run;
    for (size_t i = first; i < last; ++i) {
        std::string warning;
        auto result = results.load(trial_config(m, m.trials[i]), m.trials[i].trial, warning);
        if (result && TrialCache::done(*result)) {
            out << "  " << describe_trial(m, i) << ": done already\n";
            continue;
        }
        if (!warning.empty()) {
            err << "starfish: warning: " << warning << "\n";
        }
        to_run.push_back(i); // never run, unreadable, or its data did not verify
    }
    out << "array task " << task << ": trials " << first << ".." << (last == 0 ? 0 : last - 1)
        << " of " << m.trials.size() << ", " << to_run.size() << " to run, " << jobs << " at once\n"
        << std::flush;
    std::vector<IsolatedJob> work;
    for (size_t i : to_run) {
        const config::Config *cfg = &trial_config(m, m.trials[i]);
        int trial = m.trials[i].trial;
        work.push_back([cfg, trial] { return run_workload_trial(*cfg, trial); });
    }
    bool complete = true;
    run_isolated_each(work, std::max(jobs, 1), [&](size_t j, const IsolatedOutcome &outcome) {
        const ManifestTrial &t = m.trials[to_run[j]];
        const config::Config &cfg = trial_config(m, t);
        out << "  " << describe_trial(m, to_run[j]) << ": ";
        if (!outcome.ok()) {
            // Nothing to record: the trial has no result and stays missing.
            complete = false;
            out << "FAILED\n" << std::flush;
            err << "starfish: error: " << describe_trial(m, to_run[j])
                << " failed: " << outcome.error << "\n";
            return;
        }
        // A trial whose data did not verify is recorded (status and collect name it)
        // but is not done: resubmit runs it again.
        std::string problem = results.store(cfg, t.trial, outcome.result);
        out << workload_kind(cfg.get_string(keys::workload_kind)).trial_line(outcome.result);
        if (!problem.empty()) {
            complete = false;
            err << "starfish: error: result not saved: " << problem << "\n";
            out << " (NOT SAVED)";
        }
        if (!TrialCache::done(outcome.result)) {
            complete = false;
            err << "starfish: error: " << describe_trial(m, to_run[j])
                << ": data verification failed\n";
        }
        out << "\n" << std::flush;
    });
    return complete;
}

std::vector<CellResult> collect_study(const StudyManifest &m, const std::string &dir, size_t study,
                                      std::vector<size_t> &missing,
                                      std::vector<std::string> &problems) {
    const DirectoryStudy &s = m.studies[study];
    TrialCache results = directory_results(m, dir);
    std::map<std::string, size_t> index_of;
    for (size_t i = 0; i < m.trials.size(); ++i) {
        index_of.emplace(m.trials[i].id, i);
    }
    std::vector<CellResult> out(s.cells.size());
    bool complete = true;
    for (const auto &t : study_trials(s.cells)) {
        const config::Config &cfg = s.cells[t.cell].cfg;
        std::string warning;
        auto result = results.read(cfg, t.trial, warning);
        if (!result) {
            complete = false;
            auto at = index_of.find(results.entry_name(cfg, t.trial));
            if (at != index_of.end()) {
                missing.push_back(at->second);
            }
            if (!warning.empty()) {
                problems.push_back(warning);
            }
            continue;
        }
        // Measured by the array task that ran it, not by this command.
        (*result)["host"] = json{{"cached", true}};
        out[t.cell].trials.push_back(std::move(*result));
    }
    if (!complete) {
        return {};
    }
    return summarise_cells(s.spec, s.cells, std::move(out));
}

} // namespace starfish::sim
