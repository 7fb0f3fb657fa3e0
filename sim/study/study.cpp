#include "sim/study/study.h"

#include "hw/config/config_error.h"
#include "hw/config/input_file.h"
#include "hw/config/json_text.h"
#include "hw/config/loader.h"
#include "hw/config/name_hint.h"
#include "sim/report/csv.h"
#include "sim/report/statistics.h"
#include "sim/runner/host_clock.h"
#include "sim/runner/isolated_run.h"
#include "sim/study/trial_cache.h"
#include "sim/workload_params.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace starfish::sim {

using config::ConfigError;
using nlohmann::json;

namespace {

// Study files and manifests: a manifest of a large study is some MB.
constexpr size_t kMaxDocumentBytes = 256u << 20;

std::string dir_of(const std::string &path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string text_of(const json &v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

void apply_overrides(config::Config &cfg, const json &flat, const std::string &origin) {
    for (auto it = flat.begin(); it != flat.end(); ++it) {
        cfg.set(it.key(), *it, origin);
    }
}

// Numbers compare by value (8 == 8.0), everything else by JSON equality.
bool same_value(const json &a, const json &b) {
    if (a.is_number() && b.is_number()) {
        return a.get<double>() == b.get<double>();
    }
    return a == b;
}

} // namespace

StudySpec parse_study(const json &doc, const std::string &origin, const std::string &base_dir) {
    auto fail = [&](const std::string &msg) { throw ConfigError(origin + ": " + msg); };
    if (!doc.is_object()) {
        fail("a study must be a JSON object");
    }
    StudySpec spec;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        const std::string &k = it.key();
        if (k != "description" && k != "set" && k != "vary" && k != "skip" && k != "compare" &&
            k != "metric" && k != "report" && k != "from" && k != "table") {
            fail("unknown study field '" + k +
                 "' (allowed: description, set, vary, skip, metric, compare, report, from, "
                 "table)");
        }
    }
    auto text_field = [&](const json &obj, const char *field, const std::string &fallback) {
        if (!obj.contains(field)) {
            return fallback;
        }
        if (!obj[field].is_string()) {
            fail(std::string("'") + field + "' must be a string, got " +
                 config::printable_json(obj[field]));
        }
        return obj[field].get<std::string>();
    };
    spec.description = text_field(doc, "description", "");
    spec.metric = text_field(doc, "metric", "mb_s");
    spec.table = text_field(doc, "table", "cells");
    if (spec.table != "cells" && spec.table != "methods") {
        fail("'table' must be \"cells\" or \"methods\", got \"" + spec.table + "\"");
    }
    if (doc.contains("report")) {
        if (!doc["report"].is_object()) {
            fail("'report' must be an object (docs/reproduce.md)");
        }
        spec.report = doc["report"];
    }
    if (doc.contains("from")) {
        if (!doc["from"].is_string() || doc["from"].get<std::string>().empty()) {
            fail("'from' must name the study whose results this one is computed from");
        }
        for (const char *own : {"set", "vary", "skip", "compare"}) {
            if (doc.contains(own)) {
                fail(std::string("a study computed 'from' another has no cells of its own; "
                                 "remove '") +
                     own + "'");
            }
        }
        spec.derived_from = doc["from"].get<std::string>();
    }
    if (doc.contains("set")) {
        if (!doc["set"].is_object()) {
            fail("'set' must be an object of key: value");
        }
        spec.set = doc["set"];
    }
    if (doc.contains("vary")) {
        if (!doc["vary"].is_array()) {
            fail("'vary' must be a list of {key: [values]} axes");
        }
        for (const auto &axis : doc["vary"]) {
            if (!axis.is_object() || axis.size() != 1 || !axis.begin()->is_array() ||
                axis.begin()->empty()) {
                fail("each 'vary' axis must be {key: [value, ...]} with one key and a non-empty "
                     "list, got " +
                     config::printable_json(axis));
            }
            std::vector<json> values(axis.begin()->begin(), axis.begin()->end());
            if (axis.begin().key() == "cases") {
                for (const auto &c : values) {
                    if (!c.is_object()) {
                        fail("'cases' values must be objects of key: value, got " +
                             config::printable_json(c));
                    }
                }
            }
            spec.axes.emplace_back(axis.begin().key(), values);
        }
    }
    if (doc.contains("skip")) {
        if (!doc["skip"].is_array()) {
            fail("'skip' must be a list of {key: value} objects");
        }
        for (const auto &s : doc["skip"]) {
            if (!s.is_object() || s.empty()) {
                fail("each 'skip' entry must be a non-empty object, got " +
                     config::printable_json(s));
            }
            spec.skip.push_back(s);
        }
    }
    if (doc.contains("compare")) {
        const json &c = doc["compare"];
        if (!c.is_object() || !c.contains("file") || !c.contains("value") ||
            !c.contains("columns") || !c["columns"].is_object()) {
            fail("'compare' needs file, value and columns {csv column: key}");
        }
        StudyCompare cmp;
        cmp.file = text_field(c, "file", "");
        if (!cmp.file.empty() && cmp.file[0] != '/') {
            cmp.file = base_dir + "/" + cmp.file;
        }
        cmp.value_column = text_field(c, "value", "");
        if (c.contains("interval")) {
            const json &iv = c["interval"];
            if (!iv.is_array() || iv.size() != 2 || !iv[0].is_string() || !iv[1].is_string()) {
                fail("'compare' interval names the CSV columns of the published value's low "
                     "and high bounds, [\"low\", \"high\"], got " +
                     config::printable_json(iv));
            }
            cmp.low_column = iv[0].get<std::string>();
            cmp.high_column = iv[1].get<std::string>();
        }
        for (auto it = c["columns"].begin(); it != c["columns"].end(); ++it) {
            if (!it->is_string()) {
                fail("'compare' columns map a CSV column to a configuration key (a string), got " +
                     config::printable_json(*it));
            }
            cmp.columns.emplace_back(it.key(), it->get<std::string>());
        }
        spec.compare = cmp;
    }
    return spec;
}

json read_json_document(const std::string &path, const std::string &what) {
    config::InputFile in = config::read_regular_file(path, kMaxDocumentBytes);
    if (!in.ok) {
        throw ConfigError(what + " '" + config::printable(path, 300) + "' " + in.problem);
    }
    return config::parse_json_text(in.text, path);
}

StudySpec load_study(const std::string &path) {
    StudySpec spec = parse_study(read_json_document(path, "study file"), path, dir_of(path));
    std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    spec.name = base.size() > 5 && base.substr(base.size() - 5) == ".json"
                    ? base.substr(0, base.size() - 5)
                    : base;
    return spec;
}

std::string resolve_study_path(const std::string &name_or_path, const std::string &studies_dir) {
    // Anything at the path itself (a directory, a FIFO too) is what was meant; reading
    // it says what is wrong with it.
    std::string problem = config::regular_file_problem(name_or_path);
    if (problem.rfind("does not exist", 0) != 0) {
        return name_or_path;
    }
    const std::string &p = name_or_path;
    bool has_ext = p.size() > 5 && p.substr(p.size() - 5) == ".json";
    std::string shipped = studies_dir + "/" + p + (has_ext ? "" : ".json");
    if (config::regular_file_problem(shipped).empty()) {
        return shipped;
    }
    if (p.find('/') != std::string::npos) {
        return name_or_path; // a path: reading it says that it does not exist
    }
    throw ConfigError("study '" + config::printable(p, 300) +
                      "' is neither a file here nor a study in " + studies_dir +
                      config::shipped_names_hint(p, studies_dir));
}

double grid_size(const StudySpec &spec) {
    double cells = 1;
    for (const auto &axis : spec.axes) {
        cells *= static_cast<double>(axis.second.size());
    }
    return cells;
}

void check_grid_size(const StudySpec &spec) {
    double cells = grid_size(spec);
    if (cells <= static_cast<double>(kMaxStudyCells)) {
        return;
    }
    std::string axes;
    for (const auto &axis : spec.axes) {
        axes += (axes.empty() ? "" : " x ") + std::to_string(axis.second.size());
    }
    char count[32];
    std::snprintf(count, sizeof count, "%.0f", cells);
    throw ConfigError("study " + spec.name + ": its grid has " + count + " cells (" + axes +
                      " values on its 'vary' axes, before 'skip'), more than the " +
                      std::to_string(kMaxStudyCells) +
                      " a study may have (each cell holds a whole configuration in memory); "
                      "split it into several studies");
}

std::vector<StudyCell> expand_study(const StudySpec &spec, const config::Config &base) {
    if (!spec.derived_from.empty()) {
        throw ConfigError("study " + spec.name + " has no cells of its own: it is computed from " +
                          spec.derived_from + "'s results by `starfish reproduce " + spec.name +
                          "` (docs/reproduce.md)");
    }
    check_grid_size(spec);
    std::vector<json> grid{json::object()};
    for (const auto &[key, values] : spec.axes) {
        std::vector<json> next;
        for (const auto &partial : grid) {
            for (const auto &v : values) {
                json cell = partial;
                if (key == "cases") {
                    for (auto it = v.begin(); it != v.end(); ++it) {
                        cell[it.key()] = *it;
                    }
                } else {
                    cell[key] = v;
                }
                next.push_back(cell);
            }
        }
        grid = std::move(next);
    }
    std::vector<StudyCell> cells;
    for (const auto &overrides : grid) {
        bool skipped = false;
        for (const auto &rule : spec.skip) {
            bool all = true;
            for (auto it = rule.begin(); it != rule.end() && all; ++it) {
                all = overrides.contains(it.key()) && same_value(overrides[it.key()], *it);
            }
            skipped = skipped || all;
        }
        if (skipped) {
            continue;
        }
        config::Config cfg = base;
        std::string origin =
            "study " + spec.name + " cell " + config::printable_json(overrides, 300);
        apply_overrides(cfg, spec.set, "study " + spec.name);
        apply_overrides(cfg, overrides, origin);
        try {
            cfg.validate();
        } catch (const ConfigError &e) {
            throw ConfigError(origin + ": " + e.what());
        }
        cells.push_back(StudyCell{overrides, cfg});
    }
    return cells;
}

std::vector<StudyTrial> study_trials(const std::vector<StudyCell> &cells) {
    std::vector<StudyTrial> trials;
    for (size_t c = 0; c < cells.size(); ++c) {
        int n = static_cast<int>(cells[c].cfg.get_int(keys::workload_trials));
        for (int t = 0; t < n; ++t) {
            trials.push_back(StudyTrial{c, t});
        }
    }
    return trials;
}

PublishedTable::PublishedTable(const StudyCompare &compare) : compare_(compare) {
    try {
        CsvTable table = read_csv_file(compare.file);
        table.required_column(compare.value_column);
        for (const auto &[col, key] : compare.columns) {
            table.required_column(col);
        }
        if (!compare.low_column.empty()) {
            table.required_column(compare.low_column);
            table.required_column(compare.high_column);
        }
        header_ = std::move(table.header);
        for (auto &row : table.rows) {
            rows_.push_back(std::move(row.fields));
        }
    } catch (const CsvError &e) {
        throw ConfigError(std::string("published table ") + e.what());
    }
}

size_t PublishedTable::column_index(const std::string &col) const {
    for (size_t i = 0; i < header_.size(); ++i) {
        if (header_[i] == col) {
            return i;
        }
    }
    return header_.size();
}

const std::vector<std::string> *PublishedTable::find_row(const config::Config &cfg) const {
    for (const auto &row : rows_) {
        bool match = true;
        for (const auto &[col, key] : compare_.columns) {
            const json &v = cfg.get(key);
            const std::string &cell = row[column_index(col)];
            if (cell.empty()) {
                continue; // matches any value
            }
            if (v.is_number()) {
                char *end = nullptr;
                double d = std::strtod(cell.c_str(), &end);
                match = match && end && *end == '\0' && d == v.get<double>();
            } else {
                match = match && cell == text_of(v);
            }
        }
        if (match) {
            return &row;
        }
    }
    return nullptr;
}

double PublishedTable::number(const std::vector<std::string> &row, const std::string &col) const {
    const std::string &cell = row[column_index(col)];
    char *end = nullptr;
    double value = std::strtod(cell.c_str(), &end);
    if (cell.empty() || end != cell.c_str() + cell.size()) {
        throw ConfigError("published table " + compare_.file + ": '" + config::printable(cell) +
                          "' in column " + col + " is not a number");
    }
    return value;
}

std::optional<PublishedEntry> PublishedTable::entry(const config::Config &cfg) const {
    const auto *row = find_row(cfg);
    if (!row) {
        return std::nullopt;
    }
    PublishedEntry e;
    e.value = number(*row, compare_.value_column);
    if (!compare_.low_column.empty()) {
        double low = number(*row, compare_.low_column);
        double high = number(*row, compare_.high_column);
        if (!(low <= e.value && e.value <= high)) {
            throw ConfigError("published table " + compare_.file + ": the value " +
                              config::printable(std::to_string(e.value)) + " in column " +
                              compare_.value_column + " is outside its interval [" +
                              compare_.low_column + ", " + compare_.high_column + "]");
        }
        e.interval = std::make_pair(low, high);
    }
    return e;
}

std::optional<double> PublishedTable::lookup(const config::Config &cfg) const {
    auto e = entry(cfg);
    return e ? std::optional<double>(e->value) : std::nullopt;
}

json failed_trial(int trial, const std::string &error) {
    return json{{"trial", trial}, {"verified", false}, {"failed", error}};
}

bool trial_failed(const json &result) {
    return result.contains("failed");
}

std::vector<size_t> trial_start_order(const std::vector<double> &costs, int jobs) {
    std::vector<size_t> order(costs.size());
    std::iota(order.begin(), order.end(), size_t{0});
    if (jobs > 1) {
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return costs[a] > costs[b]; });
    }
    return order;
}

std::vector<CellResult> summarise_cells(const StudySpec &spec, const std::vector<StudyCell> &cells,
                                        std::vector<CellResult> out) {
    std::optional<PublishedTable> table;
    if (spec.compare) {
        table.emplace(*spec.compare);
    }
    for (size_t c = 0; c < cells.size(); ++c) {
        CellResult &r = out[c];
        r.overrides = cells[c].overrides;
        std::vector<double> values;
        int failed = 0;
        for (const auto &t : r.trials) {
            if (trial_failed(t)) {
                ++failed; // nothing measured
                continue;
            }
            if (!t.contains(spec.metric) || !t[spec.metric].is_number()) {
                throw std::runtime_error("study " + spec.name + " cell " +
                                         config::printable_json(r.overrides, 200) + " trial " +
                                         t.value("trial", json(-1)).dump() +
                                         ": the result has no "
                                         "numeric '" +
                                         spec.metric + "'");
            }
            values.push_back(t[spec.metric].get<double>());
        }
        Summary s = summarize(values);
        r.summary = json{{"metric", spec.metric},
                         {"mean", s.mean},
                         {"cv", s.cv},
                         {"ci95", {s.ci95_low, s.ci95_high}},
                         {"min", s.min},
                         {"max", s.max},
                         {"trials", s.n}};
        if (failed > 0) {
            r.summary["failed_trials"] = failed;
        }
        // Disk movements (seeks or rotational waits before an access, the tuning
        // report's count; docs/disk.md), mean over the measured trials, where they have them.
        double movements = 0;
        size_t measured = 0;
        bool all_have = true;
        for (const auto &t : r.trials) {
            if (trial_failed(t)) {
                continue;
            }
            const json *m = t.contains("disk") ? &t["disk"] : nullptr;
            all_have = all_have && m && m->contains("movements") && (*m)["movements"].is_number();
            if (all_have) {
                movements += (*m)["movements"].get<double>();
                ++measured;
            }
        }
        if (all_have && measured > 0) {
            r.summary["movements"] = movements / static_cast<double>(measured);
        }
    }
    if (table) {
        attach_published(out, cells, *table);
    }
    return out;
}

void attach_published(std::vector<CellResult> &results, const std::vector<StudyCell> &cells,
                      const PublishedTable &table) {
    for (size_t c = 0; c < cells.size() && c < results.size(); ++c) {
        if (results[c].summary.value("trials", 1) == 0) {
            continue; // every trial failed: no mean to compare
        }
        if (auto published = table.entry(cells[c].cfg)) {
            json &s = results[c].summary;
            double mean = s["mean"].get<double>();
            s["published"] = published->value;
            s["error_pct"] = 100.0 * (mean - published->value) / published->value;
            s.erase("published_low");
            s.erase("published_high");
            if (published->interval) {
                s["published_low"] = published->interval->first;
                s["published_high"] = published->interval->second;
            }
        }
    }
}

std::vector<CellResult> run_study(const StudySpec &spec, const std::vector<StudyCell> &cells,
                                  const TrialFunction &trial, const StudyRunOptions &options) {
    const std::vector<StudyTrial> items = study_trials(cells);
    std::vector<double> cell_cost(cells.size(), 1.0);
    for (size_t c = 0; c < cells.size(); ++c) {
        if (options.cost) {
            cell_cost[c] = std::max(options.cost(cells[c].cfg), 1e-9);
        }
    }
    auto warn = [&](const std::string &w) {
        if (!w.empty() && options.on_warning) {
            options.on_warning(w);
        }
    };
    std::vector<json> results(items.size());
    std::vector<size_t> missing;
    size_t done = 0;
    auto report = [&](size_t i, bool cached, double eta_s) {
        if (options.on_progress) {
            options.on_progress(
                TrialProgress{done, items.size(), items[i].cell, items[i].trial, cached, eta_s},
                results[i]);
        }
    };
    for (size_t i = 0; i < items.size(); ++i) {
        std::optional<json> hit;
        if (options.cache != nullptr && !options.fresh) {
            std::string warning;
            hit = options.cache->load(cells[items[i].cell].cfg, items[i].trial, warning);
            warn(warning);
        }
        if (hit && !TrialCache::done(*hit)) {
            hit.reset(); // its data did not verify: not done, it runs again
        }
        if (!hit) {
            missing.push_back(i);
            continue;
        }
        results[i] = std::move(*hit);
        // Host-speed fields were measured by the run that filled the cache.
        results[i]["host"] = json{{"cached", true}};
        ++done;
        report(i, true, -1);
    }

    std::vector<double> costs;
    for (size_t i : missing) {
        costs.push_back(cell_cost[items[i].cell]);
    }
    std::vector<IsolatedJob> jobs;
    std::vector<size_t> job_item;
    double remaining_cost = 0;
    for (size_t k : trial_start_order(costs, options.jobs)) {
        size_t i = missing[k];
        const config::Config *cfg = &cells[items[i].cell].cfg;
        int t = items[i].trial;
        jobs.push_back([cfg, t, &trial] { return trial(*cfg, t); });
        job_item.push_back(i);
        remaining_cost += costs[k];
    }
    HostClock clock;
    double finished_cost = 0;
    bool cache_failed = false; // reported once, not once per trial
    run_isolated_each(jobs, options.jobs, [&](size_t j, const IsolatedOutcome &outcome) {
        size_t i = job_item[j];
        // A failed trial is recorded in its cell, the others go on.
        results[i] = outcome.ok() ? outcome.result : failed_trial(items[i].trial, outcome.error);
        if (options.cache != nullptr && outcome.ok() && !cache_failed) {
            std::string problem =
                options.cache->store(cells[items[i].cell].cfg, items[i].trial, outcome.result);
            if (!problem.empty()) {
                cache_failed = true;
                warn(problem + "; the results of this run are not cached (the trials still run)");
            }
        }
        double cost = cell_cost[items[i].cell];
        finished_cost += cost;
        remaining_cost -= cost;
        ++done;
        // Cost-weighted: with long trials first, a count of trials would overstate it.
        double eta = finished_cost > 0
                         ? clock.elapsed_s() * std::max(remaining_cost, 0.0) / finished_cost
                         : -1;
        report(i, false, eta);
    });

    std::vector<CellResult> out(cells.size());
    for (size_t i = 0; i < items.size(); ++i) {
        out[items[i].cell].trials.push_back(std::move(results[i]));
    }
    return summarise_cells(spec, cells, std::move(out));
}

std::vector<CellResult>
run_study(const StudySpec &spec, const std::vector<StudyCell> &cells, const TrialFunction &trial,
          int jobs, const std::function<void(size_t, size_t, size_t, const json &)> &on_progress) {
    StudyRunOptions options;
    options.jobs = jobs;
    if (on_progress) {
        options.on_progress = [&](const TrialProgress &p, const json &result) {
            on_progress(p.done, p.total, p.cell, result);
        };
    }
    return run_study(spec, cells, trial, options);
}

} // namespace starfish::sim
