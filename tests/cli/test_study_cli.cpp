// `starfish study` end to end with its result cache (docs/studies.md): a re-run
// takes every trial from the cache and gives the same results, --fresh runs them
// again, a corrupt entry is run again with a warning, a changed parameter misses,
// and the number of trial processes (hence the start order) changes no result.
// Every run uses a temporary cache directory, never the user's.
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
using starfish::testing::count;
using starfish::testing::ProcessResult;
using starfish::testing::run_starfish;

namespace {

// A temporary directory holding the study file, its results and the cache.
struct StudyDir {
    std::string path;
    StudyDir() {
        char name[] = "/tmp/starfish_study_cli_XXXXXX";
        path = ::mkdtemp(name);
        // 8-byte records on the small machine: SPFS's cyclic cell is the long one,
        // last in the study's order.
        std::ofstream(path + "/tiny.json") << R"({"description": "cache test",
            "set": {"workload.record_bytes": 8, "workload.file_mb": 0.25},
            "vary": [{"fs.kind": ["ddio", "spfs"]}, {"workload.pattern": ["rb", "rc"]}]})";
    }
    ~StudyDir() { std::filesystem::remove_all(path); }
    std::string cache() const { return path + "/cache"; }
    std::string study() const { return path + "/tiny.json"; }
};

ProcessResult study(const StudyDir &d, const std::string &json_name,
                    std::vector<std::string> extra = {}, const std::string &jobs = "2") {
    std::vector<std::string> args{"study",       d.study(), "--config", "small",
                                  "--jobs",      jobs,      "--json",   d.path + "/" + json_name,
                                  "--cache-dir", d.cache()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_starfish(args);
}

json read_json(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

// Every trial's simulated figures, in the study's order, without the host fields.
std::vector<json> simulated(const json &doc) {
    std::vector<json> out;
    for (const auto &cell : doc["cells"]) {
        for (json t : cell["trials"]) {
            t.erase("host");
            t.erase("host_cpu_s");
            out.push_back(t);
        }
    }
    return out;
}

size_t cached_trials(const json &doc) {
    return doc["host"].value("cached_trials", size_t{0});
}

} // namespace

BOOST_AUTO_TEST_SUITE(study_cli)

BOOST_AUTO_TEST_CASE(a_rerun_comes_from_the_cache_and_fresh_runs_again) {
    StudyDir d;
    auto first = study(d, "first.json");
    BOOST_TEST_REQUIRE(first.exit_status == 0, first.err);
    BOOST_TEST(contains(first.out, "result cache: " + d.cache()), first.out);
    BOOST_TEST(count(first.out, "(cached)") == 0u);
    BOOST_TEST(count(first.out, "  ETA ") == 8u, first.out); // every trial that ran
    BOOST_TEST(cached_trials(read_json(d.path + "/first.json")) == 0u);

    auto second = study(d, "second.json");
    BOOST_TEST_REQUIRE(second.exit_status == 0, second.err);
    BOOST_TEST(count(second.out, "(cached)") == 8u, second.out);
    BOOST_TEST(contains(second.out, "8 trials from the cache"), second.out);
    json a = read_json(d.path + "/first.json");
    json b = read_json(d.path + "/second.json");
    BOOST_TEST(cached_trials(b) == 8u);
    BOOST_TEST(b["host"]["events"].get<uint64_t>() == 0u); // nothing was simulated
    BOOST_TEST(simulated(a) == simulated(b));
    for (size_t c = 0; c < a["cells"].size(); ++c) {
        BOOST_TEST(a["cells"][c]["summary"] == b["cells"][c]["summary"]);
    }

    auto fresh = study(d, "fresh.json", {"--fresh"});
    BOOST_TEST_REQUIRE(fresh.exit_status == 0, fresh.err);
    BOOST_TEST(count(fresh.out, "(cached)") == 0u);
    json f = read_json(d.path + "/fresh.json");
    BOOST_TEST(cached_trials(f) == 0u);
    BOOST_TEST(f["host"]["events"].get<uint64_t>() > 0u);
    BOOST_TEST(simulated(a) == simulated(f));
}

BOOST_AUTO_TEST_CASE(a_corrupt_entry_runs_again_with_a_warning) {
    StudyDir d;
    BOOST_TEST_REQUIRE(study(d, "first.json").exit_status == 0);
    std::string victim;
    for (const auto &e : std::filesystem::recursive_directory_iterator(d.cache())) {
        if (e.is_regular_file()) {
            victim = e.path().string();
            break;
        }
    }
    BOOST_REQUIRE(!victim.empty());
    std::ofstream(victim, std::ios::trunc) << "{\"key\": ";
    auto again = study(d, "again.json");
    BOOST_TEST_REQUIRE(again.exit_status == 0, again.err);
    BOOST_TEST(contains(again.err, "warning: ignoring corrupt cache entry '" + victim + "'"),
               again.err);
    BOOST_TEST(count(again.out, "(cached)") == 7u, again.out);
    BOOST_TEST(simulated(read_json(d.path + "/first.json")) ==
               simulated(read_json(d.path + "/again.json")));
    // The entry was written again: the next run is all cached and quiet.
    auto third = study(d, "third.json");
    BOOST_TEST(count(third.out, "(cached)") == 8u);
    BOOST_TEST(!contains(third.err, "warning"), third.err);
}

BOOST_AUTO_TEST_CASE(a_changed_parameter_misses_the_cache) {
    StudyDir d;
    BOOST_TEST_REQUIRE(study(d, "first.json").exit_status == 0);
    auto changed = study(d, "changed.json", {"--set", "cost.ddio_piece_cycles=400"});
    BOOST_TEST_REQUIRE(changed.exit_status == 0, changed.err);
    BOOST_TEST(count(changed.out, "(cached)") == 0u, changed.out);
    // workload.trials is not part of the key: fewer trials are all cached.
    auto fewer = study(d, "fewer.json", {"--set", "workload.trials=1"});
    BOOST_TEST(count(fewer.out, "(cached)") == 4u, fewer.out);
}

BOOST_AUTO_TEST_CASE(the_cache_directory_comes_from_the_environment) {
    StudyDir d;
    std::string dir = d.path + "/from_env";
    auto r = starfish::testing::run_process(
        {"/usr/bin/env", "STARFISH_CACHE_DIR=" + dir, starfish::testing::starfish_binary(), "study",
         d.study(), "--config", "small", "--jobs", "2", "--set", "workload.trials=1"});
    BOOST_TEST_REQUIRE(r.exit_status == 0, r.err);
    BOOST_TEST(contains(r.out, "result cache: " + dir), r.out);
    BOOST_TEST(std::filesystem::exists(dir));
    // --no-cache neither reads nor writes it.
    auto none = starfish::testing::run_process({"/usr/bin/env", "STARFISH_CACHE_DIR=" + dir,
                                                starfish::testing::starfish_binary(), "study",
                                                d.study(), "--config", "small", "--jobs", "2",
                                                "--set", "workload.trials=1", "--no-cache"});
    BOOST_TEST_REQUIRE(none.exit_status == 0, none.err);
    BOOST_TEST(!contains(none.out, "result cache"), none.out);
    BOOST_TEST(count(none.out, "(cached)") == 0u);
}

BOOST_AUTO_TEST_CASE(the_number_of_processes_and_start_order_change_no_result) {
    StudyDir d;
    auto one = study(d, "one.json", {"--no-cache"}, "1");
    auto two = study(d, "two.json", {"--no-cache"});
    BOOST_TEST_REQUIRE(one.exit_status == 0, one.err);
    BOOST_TEST_REQUIRE(two.exit_status == 0, two.err);
    // With two processes the long SPFS rc cell, last in the study, starts first.
    BOOST_TEST(contains(two.out, "[1/8] spfs rc"), two.out);
    BOOST_TEST(contains(one.out, "[1/8] ddio rb trial 0"), one.out);
    json a = read_json(d.path + "/one.json");
    json b = read_json(d.path + "/two.json");
    BOOST_TEST(simulated(a) == simulated(b));
    for (size_t c = 0; c < a["cells"].size(); ++c) {
        BOOST_TEST(a["cells"][c]["overrides"] == b["cells"][c]["overrides"]);
        BOOST_TEST(a["cells"][c]["summary"] == b["cells"][c]["summary"]);
    }
}

// A study with "table": "methods" prints the methods side by side after the
// per-cell table and writes them beside its CSV and Markdown (docs/studies.md).
BOOST_AUTO_TEST_CASE(a_methods_study_prints_and_writes_the_methods_side_by_side) {
    StudyDir d;
    std::string published = d.path + "/published.csv";
    std::ofstream(published) << "method,pattern,mbps\nspfs,rb,2.0\nddio,rb,4.0\nddio,rc,3.0\n";
    std::string file = d.path + "/methods.json";
    std::ofstream(file) << R"({"set": {"workload.record_bytes": 8192, "workload.file_mb": 0.25,
            "workload.trials": 1},
        "vary": [{"fs.kind": ["ddio", "spfs"]}, {"workload.pattern": ["rb", "rc"]}],
        "compare": {"file": "published.csv", "value": "mbps",
                    "columns": {"method": "fs.kind", "pattern": "workload.pattern"}},
        "table": "methods"})";
    auto r =
        run_starfish({"study", file, "--config", "small", "--jobs", "2", "--cache-dir", d.cache(),
                      "--csv", d.path + "/out.csv", "--markdown", d.path + "/out.md"});
    BOOST_TEST_REQUIRE(r.exit_status == 0, r.err);
    size_t cells = r.out.find("published comparison: 3 cells");
    size_t methods = r.out.find("methods side by side");
    BOOST_TEST_REQUIRE(cells != std::string::npos, r.out);
    BOOST_TEST_REQUIRE(methods != std::string::npos, r.out);
    BOOST_TEST(cells < methods, r.out); // after the per-cell table
    BOOST_TEST(contains(r.out, "DDIO sort / SPFS"), r.out);
    BOOST_TEST(contains(r.out, "error against the published values, per method:"), r.out);
    std::ifstream csv(d.path + "/out-methods.csv");
    std::vector<std::string> lines;
    for (std::string line; std::getline(csv, line);) {
        lines.push_back(line);
    }
    BOOST_TEST_REQUIRE(lines.size() == 3u); // header, rb, rc
    BOOST_TEST(contains(lines[0], "workload.pattern,SPFS MB/s,SPFS published,SPFS error %"),
               lines[0]);
    BOOST_TEST(lines[1].rfind("rb,", 0) == 0u, lines[1]);
    BOOST_TEST(std::filesystem::exists(d.path + "/out-methods.md"));
    BOOST_TEST(std::filesystem::exists(d.path + "/out.csv")); // the per-cell table still

    // Standard output has no "beside": the methods rows follow the per-cell rows
    // after a blank line, and no file named "--methods" or "-methods" appears.
    auto piped = run_starfish({"study", file, "--config", "small", "--jobs", "2", "--cache-dir",
                               d.cache(), "--csv", "-"});
    BOOST_TEST_REQUIRE(piped.exit_status == 0, piped.err);
    size_t per_cell = piped.out.find("fs.kind,workload.pattern,mean");
    size_t side_by_side = piped.out.find("\nworkload.pattern,SPFS MB/s,SPFS published");
    BOOST_TEST_REQUIRE(per_cell != std::string::npos, piped.out);
    BOOST_TEST_REQUIRE(side_by_side != std::string::npos, piped.out);
    BOOST_TEST(per_cell < side_by_side, piped.out);
    BOOST_TEST(!contains(piped.out, "methods side by side"),
               piped.out); // the terminal table: stderr
    BOOST_TEST(!std::filesystem::exists("-methods"));
}

BOOST_AUTO_TEST_SUITE_END()
