// The starfish command end to end: exit statuses and messages for bad input,
// `starfish config` listings and JSON output.
// Arguments (after --): path of the starfish binary, source directory.
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using nlohmann::json;
using starfish::testing::contains;
using starfish::testing::run_starfish;

namespace {
std::string temp_file(const std::string &text) {
    char name[] = "/tmp/starfish_cli_XXXXXX";
    int fd = ::mkstemp(name);
    ::close(fd);
    std::ofstream(name) << text;
    return name;
}
} // namespace

BOOST_AUTO_TEST_SUITE(cli)

BOOST_AUTO_TEST_CASE(version_and_help) {
    auto r = run_starfish({"--version"});
    BOOST_TEST(r.exit_status == 0);
    BOOST_TEST(contains(r.out, "starfish "));
    r = run_starfish({"--help"});
    BOOST_TEST(r.exit_status == 0);
    BOOST_TEST(contains(r.out, "run"));
    BOOST_TEST(contains(r.out, "config"));
    r = run_starfish({});
    BOOST_TEST(r.exit_status == 2); // a subcommand is required
    r = run_starfish({"frobnicate"});
    BOOST_TEST(r.exit_status == 2);
}

BOOST_AUTO_TEST_CASE(bad_configuration_exits_2_naming_the_problem) {
    struct Case {
        std::vector<std::string> args;
        std::string expected;
    };
    std::string malformed = temp_file("{\n \"machine\": {\"cp_count\": 4,}\n}\n");
    std::string unknown = temp_file("{\"machine\": {\"cp_cnt\": 4}}");
    std::string overflow = temp_file("{\n \"disk\": {\"rpm\": 9e999}\n}\n");
    std::vector<Case> cases = {
        {{"run", "--set", "machine.cpcount=4"}, "'machine.cpcount'"},
        {{"run", "--set", "machine.cp_count=four"}, "'machine.cp_count'"},
        {{"run", "--set", "machine.cp_count=0"}, "[1, 4096]"},
        {{"run", "--set", "machine.placement=diagonal"}, "interleaved|split"},
        {{"run", "--set", "machine.cp_count=40"}, "do not fit"},
        {{"config", "--config", malformed}, malformed + ":2:"},
        {{"run", "--config", unknown}, "'machine.cp_cnt'"},
        {{"run", "--config", "/no/such/file.json"}, "/no/such/file.json"},
        {{"config", "--explain", "disk.nothing"}, "'disk.nothing'"},
        {{"config", "--config", overflow}, overflow + ":2:"},
        {{"config", "--set", "disk.rpm=9e999"}, "'disk.rpm'"},
    };
    for (const auto &c : cases) {
        auto r = run_starfish(c.args);
        BOOST_TEST_CONTEXT(c.args.back()) {
            BOOST_TEST(r.exit_status == 2);
            BOOST_TEST(contains(r.err, c.expected), "stderr was: " << r.err);
            BOOST_TEST(!contains(r.out, "host:")); // nothing ran
        }
    }
    std::remove(malformed.c_str());
    std::remove(unknown.c_str());
    std::remove(overflow.c_str());
}

BOOST_AUTO_TEST_CASE(config_lists_every_parameter_with_unit_default_and_meaning) {
    auto r = run_starfish({"config", "--json", "-"});
    BOOST_REQUIRE(r.exit_status == 0);
    json doc = json::parse(r.out);
    BOOST_TEST(doc["command"] == "config");
    const json &params = doc["parameters"];
    BOOST_TEST(params.size() == doc["config"].size());
    for (const auto &p : params) {
        BOOST_TEST_CONTEXT(p["key"]) {
            for (const char *field : {"value", "unit", "default", "meaning", "provenance",
                                      "allowed", "type", "source"}) {
                BOOST_TEST(p.contains(field));
            }
            BOOST_TEST(!p["meaning"].get<std::string>().empty());
        }
    }
    // The human-readable table went to stderr, leaving stdout pure JSON; the
    // table has a line per parameter.
    for (const auto &p : params) {
        BOOST_TEST(contains(r.err, p["key"].get<std::string>()));
    }
}

BOOST_AUTO_TEST_CASE(overrides_show_in_config_and_explain) {
    auto r =
        run_starfish({"config", "--set", "machine.cp_count=8", "--explain", "machine.cp_count"});
    BOOST_REQUIRE(r.exit_status == 0);
    BOOST_TEST(contains(r.out, "value:      8"));
    BOOST_TEST(contains(r.out, "default:    16"));
    BOOST_TEST(contains(r.out, "--set machine.cp_count"));
    BOOST_TEST(contains(r.out, "provenance:"));
}

BOOST_AUTO_TEST_CASE(json_result_goes_to_a_file) {
    char name[] = "/tmp/starfish_result_XXXXXX";
    int fd = ::mkstemp(name);
    ::close(fd);
    auto r = run_starfish({"config", "--json", name});
    BOOST_REQUIRE(r.exit_status == 0);
    std::ifstream in(name);
    json doc = json::parse(in);
    BOOST_TEST(doc["config"]["machine.cp_count"].get<int>() == 16);
    BOOST_TEST(doc.contains("host"));
    std::remove(name);
}

BOOST_AUTO_TEST_SUITE_END()
