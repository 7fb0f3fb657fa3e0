// `starfish run` with workload.kind = commtest, end to end: the default machine
// prints its measurements and reports "verified": true (exit 0); a commtest that
// cannot run fails the run naming the node and the parameter (exit 1).
// Arguments (after --): path of the starfish binary.
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <regex>

using nlohmann::json;
using starfish::testing::contains;
using starfish::testing::run_starfish;

BOOST_AUTO_TEST_SUITE(commtest_cli)

BOOST_AUTO_TEST_CASE(default_machine_prints_measurements_and_verifies) {
    auto r = run_starfish(
        {"run", "--set", "workload.kind=commtest", "--set", "workload.trials=2", "--json", "-"});
    BOOST_TEST_REQUIRE(r.exit_status == 0, r.err);
    // With --json -, the document goes to stdout and the human output to stderr.
    for (const char *part : {"16 CPs + 16 IOPs", "ping-pong round trip", "CP0 - IOP0 (0-16)",
                             "Memput / Memget end to end", "barrier over 32 nodes",
                             "queued: 100000 Memputs", "verified: 2 of 2 trials", "host: "}) {
        BOOST_TEST(contains(r.err, part), part);
    }
    json doc = json::parse(r.out);
    BOOST_TEST(doc["summary"]["verified"].get<bool>());
    BOOST_TEST(doc["summary"]["verified_trials"].get<int>() == 2);
    BOOST_REQUIRE(doc["trials"].size() == 2u);
    for (const auto &t : doc["trials"]) {
        BOOST_TEST(t["verified"].get<bool>());
        BOOST_TEST(t["nodes_ok"].get<int>() == 32);
        BOOST_TEST(t["queued"]["puts"].get<uint64_t>() == 100000u);
        BOOST_TEST(t["sim_s"].get<double>() > 0.0);
        BOOST_TEST(t["events"].get<uint64_t>() > 0u);
        BOOST_TEST(t.contains("host_cpu_s"));
        BOOST_TEST(t["sweep"].size() == 6u);
    }
    BOOST_TEST(doc["summary"]["memput_cycles"].contains("50"));
    BOOST_TEST(doc["summary"]["pingpong_rtt_cycles"].contains("0-16"));
}

BOOST_AUTO_TEST_CASE(shipped_config_runs) {
    auto r = run_starfish({"run", "--config", "commtest", "--set", "workload.trials=1", "--set",
                           "commtest.queued_puts=1000"});
    BOOST_TEST_REQUIRE(r.exit_status == 0, r.err);
    BOOST_TEST(contains(r.out, "commtest: ping-pong"));
    BOOST_TEST(contains(r.out, "verified: 1 of 1 trial"));
}

BOOST_AUTO_TEST_CASE(a_commtest_that_fails_fails_the_run) {
    auto r = run_starfish({"run", "--set", "workload.kind=commtest", "--set", "workload.trials=1",
                           "--set", "commtest.pingpong_pairs=0:99"});
    BOOST_TEST(r.exit_status == 1);
    BOOST_TEST(contains(r.out, "NOT VERIFIED"), r.out);
    // The node that failed first is named once (hal_fail adds "node N: ").
    BOOST_TEST(contains(r.out, ": commtest: commtest.pingpong_pairs names a node outside the "
                               "machine"),
               r.out);
    BOOST_TEST(!std::regex_search(r.out, std::regex("node [0-9]+: node")), r.out);
}

BOOST_AUTO_TEST_SUITE_END()
