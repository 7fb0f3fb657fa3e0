// `starfish run` with the transfer workload end to end: the JSON result document,
// exit status 1 when data verification fails, and exit status 2 with a message
// naming the problem for transfers that cannot be set up, before anything runs.
// Arguments (after --): path of the starfish binary, source directory.
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

using nlohmann::json;
using starfish::testing::contains;
using starfish::testing::run_starfish;

namespace {
std::string small_config() {
    return starfish::testing::source_directory() + "/sim/configs/small.json";
}

std::string temp_name() {
    char name[] = "/tmp/starfish_transfer_XXXXXX";
    int fd = ::mkstemp(name);
    ::close(fd);
    return name;
}
} // namespace

BOOST_AUTO_TEST_SUITE(transfer_cli)

BOOST_AUTO_TEST_CASE(run_writes_every_documented_field) {
    // ra: both the undivided and the per-CP throughput.
    auto r =
        run_starfish({"run", "--config", small_config(), "--set", "workload.pattern=ra", "--set",
                      "workload.record_bytes=8", "--set", "workload.jobs=1", "--json", "-"});
    BOOST_REQUIRE_MESSAGE(r.exit_status == 0, r.err);
    json doc = json::parse(r.out);
    BOOST_TEST(doc["command"] == "run");
    BOOST_TEST(doc["config"]["workload.pattern"] == "ra");
    BOOST_TEST(doc["machine"]["cp_count"].get<int>() == 4);
    BOOST_TEST(doc["machine"]["nodes"].size() == 8u);
    const json &s = doc["summary"];
    for (const char *f : {"mean_mb_s", "cv", "ci95_mb_s", "min_mb_s", "max_mb_s", "trials",
                          "verified", "mean_mb_s_per_cp"}) {
        BOOST_TEST(s.contains(f), f);
    }
    BOOST_TEST(s["verified"].get<bool>());
    BOOST_TEST(s["trials"].get<int>() == 2); // small.json
    BOOST_TEST(s["ci95_mb_s"].size() == 2u);
    BOOST_TEST(s["mean_mb_s_per_cp"].get<double>() == s["mean_mb_s"].get<double>() / 4,
               boost::test_tools::tolerance(1e-12));
    BOOST_REQUIRE(doc["trials"].size() == 2u);
    for (const json &t : doc["trials"]) {
        for (const char *f : {"trial", "mb_s", "mb_s_per_cp", "elapsed_s", "bytes_moved",
                              "verified", "check", "sim_s", "events", "cpu_busy", "disk",
                              "bus_busy_max", "network", "fs", "host_cpu_s"}) {
            BOOST_TEST(t.contains(f), f);
        }
        BOOST_TEST(t["verified"].get<bool>());
        BOOST_TEST(t["check"]["checked_bytes"].get<uint64_t>() == 4u * 512 * 1024);
        BOOST_TEST(t["bytes_moved"].get<double>() == 4.0 * 512 * 1024);
        BOOST_TEST(t["mb_s"].get<double>() ==
                       t["bytes_moved"].get<double>() / 1048576.0 / t["elapsed_s"].get<double>(),
                   boost::test_tools::tolerance(1e-9));
        BOOST_TEST(t["mb_s_per_cp"].get<double>() == t["mb_s"].get<double>() / 4,
                   boost::test_tools::tolerance(1e-12));
        // Timing starts at the first barrier, after boot: less than the simulated time.
        BOOST_TEST(t["elapsed_s"].get<double>() > 0);
        BOOST_TEST(t["elapsed_s"].get<double>() < t["sim_s"].get<double>());
        BOOST_TEST(t["disk"]["movements"].is_number());
        BOOST_TEST(t["cpu_busy"]["iop"]["mean"].get<double>() > 0);
        BOOST_TEST(t["network"]["packets"].get<uint64_t>() > 0u);
        BOOST_TEST(t["fs"]["blocks"].get<uint64_t>() == 64u);
    }
    BOOST_TEST(doc["trials"][0]["trial"].get<int>() == 0);
    BOOST_TEST(doc["trials"][1]["trial"].get<int>() == 1);
    for (const char *f : {"wall_s", "sim_s", "events"}) {
        BOOST_TEST(doc["host"].contains(f), f);
    }
    // The table went to stderr (stdout holds the JSON).
    BOOST_TEST(contains(r.err, "trial      MB/s   elapsed s"));
    BOOST_TEST(contains(r.err, "; ra per CP"));
    BOOST_TEST(contains(r.err, "[2/2] trial"));
    BOOST_TEST(contains(r.err, "host:"));
}

BOOST_AUTO_TEST_CASE(failed_verification_exits_1) {
    // The hidden test hook flips one transferred byte after each trial.
    for (const char *pattern : {"rbc", "wcc"}) {
        BOOST_TEST_CONTEXT(pattern) {
            std::string out = temp_name();
            ::setenv("STARFISH_DEBUG_CORRUPT_DATA", "1", 1);
            auto r = run_starfish({"run", "--config", small_config(), "--set",
                                   std::string("workload.pattern=") + pattern, "--set",
                                   "workload.record_bytes=8", "--set", "workload.trials=1",
                                   "--json", out});
            ::unsetenv("STARFISH_DEBUG_CORRUPT_DATA");
            BOOST_TEST(r.exit_status == 1);
            BOOST_TEST(contains(r.err, "data verification failed"), r.err);
            BOOST_TEST(contains(r.out, "DATA WRONG"));
            BOOST_TEST(contains(r.out, "first wrong byte:"));
            // The result is still written, and says what was wrong.
            std::ifstream in(out);
            json doc = json::parse(in);
            BOOST_TEST(!doc["summary"]["verified"].get<bool>());
            const json &check = doc["trials"][0]["check"];
            BOOST_TEST(check["bad_bytes"].get<uint64_t>() == 1u);
            BOOST_TEST(contains(check["first_error"].get<std::string>(), "file offset 0"));
            std::remove(out.c_str());
        }
    }
    // Without the hook the same runs pass.
    auto r = run_starfish({"run", "--config", small_config(), "--set", "workload.pattern=wcc",
                           "--set", "workload.record_bytes=8", "--set", "workload.trials=1"});
    BOOST_TEST(r.exit_status == 0, r.err);
}

BOOST_AUTO_TEST_CASE(impossible_transfers_exit_2_before_anything_runs) {
    struct Case {
        std::vector<std::string> sets;
        std::string expected;
    };
    std::vector<Case> cases = {
        // 16 CPs form a 4 x 4 grid; a one-row array cannot spread its rows over 4.
        {{"workload.pattern=rbc", "workload.record_bytes=8192", "workload.file_mb=0.0625",
          "workload.cols=8"},
         "1 rows cannot be distributed BLOCK over 4 CPs"},
        // More CPs than records for a 1-D pattern.
        {{"workload.pattern=rc", "workload.record_bytes=8192", "workload.file_mb=0.0625"},
         "over 16 CPs"},
        // Three records and eight bytes.
        {{"workload.record_bytes=8192", "workload.file_mb=0.02344512939453125"},
         "not a whole number of 8192-byte records"},
        {{"workload.file_mb=0.1"}, "workload.file_mb = 0.1"}, // not whole bytes
        // 30000 MB over 16 disks of 1.28 GB.
        {{"workload.file_mb=30000"}, "cannot be placed on the 16 disks"},
        {{"workload.file_mb=2000", "machine.iop_count=1", "net.width=5", "net.height=4"},
         "do not fit a disk of 167751 blocks"},
        {{"workload.layout=random-tracks", "fs.block_bytes=65536"},
         "does not fit a 72-sector track"},
        // ra: every CP holds the whole 20 MB file in 16 MB of memory.
        {{"workload.pattern=ra", "workload.file_mb=20"}, "machine.node_memory_kb = 16384 KB"},
        {{"workload.pattern=rn", "workload.file_mb=1", "machine.node_memory_kb=512"},
         "CP 0's part of the file is 1048576 bytes"},
        {{"workload.pattern=wb", "machine.node_memory_kb=64"},
         "raise machine.node_memory_kb or lower workload.file_mb"},
    };
    for (const auto &c : cases) {
        std::vector<std::string> args = {"run"};
        for (const auto &s : c.sets) {
            args.push_back("--set");
            args.push_back(s);
        }
        auto r = run_starfish(args);
        BOOST_TEST_CONTEXT(c.sets.front()) {
            BOOST_TEST(r.exit_status == 2);
            BOOST_TEST(contains(r.err, "configuration error"), r.err);
            BOOST_TEST(contains(r.err, c.expected), "stderr was: " << r.err);
            BOOST_TEST(!contains(r.out, "trial")); // nothing ran
            BOOST_TEST(!contains(r.out, "host:"));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
