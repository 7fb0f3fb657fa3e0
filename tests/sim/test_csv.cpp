// The CSV reader and writer (sim/report/csv.h): quoting, layout leniency, and
// errors that name the file and line.
#include "sim/report/csv.h"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace starfish::sim;

namespace {

CsvTable parse(const std::string &text) {
    std::istringstream in(text);
    return read_csv(in, "t.csv");
}

// what() of the CsvError reading `text` throws, or "" when it reads.
std::string error_of(const std::string &text) {
    try {
        parse(text);
    } catch (const CsvError &e) {
        return e.what();
    }
    return "";
}

std::string written(const std::vector<std::vector<std::string>> &records) {
    std::ostringstream out;
    for (const auto &r : records) {
        write_csv_row(out, r);
    }
    return out.str();
}

using Fields = std::vector<std::string>;

} // namespace

BOOST_AUTO_TEST_SUITE(csv)

BOOST_AUTO_TEST_CASE(plain_tables_read_with_line_numbers) {
    CsvTable t = parse("a,b,c\n1,2,3\n4,5,6\n");
    BOOST_TEST(t.path == "t.csv");
    BOOST_TEST(t.header_line == 1);
    BOOST_TEST(t.header == (Fields{"a", "b", "c"}), boost::test_tools::per_element());
    BOOST_REQUIRE(t.rows.size() == 2u);
    BOOST_TEST(t.rows[0].line == 2);
    BOOST_TEST(t.rows[1].line == 3);
    BOOST_TEST(t.rows[1].fields == (Fields{"4", "5", "6"}), boost::test_tools::per_element());
    BOOST_TEST(t.column("b") == 1);
    BOOST_TEST(t.column("z") == -1);
    BOOST_TEST(t.required_column("c") == 2u);
}

BOOST_AUTO_TEST_CASE(layout_is_lenient) {
    // CRLF, blanks around unquoted fields, blank lines (counted), no final newline.
    CsvTable t = parse("\n a , b\r\n\n  \t\n1,\t2 \r\n3,4");
    BOOST_TEST(t.header_line == 2);
    BOOST_TEST(t.header == (Fields{"a", "b"}), boost::test_tools::per_element());
    BOOST_REQUIRE(t.rows.size() == 2u);
    BOOST_TEST(t.rows[0].line == 5);
    BOOST_TEST(t.rows[0].fields == (Fields{"1", "2"}), boost::test_tools::per_element());
    BOOST_TEST(t.rows[1].line == 6);
    BOOST_TEST(t.rows[1].fields == (Fields{"3", "4"}), boost::test_tools::per_element());
    // A trailing comma is one more, empty, field.
    t = parse("a,b,c\n1,2,\n");
    BOOST_TEST(t.rows[0].fields == (Fields{"1", "2", ""}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(quoted_fields_hold_commas_quotes_and_line_breaks) {
    CsvTable t = parse("name,note\n"
                       "\"a,b\",\"say \"\"hi\"\"\"\n"
                       " \" x \" ,\"two\nlines\"\n"
                       "\"\",last\n");
    BOOST_REQUIRE(t.rows.size() == 3u);
    BOOST_TEST(t.rows[0].fields == (Fields{"a,b", "say \"hi\""}), boost::test_tools::per_element());
    BOOST_TEST(t.rows[1].fields == (Fields{" x ", "two\nlines"}), boost::test_tools::per_element());
    BOOST_TEST(t.rows[1].line == 3);
    BOOST_TEST(t.rows[2].fields == (Fields{"", "last"}), boost::test_tools::per_element());
    BOOST_TEST(t.rows[2].line == 5); // the quoted line break counts
}

BOOST_AUTO_TEST_CASE(malformed_input_names_file_and_line) {
    BOOST_TEST(error_of("a,b\n1,2\n3\n") == "t.csv:3: 1 fields, but the header has 2");
    BOOST_TEST(error_of("a,b\n1,2,3\n") == "t.csv:2: 3 fields, but the header has 2");
    BOOST_TEST(error_of("") == "t.csv:1: empty file: expected a header line");
    BOOST_TEST(error_of("\n \n") == "t.csv:1: empty file: expected a header line");
    BOOST_TEST(error_of("a,b\n1,\"open\n2,3\n") ==
               "t.csv:2: quoted field not closed before the end of the file");
    BOOST_TEST(error_of("a,b\n1,\"x\"y\n") == "t.csv:2: field 2: text after the closing quote");
    BOOST_TEST(error_of("a,b\n1,12\"\n")
                   .find("t.csv:2: field 2: quote inside an unquoted "
                         "field") == 0u);
    CsvTable t = parse("a,b\n");
    try {
        t.required_column("c");
        BOOST_FAIL("no error");
    } catch (const CsvError &e) {
        BOOST_TEST(std::string(e.what()) == "t.csv:1: missing column 'c'");
        BOOST_TEST(e.path() == "t.csv");
        BOOST_TEST(e.line() == 1);
        BOOST_TEST(e.why() == "missing column 'c'");
    }
}

BOOST_AUTO_TEST_CASE(files_are_read_and_missing_ones_reported) {
    char name[] = "/tmp/starfish_csv_XXXXXX";
    int fd = ::mkstemp(name);
    ::close(fd);
    std::ofstream(name) << "x\n7\n";
    CsvTable t = read_csv_file(name);
    BOOST_TEST(t.path == name);
    BOOST_TEST(t.rows.at(0).fields.at(0) == "7");
    std::remove(name);
    try {
        read_csv_file(name);
        BOOST_FAIL("no error");
    } catch (const CsvError &e) {
        BOOST_TEST(std::string(e.what()) == std::string(name) + ": cannot open: No such file or "
                                                                "directory");
        BOOST_TEST(e.line() == 0);
    }
}

BOOST_AUTO_TEST_CASE(writing_quotes_only_what_needs_it) {
    BOOST_TEST(csv_field("plain text") == "plain text");
    BOOST_TEST(csv_field("1.5") == "1.5");
    BOOST_TEST(csv_field("") == "");
    BOOST_TEST(csv_field("a,b") == "\"a,b\"");
    BOOST_TEST(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    BOOST_TEST(csv_field("two\nlines") == "\"two\nlines\"");
    BOOST_TEST(csv_field(" padded") == "\" padded\"");
    BOOST_TEST(csv_field("cr\r") == "\"cr\r\"");
    BOOST_TEST(written({{"a", "b"}, {"1", ""}}) == "a,b\n1,\n");
    BOOST_TEST(written({{"x"}, {""}}) == "x\n\"\"\n"); // not a blank line
}

BOOST_AUTO_TEST_CASE(what_is_written_reads_back_field_for_field) {
    std::vector<Fields> records = {{"key", "value", "note"},
                                   {"a,b", "say \"hi\"", " x "},
                                   {"", "two\r\nlines", "\t"},
                                   {"[1,2]", "3", "end"}};
    CsvTable t = parse(written(records));
    BOOST_TEST(t.header == records[0], boost::test_tools::per_element());
    BOOST_REQUIRE(t.rows.size() == 3u);
    for (size_t i = 0; i < 3; ++i) {
        BOOST_TEST(t.rows[i].fields == records[i + 1], boost::test_tools::per_element());
    }
    // A one-column table keeps its empty values.
    t = parse(written({{"x"}, {""}, {"1"}}));
    BOOST_REQUIRE(t.rows.size() == 2u);
    BOOST_TEST(t.rows[0].fields.at(0) == "");
}

BOOST_AUTO_TEST_SUITE_END()
