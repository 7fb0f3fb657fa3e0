#pragma once
// A table of text fields and its three renderings: aligned columns for the
// terminal, Markdown and CSV. The study tables (study_table.h, methods_table.h)
// build one and print it through here, so they line up and quote alike.

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace starfish::sim {

// A run of columns under one label, shown on a line above the header on the
// terminal ("SPFS" over "MB/s published error %").
struct ColumnGroup {
    std::string label;
    size_t first = 0; // column index
    size_t count = 0;
};

struct TextTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows; // each as wide as the header
    // The first key_columns columns name the row (left-aligned on the terminal);
    // the rest are figures (right-aligned).
    size_t key_columns = 0;
    std::vector<ColumnGroup> groups; // terminal only; may be empty
};

// Columns padded to their widest field, two spaces apart.
void print_aligned(std::ostream &out, const TextTable &table);
void write_markdown_table(std::ostream &out, const TextTable &table);
void write_csv_table(std::ostream &out, const TextTable &table);

// "31.25" for (31.2468, 2).
std::string fixed_text(double value, int decimals);
// A configuration value as a table shows it: strings bare, reals with %g.
std::string value_text(const nlohmann::json &value);
// "record_bytes" for "workload.record_bytes".
std::string short_key(const std::string &key);

} // namespace starfish::sim
