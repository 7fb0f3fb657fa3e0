// `starfish net traffic` end to end: JSON fields, the sweep, both models agreeing,
// errors for bad options. Arguments (after --): path of the starfish binary.
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

using nlohmann::json;
using starfish::testing::contains;
using starfish::testing::run_starfish;

BOOST_AUTO_TEST_SUITE(net_cli)

BOOST_AUTO_TEST_CASE(traffic_reports_throughput_and_latency_as_json) {
    auto r = run_starfish({"net", "traffic", "--load", "0.2", "--cycles", "3000", "--json", "-"});
    BOOST_REQUIRE_MESSAGE(r.exit_status == 0, r.err);
    json doc = json::parse(r.out);
    BOOST_TEST(doc["offered_load"].get<double>() == 0.2);
    // Below saturation the network accepts what is offered: 36 nodes x 0.2 flits per
    // cycle x 16/18 payload bytes per flit byte x 4 B x 50 MHz.
    double expected = 36 * 0.2 * 4 * 50e6 * 64.0 / 72.0;
    BOOST_TEST(std::abs(doc["accepted_bytes_per_s"].get<double>() - expected) < 0.1 * expected);
    BOOST_TEST(doc["mean_latency_cycles"].get<double>() >= 1 + 18 + 1);
    BOOST_TEST(doc["p99_latency_cycles"].get<double>() >= doc["mean_latency_cycles"].get<double>());
    BOOST_TEST(doc["traffic"]["complete"].get<bool>());
    BOOST_TEST(doc["traffic"]["errors"] == 0);
    BOOST_TEST(doc["traffic"]["network"]["channels"].size() == 6u * 36u);
    BOOST_TEST(doc.contains("host"));
    BOOST_TEST(doc["config"]["net.model"] == "packet");
    BOOST_TEST(contains(r.err, "accepted")); // human summary on stderr with --json -
}

BOOST_AUTO_TEST_CASE(sweep_prints_the_latency_load_curve) {
    auto r = run_starfish({"net", "traffic", "--sweep", "--loads", "0.1,0.3,0.9", "--cycles",
                           "2000", "--pattern", "transpose", "--json", "-"});
    BOOST_REQUIRE_MESSAGE(r.exit_status == 0, r.err);
    json doc = json::parse(r.out);
    BOOST_REQUIRE(doc["points"].size() == 3u);
    for (const json &p : doc["points"]) {
        for (const char *key : {"offered_load", "accepted_bytes_per_s", "mean_latency_cycles",
                                "p99_latency_cycles"}) {
            BOOST_TEST(p.contains(key));
        }
        BOOST_TEST(p["pattern"] == "transpose");
    }
    // Latency grows with load; the saturation point is reported.
    BOOST_TEST(doc["points"][2]["mean_latency_cycles"].get<double>() >
               doc["points"][0]["mean_latency_cycles"].get<double>());
    BOOST_TEST(doc["saturation"]["accepted_load"].get<double>() > 0.05);
    BOOST_TEST(contains(r.err, "saturation throughput"));
}

BOOST_AUTO_TEST_CASE(both_models_give_the_same_numbers) {
    std::vector<std::string> args = {"net",    "traffic",     "--pattern", "hotspot",
                                     "--load", "0.3",         "--cycles",  "1500",
                                     "--set",  "net.width=4", "--set",     "net.height=3",
                                     "--set",  "net.vcs=2",   "--json",    "-"};
    for (const char *fit : {"machine.cp_count=6", "machine.iop_count=6"}) { // 12 routers
        args.push_back("--set");
        args.push_back(fit);
    }
    auto fast = run_starfish(args);
    args.push_back("--set");
    args.push_back("net.model=flit");
    auto ref = run_starfish(args);
    BOOST_REQUIRE(fast.exit_status == 0);
    BOOST_REQUIRE(ref.exit_status == 0);
    json a = json::parse(fast.out)["traffic"];
    json b = json::parse(ref.out)["traffic"];
    a.erase("host");
    b.erase("host");
    BOOST_TEST(a == b);
}

BOOST_AUTO_TEST_CASE(bad_options_exit_2_naming_the_problem) {
    struct Case {
        std::vector<std::string> args;
        std::string expected;
    };
    std::vector<Case> cases = {
        {{"net", "traffic", "--pattern", "tornado"}, "--pattern"},
        {{"net", "traffic", "--load", "1.5"}, "--load"},
        {{"net", "traffic", "--pattern", "transpose", "--set", "net.height=8"}, "square"},
        {{"net", "traffic", "--set", "net.buffer_flits=0"}, "net.buffer_flits"},
        {{"net", "traffic", "--set", "net.model=wire"}, "packet|flit"},
        {{"net", "traffic", "--sweep", "--loads", "0.5,2"}, "--loads"},
        {{"net"}, "subcommand"},
    };
    for (const auto &c : cases) {
        auto r = run_starfish(c.args);
        BOOST_TEST_CONTEXT(c.args.back()) {
            BOOST_TEST(r.exit_status == 2);
            BOOST_TEST(contains(r.err + r.out, c.expected), "output was: " << r.err << r.out);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
