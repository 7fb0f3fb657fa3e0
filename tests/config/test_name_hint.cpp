// "Did you mean" hints: the closest name, the shipped *.json names of a directory,
// and the messages of a configuration name that names no file.
#include "hw/config/config_error.h"
#include "hw/config/loader.h"
#include "hw/config/name_hint.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

using namespace starfish::config;
using starfish::testing::contains;
using starfish::testing::TempDir;
namespace fs = std::filesystem;

namespace {
void touch(const TempDir &d, const std::string &name) {
    std::ofstream(d / name) << "{}";
}
} // namespace

BOOST_AUTO_TEST_SUITE(name_hint)

BOOST_AUTO_TEST_CASE(the_closest_name_within_reach_is_offered) {
    std::vector<std::string> keys = {"fs.kind", "fs.presort", "disk.rpm"};
    BOOST_TEST(closest_name("fs.kindd", keys) == "fs.kind");
    BOOST_TEST(closest_name("fs.presrot", keys) == "fs.presort");
    BOOST_TEST(closest_name("workload.pattern", keys) == "");
    BOOST_TEST(closest_name("anything", {}) == "");
    // Equally close: the first candidate wins, so the hint does not depend on luck.
    BOOST_TEST(closest_name("ab", {"ax", "ay"}) == "ax");
    BOOST_TEST(closest_name(std::string(300, 'a'), keys) == "");
}

BOOST_AUTO_TEST_CASE(a_directory_lists_its_json_files_sorted) {
    TempDir d("starfish_hint");
    touch(d, "small.json");
    touch(d, "default.json");
    touch(d, "notes.txt");
    fs::create_directory(d.path + "/folder.json"); // not a regular file
    BOOST_TEST(json_names_in(d.path) == (std::vector<std::string>{"default", "small"}),
               boost::test_tools::per_element());
    BOOST_TEST(json_names_in(d.path + "/missing").empty());
}

BOOST_AUTO_TEST_CASE(the_hint_names_the_closest_and_lists_the_rest) {
    TempDir d("starfish_hint");
    touch(d, "main.json");
    touch(d, "paper-main.json");
    std::string hint = shipped_names_hint("mian", d.path);
    BOOST_TEST(contains(hint, "(did you mean 'main'?)"), hint);
    BOOST_TEST(contains(hint, d.path + " has: main, paper-main"), hint);
    BOOST_TEST(contains(shipped_names_hint("paper-mian.json", d.path), "'paper-main'"));
    std::string far = shipped_names_hint("zzzzzzzzzzzz", d.path);
    BOOST_TEST(!contains(far, "did you mean"), far);
    BOOST_TEST(contains(far, "has: main, paper-main"), far);
    TempDir empty("starfish_hint");
    BOOST_TEST(shipped_names_hint("main", empty.path) == "");
}

BOOST_AUTO_TEST_CASE(a_configuration_name_that_names_no_file_gets_the_hint) {
    TempDir d("starfish_hint");
    touch(d, "small.json");
    std::string msg;
    try {
        resolve_config_path("smal", d.path);
    } catch (const ConfigError &e) {
        msg = e.what();
    }
    BOOST_TEST(contains(msg, "configuration file 'smal' not found"), msg);
    BOOST_TEST(contains(msg, "(did you mean 'small'?)"), msg);
    // A path is not a name in the directory: no list.
    try {
        resolve_config_path("/no/such/smal.json", d.path);
    } catch (const ConfigError &e) {
        msg = e.what();
    }
    BOOST_TEST(!contains(msg, "did you mean"), msg);
}

BOOST_AUTO_TEST_SUITE_END()
