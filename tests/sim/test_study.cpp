// Studies: grid expansion, skips, validation, published-table comparison, and
// running cells through isolated trial processes.
#include "hw/config/config_error.h"
#include "sim/study/study.h"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace starfish;
using namespace starfish::sim;
using nlohmann::json;

namespace {
config::Registry test_registry() {
    config::Registry reg;
    reg.add_int("workload.trials", 3, "", {1, 100}, "trials", "t");
    reg.add_int("workload.record_bytes", 8192, "B", {1, 1 << 20}, "record", "t");
    reg.add_string("workload.pattern", "rb", {"rb", "rc", "ra", "wb"}, "pattern", "t");
    reg.add_string("fs.kind", "ddio", {"ddio", "spfs"}, "fs", "t");
    reg.add_bool("fs.presort", true, "sort", "t");
    return reg;
}

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const config::ConfigError &e) {
        return e.what();
    }
    return "";
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
    BOOST_TEST(cells[0].cfg.get_bool("fs.presort"));
    BOOST_TEST(!cells[1].cfg.get_bool("fs.presort"));
    BOOST_TEST(cells[1].cfg.get_int("workload.trials") == 1);
    for (const auto &c : cells) {
        BOOST_TEST(c.cfg.get_string("fs.kind") == "spfs");
        BOOST_TEST(!(c.cfg.get_string("workload.pattern") == "ra" &&
                     c.cfg.get_int("workload.record_bytes") == 8));
    }
}

BOOST_AUTO_TEST_CASE(bad_study_files_name_the_problem) {
    auto reg = test_registry();
    config::Config base(reg);
    auto parse = [](const char *text) { return parse_study(json::parse(text), "s.json", "."); };
    BOOST_TEST(error_of([&] { parse(R"({"vary": {"a": [1]}})"); }).find("s.json") == 0u);
    BOOST_TEST(error_of([&] { parse(R"({"vary": [{"a": []}]})"); }).find("non-empty") !=
               std::string::npos);
    BOOST_TEST(error_of([&] { parse(R"({"varry": []})"); }).find("'varry'") != std::string::npos);
    BOOST_TEST(error_of([&] { parse(R"({"compare": {"file": "x"}})"); }).find("compare") !=
               std::string::npos);
    // An invalid value in a cell names the cell and the key.
    StudySpec spec = parse(R"({"vary": [{"workload.pattern": ["rb", "zz"]}]})");
    std::string e = error_of([&] { expand_study(spec, base); });
    BOOST_TEST(e.find("workload.pattern") != std::string::npos);
    BOOST_TEST(e.find("zz") != std::string::npos);
    BOOST_TEST(error_of([&] { load_study("/no/such/study.json"); }).find("/no/such/study.json") !=
               std::string::npos);
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
    BOOST_TEST(error_of([&] { PublishedTable t(bad_cmp); }).find(":2:") != std::string::npos);
    std::remove(csv.c_str());
    std::remove(bad.c_str());
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
        return json{{"mb_s", double(cfg.get_int("workload.record_bytes") + t)}};
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

BOOST_AUTO_TEST_SUITE_END()
