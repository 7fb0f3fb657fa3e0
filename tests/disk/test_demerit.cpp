// The demerit figure and the trace reader (no simulation).
#include "sim/report/demerit.h"
#include "sim/workload/disk_trace.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace starfish::sim;

namespace {
std::string temp_csv(const std::string &text) {
    char name[] = "/tmp/starfish_trace_XXXXXX";
    int fd = ::mkstemp(name);
    ::close(fd);
    std::ofstream(name) << text;
    return name;
}

std::string error_of(const std::string &text, uint32_t disks = 0) {
    std::string path = temp_csv(text);
    std::string what;
    try {
        read_disk_trace(path, disks, 1000000);
    } catch (const DiskInputError &e) {
        what = e.what();
    }
    std::remove(path.c_str());
    // Report relative to the file: "FILE:LINE: message" -> ":LINE: message".
    return what.empty() ? "" : what.substr(path.size());
}
} // namespace

BOOST_AUTO_TEST_SUITE(disk_demerit)

BOOST_AUTO_TEST_CASE(demerit_is_the_rms_distance_between_quantile_functions) {
    std::vector<double> a = {3, 1, 2, 5, 4};
    BOOST_TEST(demerit(a, a) == 0.0);
    std::vector<double> shifted = {3.5, 1.5, 2.5, 5.5, 4.5};
    BOOST_TEST(demerit(a, shifted) == 0.5, boost::test_tools::tolerance(1e-12));
    // Same distribution at different sample sizes.
    BOOST_TEST(demerit({1, 2}, {1, 1, 2, 2}) == 0.0);
    // Qa = 0 on (0, 1]; Qb = 0 on (0, 1/2], 2 on (1/2, 1]: sqrt(1/2 * 4).
    BOOST_TEST(demerit({0}, {0, 2}) == std::sqrt(2.0), boost::test_tools::tolerance(1e-12));
    // Symmetric.
    BOOST_TEST(demerit({0, 1, 7}, {2, 2}) == demerit({2, 2}, {0, 1, 7}),
               boost::test_tools::tolerance(1e-12));
    BOOST_CHECK_THROW(demerit({}, {1}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(trace_reader_accepts_good_input) {
    std::string path = temp_csv("time_ms,disk,lba,sectors,op,extra\n"
                                "0,0,0,16,R,x\n\n"
                                "1.5,1,100,8,W,y\r\n");
    DiskTrace t = read_disk_trace(path, 2, 1000000);
    std::remove(path.c_str());
    BOOST_REQUIRE(t.requests.size() == 2u);
    BOOST_TEST(t.requests[1].time_ps == 1500000000ull);
    BOOST_TEST(t.requests[1].disk == 1u);
    BOOST_TEST(t.requests[1].lba == 100u);
    BOOST_TEST(t.requests[1].sectors == 8u);
    BOOST_TEST(t.requests[1].write == true);
    BOOST_TEST(t.requests[1].line == 4);
    BOOST_TEST(t.rows[1][5] == "y");
    BOOST_TEST(t.response_column == -1);
}

BOOST_AUTO_TEST_CASE(bad_traces_name_file_and_line) {
    BOOST_TEST(error_of("time_ms,disk,sectors,op\n0,0,16,R\n") == ":1: missing column 'lba'");
    BOOST_TEST(error_of("time_ms,disk,lba,sectors,op\n0,0,0,16,R\n0,0,0,16,X\n") ==
               ":3: column 'op': 'X' is not R or W");
    BOOST_TEST(error_of("time_ms,disk,lba,sectors,op\n0,5,0,16,R\n", 2) ==
               ":2: disk index 5 out of range (2 disk(s): 0..1)");
    BOOST_TEST(error_of("time_ms,disk,lba,sectors,op\nsoon,0,0,16,R\n") ==
               ":2: column 'time_ms': 'soon' is not a number");
    BOOST_TEST(error_of("time_ms,disk,lba,sectors,op\n0,0,0,0,R\n") ==
               ":2: column 'sectors': a request needs at least one sector");
    BOOST_TEST(error_of("time_ms,disk,lba,sectors,op\n0,0,999990,16,R\n") ==
               ":2: sectors [999990, +16) beyond the disk's 1000000 sectors");
    BOOST_TEST(error_of("time_ms,disk,lba,sectors,op\n0,0,0,16\n") ==
               ":2: 4 fields, but the header has 5");
    BOOST_TEST(error_of("time_ms,disk,lba,sectors,op\n-1,0,0,16,R\n") ==
               ":2: column 'time_ms': negative time -1");
    BOOST_TEST(error_of("time_ms,disk,lba,sectors,op\n0,0,1.5,16,R\n")
                   .find(":2: column 'lba': '1.5' is not an integer") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
