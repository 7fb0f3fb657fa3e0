#pragma once
// Tables of study results: the per-cell summary as text for the terminal, CSV and
// Markdown, and the comparison statistics against a published table.

#include "sim/study/study.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace starfish::sim {

struct ComparisonStats {
    int cells = 0; // cells with a published value
    double median_abs_error_pct = 0;
    double worst_error_pct = 0; // signed, the largest in magnitude
    std::string worst_cell;
    int within_5pct = 0;
    int within_10pct = 0;
};

// The varying keys of the cells, in first-appearance order.
std::vector<std::string> study_columns(const std::vector<CellResult> &cells);

ComparisonStats compare_stats(const std::vector<CellResult> &cells);

void print_study_table(std::ostream &out, const std::vector<CellResult> &cells);
void write_study_csv(std::ostream &out, const std::vector<CellResult> &cells);
void write_study_markdown(std::ostream &out, const std::vector<CellResult> &cells);

// "rbc 8 contiguous" — the cell's varying values, for progress lines.
std::string cell_label(const nlohmann::json &overrides);

} // namespace starfish::sim
