// The methods table (sim/report/methods_table.h): a study's cells side by side
// by file system, with published values, errors and ratios to SPFS.
#include "fw/param_keys.h"
#include "hw/config/config_error.h"
#include "sim/report/csv.h"
#include "sim/report/methods_table.h"
#include "sim/report/text_table.h"
#include "sim/study/study.h"
#include "sim/workload_params.h"
#include "tests/support/config_error_of.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <sstream>

using namespace starfish;
using namespace starfish::sim;
using nlohmann::json;
using starfish::testing::config_error_of;

namespace {

config::Registry methods_registry() {
    config::Registry reg;
    reg.add_int(keys::workload_trials, 3, "", {1, 100}, "trials", "t");
    reg.add_int(keys::workload_record_bytes, 8192, "B", {1, 1 << 20}, "record", "t");
    reg.add_string(keys::workload_pattern, "rb", {"rb", "rc", "wb"}, "pattern", "t");
    reg.add_string(keys::workload_layout, "contiguous", {"contiguous", "random-blocks"}, "layout",
                   "t");
    reg.add_string(keys::fs_kind, "ddio", {"ddio", "spfs", "2pio"}, "fs", "t");
    reg.add_bool(keys::fs_presort, true, "sort", "t");
    return reg;
}

// The four methods on two layouts and two patterns; DDIO no sort on random-blocks
// only, as paper-main runs it.
const char *const kStudy = R"({
  "vary": [{"cases": [{"fs.kind": "spfs"}, {"fs.kind": "2pio"},
                      {"fs.kind": "ddio", "fs.presort": false},
                      {"fs.kind": "ddio", "fs.presort": true}]},
           {"workload.layout": ["contiguous", "random-blocks"]},
           {"workload.pattern": ["rb", "rc"]}],
  "skip": [{"fs.kind": "ddio", "fs.presort": false, "workload.layout": "contiguous"}],
  "table": "methods"})";

// A summary per cell: the mean from `means` in the study's order, a published
// value (mean / (1 + error)) on every cell but the last.
std::vector<CellResult> results_for(const std::vector<StudyCell> &cells,
                                    const std::vector<double> &means) {
    std::vector<CellResult> out(cells.size());
    for (size_t i = 0; i < cells.size(); ++i) {
        out[i].overrides = cells[i].overrides;
        out[i].summary = json{{"mean", means[i]}};
        if (i + 1 < cells.size()) {
            double published = means[i] / 1.1; // the model 10% fast
            out[i].summary["published"] = published;
            out[i].summary["error_pct"] = 100.0 * (means[i] - published) / published;
        }
    }
    return out;
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

} // namespace

BOOST_AUTO_TEST_SUITE(methods_table_suite)

BOOST_AUTO_TEST_CASE(methods_are_labelled_as_the_paper_names_them) {
    BOOST_TEST(method_label("spfs", true) == "SPFS");
    BOOST_TEST(method_label("2pio", false) == "2PIO");
    BOOST_TEST(method_label("ddio", true) == "DDIO sort");
    BOOST_TEST(method_label("ddio", false) == "DDIO no sort");
}

BOOST_AUTO_TEST_CASE(a_study_asks_for_the_table_by_name) {
    auto parse = [](const char *text) { return parse_study(json::parse(text), "s.json", "."); };
    BOOST_TEST(!wants_methods_table(parse(R"({"vary": [{"workload.pattern": ["rb"]}]})")));
    BOOST_TEST(wants_methods_table(parse(kStudy)));
    std::string error = config_error_of([&] { parse(R"({"table": "method"})"); });
    BOOST_TEST(contains(error, "'table'"), error);
    BOOST_TEST(contains(error, "method"), error);
}

BOOST_AUTO_TEST_CASE(one_row_per_cell_of_the_other_keys_with_every_method_beside) {
    auto reg = methods_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(json::parse(kStudy), "s.json", ".");
    auto cells = expand_study(spec, base);
    BOOST_REQUIRE(cells.size() == 14u); // 4 methods x 2 layouts x 2 patterns - 2 skipped
    // Study order: SPFS (4 cells), 2PIO (4), DDIO no sort (2, random-blocks), DDIO sort (4).
    std::vector<double> means{10, 20, 4, 2, 30, 25, 5, 3, 4.4, 4.4, 31, 31, 6.3, 6.3};
    auto results = results_for(cells, means);
    MethodsTable t = methods_table(spec, base, results);

    BOOST_TEST((t.key_columns == std::vector<std::string>{"workload.layout", "workload.pattern"}));
    BOOST_TEST(
        (t.methods == std::vector<std::string>{"SPFS", "2PIO", "DDIO no sort", "DDIO sort"}));
    BOOST_REQUIRE(t.rows.size() == 4u);
    BOOST_TEST((t.rows[0].keys == std::vector<std::string>{"contiguous", "rb"}));
    BOOST_TEST((t.rows[3].keys == std::vector<std::string>{"random-blocks", "rc"}));
    // DDIO no sort has no contiguous cell; every other method fills every row.
    BOOST_TEST(!t.rows[0].method[2].has_value());
    BOOST_TEST(t.rows[2].method[2]->mean == 4.4);
    BOOST_TEST(t.rows[1].method[3]->mean == 31.0);
    // Ratios to SPFS, the model's and the paper's.
    BOOST_TEST(t.model_ratio(0, 1).value() == 3.0);       // 2PIO 30 / SPFS 10
    BOOST_TEST(t.model_ratio(3, 3).value() == 6.3 / 2.0); // DDIO sort rc random-blocks
    BOOST_TEST(!t.published_ratio(3, 3).has_value());     // its cell has no published
    BOOST_TEST(std::fabs(t.published_ratio(2, 2).value() - 4.4 / 4.0) < 1e-12);
    BOOST_TEST(!t.model_ratio(0, 2).has_value()); // no DDIO no sort cell
    // Each method's error against the published values.
    BOOST_TEST(t.comparison[0].cells == 4);
    BOOST_TEST(t.comparison[3].cells == 3);
    BOOST_TEST(std::fabs(t.comparison[3].median_abs_error_pct - 10.0) < 1e-9);
}

BOOST_AUTO_TEST_CASE(the_table_prints_groups_and_writes_csv_and_markdown) {
    auto reg = methods_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(json::parse(kStudy), "s.json", ".");
    auto cells = expand_study(spec, base);
    std::vector<double> means{10, 20, 4, 2, 30, 25, 5, 3, 4.4, 4.4, 31, 31, 6.3, 6.3};
    MethodsTable t = methods_table(spec, base, results_for(cells, means));

    std::ostringstream term;
    print_methods_table(term, t);
    const std::string text = term.str();
    BOOST_TEST(contains(text, "DDIO no sort"), text);
    BOOST_TEST(contains(text, "2PIO / SPFS"), text);
    BOOST_TEST(contains(text, "err %"), text);
    BOOST_TEST(contains(text, "+10.0"), text); // every published cell 10% fast
    BOOST_TEST(contains(text, "3.00"), text);  // 2PIO / SPFS on contiguous rb
    // Geometric mean of 2PIO / SPFS over the 4 rows with both: the model's equals
    // the paper's here, since every cell is 10% fast.
    double gm = std::pow(3.0 * 1.25 * 1.25 * 1.5, 0.25);
    BOOST_TEST(contains(text, "ratio to SPFS, geometric mean"), text);
    BOOST_TEST(contains(text, "  2PIO          model " + fixed_text(gm, 2) + ", published " +
                                  fixed_text(gm, 2) + " (4 rows)"),
               text);
    // DDIO sort's ratio has a published value on 3 of its 4 rows.
    BOOST_TEST(contains(text, "  DDIO sort     model " +
                                  fixed_text(std::pow(3.1 * 1.55 * 1.575, 1.0 / 3), 2)),
               text);
    BOOST_TEST(contains(text, "(3 rows)"), text);
    BOOST_TEST(contains(text, "  SPFS          4 cells, median |error| 10.0%"), text);

    std::stringstream csv;
    write_methods_csv(csv, t);
    CsvTable table = read_csv(csv, "methods.csv");
    BOOST_TEST(table.header.size() == 2u + 4u * 3u + 3u * 2u);
    BOOST_TEST(table.header[0] == "workload.layout");
    BOOST_TEST(table.header[2] == "SPFS MB/s");
    BOOST_TEST(table.header[3] == "SPFS published");
    BOOST_TEST(table.header[4] == "SPFS error %");
    BOOST_TEST(table.header[14] == "2PIO / SPFS");
    BOOST_TEST(table.header[15] == "2PIO / SPFS published");
    BOOST_REQUIRE(table.rows.size() == 4u);
    const auto &row = table.rows[0].fields;
    BOOST_TEST(row[0] == "contiguous");
    BOOST_TEST(row[2] == "10.00");
    BOOST_TEST(row[3] == "9.09");
    BOOST_TEST(row[4] == "+10.0");
    BOOST_TEST(row[8] == ""); // DDIO no sort: no contiguous cell
    BOOST_TEST(row[14] == "3.00");
    BOOST_TEST(row[15] == "3.00");

    std::ostringstream md;
    write_methods_markdown(md, t);
    BOOST_TEST(contains(md.str(), "| layout | pattern | SPFS MB/s |"), md.str());
    BOOST_TEST(contains(md.str(), "\n* SPFS          4 cells"), md.str());
}

BOOST_AUTO_TEST_CASE(a_method_set_for_the_whole_study_comes_from_its_set_or_the_base) {
    auto reg = methods_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(
        json::parse(
            R"({"set": {"fs.kind": "spfs"}, "vary": [{"workload.pattern": ["rb", "rc"]}]})"),
        "s.json", ".");
    auto cells = expand_study(spec, base);
    MethodsTable t = methods_table(spec, base, results_for(cells, {1, 2}));
    BOOST_TEST((t.methods == std::vector<std::string>{"SPFS"}));
    BOOST_TEST(t.rows.size() == 2u);
    StudySpec plain =
        parse_study(json::parse(R"({"vary": [{"workload.pattern": ["rb"]}]})"), "s.json", ".");
    MethodsTable d = methods_table(plain, base, results_for(expand_study(plain, base), {5}));
    BOOST_TEST((d.methods == std::vector<std::string>{"DDIO sort"})); // the base's ddio, presort
    // No SPFS: no ratio columns, and without published values no published columns.
    std::stringstream csv;
    write_methods_csv(csv, d);
    BOOST_TEST(read_csv(csv, "d.csv").header ==
                   (std::vector<std::string>{"workload.pattern", "DDIO sort MB/s"}),
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(two_cells_of_one_method_with_the_same_keys_keep_their_own_rows) {
    auto reg = methods_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(
        json::parse(R"({"set": {"fs.kind": "spfs"}, "vary": [{"fs.presort": [true, false]}]})"),
        "s.json", ".");
    MethodsTable t = methods_table(spec, base, results_for(expand_study(spec, base), {1, 2}));
    BOOST_REQUIRE(t.rows.size() == 2u);
    BOOST_TEST(t.rows[0].method[0]->mean == 1.0);
    BOOST_TEST(t.rows[1].method[0]->mean == 2.0);
}

BOOST_AUTO_TEST_CASE(a_cell_whose_trials_all_failed_shows_failed_and_no_ratio) {
    auto reg = methods_registry();
    config::Config base(reg);
    StudySpec spec =
        parse_study(json::parse(R"({"vary": [{"fs.kind": ["spfs", "2pio"]}]})"), "s.json", ".");
    auto results = results_for(expand_study(spec, base), {10, 20});
    results[0].summary = json{{"mean", 0.0}, {"trials", 0}, {"failed_trials", 2}}; // SPFS
    MethodsTable t = methods_table(spec, base, results);
    BOOST_REQUIRE(t.rows.size() == 1u);
    BOOST_TEST(t.rows[0].method[0]->failed);
    BOOST_TEST(!t.model_ratio(0, 1).has_value()); // no SPFS mean to divide by
    std::ostringstream csv;
    write_methods_csv(csv, t);
    BOOST_TEST(contains(csv.str(), "\nFAILED,"), csv.str());
}

BOOST_AUTO_TEST_CASE(a_row_the_first_method_skips_stays_where_the_study_lists_it) {
    // SPFS skips contiguous rc (as main skips its record-at-a-time cells): the
    // row comes from 2PIO's cells and goes after contiguous rb, not at the end.
    auto reg = methods_registry();
    config::Config base(reg);
    StudySpec spec = parse_study(json::parse(R"({
        "vary": [{"fs.kind": ["spfs", "2pio"]},
                 {"workload.layout": ["contiguous", "random-blocks"]},
                 {"workload.pattern": ["rb", "rc"]}],
        "skip": [{"fs.kind": "spfs", "workload.layout": "contiguous", "workload.pattern": "rc"}]})"),
                                 "s.json", ".");
    auto cells = expand_study(spec, base);
    BOOST_REQUIRE(cells.size() == 7u);
    MethodsTable t = methods_table(spec, base, results_for(cells, {1, 2, 3, 4, 5, 6, 7}));
    BOOST_REQUIRE(t.rows.size() == 4u);
    std::vector<std::vector<std::string>> keys;
    for (const auto &r : t.rows) {
        keys.push_back(r.keys);
    }
    std::vector<std::vector<std::string>> want{{"contiguous", "rb"},
                                               {"contiguous", "rc"},
                                               {"random-blocks", "rb"},
                                               {"random-blocks", "rc"}};
    BOOST_TEST((keys == want));
    BOOST_TEST(!t.rows[1].method[0].has_value()); // no SPFS there
    BOOST_TEST(t.rows[1].method[1]->mean == 5.0);
    BOOST_TEST(!t.model_ratio(1, 1).has_value());
}

BOOST_AUTO_TEST_CASE(the_methods_files_sit_beside_the_per_cell_tables) {
    BOOST_TEST(methods_path("out.csv") == "out-methods.csv");
    BOOST_TEST(methods_path("tables/paper-main.md") == "tables/paper-main-methods.md");
    BOOST_TEST(methods_path("a.d/table") == "a.d/table-methods");
    BOOST_TEST(methods_path(".hidden") == ".hidden-methods");
}

BOOST_AUTO_TEST_SUITE_END()
