// `starfish net traffic` end to end: JSON fields, the sweep, both models agreeing,
// errors for bad options. Arguments (after --): path of the starfish binary.
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

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

// Other simulators' conventions: the source itself among uniform destinations, the
// 3 x T0 saturation rule, the curve as CSV; the router policies from --set.
BOOST_AUTO_TEST_CASE(sweep_with_self_traffic_reports_3t0_saturation_and_writes_csv) {
    const std::string csv = "/tmp/starfish_net_curve_" + std::to_string(getpid()) + ".csv";
    auto r = run_starfish({"net",         "traffic",
                           "--sweep",     "--loads",
                           "0.6,0.1,0.3", "--cycles",
                           "2000",        "--packet-bytes",
                           "8",           "--include-self",
                           "--set",       "net.router_delay_cycles=3",
                           "--set",       "net.noise_cycles=0",
                           "--set",       "net.vc_realloc=tail_sent",
                           "--set",       "net.input_speedup=1",
                           "--csv",       csv,
                           "--json",      "-"});
    BOOST_REQUIRE_MESSAGE(r.exit_status == 0, r.err);
    json doc = json::parse(r.out);
    BOOST_TEST(doc["config"]["net.vc_realloc"] == "tail_sent");
    BOOST_TEST(doc["config"]["net.input_speedup"] == 1);
    // T0 of uniform traffic with self on the 6x6 torus: 1 + 4 flits + (3 + 1) x 3,
    // the mean distance being 1.5 hops per ring.
    for (const json &p : doc["points"]) {
        BOOST_TEST(p["include_self"].get<bool>());
        BOOST_TEST(p["zero_load_latency_cycles"].get<double>() == 17.0);
    }
    const json &rule = doc["saturation_3t0"];
    BOOST_REQUIRE(rule.is_object());
    BOOST_TEST(rule["latency_limit_cycles"].get<double>() == 51.0);
    BOOST_TEST(rule["accepted_load"].get<double>() <= doc["saturation"]["accepted_load"]);
    BOOST_TEST(rule["accepted_load"].get<double>() > 0.05);
    BOOST_TEST(contains(r.err, "3 x T0"));
    std::ifstream in(csv);
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line)) {
        lines.push_back(line);
    }
    std::remove(csv.c_str());
    BOOST_REQUIRE(lines.size() == 4u); // header and one row per load, by offered load
    BOOST_TEST(contains(lines[0], "offered_load,accepted_load"));
    BOOST_TEST(lines[1].rfind("0.1,", 0) == 0u);
    BOOST_TEST(lines[3].rfind("0.6,", 0) == 0u);
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
        {{"net", "traffic", "--set", "net.vc_realloc=eager"}, "tail_credit|tail_sent"},
        {{"net", "traffic", "--set", "net.input_speedup=2"}, "net.input_speedup"},
        {{"net", "traffic", "--csv", "x.csv"}, "--sweep"},
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
