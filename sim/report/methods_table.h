#pragma once
// The methods table: a study's cells side by side by file system, as the paper
// compares them. One row per combination of the study's other varying keys
// (layout, record size, pattern, ...); per method (SPFS, 2PIO, DDIO no sort,
// DDIO sort) the model's mean, the published value and the error; then each
// method's throughput relative to SPFS in the model and in the paper. A study
// asks for it with "table": "methods" (docs/studies.md, "The methods table").

#include "hw/config/config.h"
#include "sim/report/study_table.h"
#include "sim/study/study.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace starfish::sim {

// "SPFS", "2PIO", "DDIO no sort" or "DDIO sort": the method of a cell that runs
// file system `kind` with or without the DDIO presort (the report's names).
std::string method_label(const std::string &kind, bool presort);

struct MethodFigures {
    double mean = 0; // 0 when failed
    std::optional<double> published;
    std::optional<double> error_pct;
    bool failed = false; // every trial of the cell failed: nothing was measured
};

struct MethodsRow {
    std::vector<std::string> keys;                    // values of MethodsTable::key_columns
    std::vector<std::optional<MethodFigures>> method; // per MethodsTable::methods
};

struct MethodsTable {
    std::vector<std::string> key_columns;    // the varying keys besides fs.kind and fs.presort
    std::vector<std::string> methods;        // those present, in the paper's order
    std::vector<MethodsRow> rows;            // in the order the study lists its cells
    std::vector<ComparisonStats> comparison; // per method, against the published values

    // Index of `label` in methods, or -1.
    int method_index(const std::string &label) const;
    // Row r's mean (or published value) of method m over SPFS's; nullopt where
    // either is missing or there is no SPFS column.
    std::optional<double> model_ratio(size_t row, size_t m) const;
    std::optional<double> published_ratio(size_t row, size_t m) const;
};

// The table of a study's results. A cell's method comes from its fs.kind and
// fs.presort as it ran: its own varying values, else the study's `set`, else
// `base` (the command's configuration).
MethodsTable methods_table(const StudySpec &spec, const config::Config &base,
                           const std::vector<CellResult> &results);

// True when the study file asks for the methods table ("table": "methods").
bool wants_methods_table(const StudySpec &spec);

// Terminal: grouped columns, then per method its error against the published
// values and, per method besides SPFS, the geometric mean of its ratio to SPFS
// in the model and the paper over the rows where both are known.
void print_methods_table(std::ostream &out, const MethodsTable &table);
void write_methods_csv(std::ostream &out, const MethodsTable &table);
void write_methods_markdown(std::ostream &out, const MethodsTable &table);

// Where the methods table goes beside a study's per-cell table file:
// "out.csv" -> "out-methods.csv", "tables/x.md" -> "tables/x-methods.md".
std::string methods_path(const std::string &table_path);

} // namespace starfish::sim
