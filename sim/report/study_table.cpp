#include "sim/report/study_table.h"

#include "sim/report/text_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace starfish::sim {

using nlohmann::json;

namespace {

bool has_movements(const std::vector<CellResult> &cells) {
    return std::any_of(cells.begin(), cells.end(),
                       [](const CellResult &c) { return c.summary.contains("movements"); });
}

// The summary columns after the varying keys.
std::vector<std::string> summary_header(const std::vector<CellResult> &cells) {
    std::vector<std::string> h{"mean", "cv", "ci95 low", "ci95 high", "trials"};
    if (has_movements(cells)) {
        h.push_back("movements");
    }
    bool published = std::any_of(cells.begin(), cells.end(), [](const CellResult &c) {
        return c.summary.contains("published");
    });
    if (published) {
        h.push_back("published");
        h.push_back("error %");
    }
    return h;
}

// The per-cell table with the configuration keys' full names as its header.
TextTable table_of(const std::vector<CellResult> &cells) {
    TextTable t;
    auto keys = study_columns(cells);
    t.key_columns = keys.size();
    t.header = keys;
    auto sh = summary_header(cells);
    t.header.insert(t.header.end(), sh.begin(), sh.end());
    bool movements = has_movements(cells);
    bool published = sh.size() > 5u + movements;
    for (const auto &c : cells) {
        std::vector<std::string> r;
        for (const auto &k : keys) {
            r.push_back(c.overrides.contains(k) ? value_text(c.overrides[k]) : "");
        }
        const json &s = c.summary;
        int trials = s["trials"].get<int>();
        int failed = s.value("failed_trials", 0);
        if (trials == 0) {
            // Every trial of the cell failed: nothing was measured.
            r.insert(r.end(), {"FAILED", "", "", ""});
        } else {
            r.push_back(fixed_text(s["mean"].get<double>(), 2));
            r.push_back(fixed_text(s["cv"].get<double>(), 3));
            r.push_back(fixed_text(s["ci95"][0].get<double>(), 2));
            r.push_back(fixed_text(s["ci95"][1].get<double>(), 2));
        }
        r.push_back(std::to_string(trials) +
                    (failed > 0 ? " (" + std::to_string(failed) + " failed)" : ""));
        if (movements) {
            r.push_back(s.contains("movements") ? fixed_text(s["movements"].get<double>(), 0) : "");
        }
        if (published) {
            r.push_back(s.contains("published") ? fixed_text(s["published"].get<double>(), 2) : "");
            r.push_back(s.contains("error_pct") ? fixed_text(s["error_pct"].get<double>(), 1) : "");
        }
        t.rows.push_back(r);
    }
    return t;
}

// The same with the keys' last parts ("record_bytes"), as the terminal and
// Markdown show them.
TextTable shown_table_of(const std::vector<CellResult> &cells) {
    TextTable t = table_of(cells);
    for (auto &h : t.header) {
        h = short_key(h);
    }
    return t;
}

} // namespace

std::vector<std::string> study_columns(const std::vector<CellResult> &cells) {
    std::vector<std::string> keys;
    for (const auto &c : cells) {
        for (auto it = c.overrides.begin(); it != c.overrides.end(); ++it) {
            if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) {
                keys.push_back(it.key());
            }
        }
    }
    return keys;
}

std::string cell_label(const json &overrides) {
    std::string label;
    for (auto it = overrides.begin(); it != overrides.end(); ++it) {
        label += (label.empty() ? "" : " ") + value_text(*it);
    }
    return label.empty() ? "(base)" : label;
}

ComparisonStats compare_stats(const std::vector<CellResult> &cells) {
    ComparisonStats st;
    std::vector<double> abs_errors;
    for (const auto &c : cells) {
        if (!c.summary.contains("error_pct")) {
            continue;
        }
        double e = c.summary["error_pct"].get<double>();
        abs_errors.push_back(std::fabs(e));
        ++st.cells;
        st.within_5pct += std::fabs(e) <= 5.0;
        st.within_10pct += std::fabs(e) <= 10.0;
        if (std::fabs(e) >= std::fabs(st.worst_error_pct)) {
            st.worst_error_pct = e;
            st.worst_cell = cell_label(c.overrides);
        }
    }
    if (!abs_errors.empty()) {
        std::sort(abs_errors.begin(), abs_errors.end());
        size_t n = abs_errors.size();
        st.median_abs_error_pct =
            n % 2 ? abs_errors[n / 2] : 0.5 * (abs_errors[n / 2 - 1] + abs_errors[n / 2]);
    }
    return st;
}

void print_study_table(std::ostream &out, const std::vector<CellResult> &cells) {
    print_aligned(out, shown_table_of(cells));
    ComparisonStats st = compare_stats(cells);
    if (st.cells > 0) {
        out << "published comparison: " << st.cells << " cells, median |error| "
            << fixed_text(st.median_abs_error_pct, 1) << "%, worst "
            << fixed_text(st.worst_error_pct, 1) << "% (" << st.worst_cell
            << "), within 5%: " << st.within_5pct << ", within 10%: " << st.within_10pct << "\n";
    }
}

void write_study_csv(std::ostream &out, const std::vector<CellResult> &cells) {
    write_csv_table(out, table_of(cells));
}

void write_study_markdown(std::ostream &out, const std::vector<CellResult> &cells) {
    write_markdown_table(out, shown_table_of(cells));
    ComparisonStats st = compare_stats(cells);
    if (st.cells > 0) {
        out << "\n"
            << st.cells << " cells with a published value: median |error| "
            << fixed_text(st.median_abs_error_pct, 1) << "%, worst "
            << fixed_text(st.worst_error_pct, 1) << "% (" << st.worst_cell << "); "
            << st.within_5pct << " within 5%, " << st.within_10pct << " within 10%.\n";
    }
}

} // namespace starfish::sim
