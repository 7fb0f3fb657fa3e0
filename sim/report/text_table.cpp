#include "sim/report/text_table.h"

#include "sim/report/csv.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace starfish::sim {

namespace {

constexpr size_t kColumnGap = 2;

// Each column's width: its widest field; where a group's label is wider than the
// columns under it, its first column takes the difference (as space before the
// group, since figures are right-aligned).
std::vector<size_t> column_widths(const TextTable &t) {
    std::vector<size_t> width(t.header.size());
    for (size_t i = 0; i < width.size(); ++i) {
        width[i] = t.header[i].size();
        for (const auto &r : t.rows) {
            width[i] = std::max(width[i], r[i].size());
        }
    }
    for (const auto &g : t.groups) {
        size_t span = kColumnGap * (g.count - 1);
        for (size_t i = g.first; i < g.first + g.count; ++i) {
            span += width[i];
        }
        if (g.label.size() > span) {
            width[g.first] += g.label.size() - span;
        }
    }
    return width;
}

void print_group_line(std::ostream &out, const TextTable &t, const std::vector<size_t> &width) {
    std::string line;
    auto column_start = [&](size_t col) {
        size_t at = 0;
        for (size_t i = 0; i < col; ++i) {
            at += width[i] + kColumnGap;
        }
        return at;
    };
    for (const auto &g : t.groups) {
        size_t start = column_start(g.first);
        size_t span = column_start(g.first + g.count) - kColumnGap - start;
        size_t at = start + (span - g.label.size()) / 2; // centred over its columns
        line.resize(at, ' '); // groups are in column order and do not overlap
        line += g.label;
    }
    out << line << "\n";
}

} // namespace

void print_aligned(std::ostream &out, const TextTable &t) {
    std::vector<size_t> width = column_widths(t);
    if (!t.groups.empty()) {
        print_group_line(out, t, width);
    }
    auto line = [&](const std::vector<std::string> &v) {
        std::string text;
        for (size_t i = 0; i < v.size(); ++i) {
            std::string pad(width[i] - v[i].size(), ' ');
            text += (i ? std::string(kColumnGap, ' ') : "") +
                    (i < t.key_columns ? v[i] + pad : pad + v[i]);
        }
        text.erase(text.find_last_not_of(' ') + 1); // no trailing blanks
        out << text << "\n";
    };
    line(t.header);
    for (const auto &r : t.rows) {
        line(r);
    }
}

void write_markdown_table(std::ostream &out, const TextTable &t) {
    auto line = [&](const std::vector<std::string> &v) {
        out << "|";
        for (const auto &c : v) {
            out << " " << c << " |";
        }
        out << "\n";
    };
    line(t.header);
    out << "|";
    for (size_t i = 0; i < t.header.size(); ++i) {
        out << "---|";
    }
    out << "\n";
    for (const auto &r : t.rows) {
        line(r);
    }
}

void write_csv_table(std::ostream &out, const TextTable &t) {
    write_csv_row(out, t.header);
    for (const auto &r : t.rows) {
        write_csv_row(out, r);
    }
}

std::string fixed_text(double value, int decimals) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

std::string value_text(const nlohmann::json &v) {
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

std::string short_key(const std::string &key) {
    auto dot = key.rfind('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
}

} // namespace starfish::sim
