#include "sim/report/study_result.h"

#include "sim/report/study_table.h"

namespace starfish::sim {

using nlohmann::json;

namespace {

json study_definition(const StudySpec &spec) {
    json axes = json::array();
    for (const auto &[key, values] : spec.axes) {
        axes.push_back(json{{key, values}});
    }
    json def{{"name", spec.name}, {"description", spec.description},
             {"set", spec.set},   {"vary", axes},
             {"skip", spec.skip}, {"metric", spec.metric}};
    if (!spec.report.is_null()) {
        def["report"] = spec.report;
    }
    return def;
}

} // namespace

RunResult study_result(const StudySpec &spec, const config::Config &base,
                       const std::vector<CellResult> &results, HostStats &host) {
    RunResult doc("study", base);
    doc.doc()["study"] = study_definition(spec);
    json cells_json = json::array();
    bool all_verified = true;
    for (const auto &c : results) {
        for (const auto &t : c.trials) {
            all_verified = all_verified && t.value("verified", false);
            if (t.contains("host") && t["host"].value("cached", false)) {
                ++host.cached_trials; // measured by an earlier run, not this one
                continue;
            }
            host.sim_s += t.value("sim_s", 0.0);
            host.cpu_s += t.value("host_cpu_s", 0.0);
            host.events += t.value("events", 0ull);
        }
        cells_json.push_back(
            json{{"overrides", c.overrides}, {"summary", c.summary}, {"trials", c.trials}});
    }
    doc.doc()["cells"] = cells_json;
    ComparisonStats st = compare_stats(results);
    json summary{{"cells", results.size()}, {"verified", all_verified}};
    size_t failed = 0;
    for (const auto &c : results) {
        failed += c.summary.value("failed_trials", size_t{0});
    }
    if (failed > 0) {
        summary["failed_trials"] = failed; // trials whose process failed: no measurement
    }
    if (st.cells > 0) {
        summary["published_cells"] = st.cells;
        summary["median_abs_error_pct"] = st.median_abs_error_pct;
        summary["worst_error_pct"] = st.worst_error_pct;
        summary["worst_cell"] = st.worst_cell;
        summary["within_5pct"] = st.within_5pct;
        summary["within_10pct"] = st.within_10pct;
    }
    doc.set_summary(summary);
    return doc;
}

bool study_verified(const RunResult &doc) {
    return doc.doc()["summary"].value("verified", false);
}

} // namespace starfish::sim
