#include "tests/support/starfish_cli.h"

#include <fstream>
#include <sstream>

#include <boost/test/unit_test.hpp>

namespace starfish::testing {

std::string starfish_binary() {
    auto &suite = boost::unit_test::framework::master_test_suite();
    BOOST_REQUIRE_MESSAGE(suite.argc >= 2, "pass the starfish binary after --");
    return suite.argv[1];
}

std::string source_directory() {
    auto &suite = boost::unit_test::framework::master_test_suite();
    BOOST_REQUIRE_MESSAGE(suite.argc >= 3, "pass the starfish binary and the source directory");
    return suite.argv[2];
}

ProcessResult run_starfish(std::vector<std::string> args) {
    args.insert(args.begin(), starfish_binary());
    return run_process(args);
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace starfish::testing
