#pragma once
// CSV tables with a header line: the one reader and writer for every CSV the
// starfish command reads or writes (disk traces, replay output, published
// tables, study tables).
//
// Reading follows RFC 4180 and is lenient about layout: a field in double quotes
// may hold commas, quotes (written "") and line breaks; unquoted fields are
// trimmed of spaces and tabs; lines end in LF or CRLF; blank lines are skipped.
// The first non-blank record is the header and every row must have as many
// fields. Writing quotes exactly the fields that need it, so what is written
// reads back field for field.

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace starfish::sim {

// A file that cannot be read or a malformed record. what() is "FILE:LINE: why"
// ("FILE: why" when no line is concerned, e.g. the file cannot be opened).
class CsvError : public std::runtime_error {
public:
    CsvError(const std::string &path, int line, const std::string &why);
    const std::string &path() const { return path_; }
    int line() const { return line_; } // 0: the file as a whole
    const std::string &why() const { return why_; }

private:
    std::string path_;
    int line_;
    std::string why_;
};

struct CsvRow {
    int line = 0; // line of the file where the record starts
    std::vector<std::string> fields;
};

struct CsvTable {
    std::string path; // as given, for messages
    int header_line = 0;
    std::vector<std::string> header;
    std::vector<CsvRow> rows;

    // Index of the column named `name`, or -1.
    int column(const std::string &name) const;
    // Index of the column named `name`; throws CsvError "missing column 'name'"
    // on the header line when there is none.
    size_t required_column(const std::string &name) const;
};

// Reads a table from a file; throws CsvError ("cannot open: ...", a row whose
// field count differs from the header's, a quote out of place, an empty file).
CsvTable read_csv_file(const std::string &path);
// The same from a stream; `path` names it in messages.
CsvTable read_csv(std::istream &in, const std::string &path);

// A field as written: in double quotes (inner quotes doubled) when it holds a
// comma, a quote or a line break or starts or ends with a space or tab.
std::string csv_field(const std::string &field);
// One record and its line end ("\n").
void write_csv_row(std::ostream &out, const std::vector<std::string> &fields);

} // namespace starfish::sim
