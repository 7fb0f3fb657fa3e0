// `starfish disk replay` and `starfish disk demerit` end to end.
// Arguments (after --): path of the starfish binary.
#include "sim/report/csv.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using nlohmann::json;
using starfish::sim::CsvRow;
using starfish::sim::CsvTable;
using starfish::sim::read_csv_file;
using starfish::testing::contains;
using starfish::testing::run_starfish;

namespace {
struct TempDir {
    std::string path;
    TempDir() {
        char name[] = "/tmp/starfish_disk_cli_XXXXXX";
        path = ::mkdtemp(name);
    }
    ~TempDir() { std::system(("rm -rf " + path).c_str()); }
    std::string file(const std::string &name, const std::string &text) const {
        std::string p = path + "/" + name;
        std::ofstream(p) << text;
        return p;
    }
};

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
} // namespace

BOOST_AUTO_TEST_SUITE(disk_cli)

BOOST_AUTO_TEST_CASE(replay_writes_the_trace_back_with_response_times) {
    TempDir dir;
    std::string trace = "time_ms,disk,lba,sectors,op\n";
    for (int i = 0; i < 20; ++i) {
        trace += std::to_string(i * 40) + "," + std::to_string(i % 2) + "," +
                 std::to_string(i * 50000) + ",16," + (i % 3 ? "R" : "W") + "\n";
    }
    std::string in = dir.file("t.csv", trace), out = dir.path + "/r.csv";
    std::string js = dir.path + "/r.json";
    auto r = run_starfish({"disk", "replay", "--trace", in, "--out", out, "--json", js});
    BOOST_REQUIRE_MESSAGE(r.exit_status == 0, r.err);
    BOOST_TEST(contains(r.out, "replayed 20 request(s) on 2 disk(s), 1 bus(es)"));
    BOOST_TEST(contains(r.out, "host:"));
    CsvTable table = read_csv_file(out);
    BOOST_TEST(table.header == (std::vector<std::string>{"time_ms", "disk", "lba", "sectors", "op",
                                                         "response_ms"}),
               boost::test_tools::per_element());
    int rows = 0;
    for (const CsvRow &row : table.rows) {
        ++rows;
        double ms = std::stod(row.fields.back());
        BOOST_TEST(ms > 2.2);  // at least the controller overhead
        BOOST_TEST(ms < 60.0); // no queueing: seek + rotation + transfer at most
    }
    BOOST_TEST(rows == 20);
    json doc = json::parse(read_file(js));
    BOOST_TEST(doc["command"] == "disk replay");
    BOOST_TEST(doc["summary"]["requests"] == 20);
    BOOST_TEST(doc["summary"]["disks"].size() == 2u);
    BOOST_TEST(doc["config"].contains("disk.rpm"));

    // Same configuration, same answers; a different one, different answers.
    std::string out2 = dir.path + "/r2.csv", out3 = dir.path + "/r3.csv";
    run_starfish({"disk", "replay", "--trace", in, "--out", out2});
    BOOST_TEST(read_file(out) == read_file(out2));
    r = run_starfish({"disk", "replay", "--trace", in, "--out", out3, "--set",
                      "disk.controller_overhead_ms=1.0"});
    BOOST_TEST(r.exit_status == 0);
    BOOST_TEST(read_file(out) != read_file(out3));

    // demerit: a file against itself is 0, against the faster drive more.
    r = run_starfish({"disk", "demerit", out, out});
    BOOST_TEST(r.exit_status == 0);
    BOOST_TEST(contains(r.out, "demerit 0.0000 ms = 0.0000 %"));
    r = run_starfish({"disk", "demerit", out, out3});
    BOOST_TEST(r.exit_status == 0);
    BOOST_TEST(!contains(r.out, "demerit 0.0000 ms"));
}

BOOST_AUTO_TEST_CASE(demerit_prints_ms_and_percent_of_the_first_mean) {
    TempDir dir;
    std::string a = dir.file("a.csv", "op,response_ms\nR,10\nR,20\n");
    std::string b = dir.file("b.csv", "response_ms\n21\n11\n");
    auto r = run_starfish({"disk", "demerit", a, b});
    BOOST_REQUIRE_MESSAGE(r.exit_status == 0, r.err);
    BOOST_TEST(contains(r.out, "demerit 1.0000 ms = 6.6667 % of the mean of " + a));
    r = run_starfish({"disk", "demerit", a, b, "--json", "-"});
    BOOST_REQUIRE(r.exit_status == 0);
    json d = json::parse(r.out);
    BOOST_TEST(d["demerit_ms"].get<double>() == 1.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(d["demerit_percent"].get<double>() == 100.0 / 15,
               boost::test_tools::tolerance(1e-12));
    BOOST_TEST(d["mean_a_ms"].get<double>() == 15.0);
    BOOST_TEST(contains(r.err, "% of the mean of")); // human text on stderr with --json -
}

BOOST_AUTO_TEST_CASE(replay_replaces_a_measured_response_column) {
    TempDir dir;
    std::string in = dir.file("m.csv", "time_ms,disk,lba,sectors,op,response_ms\n"
                                       "0,0,1000,16,R,25.5\n"
                                       "30,0,900000,16,R,19.25\n");
    std::string out = dir.path + "/m_model.csv";
    auto r = run_starfish({"disk", "replay", "--trace", in, "--out", out});
    BOOST_REQUIRE_MESSAGE(r.exit_status == 0, r.err);
    std::string text = read_file(out);
    BOOST_TEST(text.substr(0, text.find('\n')) == "time_ms,disk,lba,sectors,op,response_ms");
    BOOST_TEST(!contains(text, "25.5\n"));
    r = run_starfish({"disk", "demerit", in, out});
    BOOST_TEST(r.exit_status == 0);
    BOOST_TEST(contains(r.out, "2 and 2 responses"));
}

BOOST_AUTO_TEST_CASE(bad_input_exits_2_naming_file_and_line) {
    TempDir dir;
    std::string missing = dir.file("a.csv", "time_ms,disk,sectors,op\n0,0,16,R\n");
    std::string bad_op = dir.file("b.csv", "time_ms,disk,lba,sectors,op\n0,0,0,16,R\n1,0,8,8,Q\n");
    std::string range = dir.file("c.csv", "time_ms,disk,lba,sectors,op\n0,3,0,16,R\n");
    std::string beyond = dir.file("d.csv", "time_ms,disk,lba,sectors,op\n0,0,2684010,16,R\n");
    std::string out = dir.path + "/o.csv";
    struct Case {
        std::vector<std::string> args;
        std::string expected;
    };
    std::vector<Case> cases = {
        {{"disk", "replay", "--trace", missing, "--out", out},
         missing + ":1: missing column 'lba'"},
        {{"disk", "replay", "--trace", bad_op, "--out", out}, bad_op + ":3: column 'op'"},
        {{"disk", "replay", "--trace", range, "--out", out, "--disks", "2"},
         range + ":2: disk index 3 out of range"},
        {{"disk", "replay", "--trace", beyond, "--out", out}, beyond + ":2: sectors [2684010"},
        {{"disk", "replay", "--trace", dir.path + "/none.csv", "--out", out}, "cannot open"},
        {{"disk", "replay", "--trace", range, "--out", out, "--buses", "9"}, "--buses 9"},
        {{"disk", "replay", "--trace", range, "--out", out, "--set", "disk.rpm=0"}, "'disk.rpm'"},
        {{"disk", "demerit", missing, bad_op}, missing + ":1: missing column 'response_ms'"},
        {{"disk", "replay", "--out", out}, "--trace"},
    };
    for (const auto &c : cases) {
        auto r = run_starfish(c.args);
        BOOST_TEST_CONTEXT(c.expected) {
            BOOST_TEST(r.exit_status == 2);
            BOOST_TEST(contains(r.err, c.expected), "stderr was: " << r.err);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
