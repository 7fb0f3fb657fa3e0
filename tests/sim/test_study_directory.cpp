// The study directory (sim/study/study_directory.h, docs/cluster.md): manifest ids
// are stable across runs and change with the configuration, array chunks cover
// every trial exactly once within Slurm's array limit, collecting a partial
// directory names what is missing (an unreadable result counts as missing, never
// as done), and a complete directory gives the local runner's results.
#include "hw/config/config_error.h"
#include "hw/config/loader.h"
#include "sim/parameters.h"
#include "sim/study/slurm.h"
#include "sim/study/study_directory.h"
#include "sim/study/study_workload.h"
#include "tests/support/config_error_of.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace starfish;
using namespace starfish::sim;
using nlohmann::json;
using starfish::testing::config_error_of;
using starfish::testing::TempDir;
namespace fs = std::filesystem;

namespace {

// The small machine (sim/configs/small.json), as `--config small` gives it.
config::Config small_base(const std::vector<std::string> &sets = {}) {
    config::Config cfg(parameter_registry());
    config::apply_json_text(cfg, default_config_text(), "default.json");
    config::apply_file(cfg, config::resolve_config_path("small", config_dir()));
    for (const auto &s : sets) {
        config::apply_override(cfg, s);
    }
    cfg.validate();
    return cfg;
}

// Two cells, two trials each (small.json), quick ones.
std::string write_study(const std::string &dir) {
    std::string path = dir + "/tiny.json";
    std::ofstream(path) << R"({"set": {"workload.record_bytes": 8192, "workload.file_mb": 0.25},
        "vary": [{"fs.kind": ["ddio", "spfs"]}]})";
    return path;
}

StudyManifest plan(const std::string &study, const config::Config &base, size_t chunk = 0) {
    std::vector<DirectoryStudy> studies{load_directory_study(study, base)};
    return plan_manifest(std::move(studies), base, chunk);
}

std::vector<std::string> ids(const StudyManifest &m) {
    std::vector<std::string> v;
    for (const auto &t : m.trials) {
        v.push_back(t.id);
    }
    return v;
}

json strip_host(json trial) {
    trial.erase("host");
    trial.erase("host_cpu_s");
    return trial;
}

} // namespace

BOOST_AUTO_TEST_SUITE(study_directory)

BOOST_AUTO_TEST_CASE(manifest_ids_are_stable_across_runs_and_follow_the_configuration) {
    TempDir d("starfish_study_dir");
    std::string study = write_study(d.path);
    StudyManifest a = plan(study, small_base());
    StudyManifest b = plan(study, small_base());
    BOOST_TEST_REQUIRE(a.trials.size() == 4u);
    BOOST_TEST(ids(a) == ids(b));
    std::vector<std::string> all = ids(a);
    std::set<std::string> unique(all.begin(), all.end());
    BOOST_TEST(unique.size() == 4u);

    // Written and read back: the same ids, recomputed from the stored configurations.
    write_manifest(a, d.path + "/dir");
    BOOST_TEST(fs::is_directory(d.path + "/dir/trials"));
    BOOST_TEST(fs::is_directory(d.path + "/dir/logs"));
    StudyManifest read = read_manifest(d.path + "/dir");
    BOOST_TEST(ids(read) == ids(a));
    BOOST_TEST(read.chunk == a.chunk);
    BOOST_TEST(read.trials[0].estimated_s > 0);
    BOOST_TEST(read.trials[0].estimated_s == a.trials[0].estimated_s);
    BOOST_TEST(read.studies[0].cells[1].cfg.to_flat_json() ==
               a.studies[0].cells[1].cfg.to_flat_json());

    // More trials keep the ids of the first ones; another parameter changes all.
    StudyManifest more = plan(study, small_base({"workload.trials=3"}));
    BOOST_TEST(more.trials.size() == 6u);
    BOOST_TEST(more.trials[0].id == a.trials[0].id);
    BOOST_TEST(more.trials[1].id == a.trials[1].id);
    StudyManifest other = plan(study, small_base({"cost.ddio_piece_cycles=400"}));
    BOOST_TEST(other.trials[0].id != a.trials[0].id);
}

BOOST_AUTO_TEST_CASE(chunks_cover_every_trial_exactly_once) {
    for (size_t n : {1u, 7u, 1000u, 1001u, 1002u, 5000u, 123457u}) {
        for (size_t chunk : {1u, 2u, 3u, 7u, 64u, 1000u}) {
            std::vector<int> runs(n, 0);
            size_t tasks = (n + chunk - 1) / chunk;
            for (size_t task = 0; task < tasks; ++task) {
                auto [first, last] = task_trials(task, chunk, n);
                BOOST_TEST_REQUIRE(first < last);
                for (size_t i = first; i < last; ++i) {
                    ++runs[i];
                }
            }
            auto past = task_trials(tasks, chunk, n);
            BOOST_TEST(past.first == past.second);
            BOOST_TEST(std::count(runs.begin(), runs.end(), 1) == static_cast<long>(n),
                       "n " << n << " chunk " << chunk);
        }
    }
    // Short trials share a task (about kTargetTaskSeconds each); long ones run alone;
    // a huge study stays within Slurm's default MaxArraySize.
    BOOST_TEST(choose_chunk(std::vector<double>(5000, 0.01)) == 3000u);
    BOOST_TEST(choose_chunk(std::vector<double>(50, 120.0)) == 1u);
    BOOST_TEST(choose_chunk(std::vector<double>(3, 0.01)) == 3u);
    size_t huge = choose_chunk(std::vector<double>(200000, 100.0));
    BOOST_TEST((200000 + huge - 1) / huge <= kMaxArrayTasks);

    // Balanced: the three long trials go to three tasks, whatever their places.
    std::vector<double> costs{100, 1, 1, 1, 1, 1, 1, 1, 100, 1, 1, 100, 1, 1};
    std::vector<size_t> order = balanced_order(costs, 4);
    std::vector<size_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<size_t> all(costs.size());
    std::iota(all.begin(), all.end(), size_t{0});
    BOOST_TEST(sorted == all);
    for (size_t task = 0; task < 4; ++task) {
        auto [first, last] = task_trials(task, 4, order.size());
        double work = 0;
        for (size_t i = first; i < last; ++i) {
            work += costs[order[i]];
            BOOST_TEST((i == first || order[i - 1] < order[i])); // study order within a task
        }
        BOOST_TEST(work <= (task < 3 ? 103.0 : 2.0), "task " << task << " work " << work);
    }

    BOOST_TEST(tasks_of({5, 0, 3, 4, 4}, 2) == (std::vector<size_t>{0, 1, 2}));
    BOOST_TEST(array_ranges({0, 1, 2, 3, 7, 9, 10}) == "0-3,7,9-10");
    BOOST_TEST(array_ranges({4}) == "4");
}

BOOST_AUTO_TEST_CASE(an_explicit_chunk_beyond_the_array_limit_is_refused) {
    TempDir d("starfish_study_dir");
    std::string study = write_study(d.path);
    // 2 cells x 100 trials in tasks of 1 would be 200 tasks: fine; 1001 is the limit.
    BOOST_TEST(plan(study, small_base({"workload.trials=100"}), 1).tasks() == 200u);
    std::ofstream(d.path + "/wide.json") << R"({"set": {"workload.file_mb": 0.25},
        "vary": [{"workload.record_bytes": [512, 1024, 2048, 4096, 8192, 16384]}]})";
    std::string err = config_error_of(
        [&] { plan(d.path + "/wide.json", small_base({"workload.trials=200"}), 1); });
    BOOST_TEST(err.find("1200 array tasks") != std::string::npos, err);
    BOOST_TEST(err.find("MaxArraySize") != std::string::npos, err);
}

BOOST_AUTO_TEST_CASE(collect_on_a_partial_directory_reports_what_is_missing) {
    TempDir d("starfish_study_dir");
    std::string study = write_study(d.path);
    std::string dir = d.path + "/dir";
    write_manifest(plan(study, small_base(), 2), dir);
    StudyManifest m = read_manifest(dir);
    BOOST_TEST_REQUIRE(m.tasks() == 2u);

    std::ostringstream out, err;
    BOOST_TEST(run_task(m, dir, 0, m.chunk, 2, out, err));
    std::vector<size_t> missing;
    std::vector<std::string> problems;
    BOOST_TEST(collect_study(m, dir, 0, missing, problems).empty());
    BOOST_TEST(missing == (std::vector<size_t>{2, 3}));
    BOOST_TEST(problems.empty());
    DirectoryState state = scan_results(m, dir);
    BOOST_TEST(state.done == (std::vector<size_t>{0, 1}));

    // A result that does not parse is reported and counted as missing.
    std::string victim = dir + "/trials/" + m.trials[0].id + ".json";
    std::ofstream(victim, std::ios::trunc) << "{\"key\": ";
    missing.clear();
    BOOST_TEST(collect_study(m, dir, 0, missing, problems).empty());
    BOOST_TEST(missing == (std::vector<size_t>{0, 2, 3}));
    BOOST_TEST_REQUIRE(problems.size() == 1u);
    BOOST_TEST(problems[0].find("ignoring corrupt result file '" + victim + "'") !=
                   std::string::npos,
               problems[0]);
    state = scan_results(m, dir);
    BOOST_TEST(state.missing == (std::vector<size_t>{0, 2, 3}));
    BOOST_TEST(tasks_of(state.missing, m.chunk) == (std::vector<size_t>{0, 1}));

    // Running both tasks again runs only what is missing, then collect is complete
    // and gives what the local runner gives.
    std::ostringstream out2, err2;
    BOOST_TEST(run_task(m, dir, 0, m.chunk, 1, out2, err2));
    BOOST_TEST(out2.str().find("done already") != std::string::npos, out2.str());
    BOOST_TEST(err2.str().find(victim) != std::string::npos, err2.str());
    BOOST_TEST(run_task(m, dir, 1, m.chunk, 2, out2, err2));
    missing.clear();
    problems.clear();
    auto collected = collect_study(m, dir, 0, missing, problems);
    BOOST_TEST(missing.empty());
    BOOST_TEST_REQUIRE(collected.size() == 2u);
    auto local = run_study(m.studies[0].spec, m.studies[0].cells, run_workload_trial, 2);
    for (size_t c = 0; c < 2; ++c) {
        BOOST_TEST(collected[c].summary == local[c].summary);
        BOOST_TEST(collected[c].overrides == local[c].overrides);
        BOOST_TEST_REQUIRE(collected[c].trials.size() == local[c].trials.size());
        for (size_t t = 0; t < local[c].trials.size(); ++t) {
            BOOST_TEST(collected[c].trials[t]["host"] == (json{{"cached", true}}));
            BOOST_TEST(strip_host(collected[c].trials[t]) == strip_host(local[c].trials[t]));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_manifest_of_another_build_or_edited_by_hand_is_refused) {
    TempDir d("starfish_study_dir");
    std::string study = write_study(d.path);
    std::string dir = d.path + "/dir";
    write_manifest(plan(study, small_base()), dir);
    BOOST_TEST(config_error_of([&] { require_same_simulator(read_manifest(dir), dir); }).empty());

    // A manifest another build planned: its own identity, its ids computed with it.
    StudyManifest other = read_manifest(dir);
    other.simulator = "0.0.1+exe.0123456789abcdef";
    TrialCache other_ids("", other.simulator, TrialCache::Layout::Flat);
    for (auto &t : other.trials) {
        t.id = other_ids.entry_name(trial_config(other, t), t.trial);
    }
    write_manifest(other, d.path + "/other");
    std::string err =
        config_error_of([&] { require_same_simulator(read_manifest(d.path + "/other"), dir); });
    BOOST_TEST(err.find("was planned by simulator 0.0.1+exe.0123456789abcdef") != std::string::npos,
               err);
    BOOST_TEST(err.find("never mixed") != std::string::npos, err);

    json doc = json::parse(std::ifstream(dir + "/manifest.json"));
    json edited = doc;
    edited["studies"][0]["cells"][0]["config"]["workload.file_mb"] = 0.5;
    std::ofstream(dir + "/manifest.json", std::ios::trunc) << edited.dump();
    err = config_error_of([&] { read_manifest(dir); });
    BOOST_TEST(err.find("its digest does not match its content") != std::string::npos, err);

    err = config_error_of([&] { read_manifest(d.path + "/nowhere"); });
    BOOST_TEST(err.find("not a study directory") != std::string::npos, err);
}

BOOST_AUTO_TEST_CASE(the_batch_script_quotes_paths_and_refuses_what_would_be_a_command) {
    TempDir d("starfish_study_dir");
    StudyManifest m = plan(write_study(d.path), small_base());
    // A directory with a space and Slurm's own '%': one quoted value, '%' doubled.
    const std::string dir = "/shared/my study/100%";
    SlurmOptions opts;
    opts.partition = "debug";
    opts.time_limit = "1-02:00:00";
    std::string script = batch_script(m, dir, "/opt/star fish/starfish", opts);
    BOOST_TEST(script.find("#SBATCH --output=\"/shared/my study/100%%/logs/%A_%a.out\"\n") !=
                   std::string::npos,
               script);
    BOOST_TEST(script.find("exec '/opt/star fish/starfish' study run-index --dir "
                           "'/shared/my study/100%'") != std::string::npos,
               script);
    BOOST_TEST(script.find("#SBATCH --partition=debug\n") != std::string::npos, script);
    // A newline in an option would end the #SBATCH line and start a command.
    for (auto bad : {std::make_pair(&SlurmOptions::partition, "debug\nrm -rf ~"),
                     std::make_pair(&SlurmOptions::time_limit, "1:00 --wrap=x"),
                     std::make_pair(&SlurmOptions::partition, "a\"b")}) {
        SlurmOptions o;
        o.*bad.first = bad.second;
        std::string err = config_error_of([&] { check_slurm_options(o); });
        BOOST_TEST(err.find("only letters, digits") != std::string::npos, err);
        BOOST_TEST(err.find('\n') == std::string::npos, err);
    }
    SlurmOptions arg;
    arg.sbatch_args = {"--mem=4G\necho owned"};
    BOOST_TEST(config_error_of([&] { check_slurm_options(arg); }).find("control characters") !=
               std::string::npos);
    BOOST_TEST(config_error_of([&] {
                   batch_script(m, "/shared/a\"b", "/bin/starfish", {});
               }).find("double quote") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
