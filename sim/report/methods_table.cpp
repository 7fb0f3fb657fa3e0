#include "sim/report/methods_table.h"

#include "sim/report/text_table.h"

#include "fw/param_keys.h"

#include <algorithm>
#include <cmath>
#include <ostream>

namespace starfish::sim {

using nlohmann::json;

namespace {

const char *const kMethodKeys[] = {keys::fs_kind.name, keys::fs_presort.name};
const std::vector<std::string> kMethodOrder{"SPFS", "2PIO", "DDIO no sort", "DDIO sort"};
const std::string kBaseline = "SPFS";

bool is_method_key(const std::string &key) {
    return std::find(std::begin(kMethodKeys), std::end(kMethodKeys), key) != std::end(kMethodKeys);
}

// A key's value as the cell ran it: its own, else the study's, else the base's.
const json &effective(const CellResult &cell, const StudySpec &spec, const config::Config &base,
                      const std::string &key) {
    if (cell.overrides.contains(key)) {
        return cell.overrides[key];
    }
    if (spec.set.contains(key)) {
        return spec.set[key];
    }
    return base.get(key);
}

std::string cell_method(const CellResult &cell, const StudySpec &spec, const config::Config &base) {
    const json &kind = effective(cell, spec, base, keys::fs_kind.name);
    const json &presort = effective(cell, spec, base, keys::fs_presort.name);
    return method_label(kind.get<std::string>(), presort.get<bool>());
}

std::optional<double> summary_value(const json &summary, const char *field) {
    if (!summary.contains(field)) {
        return std::nullopt;
    }
    return summary[field].get<double>();
}

// One figure of method m over the same figure of SPFS on a row; nullopt where
// either is missing or there is no SPFS column.
template <typename Figure>
std::optional<double> ratio_to_baseline(const MethodsTable &t, size_t row, size_t m,
                                        Figure figure) {
    int base = t.method_index(kBaseline);
    if (base < 0) {
        return std::nullopt;
    }
    const auto &a = t.rows[row].method[m];
    const auto &b = t.rows[row].method[static_cast<size_t>(base)];
    if (!a || !b) {
        return std::nullopt;
    }
    std::optional<double> x = figure(*a);
    std::optional<double> y = figure(*b);
    if (!x || !y || *y <= 0) {
        return std::nullopt;
    }
    return *x / *y;
}

bool has_published(const MethodsTable &t) {
    for (const auto &row : t.rows) {
        for (const auto &m : row.method) {
            if (m && m->published) {
                return true;
            }
        }
    }
    return false;
}

// The methods compared with SPFS: every method but SPFS, when SPFS is there.
std::vector<size_t> ratio_methods(const MethodsTable &t) {
    std::vector<size_t> out;
    if (t.method_index(kBaseline) < 0) {
        return out;
    }
    for (size_t m = 0; m < t.methods.size(); ++m) {
        if (t.methods[m] != kBaseline) {
            out.push_back(m);
        }
    }
    return out;
}

std::string optional_text(const std::optional<double> &v, int decimals, bool sign = false) {
    if (!v) {
        return "";
    }
    std::string text = fixed_text(*v, decimals);
    return sign && *v >= 0 ? "+" + text : text;
}

// The table as fields. `terminal`: short headers under a group per method;
// else flat headers naming the method, and the keys' full names unless `short_keys`.
TextTable text_of(const MethodsTable &t, bool terminal, bool short_keys) {
    TextTable out;
    bool published = has_published(t);
    auto ratios = ratio_methods(t);
    out.key_columns = t.key_columns.size();
    for (const auto &k : t.key_columns) {
        out.header.push_back(short_keys ? short_key(k) : k);
    }
    for (const auto &m : t.methods) {
        size_t first = out.header.size();
        out.header.push_back(terminal ? "MB/s" : m + " MB/s");
        if (published) {
            out.header.push_back(terminal ? "pub" : m + " published");
            out.header.push_back(terminal ? "err %" : m + " error %");
        }
        out.groups.push_back({m, first, out.header.size() - first});
    }
    for (size_t m : ratios) {
        size_t first = out.header.size();
        std::string ratio = t.methods[m] + " / " + kBaseline;
        out.header.push_back(terminal ? "model" : ratio);
        if (published) {
            out.header.push_back(terminal ? "pub" : ratio + " published");
        }
        out.groups.push_back({ratio, first, out.header.size() - first});
    }
    if (!terminal) {
        out.groups.clear();
    }
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const MethodsRow &row = t.rows[r];
        std::vector<std::string> fields = row.keys;
        for (const auto &m : row.method) {
            fields.push_back(!m ? "" : m->failed ? "FAILED" : fixed_text(m->mean, 2));
            if (published) {
                fields.push_back(m ? optional_text(m->published, 2) : "");
                fields.push_back(m ? optional_text(m->error_pct, 1, true) : "");
            }
        }
        for (size_t m : ratios) {
            fields.push_back(optional_text(t.model_ratio(r, m), 2));
            if (published) {
                fields.push_back(optional_text(t.published_ratio(r, m), 2));
            }
        }
        out.rows.push_back(fields);
    }
    return out;
}

struct RatioSummary {
    int rows = 0;
    double model = 0;                // geometric mean
    std::optional<double> published; // over the same rows
};

// Geometric means of method m's ratio to SPFS: over the rows with both ratios
// when the study has published values, else over the rows with the model's.
RatioSummary ratio_summary(const MethodsTable &t, size_t m) {
    bool published = has_published(t);
    RatioSummary s;
    double log_model = 0;
    double log_published = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        auto model = t.model_ratio(r, m);
        auto pub = t.published_ratio(r, m);
        if (!model || *model <= 0 || (published && (!pub || *pub <= 0))) {
            continue;
        }
        ++s.rows;
        log_model += std::log(*model);
        log_published += published ? std::log(*pub) : 0;
    }
    if (s.rows > 0) {
        s.model = std::exp(log_model / s.rows);
        if (published) {
            s.published = std::exp(log_published / s.rows);
        }
    }
    return s;
}

// What the table's figures add up to, under it: a title and its lines.
struct SummarySection {
    std::string title;
    std::vector<std::string> lines;
};

// Each method's error against the published values, and each method's
// geometric mean ratio to SPFS beside the paper's.
std::vector<SummarySection> summary_of(const MethodsTable &t) {
    size_t width = 0;
    for (const auto &m : t.methods) {
        width = std::max(width, m.size());
    }
    auto padded = [&](const std::string &m) { return m + std::string(width - m.size(), ' '); };
    SummarySection errors{"error against the published values, per method:", {}};
    for (size_t m = 0; m < t.methods.size(); ++m) {
        const ComparisonStats &st = t.comparison[m];
        if (st.cells == 0) {
            continue;
        }
        errors.lines.push_back(padded(t.methods[m]) + "  " + std::to_string(st.cells) +
                               " cells, median |error| " + fixed_text(st.median_abs_error_pct, 1) +
                               "%, worst " + optional_text(st.worst_error_pct, 1, true) + "% (" +
                               st.worst_cell + "), within 5%: " + std::to_string(st.within_5pct) +
                               ", within 10%: " + std::to_string(st.within_10pct));
    }
    bool published = has_published(t);
    SummarySection ratios{"ratio to " + kBaseline + ", geometric mean over the rows" +
                              (published ? " with both the model's and the published ratio:" : ":"),
                          {}};
    for (size_t m : ratio_methods(t)) {
        RatioSummary s = ratio_summary(t, m);
        if (s.rows == 0) {
            continue;
        }
        ratios.lines.push_back(padded(t.methods[m]) + "  model " + fixed_text(s.model, 2) +
                               (s.published ? ", published " + fixed_text(*s.published, 2) : "") +
                               " (" + std::to_string(s.rows) + (s.rows == 1 ? " row)" : " rows)"));
    }
    std::vector<SummarySection> out;
    for (auto *section : {&errors, &ratios}) {
        if (!section->lines.empty()) {
            out.push_back(*section);
        }
    }
    return out;
}

} // namespace

std::string method_label(const std::string &kind, bool presort) {
    if (kind == "spfs") {
        return "SPFS";
    }
    if (kind == "2pio") {
        return "2PIO";
    }
    if (kind == "ddio") {
        return presort ? "DDIO sort" : "DDIO no sort";
    }
    return kind;
}

int MethodsTable::method_index(const std::string &label) const {
    auto it = std::find(methods.begin(), methods.end(), label);
    return it == methods.end() ? -1 : static_cast<int>(it - methods.begin());
}

std::optional<double> MethodsTable::model_ratio(size_t row, size_t m) const {
    return ratio_to_baseline(*this, row, m, [](const MethodFigures &f) {
        return f.failed ? std::nullopt : std::optional<double>(f.mean);
    });
}

std::optional<double> MethodsTable::published_ratio(size_t row, size_t m) const {
    return ratio_to_baseline(*this, row, m, [](const MethodFigures &f) { return f.published; });
}

MethodsTable methods_table(const StudySpec &spec, const config::Config &base,
                           const std::vector<CellResult> &results) {
    MethodsTable t;
    for (const auto &k : study_columns(results)) {
        if (!is_method_key(k)) {
            t.key_columns.push_back(k);
        }
    }
    std::vector<std::string> labels;
    for (const auto &c : results) {
        labels.push_back(cell_method(c, spec, base));
    }
    for (const auto &m : kMethodOrder) {
        if (std::find(labels.begin(), labels.end(), m) != labels.end()) {
            t.methods.push_back(m);
        }
    }
    for (const auto &m : labels) {
        if (t.method_index(m) < 0) {
            t.methods.push_back(m);
        }
    }
    std::vector<std::vector<CellResult>> per_method(t.methods.size());
    // The row each method's latest cell went to: a row new to the table goes
    // right after it, so a row that the first method skips (SPFS's 8-byte rc)
    // still sits where the study lists it.
    std::vector<std::optional<size_t>> last_row(t.methods.size());
    for (size_t i = 0; i < results.size(); ++i) {
        const CellResult &c = results[i];
        std::vector<std::string> keys;
        for (const auto &k : t.key_columns) {
            keys.push_back(c.overrides.contains(k) ? value_text(c.overrides[k]) : "");
        }
        size_t m = static_cast<size_t>(t.method_index(labels[i]));
        auto row = std::find_if(t.rows.begin(), t.rows.end(), [&](const MethodsRow &r) {
            return r.keys == keys && !r.method[m];
        });
        // A second cell of one method with the same keys (a study varying
        // fs.presort for SPFS) gets a row of its own: nothing is merged or lost.
        if (row == t.rows.end()) {
            size_t at = last_row[m] ? *last_row[m] + 1 : t.rows.size();
            row =
                t.rows.insert(t.rows.begin() + static_cast<std::ptrdiff_t>(at),
                              {keys, std::vector<std::optional<MethodFigures>>(t.methods.size())});
            for (auto &last : last_row) {
                if (last && *last >= at) {
                    ++*last;
                }
            }
        }
        // A cell whose trials all failed has no mean (study.cpp leaves it 0 and
        // attaches no published value): shown as FAILED, in no ratio.
        bool failed = c.summary.value("trials", 1) == 0;
        row->method[m] = MethodFigures{failed ? 0.0 : c.summary["mean"].get<double>(),
                                       summary_value(c.summary, "published"),
                                       summary_value(c.summary, "error_pct"), failed};
        last_row[m] = static_cast<size_t>(row - t.rows.begin());
        per_method[m].push_back(c);
    }
    for (const auto &cells : per_method) {
        t.comparison.push_back(compare_stats(cells));
    }
    return t;
}

bool wants_methods_table(const StudySpec &spec) {
    return spec.table == "methods";
}

void print_methods_table(std::ostream &out, const MethodsTable &table) {
    out << "methods side by side (MB/s; pub = published, err % = 100 (model - published) / "
           "published; ratios to "
        << kBaseline << "):\n";
    print_aligned(out, text_of(table, true, true));
    for (const auto &section : summary_of(table)) {
        out << section.title << "\n";
        for (const auto &line : section.lines) {
            out << "  " << line << "\n";
        }
    }
}

void write_methods_csv(std::ostream &out, const MethodsTable &table) {
    write_csv_table(out, text_of(table, false, false));
}

void write_methods_markdown(std::ostream &out, const MethodsTable &table) {
    write_markdown_table(out, text_of(table, false, true));
    for (const auto &section : summary_of(table)) {
        out << "\n" << section.title << "\n\n";
        for (const auto &line : section.lines) {
            out << "* " << line << "\n";
        }
    }
}

std::string methods_path(const std::string &table_path) {
    auto slash = table_path.rfind('/');
    auto dot = table_path.rfind('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
        dot == (slash == std::string::npos ? 0 : slash + 1)) {
        return table_path + "-methods";
    }
    return table_path.substr(0, dot) + "-methods" + table_path.substr(dot);
}

} // namespace starfish::sim
