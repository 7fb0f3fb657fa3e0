#include "sim/report/study_table.h"

#include "sim/report/csv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace starfish::sim {

using nlohmann::json;

namespace {

std::string value_text(const json &v) {
    if (v.is_string()) {
        return v.get<std::string>();
    }
    if (v.is_number_float()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v.get<double>());
        return buf;
    }
    return v.dump();
}

std::string fixed(double v, int decimals) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

struct Row {
    std::vector<std::string> cells;
};

// The summary columns after the varying keys.
std::vector<std::string> summary_header(const std::vector<CellResult> &cells) {
    std::vector<std::string> h{"mean", "cv", "ci95 low", "ci95 high", "trials"};
    bool published = std::any_of(cells.begin(), cells.end(), [](const CellResult &c) {
        return c.summary.contains("published");
    });
    if (published) {
        h.push_back("published");
        h.push_back("error %");
    }
    return h;
}

std::vector<Row> rows_of(const std::vector<CellResult> &cells, std::vector<std::string> &header) {
    auto keys = study_columns(cells);
    header = keys;
    auto sh = summary_header(cells);
    header.insert(header.end(), sh.begin(), sh.end());
    bool published = sh.size() > 5;
    std::vector<Row> rows;
    for (const auto &c : cells) {
        Row r;
        for (const auto &k : keys) {
            r.cells.push_back(c.overrides.contains(k) ? value_text(c.overrides[k]) : "");
        }
        const json &s = c.summary;
        int trials = s["trials"].get<int>();
        int failed = s.value("failed_trials", 0);
        if (trials == 0) {
            // Every trial of the cell failed: nothing was measured.
            r.cells.insert(r.cells.end(), {"FAILED", "", "", ""});
        } else {
            r.cells.push_back(fixed(s["mean"].get<double>(), 2));
            r.cells.push_back(fixed(s["cv"].get<double>(), 3));
            r.cells.push_back(fixed(s["ci95"][0].get<double>(), 2));
            r.cells.push_back(fixed(s["ci95"][1].get<double>(), 2));
        }
        r.cells.push_back(std::to_string(trials) +
                          (failed > 0 ? " (" + std::to_string(failed) + " failed)" : ""));
        if (published) {
            r.cells.push_back(s.contains("published") ? fixed(s["published"].get<double>(), 2)
                                                      : "");
            r.cells.push_back(s.contains("error_pct") ? fixed(s["error_pct"].get<double>(), 1)
                                                      : "");
        }
        rows.push_back(r);
    }
    return rows;
}

std::string short_key(const std::string &key) {
    auto dot = key.rfind('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
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
    std::vector<std::string> header;
    auto rows = rows_of(cells, header);
    std::vector<size_t> width(header.size());
    std::vector<std::string> shown(header.size());
    for (size_t i = 0; i < header.size(); ++i) {
        shown[i] = short_key(header[i]);
        width[i] = shown[i].size();
        for (const auto &r : rows) {
            width[i] = std::max(width[i], r.cells[i].size());
        }
    }
    size_t keys = study_columns(cells).size();
    auto line = [&](const std::vector<std::string> &v) {
        for (size_t i = 0; i < v.size(); ++i) {
            std::string pad(width[i] - v[i].size(), ' ');
            out << (i ? "  " : "") << (i < keys ? v[i] + pad : pad + v[i]);
        }
        out << "\n";
    };
    line(shown);
    for (const auto &r : rows) {
        line(r.cells);
    }
    ComparisonStats st = compare_stats(cells);
    if (st.cells > 0) {
        out << "published comparison: " << st.cells << " cells, median |error| "
            << fixed(st.median_abs_error_pct, 1) << "%, worst " << fixed(st.worst_error_pct, 1)
            << "% (" << st.worst_cell << "), within 5%: " << st.within_5pct
            << ", within 10%: " << st.within_10pct << "\n";
    }
}

void write_study_csv(std::ostream &out, const std::vector<CellResult> &cells) {
    std::vector<std::string> header;
    auto rows = rows_of(cells, header);
    write_csv_row(out, header);
    for (const auto &r : rows) {
        write_csv_row(out, r.cells);
    }
}

void write_study_markdown(std::ostream &out, const std::vector<CellResult> &cells) {
    std::vector<std::string> header;
    auto rows = rows_of(cells, header);
    out << "|";
    for (const auto &h : header) {
        out << " " << short_key(h) << " |";
    }
    out << "\n|";
    for (size_t i = 0; i < header.size(); ++i) {
        out << "---|";
    }
    out << "\n";
    for (const auto &r : rows) {
        out << "|";
        for (const auto &c : r.cells) {
            out << " " << c << " |";
        }
        out << "\n";
    }
    ComparisonStats st = compare_stats(cells);
    if (st.cells > 0) {
        out << "\n"
            << st.cells << " cells with a published value: median |error| "
            << fixed(st.median_abs_error_pct, 1) << "%, worst " << fixed(st.worst_error_pct, 1)
            << "% (" << st.worst_cell << "); " << st.within_5pct << " within 5%, "
            << st.within_10pct << " within 10%.\n";
    }
}

} // namespace starfish::sim
