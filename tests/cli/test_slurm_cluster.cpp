// `starfish study submit --slurm` on a real Slurm cluster (docs/cluster.md): the
// test starts munged, slurmctld and slurmd on loopback (tests/support/
// slurm_cluster.h), plans a small study with one array task made to fail (its
// result file's name is taken by a directory, so the task cannot save it), checks
// that status shows the trial missing and the log says why, resubmits the gap,
// and compares what collect prints and writes with the local runner's output for
// the same study. `starfish reproduce --slurm --wait` then makes the same tables.
// Skipped (exit 77) only when the Slurm packages are not installed or the test
// is not root. Arguments (after --): the starfish binary, the source directory.
#include "tests/support/slurm_cluster.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

using nlohmann::json;
using starfish::testing::contains;
using starfish::testing::ProcessResult;
using starfish::testing::read_file;
using starfish::testing::run_starfish;
using starfish::testing::SlurmCluster;
namespace fs = std::filesystem;

namespace {

constexpr int kSkipped = 77; // CTest SKIP_RETURN_CODE

// A temporary directory with a four-cell study on the small machine, compared
// with a published table so the comparison line is printed too.
struct Workspace {
    std::string path;
    Workspace() {
        char name[] = "/tmp/starfish_slurm_study_XXXXXX";
        path = ::mkdtemp(name);
        std::ofstream(path + "/published.csv") << "method,pattern,mbps\nddio,rb,10\nspfs,rc,2\n";
        std::ofstream(path + "/tiny.json") << R"({"description": "slurm test",
            "set": {"workload.record_bytes": 8192, "workload.file_mb": 0.25},
            "vary": [{"fs.kind": ["ddio", "spfs"]}, {"workload.pattern": ["rb", "rc"]}],
            "compare": {"file": "published.csv", "value": "mbps",
                        "columns": {"method": "fs.kind", "pattern": "workload.pattern"}}})";
    }
    ~Workspace() { fs::remove_all(path); }
    std::string study() const { return path + "/tiny.json"; }
    // A space and a '%' in the directory: the batch script quotes the log path and
    // doubles Slurm's '%' (issue 34 item 15).
    std::string dir() const { return path + "/cluster 100%"; }
};

// The per-cell table and comparison: from the table's header to the host line.
std::string table_block(const std::string &out) {
    std::istringstream lines(out);
    std::string block;
    bool in_table = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("host:", 0) == 0) {
            break;
        }
        in_table = in_table || (line.rfind("study ", 0) != 0 && line.rfind("  ", 0) != 0);
        if (in_table) {
            block += line + "\n";
        }
    }
    return block;
}

// Simulated figures of every trial and every cell's summary; host fields left out.
json simulated(const json &doc) {
    json cells = json::array();
    for (json cell : doc["cells"]) {
        for (auto &t : cell["trials"]) {
            t.erase("host");
            t.erase("host_cpu_s");
        }
        cells.push_back(cell);
    }
    return json{{"cells", cells},
                {"summary", doc["summary"]},
                {"config", doc["config"]},
                {"study", doc["study"]}};
}

json read_json(const std::string &path) {
    return json::parse(read_file(path));
}

// A command that waits for Slurm: killed (its process group) after 120 s, so a
// stuck cluster fails the test instead of hanging it.
ProcessResult run_waiting(std::vector<std::string> args) {
    args.insert(args.begin(), starfish::testing::starfish_binary());
    return starfish::testing::run_process(args, 120);
}

std::string job_of(const std::string &submit_out) {
    auto at = submit_out.find("submitted job ");
    if (at == std::string::npos) {
        return "";
    }
    std::istringstream rest(submit_out.substr(at + 14));
    std::string id;
    rest >> id;
    return id.substr(0, id.find(':'));
}

} // namespace

BOOST_AUTO_TEST_SUITE(slurm_cluster)

BOOST_AUTO_TEST_CASE(a_failed_array_task_is_resubmitted_and_collect_matches_the_local_run) {
    std::string reason = SlurmCluster::unavailable_reason();
    if (!reason.empty()) {
        std::cerr << "SKIPPED: no Slurm test cluster here: " << reason << "\n" << std::flush;
        std::_Exit(kSkipped);
    }
    Workspace w;
    auto local = run_starfish({"study", w.study(), "--config", "small", "--jobs", "2", "--no-cache",
                               "--csv", w.path + "/local.csv", "--markdown", w.path + "/local.md",
                               "--json", w.path + "/local.json"});
    BOOST_TEST_REQUIRE(local.exit_status == 0, local.err);
    BOOST_TEST(contains(local.out, "published comparison: 2 cells"), local.out);

    SlurmCluster cluster;
    auto plan = run_starfish(
        {"study", "plan", w.study(), "--dir", w.dir(), "--config", "small", "--chunk", "2"});
    BOOST_TEST_REQUIRE(plan.exit_status == 0, plan.err);
    BOOST_TEST(contains(plan.out, "8 trials, 4 array tasks of 2 trials"), plan.out);

    // Array task 1 cannot save its first trial: a directory has the result's name.
    json manifest = read_json(w.dir() + "/manifest.json");
    std::string blocked =
        w.dir() + "/trials/" + manifest["trials"][2]["id"].get<std::string>() + ".json";
    fs::create_directories(blocked + "/in-the-way");

    // A submission Slurm refuses is reported with sbatch's reason.
    auto refused = run_starfish(
        {"study", "submit", "--dir", w.dir(), "--slurm", "--partition", "no-such-partition"});
    BOOST_TEST(refused.exit_status == 1);
    BOOST_TEST(contains(refused.err, "sbatch refused the submission"), refused.err);
    BOOST_TEST(contains(refused.err, "partition"), refused.err);

    auto submit =
        run_starfish({"study", "submit", "--dir", w.dir(), "--slurm", "--max-parallel", "2"});
    BOOST_TEST_REQUIRE(submit.exit_status == 0, submit.err + cluster.logs());
    BOOST_TEST(contains(submit.out, "(--array=0-3%2)"), submit.out);
    std::string job = job_of(submit.out);
    BOOST_TEST_REQUIRE(!job.empty(), submit.out);
    std::string script = read_file(w.dir() + "/starfish-array.sh");
    BOOST_TEST(contains(script, "#SBATCH --output=\"" + w.path + "/cluster 100%%/logs/%A_%a.out\""),
               script);

    auto status = run_waiting({"study", "status", "--dir", w.dir(), "--wait"});
    BOOST_TEST(status.exit_status == 1, status.out + status.err + cluster.logs());
    BOOST_TEST(contains(status.out, "done 7, failed 0, missing 1"), status.out);
    BOOST_TEST(contains(status.out, "array tasks to run again: 1\n"), status.out);
    BOOST_TEST(contains(status.out, "queue: no task of these jobs is pending or running"),
               status.out);
    std::string log = read_file(w.dir() + "/logs/" + job + "_1.out");
    BOOST_TEST(contains(log, "result not saved"), log);

    // Collect refuses to make tables from a partial directory, naming the gap.
    auto partial = run_starfish({"study", "collect", "--dir", w.dir()});
    BOOST_TEST(partial.exit_status == 1);
    BOOST_TEST(contains(partial.err, "1 of 8 trials have no result; array tasks to run again: 1"),
               partial.err);

    fs::remove_all(blocked);
    auto resubmit = run_starfish({"study", "resubmit", "--dir", w.dir(), "--slurm"});
    BOOST_TEST_REQUIRE(resubmit.exit_status == 0, resubmit.err);
    BOOST_TEST(
        contains(resubmit.out, "1 array task(s) (--array=1) for 1 missing or failed trial(s)"),
        resubmit.out);
    auto done = run_waiting({"study", "status", "--dir", w.dir(), "--wait"});
    BOOST_TEST(done.exit_status == 0, done.out + done.err + cluster.logs());
    BOOST_TEST(contains(done.out, "done 8, failed 0, missing 0"), done.out);

    auto collect =
        run_starfish({"study", "collect", "--dir", w.dir(), "--csv", w.path + "/slurm.csv",
                      "--markdown", w.path + "/slurm.md", "--json", w.path + "/slurm.json"});
    BOOST_TEST_REQUIRE(collect.exit_status == 0, collect.err);
    BOOST_TEST(table_block(collect.out) == table_block(local.out));
    BOOST_TEST(contains(table_block(collect.out), "published comparison: 2 cells"));
    BOOST_TEST(read_file(w.path + "/slurm.csv") == read_file(w.path + "/local.csv"));
    BOOST_TEST(read_file(w.path + "/slurm.md") == read_file(w.path + "/local.md"));
    BOOST_TEST(simulated(read_json(w.path + "/slurm.json")) ==
               simulated(read_json(w.path + "/local.json")));

    // `starfish reproduce --slurm` takes the same path and makes the same tables.
    std::string report = w.path + "/report";
    auto reproduce = run_waiting(
        {"reproduce", w.study(), "--config", "small", "--out", report, "--slurm", "--wait"});
    BOOST_TEST_REQUIRE(reproduce.exit_status == 0, reproduce.out + reproduce.err);
    BOOST_TEST(contains(reproduce.out, "slurm: submitted job"), reproduce.out);
    BOOST_TEST(read_file(report + "/tables/tiny.csv") == read_file(w.path + "/local.csv"));
    // Run again: everything is there, nothing is submitted.
    auto again =
        run_starfish({"reproduce", w.study(), "--config", "small", "--out", report, "--slurm"});
    BOOST_TEST(again.exit_status == 0, again.err);
    BOOST_TEST(contains(again.out, "8 done"), again.out);
    BOOST_TEST(!contains(again.out, "submitted job"), again.out);
}

BOOST_AUTO_TEST_SUITE_END()
