// Results that cannot be changed unnoticed, and readers that cannot be made to
// hang (issue 34 items 2, 4, 6, 10 and 16; docs/studies.md, "What is verified on
// reading", and docs/cluster.md): an edited cache entry, result file or manifest;
// an entry without a field a result has; raw control bytes in a corrupt entry; a
// FIFO and a link to /dev/zero in place of a result; a trial whose data did not
// verify in a study directory.
// Arguments (after --): path of the starfish binary, source directory.
#include "tests/support/child_process.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using nlohmann::json;
using starfish::testing::ChildOptions;
using starfish::testing::ChildProcess;
using starfish::testing::contains;
using starfish::testing::ProcessResult;
using starfish::testing::read_file;
using starfish::testing::run_starfish;
using starfish::testing::starfish_binary;
namespace fs = std::filesystem;

namespace {

// A study of two tiny cells, one trial each, with its cache and directory.
struct Workspace : starfish::testing::TempDir {
    Workspace() : TempDir("starfish_integrity") {
        starfish::testing::write_file(*this / "tiny.json", R"({"description": "integrity test",
            "set": {"workload.file_mb": 0.0625, "workload.trials": 1},
            "vary": [{"fs.kind": ["ddio", "spfs"]}]})");
    }
    std::string study() const { return path + "/tiny.json"; }
    std::string cache() const { return path + "/cache"; }
    std::string dir() const { return path + "/d"; }
};

std::vector<std::string> study_args(const Workspace &w, const std::string &json_name) {
    return {"study",   w.study(), "--config", "small",  "--cache-dir",
            w.cache(), "--jobs",  "2",        "--json", w / json_name};
}

json read_json(const std::string &path) {
    return json::parse(read_file(path));
}

void write_json(const std::string &path, const json &doc) {
    std::ofstream(path, std::ios::trunc) << doc.dump();
}

// The cache's entries, sorted (DIR/ab/<hash>.json).
std::vector<std::string> entries(const std::string &dir) {
    std::vector<std::string> out;
    for (const auto &e : fs::recursive_directory_iterator(dir)) {
        if (e.path().extension() == ".json") {
            out.push_back(e.path().string());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// What an entry's digest is (docs/studies.md, "Result cache"): FNV-1a 64 of the
// key's and the result's JSON, so a test can make an entry that is consistent
// but lacks a field.
std::string digest_of(const json &key, const json &result) {
    std::string text = key.dump() + "\n" + result.dump();
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h = (h ^ c) * 0x100000001b3ull;
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return std::string("fnv1a64:") + hex;
}

std::vector<double> means(const json &doc) {
    std::vector<double> m;
    for (const auto &c : doc["cells"]) {
        m.push_back(c["summary"]["mean"].get<double>());
    }
    return m;
}

// Environment variables set for one command only.
struct ScopedEnv {
    std::string name;
    ScopedEnv(const std::string &n, const std::string &value) : name(n) {
        ::setenv(n.c_str(), value.c_str(), 1);
    }
    ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

ProcessResult plan(const Workspace &w) {
    return run_starfish(
        {"study", "plan", w.study(), "--dir", w.dir(), "--config", "small", "--chunk", "1"});
}

ProcessResult run_index(const Workspace &w, int index) {
    return run_starfish({"study", "run-index", "--dir", w.dir(), "--index", std::to_string(index)});
}

std::string result_file(const Workspace &w, const json &manifest, size_t index) {
    return w.dir() + "/trials/" + manifest["trials"][index]["id"].get<std::string>() + ".json";
}

} // namespace

BOOST_AUTO_TEST_CASE(an_edited_cache_entry_is_corrupt_and_runs_again) {
    Workspace w;
    ProcessResult first = run_starfish(study_args(w, "first.json"));
    BOOST_TEST_REQUIRE(first.exit_status == 0, first.err);
    std::vector<std::string> e = entries(w.cache());
    BOOST_REQUIRE(e.size() == 2u);

    // A throughput changed by hand (the issue's 999 MB/s), and a result without
    // 'verified' whose digest was made to match.
    json edited = read_json(e[0]);
    edited["result"]["mb_s"] = 999.0;
    write_json(e[0], edited);
    json lacking = read_json(e[1]);
    lacking["result"].erase("verified");
    lacking["digest"] = digest_of(lacking["key"], lacking["result"]);
    write_json(e[1], lacking);

    ProcessResult second = run_starfish(study_args(w, "second.json"));
    BOOST_TEST_REQUIRE(second.exit_status == 0, second.err);
    BOOST_TEST(contains(second.err, "ignoring corrupt cache entry '" + e[0] +
                                        "' (its digest "
                                        "does not match"),
               second.err);
    BOOST_TEST(contains(second.err, "ignoring corrupt cache entry '" + e[1] +
                                        "' (the result lacks a boolean 'verified'"),
               second.err);
    BOOST_TEST(!contains(second.out, "(cached)"), second.out); // both ran again
    BOOST_TEST(means(read_json(w / "second.json")) == means(read_json(w / "first.json")));
    BOOST_TEST(!contains(second.out, "999"), second.out);

    // Bytes that are not text in a corrupt entry are shown escaped, never sent raw to
    // the terminal (the JSON parser's message quotes them).
    std::ofstream(e[0], std::ios::trunc) << "\xff\xfe\x1b[31m";
    ProcessResult third = run_starfish(study_args(w, "third.json"));
    BOOST_TEST(third.exit_status == 0, third.err);
    BOOST_TEST(contains(third.err, "\\xff"), third.err);
    BOOST_TEST(!contains(third.err, "\xff"));
    BOOST_TEST(!contains(third.err, "\x1b"));
}

BOOST_AUTO_TEST_CASE(an_edited_result_file_or_manifest_is_refused) {
    Workspace w;
    BOOST_TEST_REQUIRE(plan(w).exit_status == 0);
    for (int i : {0, 1}) {
        BOOST_TEST_REQUIRE(run_index(w, i).exit_status == 0);
    }
    ProcessResult good =
        run_starfish({"study", "collect", "--dir", w.dir(), "--json", w / "a.json"});
    BOOST_TEST_REQUIRE(good.exit_status == 0, good.err);

    // A result edited by hand is corrupt: counted missing, named, run again.
    json manifest = read_json(w.dir() + "/manifest.json");
    std::string victim = result_file(w, manifest, 0);
    json edited = read_json(victim);
    edited["result"]["mb_s"] = 74.6;
    write_json(victim, edited);
    ProcessResult refused = run_starfish({"study", "collect", "--dir", w.dir()});
    BOOST_TEST(refused.exit_status == 1, refused.err);
    BOOST_TEST(contains(refused.err, victim + "' (its digest does not match"), refused.err);
    BOOST_TEST(contains(refused.err, "array tasks to run again: 0"), refused.err);
    BOOST_TEST_REQUIRE(run_index(w, 0).exit_status == 0);
    ProcessResult again =
        run_starfish({"study", "collect", "--dir", w.dir(), "--json", w / "b.json"});
    BOOST_TEST_REQUIRE(again.exit_status == 0, again.err);
    BOOST_TEST(means(read_json(w / "b.json")) == means(read_json(w / "a.json")));

    // A manifest whose study definition was edited is refused before anything is read.
    manifest["studies"][0]["definition"]["metric"] = "elapsed_s";
    std::ofstream(w.dir() + "/manifest.json", std::ios::trunc) << manifest.dump(1);
    for (const char *command : {"status", "collect"}) {
        ProcessResult r = run_starfish({"study", command, "--dir", w.dir()});
        BOOST_TEST(r.exit_status == 2, command << ": " << r.err);
        BOOST_TEST(contains(r.err, "it was changed after it was planned"), r.err);
    }
}

BOOST_AUTO_TEST_CASE(a_fifo_or_a_device_in_place_of_a_result_is_never_read) {
    Workspace w;
    BOOST_TEST_REQUIRE(run_starfish(study_args(w, "first.json")).exit_status == 0);
    std::vector<std::string> e = entries(w.cache());
    BOOST_REQUIRE(e.size() == 2u);
    fs::remove(e[0]);
    BOOST_REQUIRE(::mkfifo(e[0].c_str(), 0644) == 0);
    fs::remove(e[1]);
    fs::create_symlink("/dev/zero", e[1]);

    // Neither hangs nor fills the memory: both are corrupt entries, and run again.
    std::vector<std::string> argv = study_args(w, "second.json");
    argv.insert(argv.begin(), starfish_binary());
    ChildOptions bounded;
    bounded.rss_limit_kb = 1 << 20;
    ChildProcess study(argv, w.path, bounded);
    BOOST_REQUIRE_MESSAGE(study.wait(30), "the study hangs on a FIFO in the cache");
    BOOST_TEST(!study.rss_exceeded);
    BOOST_TEST(study.exit_status == 0, study.err());
    BOOST_TEST(contains(study.err(), e[0] + "' (it is a FIFO"), study.err());
    BOOST_TEST(contains(study.err(), e[1] + "' (it is a character device"), study.err());
    BOOST_TEST(fs::is_regular_file(fs::symlink_status(e[0]))); // rewritten by the rerun

    // The same in a study directory, for `status` and `collect`.
    BOOST_TEST_REQUIRE(plan(w).exit_status == 0);
    json manifest = read_json(w.dir() + "/manifest.json");
    BOOST_REQUIRE(::mkfifo(result_file(w, manifest, 0).c_str(), 0644) == 0);
    fs::create_symlink("/dev/zero", result_file(w, manifest, 1));
    for (const char *command : {"status", "collect"}) {
        ChildProcess r({starfish_binary(), "study", command, "--dir", w.dir()}, w.path, bounded);
        BOOST_REQUIRE_MESSAGE(r.wait(30), command << " hangs on a FIFO in the directory");
        BOOST_TEST(r.exit_status == 1, command << ": " << r.err());
        BOOST_TEST(contains(r.out() + r.err(), "is a FIFO"), r.out() + r.err());
        BOOST_TEST(contains(r.out() + r.err(), "is a character device"), r.out() + r.err());
    }
}

BOOST_AUTO_TEST_CASE(a_trial_whose_data_failed_is_not_done) {
    Workspace w;
    BOOST_TEST_REQUIRE(plan(w).exit_status == 0);
    json manifest = read_json(w.dir() + "/manifest.json");
    std::string cell = manifest["studies"][0]["cells"][manifest["trials"][0]["cell"].get<size_t>()]
                               ["overrides"]["fs.kind"]
                                   .get<std::string>();
    {
        // The test hook flips one byte after the run: the trial's data does not verify.
        ScopedEnv corrupt("STARFISH_DEBUG_CORRUPT_DATA", "1");
        ProcessResult bad = run_index(w, 0);
        BOOST_TEST(bad.exit_status == 1, bad.err);
        BOOST_TEST(contains(bad.err, "tiny cell '" + cell + "' trial 0"), bad.err);
        BOOST_TEST(contains(bad.err, "data verification failed"), bad.err);
    }
    BOOST_TEST_REQUIRE(run_index(w, 1).exit_status == 0);
    ProcessResult status = run_starfish({"study", "status", "--dir", w.dir()});
    BOOST_TEST(status.exit_status == 1, status.out);
    BOOST_TEST(contains(status.out, "done 1, failed 1, missing 0"), status.out);
    BOOST_TEST(contains(status.out, "array tasks to run again: 0"), status.out);
    BOOST_TEST(contains(status.out, "failed (data verification): tiny cell '" + cell + "' trial 0"),
               status.out);
    ProcessResult collect = run_starfish({"study", "collect", "--dir", w.dir()});
    BOOST_TEST(collect.exit_status == 1, collect.err);
    BOOST_TEST(contains(collect.err, "cell '" + cell + "' trial 0: data verification failed"),
               collect.err);

    // Not done: the task runs it again (what `resubmit` submits), and then it is.
    ProcessResult rerun = run_index(w, 0);
    BOOST_TEST(rerun.exit_status == 0, rerun.err);
    BOOST_TEST(!contains(rerun.out, "done already"), rerun.out);
    BOOST_TEST(run_starfish({"study", "status", "--dir", w.dir()}).exit_status == 0);
    BOOST_TEST(run_starfish({"study", "collect", "--dir", w.dir()}).exit_status == 0);
}
