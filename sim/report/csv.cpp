#include "sim/report/csv.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>

namespace starfish::sim {

namespace {

std::string located(const std::string &path, int line, const std::string &why) {
    return path + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + why;
}

bool is_blank(int c) {
    return c == ' ' || c == '\t';
}

// Splits a stream into records, counting lines. Field text is kept as written
// inside quotes and trimmed of blanks outside them.
class RecordReader {
public:
    RecordReader(std::istream &in, const std::string &path) : in_(in), path_(path) {}

    // The next record, false at the end of the input. `blank` is set for a line
    // with nothing on it but blanks.
    bool next(CsvRow &row, bool &blank) {
        row.fields.clear();
        row.line = line_;
        if (in_.peek() == std::char_traits<char>::eof()) {
            return false;
        }
        bool any_quoted = false;
        for (;;) {
            std::string field;
            int c = skip_blanks();
            if (c == '"') {
                in_.get();
                any_quoted = true;
                read_quoted(field, row.line);
                c = skip_blanks();
                if (c != ',' && c != '\n' && c != '\r' && c != std::char_traits<char>::eof()) {
                    fail(line_, "field " + std::to_string(row.fields.size() + 1) +
                                    ": text after the closing quote");
                }
            } else {
                read_unquoted(field, row.fields.size() + 1);
            }
            row.fields.push_back(std::move(field));
            c = in_.get();
            if (c == ',') {
                continue;
            }
            if (c == '\r' && in_.peek() == '\n') {
                c = in_.get();
            }
            if (c == '\n' || c == '\r') {
                ++line_;
            }
            break; // end of line or of input
        }
        blank = !any_quoted && row.fields.size() == 1 && row.fields[0].empty();
        return true;
    }

private:
    int skip_blanks() {
        while (is_blank(in_.peek())) {
            in_.get();
        }
        return in_.peek();
    }

    void read_quoted(std::string &field, int record_line) {
        for (;;) {
            int c = in_.get();
            if (c == std::char_traits<char>::eof()) {
                fail(record_line, "quoted field not closed before the end of the file");
            }
            if (c == '"') {
                if (in_.peek() != '"') {
                    return;
                }
                in_.get();
            } else if (c == '\n') {
                ++line_;
            }
            field.push_back(static_cast<char>(c));
        }
    }

    // Up to the next comma or line end (not consumed).
    void read_unquoted(std::string &field, size_t index) {
        for (;;) {
            int c = in_.peek();
            if (c == ',' || c == '\n' || c == std::char_traits<char>::eof()) {
                break;
            }
            if (c == '"') {
                fail(line_, "field " + std::to_string(index) +
                                ": quote inside an unquoted field (quote the whole field and "
                                "double the quote)");
            }
            field.push_back(static_cast<char>(in_.get()));
        }
        while (!field.empty() && (is_blank(field.back()) || field.back() == '\r')) {
            field.pop_back();
        }
    }

    [[noreturn]] void fail(int line, const std::string &why) const {
        throw CsvError(path_, line, why);
    }

    std::istream &in_;
    const std::string &path_;
    int line_ = 1;
};

} // namespace

CsvError::CsvError(const std::string &path, int line, const std::string &why)
    : std::runtime_error(located(path, line, why)), path_(path), line_(line), why_(why) {}

int CsvTable::column(const std::string &name) const {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

size_t CsvTable::required_column(const std::string &name) const {
    int c = column(name);
    if (c < 0) {
        throw CsvError(path, header_line, "missing column '" + name + "'");
    }
    return static_cast<size_t>(c);
}

CsvTable read_csv(std::istream &in, const std::string &path) {
    CsvTable table;
    table.path = path;
    RecordReader reader(in, path);
    CsvRow row;
    bool blank = false;
    bool have_header = false;
    while (reader.next(row, blank)) {
        if (blank) {
            continue;
        }
        if (!have_header) {
            table.header = std::move(row.fields);
            table.header_line = row.line;
            have_header = true;
            continue;
        }
        if (row.fields.size() != table.header.size()) {
            throw CsvError(path, row.line,
                           std::to_string(row.fields.size()) + " fields, but the header has " +
                               std::to_string(table.header.size()));
        }
        table.rows.push_back(std::move(row));
    }
    if (!have_header) {
        throw CsvError(path, 1, "empty file: expected a header line");
    }
    return table;
}

CsvTable read_csv_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw CsvError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    }
    return read_csv(in, path);
}

std::string csv_field(const std::string &field) {
    bool quote = field.find_first_of(",\"\r\n") != std::string::npos ||
                 (!field.empty() && (is_blank(field.front()) || is_blank(field.back())));
    if (!quote) {
        return field;
    }
    std::string out = "\"";
    for (char c : field) {
        out += c;
        if (c == '"') {
            out += '"';
        }
    }
    return out + "\"";
}

void write_csv_row(std::ostream &out, const std::vector<std::string> &fields) {
    if (fields.size() == 1 && fields[0].empty()) {
        out << "\"\"\n"; // a bare empty line would read back as a blank line
        return;
    }
    for (size_t i = 0; i < fields.size(); ++i) {
        out << (i ? "," : "") << csv_field(fields[i]);
    }
    out << "\n";
}

} // namespace starfish::sim
