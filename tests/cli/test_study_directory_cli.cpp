// `starfish study plan | run-index | status | collect | submit` without a cluster
// (docs/cluster.md): array tasks run by hand give the local runner's tables, and
// bad input is refused naming the problem: a directory planned twice, an index
// past the end, submit without --slurm or without sbatch, a manifest of another
// build, an unreadable result (reported and counted missing, never done).
// tests/cli/test_slurm_cluster.cpp runs the same on a real Slurm cluster.
// Arguments (after --): path of the starfish binary, source directory.
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using nlohmann::json;
using starfish::testing::contains;
using starfish::testing::ProcessResult;
using starfish::testing::read_file;
using starfish::testing::run_starfish;
namespace fs = std::filesystem;

namespace {

struct Workspace {
    std::string path;
    Workspace() {
        char name[] = "/tmp/starfish_study_dir_cli_XXXXXX";
        path = ::mkdtemp(name);
        std::ofstream(path + "/tiny.json") << R"({"description": "directory test",
            "set": {"workload.record_bytes": 8192, "workload.file_mb": 0.25},
            "vary": [{"fs.kind": ["ddio", "spfs"]}]})";
    }
    ~Workspace() { fs::remove_all(path); }
    std::string study() const { return path + "/tiny.json"; }
    std::string dir() const { return path + "/d"; }
};

ProcessResult plan(const Workspace &w, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"study",    "plan",  w.study(), "--dir", w.dir(),
                                  "--config", "small", "--chunk", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_starfish(args);
}

ProcessResult run_index(const Workspace &w, int index) {
    return run_starfish({"study", "run-index", "--dir", w.dir(), "--index", std::to_string(index)});
}

} // namespace

BOOST_AUTO_TEST_SUITE(study_directory_cli)

BOOST_AUTO_TEST_CASE(array_tasks_run_by_hand_give_the_local_tables) {
    Workspace w;
    auto p = plan(w);
    BOOST_TEST_REQUIRE(p.exit_status == 0, p.err);
    BOOST_TEST(contains(p.out, "2 cells, 4 trials, 4 array tasks of 1 trial"), p.out);
    BOOST_TEST(fs::exists(w.dir() + "/manifest.json"));

    auto again = plan(w);
    BOOST_TEST(again.exit_status == 2);
    BOOST_TEST(contains(again.err, "already holds a study manifest"), again.err);

    auto past = run_index(w, 4);
    BOOST_TEST(past.exit_status == 2);
    BOOST_TEST(contains(past.err, "--index 4 is past the last array task (3; 4 trials, chunk 1)"),
               past.err);

    for (int i : {0, 1, 3}) {
        auto r = run_index(w, i);
        BOOST_TEST_REQUIRE(r.exit_status == 0, r.err);
    }
    auto status = run_starfish({"study", "status", "--dir", w.dir()});
    BOOST_TEST(status.exit_status == 1);
    BOOST_TEST(contains(status.out, "done 3, failed 0, missing 1"), status.out);
    BOOST_TEST(contains(status.out, "array tasks to run again: 2"), status.out);
    json manifest = json::parse(read_file(w.dir() + "/manifest.json"));
    const json &gap = manifest["trials"][2];
    std::string kind =
        manifest["studies"][0]["cells"][gap["cell"].get<size_t>()]["overrides"]["fs.kind"];
    BOOST_TEST(contains(status.out, "missing: tiny cell '" + kind + "' trial " +
                                        std::to_string(gap["trial"].get<int>()) + " (id " +
                                        gap["id"].get<std::string>() + ", array task 2)"),
               status.out);

    // An unreadable result is reported and counted missing.
    std::string victim =
        w.dir() + "/trials/" + manifest["trials"][0]["id"].get<std::string>() + ".json";
    std::ofstream(victim, std::ios::trunc) << "not json";
    auto broken = run_starfish({"study", "collect", "--dir", w.dir()});
    BOOST_TEST(broken.exit_status == 1);
    BOOST_TEST(contains(broken.err, "unreadable result, counted as missing: ignoring corrupt "
                                    "result file '" +
                                        victim + "'"),
               broken.err);
    BOOST_TEST(contains(broken.err, "2 of 4 trials have no result; array tasks to run again: 0,2"),
               broken.err);
    auto status2 = run_starfish({"study", "status", "--dir", w.dir()});
    BOOST_TEST(contains(status2.out, "unreadable: ignoring corrupt result file"), status2.out);

    for (int i : {0, 2}) {
        auto r = run_index(w, i);
        BOOST_TEST_REQUIRE(r.exit_status == 0, r.err);
    }
    auto collect =
        run_starfish({"study", "collect", "--dir", w.dir(), "--csv", w.path + "/dir.csv"});
    BOOST_TEST_REQUIRE(collect.exit_status == 0, collect.err);
    BOOST_TEST(contains(collect.out, "study tiny: 2 configurations, 4 trials, collected from"),
               collect.out);
    auto local = run_starfish(
        {"study", w.study(), "--config", "small", "--no-cache", "--csv", w.path + "/local.csv"});
    BOOST_TEST_REQUIRE(local.exit_status == 0, local.err);
    BOOST_TEST(read_file(w.path + "/dir.csv") == read_file(w.path + "/local.csv"));
}

BOOST_AUTO_TEST_CASE(submitting_needs_slurm_and_sbatch) {
    Workspace w;
    BOOST_TEST_REQUIRE(plan(w).exit_status == 0);
    auto no_flag = run_starfish({"study", "submit", "--dir", w.dir()});
    BOOST_TEST(no_flag.exit_status == 2);
    BOOST_TEST(contains(no_flag.err, "needs --slurm"), no_flag.err);

    // No sbatch on PATH (an empty directory).
    fs::create_directory(w.path + "/empty-bin");
    auto r = starfish::testing::run_process({"/usr/bin/env", "PATH=" + w.path + "/empty-bin",
                                             starfish::testing::starfish_binary(), "study",
                                             "submit", "--dir", w.dir(), "--slurm"});
    BOOST_TEST(r.exit_status == 1);
    BOOST_TEST(contains(r.err, "sbatch not found on PATH"), r.err);
    // The batch script is written before submitting: readable, with %A_%a logs.
    std::string script = read_file(w.dir() + "/starfish-array.sh");
    BOOST_TEST(contains(script, "#SBATCH --output=\"" + w.dir() + "/logs/%A_%a.out\""), script);
    BOOST_TEST(contains(script, "study run-index --dir '" + w.dir() +
                                    "' --index \"$SLURM_ARRAY_TASK_ID\" --chunk 1"),
               script);

    auto bad_arg =
        run_starfish({"study", "submit", "--dir", w.dir(), "--slurm", "--sbatch-arg", "mem=4G"});
    BOOST_TEST(bad_arg.exit_status == 2);
    BOOST_TEST(contains(bad_arg.err, "--sbatch-arg 'mem=4G' is not an sbatch option"), bad_arg.err);
}

BOOST_AUTO_TEST_CASE(a_directory_planned_by_another_build_is_refused) {
    Workspace w;
    // Another build: the same program with one more byte, hence another identity.
    std::string other = w.path + "/starfish-other";
    fs::copy_file(starfish::testing::starfish_binary(), other);
    std::ofstream(other, std::ios::app | std::ios::binary) << '\0';
    fs::permissions(other, fs::perms::owner_exec, fs::perm_options::add);
    auto planned = starfish::testing::run_process(
        {other, "study", "plan", w.study(), "--dir", w.dir(), "--config", "small"});
    BOOST_TEST_REQUIRE(planned.exit_status == 0, planned.err);
    auto r = run_index(w, 0);
    BOOST_TEST(r.exit_status == 2);
    BOOST_TEST(contains(r.err, "manifest.json was planned by simulator"), r.err);
    BOOST_TEST(contains(r.err, "results of two builds are never mixed"), r.err);
    BOOST_TEST(fs::is_empty(w.dir() + "/trials"));
    auto c = run_starfish({"study", "collect", "--dir", w.dir()});
    BOOST_TEST(c.exit_status == 2);
    BOOST_TEST(contains(c.err, "never mixed"), c.err);
    auto none = run_starfish({"study", "status", "--dir", w.path + "/nowhere"});
    BOOST_TEST(none.exit_status == 2);
    BOOST_TEST(contains(none.err, "is not a study directory: no manifest.json"), none.err);
}

BOOST_AUTO_TEST_SUITE_END()
