#include "tests/support/starfish_cli.h"

#include <unistd.h>

#include <filesystem>
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

size_t count(const std::string &text, const std::string &part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++n;
    }
    return n;
}

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_file(const std::string &path, const std::string &text) {
    std::ofstream(path, std::ios::trunc) << text;
}

TempDir::TempDir(const std::string &prefix) {
    std::string name = "/tmp/" + prefix + "_XXXXXX";
    std::vector<char> buf(name.begin(), name.end());
    buf.push_back('\0');
    BOOST_REQUIRE(::mkdtemp(buf.data()) != nullptr);
    path = buf.data();
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

std::vector<std::string> tiny_run(const std::vector<std::string> &extra) {
    std::vector<std::string> args{
        "run",   "--config",         "small", "--set", "workload.file_mb=0.0625",
        "--set", "workload.trials=1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

} // namespace starfish::testing
