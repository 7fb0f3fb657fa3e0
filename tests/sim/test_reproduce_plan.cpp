// `starfish reproduce` planning (sim/study/reproduce.h): every shipped report study
// expands on the default machine, a derived study brings its source first, and
// --quick/--trials adjust cells (files scaled, doubled until the pattern fits).
#include "fw/param_keys.h"
#include "hw/config/config_error.h"
#include "sim/cli/common.h"
#include "sim/parameters.h"
#include "sim/study/reproduce.h"
#include "sim/workload_params.h"

#include <boost/test/unit_test.hpp>

using namespace starfish;
using namespace starfish::sim;
using nlohmann::json;

namespace {

config::Config default_config() {
    return load_config(CommonOptions{});
}

StudyCell cell_with(const json &overrides) {
    config::Config cfg = default_config();
    for (auto it = overrides.begin(); it != overrides.end(); ++it) {
        cfg.set(it.key(), *it, "test");
    }
    return StudyCell{overrides, cfg};
}

} // namespace

BOOST_AUTO_TEST_SUITE(reproduce_plan)

BOOST_AUTO_TEST_CASE(quick_scales_files_and_doubles_them_until_the_pattern_fits) {
    StudyCell rb = cell_with(json{{"workload.pattern", "rb"}});
    adjust_cell(rb, 1, kQuickFileScale);
    BOOST_TEST(rb.cfg.get_real(keys::workload_file_mb) == 0.125);
    BOOST_TEST(rb.cfg.get_int(keys::workload_trials) == 1);
    BOOST_TEST(!rb.overrides.contains("workload.file_mb")); // not a varying key of the cell
    // rcn deals 8192-byte rows cyclically over 16 CPs: 16 records make 4 rows, so the
    // file doubles to 128 records (16 rows x 8 columns), 1 MB.
    StudyCell rcn = cell_with(json{{"workload.pattern", "rcn"}, {"workload.file_mb", 10}});
    adjust_cell(rcn, 0, kQuickFileScale);
    BOOST_TEST(rcn.cfg.get_real(keys::workload_file_mb) == 1.0);
    BOOST_TEST(rcn.overrides["workload.file_mb"].get<double>() == 1.0); // what ran
    BOOST_TEST(rcn.cfg.get_int(keys::workload_trials) == 5);            // trials untouched
    // Never beyond the configured size: a cell invalid at full size stays an error.
    StudyCell bad = cell_with(json{{"workload.pattern", "rcn"}, {"workload.file_mb", 0.125}});
    BOOST_CHECK_THROW(adjust_cell(bad, 0, 0.5), config::ConfigError);
}

BOOST_AUTO_TEST_CASE(every_shipped_report_study_plans_on_the_default_machine) {
    auto names = shipped_report_studies(studies_dir());
    BOOST_TEST_REQUIRE(names.size() >= 12u);
    BOOST_TEST(names.front() == "paper-main");
    ReproduceOptions opts(default_config());
    auto plan = plan_reproduce(opts, studies_dir());
    BOOST_TEST(plan.size() == names.size());
    size_t main_cells = 0;
    for (const auto &s : plan) {
        BOOST_TEST_CONTEXT(s.spec.name) {
            BOOST_TEST(!s.spec.report.is_null());
            BOOST_TEST(s.cells.empty() == !s.spec.derived_from.empty());
        }
        if (s.spec.name == "paper-main") {
            main_cells = s.cells.size();
        }
    }
    BOOST_TEST(main_cells == 245u); // 4 methods x 2 layouts x 35, less DDIO no sort contiguous
}

BOOST_AUTO_TEST_CASE(a_derived_study_brings_its_source_first) {
    ReproduceOptions opts(default_config());
    opts.studies = {"paper-summary"};
    opts.quick = true;
    auto plan = plan_reproduce(opts, studies_dir());
    BOOST_TEST_REQUIRE(plan.size() == 2u);
    BOOST_TEST(plan[0].spec.name == "paper-main");
    BOOST_TEST(!plan[0].requested);
    BOOST_TEST(plan[1].spec.name == "paper-summary");
    BOOST_TEST(plan[1].requested);
    for (const auto &c : plan[0].cells) {
        BOOST_TEST(c.cfg.get_int(keys::workload_trials) == 1);
        BOOST_TEST(c.cfg.get_real(keys::workload_file_mb) <= 2.0);
    }
    opts.studies = {"no-such-study"};
    BOOST_CHECK_THROW(plan_reproduce(opts, studies_dir()), config::ConfigError);
}

BOOST_AUTO_TEST_SUITE_END()
