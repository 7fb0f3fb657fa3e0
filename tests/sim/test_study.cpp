// Studies: grid expansion, skips, validation, published-table comparison, and
// running cells through isolated trial processes.
#include "sim/study/study.h"
#include "sim/study/trial_cache.h"
#include "tests/support/config_error_of.h"

#include "fw/param_keys.h"
#include "sim/report/study_table.h"
#include "sim/workload_params.h"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace starfish;
using namespace starfish::sim;
using nlohmann::json;
using starfish::testing::config_error_of;

namespace {
config::Registry test_registry() {
    config::Registry reg;
    reg.add_int(keys::workload_trials, 3, "", {1, 100}, "trials", "t");
    reg.add_int(keys::workload_record_bytes, 8192, "B", {1, 1 << 20}, "record", "t");
    reg.add_string(keys::workload_pattern, "rb", {"rb", "rc", "ra", "wb"}, "pattern", "t");
    reg.add_string(keys::fs_kind, "ddio", {"ddio", "spfs"}, "fs", "t");
    reg.add_bool(keys::fs_presort, true, "sort", "t");
    return reg;
}

// A fresh directory under /tmp, removed when the test ends: tests never touch the
// user's cache.
struct TempDir {
    std::string path;
    explicit TempDir(const std::string &tag)
        : path("/tmp/starfish_study_" + tag + "_" + std::to_string(::getpid())) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

// Lines in a file (the trial stand-ins append one per run: a child process cannot
// report through the parent's memory).
size_t line_count(const std::string &path) {
    std::ifstream in(path);
    size_t n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
    }
    return n;
}

// A stand-in trial that logs each run to `log` and returns a value depending on
// the record size and the trial number only.
TrialFunction logged_trial(const std::string &log) {
    return [log](const config::Config &cfg, int t) {
        std::ofstream(log, std::ios::app)
            << cfg.get_int(keys::workload_record_bytes) << " " << t << "\n";
        return json{{"mb_s", double(cfg.get_int(keys::workload_record_bytes) + t) / 3.0},
                    {"trial", t},
                    {"verified", true},
                    {"host_cpu_s", 0.5}};
    };
}

// The trials of every cell without the host marker a cached trial carries.
std::vector<json> simulated(const std::vector<CellResult> &results) {
    std::vector<json> out;
    for (const auto &c : results) {
        for (json t : c.trials) {
            t.erase("host");
            out.push_back(t);
        }
    }
    return out;
}

size_t cached_count(const std::vector<CellResult> &results) {
    size_t n = 0;
    for (const auto &c : results) {
        for (const auto &t : c.trials) {
            n += t.contains("host") && t["host"].value("cached", false) ? 1 : 0;
        }
    }
    return n;
}

std::string write_temp(const std::string &text, const std::string &suffix) {
    std::string name = "/tmp/starfish_study_" + std::to_string(::getpid()) + suffix;
    std::ofstream(name) << text;
    return name;
}
} // namespace

BOOST_AUTO_TEST_SUITE(study)

BOOST_AUTO_TEST_CASE(grid_is_the_product_of_axes_minus_skips) {
    auto reg = test_registry();
    config::Config base(reg);
    json doc = json::parse(R"({
        "set": {"fs.kind": "spfs"},
        "vary": [{"workload.record_bytes": [8, 8192]},
                 {"workload.pattern": ["ra", "rb", "rc"]},
                 {"cases": [{"fs.presort": true}, {"fs.presort": false, "workload.trials": 1}]}],
        "skip": [{"workload.pattern": "ra", "workload.record_bytes": 8}]
    })");
    StudySpec spec = parse_study(doc, "t.json", "/tmp");
    auto cells = expand_study(spec, base);
    BOOST_TEST(cells.size() == 2u * 3u * 2u - 2u);
    // First axis outermost, last innermost.
    BOOST_TEST(cells[0].overrides["workload.record_bytes"].get<int>() == 8);
    BOOST_TEST(cells[0].overrides["workload.pattern"].get<std::string>() == "rb");
    BOOST_TEST(cells[0].cfg.get_bool(keys::fs_presort));
    BOOST_TEST(!cells[1].cfg.get_bool(keys::fs_presort));
    BOOST_TEST(cells[1].cfg.get_int(keys::workload_trials) == 1);
    for (const auto &c : cells) {
        BOOST_TEST(c.cfg.get_string(keys::fs_kind) == "spfs");
        BOOST_TEST(!(c.cfg.get_string(keys::workload_pattern) == "ra" &&
                     c.cfg.get_int(keys::workload_record_bytes) == 8));
    }
}

BOOST_AUTO_TEST_CASE(bad_study_files_name_the_problem) {
    auto reg = test_registry();
    config::Config base(reg);
    auto parse = [](const char *text) { return parse_study(json::parse(text), "s.json", "."); };
    BOOST_TEST(config_error_of([&] { parse(R"({"vary": {"a": [1]}})"); }).find("s.json") == 0u);
    BOOST_TEST(config_error_of([&] { parse(R"({"vary": [{"a": []}]})"); }).find("non-empty") !=
               std::string::npos);
    BOOST_TEST(config_error_of([&] { parse(R"({"varry": []})"); }).find("'varry'") !=
               std::string::npos);
    BOOST_TEST(config_error_of([&] { parse(R"({"compare": {"file": "x"}})"); }).find("compare") !=
               std::string::npos);
    // An invalid value in a cell names the cell and the key.
    StudySpec spec = parse(R"({"vary": [{"workload.pattern": ["rb", "zz"]}]})");
    std::string e = config_error_of([&] { expand_study(spec, base); });
    BOOST_TEST(e.find("workload.pattern") != std::string::npos);
    BOOST_TEST(e.find("zz") != std::string::npos);
    BOOST_TEST(config_error_of([&] {
                   load_study("/no/such/study.json");
               }).find("/no/such/study.json") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(published_values_match_cells_by_columns) {
    auto reg = test_registry();
    config::Config base(reg);
    std::string csv = write_temp("method,record,pattern,mbps\n"
                                 "ddio,8,rb,31.2\nddio,8192,rb,31.3\nspfs,8,rc,2.8\n",
                                 ".csv");
    StudyCompare cmp{csv,
                     "mbps",
                     {{"method", "fs.kind"},
                      {"record", "workload.record_bytes"},
                      {"pattern", "workload.pattern"}}};
    PublishedTable table(cmp);
    config::Config cfg = base;
    cfg.set("workload.record_bytes", 8, "t");
    BOOST_TEST(table.lookup(cfg).value() == 31.2);
    cfg.set("workload.record_bytes", 8192, "t");
    BOOST_TEST(table.lookup(cfg).value() == 31.3);
    cfg.set("workload.pattern", "rc", "t");
    BOOST_TEST(!table.lookup(cfg).has_value());
    cfg.set("fs.kind", "spfs", "t");
    cfg.set("workload.record_bytes", 8, "t");
    BOOST_TEST(table.lookup(cfg).value() == 2.8);
    std::string bad = write_temp("method,mbps\nddio\n", "_bad.csv");
    StudyCompare bad_cmp{bad, "mbps", {{"method", "fs.kind"}}};
    BOOST_TEST(config_error_of([&] { PublishedTable t(bad_cmp); }).find(":2:") !=
               std::string::npos);
    std::remove(csv.c_str());
    std::remove(bad.c_str());
}

BOOST_AUTO_TEST_CASE(an_empty_published_field_matches_any_value_and_a_later_table_wins) {
    auto reg = test_registry();
    config::Config base(reg);
    std::string csv = write_temp("method,pattern,presort,mbps\n"
                                 "ddio,rb,true,6.3\nddio,rb,false,4.5\nspfs,rb,,5.0\n",
                                 "_presort.csv");
    StudyCompare cmp{
        csv,
        "mbps",
        {{"method", "fs.kind"}, {"pattern", "workload.pattern"}, {"presort", "fs.presort"}}};
    PublishedTable table(cmp);
    StudySpec spec = parse_study(json::parse(R"({"vary": [{"cases": [
        {"fs.kind": "ddio", "fs.presort": true}, {"fs.kind": "ddio", "fs.presort": false},
        {"fs.kind": "spfs", "fs.presort": true}, {"fs.kind": "spfs", "fs.presort": false}]}]})"),
                                 "s.json", ".");
    auto cells = expand_study(spec, base);
    std::vector<double> expected{6.3, 4.5, 5.0, 5.0};
    std::vector<CellResult> results(cells.size());
    for (size_t c = 0; c < cells.size(); ++c) {
        BOOST_TEST(table.lookup(cells[c].cfg).value() == expected[c]);
        results[c].summary = json{{"mean", 10.0}};
    }
    results[0].summary["published"] = 1.0; // from an earlier table: replaced
    attach_published(results, cells, table);
    BOOST_TEST(results[0].summary["published"].get<double>() == 6.3);
    BOOST_TEST(results[1].summary["error_pct"].get<double>() == 100.0 * (10.0 - 4.5) / 4.5);
    std::remove(csv.c_str());
}

BOOST_AUTO_TEST_CASE(a_published_value_carries_its_own_interval_when_the_compare_names_one) {
    auto reg = test_registry();
    config::Config base(reg);
    std::string csv = write_temp("pattern,mbps,mean_lo,mean,mean_hi\n"
                                 "wb,0.8,0.8474,0.8487,0.8500\nrb,31.3,31.25,31.40,31.35\n",
                                 "_interval.csv");
    StudySpec spec = parse_study(json::parse(R"({"vary": [{"workload.pattern": ["wb", "rb"]}],
        "compare": {"file": ")" + csv + R"(", "value": "mean",
                    "interval": ["mean_lo", "mean_hi"],
                    "columns": {"pattern": "workload.pattern"}}})"),
                                 "s.json", ".");
    BOOST_TEST(spec.compare->low_column == "mean_lo");
    BOOST_TEST(spec.compare->high_column == "mean_hi");
    auto cells = expand_study(spec, base);
    PublishedTable table(*spec.compare);
    std::vector<CellResult> results(1);
    results[0].summary = json{{"mean", 1.1}};
    attach_published(results, cells, table);
    BOOST_TEST(results[0].summary["published"].get<double>() == 0.8487);
    BOOST_TEST(results[0].summary["published_low"].get<double>() == 0.8474);
    BOOST_TEST(results[0].summary["published_high"].get<double>() == 0.85);
    // A value outside its own interval (rb: 31.40 above 31.35) is refused, naming the columns.
    BOOST_TEST(config_error_of([&] { table.entry(cells[1].cfg); })
                   .find("outside its interval [mean_lo, "
                         "mean_hi]") != std::string::npos);
    // A later table without an interval replaces the value and drops the bounds.
    StudyCompare plain{csv, "mbps", {{"pattern", "workload.pattern"}}};
    attach_published(results, cells, PublishedTable(plain));
    BOOST_TEST(results[0].summary["published"].get<double>() == 0.8);
    BOOST_TEST(!results[0].summary.contains("published_low"));
    BOOST_TEST(!results[0].summary.contains("published_high"));
    // The interval names two columns the table has.
    auto parse = [&](const std::string &interval) {
        return parse_study(json::parse(R"({"compare": {"file": ")" + csv +
                                       R"(", "value": "mean", "interval": )" + interval +
                                       R"(, "columns": {"pattern": "workload.pattern"}}})"),
                           "s.json", ".");
    };
    BOOST_TEST(config_error_of([&] { parse(R"("mean_lo")"); }).find("[\"low\", \"high\"]") !=
               std::string::npos);
    BOOST_TEST(config_error_of([&] {
                   PublishedTable t(*parse(R"(["mean_lo", "nope"])").compare);
               }).find("nope") != std::string::npos);
    std::remove(csv.c_str());
}

BOOST_AUTO_TEST_CASE(study_trials_list_every_cell_and_trial_in_study_order) {
    auto reg = test_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(
        json::parse(R"({"vary": [{"cases": [{"workload.trials": 2}, {"workload.trials": 3}]}]})"),
        "s.json", ".");
    auto trials = study_trials(expand_study(spec, base));
    BOOST_TEST_REQUIRE(trials.size() == 5u);
    std::vector<std::pair<size_t, int>> got;
    for (const auto &t : trials) {
        got.emplace_back(t.cell, t.trial);
    }
    std::vector<std::pair<size_t, int>> want{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}};
    BOOST_TEST((got == want));
}

BOOST_AUTO_TEST_CASE(a_derived_study_has_a_source_and_no_cells_of_its_own) {
    auto reg = test_registry();
    config::Config base(reg);
    auto parse = [](const char *text) { return parse_study(json::parse(text), "d.json", "."); };
    StudySpec spec = parse(R"({"from": "main", "report": {"kind": "ratio-summary"}})");
    BOOST_TEST(spec.derived_from == "main");
    BOOST_TEST(spec.report["kind"].get<std::string>() == "ratio-summary");
    BOOST_TEST(config_error_of([&] { expand_study(spec, base); }).find("computed from main") !=
               std::string::npos);
    BOOST_TEST(config_error_of([&] { parse(R"({"from": "main", "vary": []})"); }).find("'vary'") !=
               std::string::npos);
    BOOST_TEST(config_error_of([&] { parse(R"({"from": 3})"); }).find("'from'") !=
               std::string::npos);
    BOOST_TEST(config_error_of([&] { parse(R"({"report": []})"); }).find("'report'") !=
               std::string::npos);
    // A study with a report section still runs as a study.
    StudySpec grid = parse(R"({"vary": [{"workload.pattern": ["rb"]}], "report": {"kind": "x"}})");
    BOOST_TEST(expand_study(grid, base).size() == 1u);
}

BOOST_AUTO_TEST_CASE(cells_run_as_isolated_trials_and_are_summarised) {
    auto reg = test_registry();
    config::Config base(reg);
    std::string csv = write_temp("record,mbps\n8,10\n", "_run.csv");
    StudySpec spec = parse_study(json::parse(R"({"vary": [{"workload.record_bytes": [8, 16]}],
        "compare": {"file": ")" + csv + R"(", "value": "mbps",
                    "columns": {"record": "workload.record_bytes"}}})"),
                                 "s.json", ".");
    auto cells = expand_study(spec, base);
    // A stand-in trial: throughput = record size + trial number.
    TrialFunction trial = [](const config::Config &cfg, int t) {
        return json{{"mb_s", double(cfg.get_int(keys::workload_record_bytes) + t)}};
    };
    size_t last_done = 0;
    auto results =
        run_study(spec, cells, trial, 2, [&](size_t done, size_t total, size_t, const json &) {
            BOOST_TEST(total == 6u);
            last_done = done;
        });
    BOOST_TEST(last_done == 6u);
    BOOST_REQUIRE(results.size() == 2u);
    BOOST_TEST(results[0].trials.size() == 3u);
    BOOST_TEST(results[0].summary["mean"].get<double>() == 9.0); // 8, 9, 10
    BOOST_TEST(results[0].summary["published"].get<double>() == 10.0);
    BOOST_TEST(results[0].summary["error_pct"].get<double>() == -10.0);
    BOOST_TEST(results[1].summary["mean"].get<double>() == 17.0);
    BOOST_TEST(!results[1].summary.contains("published"));
    std::remove(csv.c_str());
}

BOOST_AUTO_TEST_CASE(disk_movements_are_summarised_and_shown_beside_the_metric) {
    // Trials that carry the drives' movement count (docs/disk.md) give the cell's mean
    // as summary.movements and a "movements" column; trials without it give neither.
    auto reg = test_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(json::parse(R"({"vary": [{"workload.record_bytes": [8, 16]}]})"),
                                 "s.json", ".");
    auto cells = expand_study(spec, base);
    std::vector<CellResult> results(2);
    results[0].trials = {json{{"mb_s", 1.0}, {"disk", {{"movements", 10}}}},
                         json{{"mb_s", 2.0}, {"disk", {{"movements", 13}}}}};
    results[1].trials = {json{{"mb_s", 3.0}}};
    results = summarise_cells(spec, cells, results);
    BOOST_TEST(results[0].summary["movements"].get<double>() == 11.5);
    BOOST_TEST(!results[1].summary.contains("movements"));
    std::ostringstream table;
    print_study_table(table, results);
    BOOST_TEST(table.str().find("movements") != std::string::npos, table.str());
    BOOST_TEST(table.str().find("12") != std::string::npos, table.str()); // 11.5 rounded
    std::vector<CellResult> without(1, results[1]);
    std::ostringstream plain;
    print_study_table(plain, without);
    BOOST_TEST(plain.str().find("movements") == std::string::npos, plain.str());
}

BOOST_AUTO_TEST_CASE(longest_trials_start_first_and_results_keep_the_study_order) {
    std::vector<double> costs{1, 5, 2, 5, 9};
    BOOST_TEST(trial_start_order(costs, 2) == (std::vector<size_t>{4, 1, 3, 2, 0}));
    BOOST_TEST(trial_start_order(costs, 1) == (std::vector<size_t>{0, 1, 2, 3, 4}));

    auto reg = test_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(
        json::parse(R"({"vary": [{"workload.record_bytes": [8, 16, 8192]}]})"), "s.json", ".");
    auto cells = expand_study(spec, base);
    TempDir dir("order");
    std::string log = dir.path + "/runs";
    StudyRunOptions serial;
    serial.jobs = 1;
    auto in_order = run_study(spec, cells, logged_trial(log), serial);
    // One at a time, the study's order.
    std::ifstream first(log);
    std::string line;
    std::getline(first, line);
    BOOST_TEST(line == "8 0");
    std::filesystem::remove(log);
    StudyRunOptions parallel;
    parallel.jobs = 2;
    // The last cell in the study's order is the long one here.
    parallel.cost = [](const config::Config &cfg) {
        return double(cfg.get_int(keys::workload_record_bytes));
    };
    std::vector<size_t> progress_cells;
    parallel.on_progress = [&](const TrialProgress &p, const json &) {
        progress_cells.push_back(p.cell);
        BOOST_TEST(p.eta_s >= 0.0);
    };
    auto reordered = run_study(spec, cells, logged_trial(log), parallel);
    // The two processes started first are both the 8192-byte cell's.
    std::ifstream second(log);
    std::vector<std::string> started;
    for (std::string l; std::getline(second, l);) {
        started.push_back(l.substr(0, l.find(' ')));
    }
    BOOST_REQUIRE(started.size() == 9u);
    BOOST_TEST(started[0] == "8192");
    BOOST_TEST(started[1] == "8192");
    BOOST_TEST(progress_cells.size() == 9u);
    BOOST_TEST(simulated(in_order) == simulated(reordered));
    for (size_t c = 0; c < cells.size(); ++c) {
        BOOST_TEST(in_order[c].summary == reordered[c].summary);
        BOOST_TEST(reordered[c].trials[0]["trial"].get<int>() == 0); // trials in order
        BOOST_TEST(reordered[c].trials[2]["trial"].get<int>() == 2);
    }
}

BOOST_AUTO_TEST_CASE(a_rerun_takes_every_trial_from_the_cache) {
    auto reg = test_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(json::parse(R"({"vary": [{"workload.record_bytes": [8, 16]}]})"),
                                 "s.json", ".");
    auto cells = expand_study(spec, base);
    TempDir dir("cache_hit");
    std::string log = dir.path + "/runs";
    TrialCache cache(dir.path + "/cache", "test-build-1");
    StudyRunOptions options;
    options.jobs = 2;
    options.cache = &cache;
    std::vector<std::string> warnings;
    options.on_warning = [&](const std::string &w) { warnings.push_back(w); };
    size_t cached_progress = 0;
    options.on_progress = [&](const TrialProgress &p, const json &) {
        cached_progress += p.cached ? 1 : 0;
    };
    auto first = run_study(spec, cells, logged_trial(log), options);
    BOOST_TEST(line_count(log) == 6u);
    BOOST_TEST(cached_count(first) == 0u);
    BOOST_TEST(cached_progress == 0u);
    auto second = run_study(spec, cells, logged_trial(log), options);
    BOOST_TEST(line_count(log) == 6u); // no trial ran
    BOOST_TEST(cached_count(second) == 6u);
    BOOST_TEST(cached_progress == 6u);
    BOOST_TEST(simulated(first) == simulated(second));
    for (size_t c = 0; c < cells.size(); ++c) {
        BOOST_TEST(first[c].summary == second[c].summary);
    }
    BOOST_TEST(warnings.empty());

    // --fresh runs everything again and rewrites the entries.
    options.fresh = true;
    auto fresh = run_study(spec, cells, logged_trial(log), options);
    BOOST_TEST(line_count(log) == 12u);
    BOOST_TEST(cached_count(fresh) == 0u);
    BOOST_TEST(simulated(fresh) == simulated(first));

    // Another build of the simulator shares nothing.
    TrialCache other_build(dir.path + "/cache", "test-build-2");
    options.fresh = false;
    options.cache = &other_build;
    run_study(spec, cells, logged_trial(log), options);
    BOOST_TEST(line_count(log) == 18u);
}

BOOST_AUTO_TEST_CASE(an_interrupted_study_runs_only_what_is_missing) {
    auto reg = test_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(json::parse(R"({"vary": [{"workload.record_bytes": [8, 16]}]})"),
                                 "s.json", ".");
    auto cells = expand_study(spec, base);
    TempDir dir("partial");
    std::string log = dir.path + "/runs";
    TrialCache cache(dir.path + "/cache", "test-build");
    // As if the study had been stopped after two trials of the first cell.
    for (int t = 0; t < 2; ++t) {
        BOOST_TEST(cache.store(cells[0].cfg, t,
                               json{{"mb_s", 8.0 + t}, {"trial", t}, {"verified", true}}) == "");
    }
    StudyRunOptions options;
    options.jobs = 2;
    options.cache = &cache;
    auto results = run_study(spec, cells, logged_trial(log), options);
    BOOST_TEST(line_count(log) == 4u);
    BOOST_TEST(cached_count(results) == 2u);
    BOOST_TEST(results[0].trials[0]["mb_s"].get<double>() == 8.0);
    BOOST_TEST(!results[0].trials[2].contains("host"));
    // No temporary file is left next to the entries.
    for (const auto &e : std::filesystem::recursive_directory_iterator(dir.path + "/cache")) {
        BOOST_TEST(e.path().string().find(".tmp") == std::string::npos, e.path());
    }
}

BOOST_AUTO_TEST_CASE(a_corrupt_cache_entry_is_a_miss_with_a_warning) {
    auto reg = test_registry();
    config::Config base(reg);
    StudySpec spec =
        parse_study(json::parse(R"({"vary": [{"workload.record_bytes": [8]}]})"), "s.json", ".");
    auto cells = expand_study(spec, base);
    TempDir dir("corrupt");
    std::string log = dir.path + "/runs";
    TrialCache cache(dir.path + "/cache", "test-build");
    StudyRunOptions options;
    options.cache = &cache;
    std::vector<std::string> warnings;
    options.on_warning = [&](const std::string &w) { warnings.push_back(w); };
    auto first = run_study(spec, cells, logged_trial(log), options);
    std::string entry = cache.entry_path(cells[0].cfg, 1);
    BOOST_REQUIRE(std::filesystem::exists(entry));
    std::ofstream(entry, std::ios::trunc) << "{\"key\": {\"trial\": 1}, \"res"; // cut short
    auto second = run_study(spec, cells, logged_trial(log), options);
    BOOST_TEST(line_count(log) == 4u); // trial 1 ran again
    BOOST_REQUIRE(warnings.size() == 1u);
    BOOST_TEST(warnings[0].find("corrupt cache entry") != std::string::npos, warnings[0]);
    BOOST_TEST(warnings[0].find(entry) != std::string::npos, warnings[0]);
    BOOST_TEST(cached_count(second) == 2u);
    BOOST_TEST(simulated(first) == simulated(second));
    // The entry was rewritten whole.
    warnings.clear();
    run_study(spec, cells, logged_trial(log), options);
    BOOST_TEST(line_count(log) == 4u);
    BOOST_TEST(warnings.empty());
}

BOOST_AUTO_TEST_CASE(the_cache_key_is_the_effective_configuration_trial_and_build) {
    auto reg = test_registry();
    config::Config a(reg);
    TrialCache cache("/tmp/unused", "build-1");
    config::Config b = a;
    // Keys that cannot change a trial's result do not change the key.
    b.set("workload.trials", 7, "t");
    BOOST_TEST(cache.entry_path(a, 0) == cache.entry_path(b, 0));
    // Every parameter that can, does.
    b.set("workload.record_bytes", 16, "t");
    BOOST_TEST(cache.entry_path(a, 0) != cache.entry_path(b, 0));
    b = a;
    b.set("fs.presort", false, "t");
    BOOST_TEST(cache.entry_path(a, 0) != cache.entry_path(b, 0));
    BOOST_TEST(cache.entry_path(a, 0) != cache.entry_path(a, 1));
    TrialCache other("/tmp/unused", "build-2");
    BOOST_TEST(cache.entry_path(a, 0).substr(12) != other.entry_path(a, 0).substr(12));
    // The key stored in the entry is the whole configuration, in canonical form.
    json key = cache.key_document(a, 3);
    BOOST_TEST(key["trial"].get<int>() == 3);
    BOOST_TEST(key["simulator"].get<std::string>() == "build-1");
    BOOST_TEST(key["config"]["workload.pattern"].get<std::string>() == "rb");
    BOOST_TEST(!key["config"].contains("workload.trials"));
    // The real build's identity names the version and the executable's hash.
    BOOST_TEST(simulator_identity().find("+exe.") != std::string::npos, simulator_identity());
}

BOOST_AUTO_TEST_CASE(a_failing_trial_is_recorded_and_the_others_run) {
    auto reg = test_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(json::parse(R"({"vary": [{"workload.record_bytes": [8, 16]}]})"),
                                 "s.json", ".");
    auto cells = expand_study(spec, base);
    TempDir dir("failing");
    std::string log = dir.path + "/runs";
    TrialCache cache(dir.path + "/cache", "test-build");
    StudyRunOptions options;
    options.jobs = 2;
    options.cache = &cache;
    TrialFunction logged = logged_trial(log);
    // Every trial of the 16-byte cell fails in its process; trial 1 of the other
    // does not verify.
    TrialFunction trial = [&](const config::Config &cfg, int t) {
        if (cfg.get_int(keys::workload_record_bytes) == 16) {
            throw std::runtime_error("node 7: DDIO: lost");
        }
        json r = logged(cfg, t);
        r["verified"] = t != 1;
        return r;
    };
    auto results = run_study(spec, cells, trial, options);
    BOOST_TEST(line_count(log) == 3u); // the other cell ran whole
    BOOST_TEST(results[0].summary["trials"].get<int>() == 3);
    BOOST_TEST(!results[0].summary.contains("failed_trials"));
    BOOST_TEST(results[1].summary["trials"].get<int>() == 0);
    BOOST_TEST(results[1].summary["failed_trials"].get<int>() == 3);
    BOOST_TEST(trial_failed(results[1].trials[2]));
    BOOST_TEST(results[1].trials[2]["failed"].get<std::string>() == "node 7: DDIO: lost");
    BOOST_TEST(results[1].trials[2]["trial"].get<int>() == 2);
    // Only what ran to its end is cached, and a result whose data did not verify is
    // not done: a rerun runs it (and every failed one) again.
    auto again = run_study(spec, cells, trial, options);
    BOOST_TEST(line_count(log) == 4u);
    BOOST_TEST(cached_count(again) == 2u);
}

BOOST_AUTO_TEST_CASE(a_grid_too_large_is_refused_before_it_is_expanded) {
    auto reg = test_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(
        json::parse(R"({"vary": [{"workload.seed": [1]}, {"workload.record_bytes": [8]}]})"),
        "s.json", ".");
    spec.name = "wide";
    spec.axes[0].second.assign(101, json(1));
    spec.axes[1].second.assign(100, json(8)); // 101 x 100 cells
    BOOST_TEST(grid_size(spec) == 10100.0);
    std::string err = config_error_of([&] { expand_study(spec, base); });
    BOOST_TEST(err.find("its grid has 10100 cells (101 x 100 values") != std::string::npos, err);
    spec.axes[1].second.resize(99); // 9999 cells: allowed
    BOOST_CHECK_NO_THROW(check_grid_size(spec));
}

BOOST_AUTO_TEST_CASE(a_changed_parameter_misses_the_cache) {
    auto reg = test_registry();
    config::Config base(reg);
    TempDir dir("changed");
    std::string log = dir.path + "/runs";
    TrialCache cache(dir.path + "/cache", "test-build");
    StudyRunOptions options;
    options.cache = &cache;
    auto run = [&](const char *study) {
        StudySpec spec = parse_study(json::parse(study), "s.json", ".");
        return run_study(spec, expand_study(spec, base), logged_trial(log), options);
    };
    run(R"({"set": {"workload.trials": 2}, "vary": [{"workload.record_bytes": [8]}]})");
    BOOST_TEST(line_count(log) == 2u);
    // A different value of a parameter that is not even varied: both trials run.
    run(R"({"set": {"workload.trials": 2, "fs.presort": false},
            "vary": [{"workload.record_bytes": [8]}]})");
    BOOST_TEST(line_count(log) == 4u);
    // More trials of a cached cell: only the new ones run.
    run(R"({"set": {"workload.trials": 3}, "vary": [{"workload.record_bytes": [8]}]})");
    BOOST_TEST(line_count(log) == 5u);
}

BOOST_AUTO_TEST_SUITE_END()
