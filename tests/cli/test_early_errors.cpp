// Errors that come early and say enough (issue 34 items 5, 12, 13, 14, 15, 17,
// 18 and the small ones of 19; docs/configuration.md, docs/studies.md,
// docs/cluster.md): each bad input is refused before anything runs (exit status
// 2) naming what is wrong, and a study with a failing trial finishes its other
// cells and names the trial.
// Arguments (after --): path of the starfish binary, source directory.
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using nlohmann::json;
using starfish::testing::contains;
using starfish::testing::count;
using starfish::testing::ProcessResult;
using starfish::testing::read_file;
using starfish::testing::run_starfish;
using starfish::testing::TempDir;
using starfish::testing::tiny_run;
using starfish::testing::write_file;

namespace {

// Refused before anything ran: exit status 2, the message, no trial line.
void refused(const ProcessResult &r, const std::string &says, const std::string &what) {
    BOOST_TEST(r.exit_status == 2, what << ": " << r.err);
    BOOST_TEST(contains(r.err, says), what << ": " << r.err);
    BOOST_TEST(!contains(r.out, "trial 0:"), what << ": " << r.out);
}

} // namespace

BOOST_AUTO_TEST_CASE(a_request_time_beyond_the_clock_is_refused) {
    TempDir d("starfish_early");
    write_file(d / "trace.csv", "time_ms,disk,lba,sectors,op\n0,0,0,8,R\n1e10,0,5000,8,R\n");
    ProcessResult r = run_starfish(
        {"disk", "replay", "--trace", d / "trace.csv", "--out", d / "out.csv", "--disks", "1"});
    BOOST_TEST(r.exit_status == 2, r.err);
    BOOST_TEST(contains(r.err, "trace.csv:3: column 'time_ms': 1e10 is beyond the latest time"),
               r.err);
    BOOST_TEST(!std::filesystem::exists(d / "out.csv"));
}

BOOST_AUTO_TEST_CASE(a_failing_trial_is_named_and_the_other_cells_are_written) {
    TempDir d("starfish_early");
    // The second cell's disk never answers: its trials fail (the watchdog), the
    // first cell's run and are written.
    write_file(d / "s.json", R"({"set": {"sim.watchdog_ms": 100, "workload.file_mb": 0.0625},
        "vary": [{"fault.silent_disk": [-1, 0]}]})");
    ProcessResult r = run_starfish({"study", d / "s.json", "--config", "small", "--no-cache",
                                    "--json", d / "s.json.out", "--csv", d / "s.csv"});
    BOOST_TEST(r.exit_status == 1, r.err);
    BOOST_TEST(contains(r.err, "2 trials failed"), r.err);
    BOOST_TEST(contains(r.err, "cell '0' trial 0: watchdog"), r.err);
    BOOST_TEST(contains(r.err, "cell '0' trial 1: watchdog"), r.err);
    json doc = json::parse(read_file(d / "s.json.out"));
    BOOST_TEST(doc["summary"]["failed_trials"].get<int>() == 2);
    BOOST_TEST(!doc["summary"]["verified"].get<bool>());
    BOOST_TEST(doc["cells"][0]["summary"]["trials"].get<int>() == 2);
    BOOST_TEST(doc["cells"][0]["summary"]["mean"].get<double>() > 0.0);
    BOOST_TEST(doc["cells"][1]["summary"]["trials"].get<int>() == 0);
    BOOST_TEST(contains(doc["cells"][1]["trials"][0]["failed"].get<std::string>(), "watchdog"));
    // The failed cell has no mean and no disk movements (the last column).
    BOOST_TEST(contains(read_file(d / "s.csv"), "\n0,FAILED,,,,0 (2 failed),\n"),
               read_file(d / "s.csv"));
}

BOOST_AUTO_TEST_CASE(study_and_run_settings_are_checked_before_anything_runs) {
    TempDir d("starfish_early");
    // A metric no trial gives.
    write_file(d / "nosuch.json", R"({"metric": "nosuch", "vary": [{"fs.kind": ["ddio"]}]})");
    refused(run_starfish({"study", d / "nosuch.json", "--config", "small", "--no-cache"}),
            "'metric' is 'nosuch', which a transfer trial does not give; it may be one of: mb_s",
            "metric");
    // A watchdog too short for any run, and the hint when a short one fires.
    refused(run_starfish(tiny_run({"--set", "sim.watchdog_ms=1e-6"})),
            "sim.watchdog_ms = 1e-06 is below the 1 ms", "watchdog");
    ProcessResult quick =
        run_starfish({"run", "--set", "fs.kind=2pio", "--set", "workload.pattern=rc", "--set",
                      "workload.record_bytes=8", "--set", "workload.file_mb=1", "--set",
                      "workload.trials=1", "--set", "sim.watchdog_ms=2"});
    BOOST_TEST(quick.exit_status == 1, quick.err);
    BOOST_TEST(contains(quick.err, "sim.watchdog_ms = 2 ms: if the run is healthy the setting "
                                   "may be too small"),
               quick.err);
    // Node memory: what cannot fit is refused up front, the rest names the key.
    refused(run_starfish(tiny_run({"--set", "fs.block_bytes=1048576"})),
            "more than machine.node_memory_kb = 16384", "block");
    ProcessResult pools = run_starfish({"run", "--set", "workload.file_mb=1", "--set",
                                        "workload.trials=1", "--set", "msg.reply_actions=300000"});
    BOOST_TEST(pools.exit_status == 1, pools.err);
    BOOST_TEST(contains(pools.err, "node memory exhausted"), pools.err);
    BOOST_TEST(contains(pools.err, "machine.node_memory_kb = 16384 KB: raise it"), pools.err);
    // SystemC's own "Simulation stopped by user." no longer precedes the message.
    BOOST_TEST(!contains(pools.out + pools.err, "Simulation stopped"), pools.err);
}

BOOST_AUTO_TEST_CASE(slurm_options_that_would_be_commands_are_refused) {
    TempDir d("starfish_early");
    write_file(d / "s.json", R"({"vary": [{"fs.kind": ["ddio"]}]})");
    ProcessResult plan = run_starfish({"study", "plan", d / "s.json", "--dir", d / "my dir"});
    BOOST_TEST_REQUIRE(plan.exit_status == 0, plan.err);
    for (const auto &bad : std::vector<std::vector<std::string>>{{"--partition", "debug\nrm -rf ~"},
                                                                 {"--time", "1:00\necho owned"},
                                                                 {"--sbatch-arg=--comment=x\ny"}}) {
        std::vector<std::string> args{"study", "submit", "--dir", d / "my dir", "--slurm"};
        args.insert(args.end(), bad.begin(), bad.end());
        ProcessResult r = run_starfish(args);
        refused(r, bad.size() == 2 ? "only letters, digits" : "control characters", bad[0]);
        BOOST_TEST(!contains(r.err, "squeue"), r.err); // refused before Slurm is asked
        BOOST_TEST(contains(r.err, "\\x0a"), r.err);   // the newline shown escaped
    }
    BOOST_TEST(!std::filesystem::exists(d / "my dir/starfish-array.sh"));
}

BOOST_AUTO_TEST_CASE(a_path_that_is_not_a_file_says_what_it_is) {
    TempDir d("starfish_early");
    BOOST_REQUIRE(::mkfifo((d / "fifo").c_str(), 0644) == 0);
    std::filesystem::create_symlink("loop", d / "loop");
    std::filesystem::create_directory(d / "dir");
    write_file(d / "file", "x");
    refused(run_starfish({"config", "--config", d / "dir"}), "' is a directory", "--config dir");
    refused(run_starfish({"config", "--config", d / "fifo"}), "' is a FIFO", "--config fifo");
    refused(run_starfish({"config", "--config", d / "loop"}), "' is a symbolic link loop",
            "--config loop");
    refused(run_starfish({"reproduce", d / "dir", "--out", d / "r"}),
            "study file '" + d / "dir" + "' is a directory", "reproduce dir");
    refused(run_starfish({"reproduce", "ddio-main", "--out", d / "file"}),
            "--out '" + d / "file" + "': '" + d / "file" + "' is a regular file, not a directory",
            "reproduce --out file");
}

BOOST_AUTO_TEST_CASE(a_misspelt_shipped_name_gets_the_closest_one) {
    TempDir d("starfish_early");
    refused(run_starfish({"study", "mian", "--no-cache"}), "did you mean 'main'?", "study mian");
    refused(run_starfish({"reproduce", "paper-mian", "--out", d / "r"}),
            "did you mean 'paper-main'?", "reproduce paper-mian");
    refused(run_starfish({"study", "plan", "calibration-ddio", "--dir", d / "p"}),
            "/sim/studies has: calibration-2pio-contiguous", "study plan calibration-ddio");
    refused(run_starfish({"run", "--config", "smal"}), "did you mean 'small'?", "--config smal");
    // A path is taken as a path: no shipped name is offered for it.
    ProcessResult r = run_starfish({"study", d / "mian.json", "--no-cache"});
    BOOST_TEST(r.exit_status == 2, r.err);
    BOOST_TEST(contains(r.err, "does not exist"), r.err);
    BOOST_TEST(!contains(r.err, "did you mean"), r.err);
}

BOOST_AUTO_TEST_CASE(the_small_ones) {
    TempDir d("starfish_early");
    // Numbers are decimal, with nothing around them, on the command line as in files.
    for (const char *value : {"0x10", " 5", "5 "}) {
        refused(run_starfish({"config", "--set", std::string("workload.file_mb=") + value}),
                "configuration key 'workload.file_mb' expects number", value);
    }
    BOOST_TEST(run_starfish({"config", "--set", "workload.file_mb=+5"}).exit_status == 0);
    // A key given twice in one file.
    write_file(d / "twice.json", "{\"workload\": {\"file_mb\": 1},\n \"machine.cp_count\": 4,\n"
                                 "  \"machine.cp_count\": 8}");
    refused(run_starfish({"config", "--config", d / "twice.json"}),
            "twice.json:3:3: key 'machine.cp_count' appears twice", "duplicate key");
    write_file(d / "dotted.json", R"({"disk": {"rpm": 4002}, "disk.rpm": 5400})");
    refused(run_starfish({"config", "--config", d / "dotted.json"}),
            "key 'disk.rpm' is given twice (nested and dotted)", "nested and dotted");
    // A bad sector past the end of the disk.
    refused(run_starfish(tiny_run({"--set", "fault.bad_sectors=0:2684016"})),
            "fault.bad_sectors names sector 2684016 of disk 0; a disk has 2684016 sectors",
            "bad sector");
    BOOST_TEST(run_starfish({"config", "--set", "fault.bad_sectors=0:2684015"}).exit_status == 0);
    // --index -1 is refused as such, not wrapped around.
    ProcessResult index = run_starfish({"study", "run-index", "--dir", d.path, "--index", "-1"});
    BOOST_TEST(index.exit_status == 2, index.err);
    BOOST_TEST(!contains(index.err, "18446744073709551615"), index.err);
    // Ranges are printed with every digit.
    ProcessResult explain = run_starfish({"config", "--explain", "workload.file_mb"});
    BOOST_TEST(contains(explain.out, "1048576]"), explain.out);
    BOOST_TEST(!contains(explain.out, "e+06"), explain.out);
    // An empty cache directory is an error, not the default.
    write_file(d / "s.json", R"({"vary": [{"fs.kind": ["ddio", "spfs"]}]})");
    refused(run_starfish({"study", d / "s.json", "--config", "small", "--cache-dir", ""}),
            "needs a directory", "--cache-dir ''");
    // A negative warm-up is an error, not the default.
    refused(run_starfish({"net", "traffic", "--warmup", "-5"}), "--warmup -5: a number of cycles",
            "--warmup -5");
    // A cache that cannot be written is reported once, not once per trial.
    write_file(d / "file", "x");
    ProcessResult study =
        run_starfish({"study", d / "s.json", "--config", "small", "--set",
                      "workload.file_mb=0.0625", "--cache-dir", d / "file/cache"});
    BOOST_TEST(study.exit_status == 0, study.err);
    BOOST_TEST(count(study.err, "warning") == 1u, study.err);
    BOOST_TEST(contains(study.err, "the results of this run are not cached"), study.err);
}
