// The packet-level torus (net.model = packet) against the flit-level reference
// (net.model = flit): on randomized small scenarios with contention, refusals and
// every timing parameter varied, both must report the same cycle for every
// injection, injected() and delivery, and identical statistics.
#include "tests/net/net_harness.h"
#include "tests/net/random_scenarios.h"

#include "sim/runner/isolated_run.h"

#include <boost/test/unit_test.hpp>

using namespace starfish::net;
using namespace starfish::net::testing;
using nlohmann::json;

namespace {

json run_model(Scenario s, const char *model) {
    s.params.model = model;
    return starfish::sim::run_isolated([s] { return run_scenario(s); });
}

uint64_t blocked_total = 0, refusals_total = 0, contended = 0, arrivals_total = 0;
uint64_t run_ahead_total = 0, replays_total = 0, closed_form_total = 0;

void check_equivalent(const Scenario &s) {
    json fast = run_model(s, "packet");
    json ref = run_model(s, "flit");
    BOOST_TEST_CONTEXT(describe(s)) {
        BOOST_TEST(ref["errors"].empty(), ref["errors"].dump());
        BOOST_TEST(fast["errors"].empty(), fast["errors"].dump());
        BOOST_TEST(!ref["deadlock"].get<bool>());
        BOOST_TEST(ref["delivered"] == ref["expected"]);
        BOOST_TEST(fast["delivered"] == fast["expected"]);
        const json &a = fast["packets"], &b = ref["packets"];
        BOOST_REQUIRE(a.size() == b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            BOOST_TEST(a[i] == b[i],
                       "packet [id, accepted, injected, delivered, arriving]: packet model "
                           << a[i].dump() << ", flit model " << b[i].dump());
            if (a[i] != b[i]) {
                break;
            }
        }
        BOOST_TEST(fast["stats"] == ref["stats"]);
    }
    for (const json &pk : ref["packets"]) {
        arrivals_total += pk[4].get<int64_t>() >= 0 ? 1 : 0;
    }
    run_ahead_total += fast["run_ahead"]["packets"].get<uint64_t>();
    replays_total += fast["run_ahead"]["replays"].get<uint64_t>();
    closed_form_total += fast["run_ahead"]["closed_form"].get<uint64_t>();
    blocked_total += ref["stats"]["blocked_cycles"].get<uint64_t>();
    refusals_total += ref["stats"]["refusals"].get<uint64_t>();
    contended += ref["stats"]["blocked_cycles"].get<uint64_t>() > 0 ? 1 : 0;
}

} // namespace

BOOST_AUTO_TEST_SUITE(net_equivalence)

BOOST_AUTO_TEST_CASE(randomized_scenarios_give_identical_cycles) {
    for (uint64_t seed = 1; seed <= 400; ++seed) {
        check_equivalent(random_scenario(seed));
    }
    // The scenarios must exercise contention and refusals, or they prove little.
    BOOST_TEST_MESSAGE("contended scenarios " << contended << ", blocked cycles " << blocked_total
                                              << ", refusals " << refusals_total);
    BOOST_TEST(contended > 300u);
    BOOST_TEST(refusals_total > 100u);
    BOOST_TEST(arrivals_total > 2000u); // cut-through notifications compared too
}

// The run-ahead of the packet engine (host speed only) must change no cycle: on
// sparse traffic most packets enter an empty network, and many are caught up by
// the next packet or by an endpoint becoming ready while they run ahead.
BOOST_AUTO_TEST_CASE(sparse_traffic_run_ahead_gives_identical_cycles) {
    run_ahead_total = replays_total = closed_form_total = 0;
    for (uint64_t seed = 1001; seed <= 1300; ++seed) {
        check_equivalent(random_scenario(seed, true));
    }
    BOOST_TEST_MESSAGE("run ahead " << run_ahead_total << " packets (" << closed_form_total
                                    << " in closed form), " << replays_total << " replays");
    BOOST_TEST(run_ahead_total > 3000u);
    BOOST_TEST(replays_total > 500u);
    // Both ways of running ahead are exercised: in closed form (full rate) and
    // event by event (credit-limited: small buffers, long wires).
    BOOST_TEST(closed_form_total > 1000u);
    BOOST_TEST(run_ahead_total - closed_form_total > 1000u);
}

// Callers off the cycle grid (firmware threads after a disk interrupt): a packet
// offered, or an endpoint ready, later in a cycle than the cycle's own processing.
// The run-ahead must replay that cycle too before it takes them.
BOOST_AUTO_TEST_CASE(sparse_traffic_off_the_cycle_grid_gives_identical_cycles) {
    run_ahead_total = replays_total = 0;
    for (uint64_t seed = 5001; seed <= 5150; ++seed) {
        Scenario s = random_scenario(seed, true);
        s.offset_ps = 1 + seed * 7919 % (s.params.cycle_ps() - 1);
        check_equivalent(s);
    }
    BOOST_TEST_MESSAGE("off the grid: run ahead " << run_ahead_total << " packets, "
                                                  << replays_total << " replays");
    BOOST_TEST(run_ahead_total > 1500u);
    BOOST_TEST(replays_total > 250u);
}

// The router policies: tail_sent lets a VC's buffer hold the tail of one packet and
// the head of the next, input_speedup = 1 lets one flit leave an input port per
// cycle; the packet engine must follow both cycle by cycle.
void check_policy_scenarios(uint64_t first_seed, Policies policies, const char *label) {
    contended = refusals_total = 0;
    for (uint64_t seed = first_seed; seed < first_seed + 400; ++seed) {
        check_equivalent(random_scenario(seed, false, policies));
    }
    BOOST_TEST_MESSAGE(label << ": contended scenarios " << contended << ", refusals "
                             << refusals_total);
    BOOST_TEST(contended > 300u);
    BOOST_TEST(refusals_total > 100u);
}

BOOST_AUTO_TEST_CASE(tail_sent_scenarios_give_identical_cycles) {
    check_policy_scenarios(2001, Policies::TailSent, "tail_sent");
}

BOOST_AUTO_TEST_CASE(input_speedup_scenarios_give_identical_cycles) {
    check_policy_scenarios(3001, Policies::InputSpeedup, "input_speedup");
}

BOOST_AUTO_TEST_CASE(sparse_traffic_run_ahead_under_the_router_policies) {
    run_ahead_total = replays_total = 0;
    for (uint64_t seed = 4001; seed <= 4150; ++seed) {
        check_equivalent(random_scenario(seed, true, Policies::Random));
    }
    BOOST_TEST_MESSAGE("run ahead " << run_ahead_total << " packets, " << replays_total
                                    << " replays");
    BOOST_TEST(run_ahead_total > 1500u);
    BOOST_TEST(replays_total > 250u);
}

BOOST_AUTO_TEST_SUITE_END()
