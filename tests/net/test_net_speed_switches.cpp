// The packet torus's host speed-ups against themselves switched off
// (speed.torus_run_ahead, speed.torus_closed_form): the same scenarios must give
// the same cycle for every injection, injected() and delivery, and the same
// statistics, with the run-ahead on, with it on but without the closed form, and
// with it off. That the results do not move is the proof the tricks are exact.
#include "tests/net/net_harness.h"
#include "tests/net/random_scenarios.h"

#include "sim/runner/isolated_run.h"

#include <boost/test/unit_test.hpp>

using namespace starfish::net;
using namespace starfish::net::testing;
using nlohmann::json;

namespace {

json run_packet_model(Scenario s, bool run_ahead, bool closed_form) {
    s.params.model = "packet";
    s.params.torus_run_ahead = run_ahead;
    s.params.torus_closed_form = closed_form;
    return starfish::sim::run_isolated([s] { return run_scenario(s); });
}

uint64_t run_ahead_total = 0, closed_form_total = 0, replays_total = 0;

void check_same_either_way(const Scenario &s) {
    json on = run_packet_model(s, true, true);
    json no_closed_form = run_packet_model(s, true, false);
    json off = run_packet_model(s, false, true);
    BOOST_TEST_CONTEXT(describe(s)) {
        BOOST_TEST(on["errors"].empty(), on["errors"].dump());
        BOOST_TEST(off["errors"].empty(), off["errors"].dump());
        BOOST_TEST(on["delivered"] == on["expected"]);
        for (const json *other : {&no_closed_form, &off}) {
            BOOST_TEST((*other)["errors"] == on["errors"]);
            BOOST_TEST((*other)["packets"] == on["packets"]);
            BOOST_TEST((*other)["stats"] == on["stats"]);
            BOOST_TEST((*other)["end_cycle"] == on["end_cycle"]);
        }
        // Off means off: no packet ran ahead, and none in closed form.
        BOOST_TEST(off["run_ahead"]["packets"].get<uint64_t>() == 0u);
        BOOST_TEST(no_closed_form["run_ahead"]["closed_form"].get<uint64_t>() == 0u);
    }
    run_ahead_total += on["run_ahead"]["packets"].get<uint64_t>();
    closed_form_total += on["run_ahead"]["closed_form"].get<uint64_t>();
    replays_total += on["run_ahead"]["replays"].get<uint64_t>();
}

} // namespace

BOOST_AUTO_TEST_SUITE(net_speed_switches)

// Sparse traffic, where most packets run ahead and many are replayed; some
// callers off the cycle grid (a firmware thread after a disk interrupt).
BOOST_AUTO_TEST_CASE(run_ahead_and_closed_form_change_no_result) {
    run_ahead_total = closed_form_total = replays_total = 0;
    for (uint64_t seed = 7001; seed <= 7100; ++seed) {
        Scenario s = random_scenario(seed, true);
        if (seed % 2 == 0) {
            s.offset_ps = 1 + seed * 7919 % (s.params.cycle_ps() - 1);
        }
        check_same_either_way(s);
    }
    BOOST_TEST_MESSAGE("run ahead " << run_ahead_total << " packets (" << closed_form_total
                                    << " in closed form), " << replays_total << " replays");
    BOOST_TEST(run_ahead_total > 1000u);
    BOOST_TEST(closed_form_total > 300u);
    BOOST_TEST(replays_total > 150u);
}

BOOST_AUTO_TEST_CASE(run_ahead_changes_no_result_under_the_router_policies) {
    run_ahead_total = replays_total = 0;
    for (uint64_t seed = 7501; seed <= 7560; ++seed) {
        check_same_either_way(random_scenario(seed, true, Policies::Random));
    }
    BOOST_TEST_MESSAGE("run ahead " << run_ahead_total << " packets, " << replays_total
                                    << " replays");
    BOOST_TEST(run_ahead_total > 500u);
}

// Dense traffic: the network is rarely empty, the run-ahead is mostly idle, and
// the switches must not disturb the contended paths either.
BOOST_AUTO_TEST_CASE(dense_traffic_changes_no_result) {
    for (uint64_t seed = 8001; seed <= 8060; ++seed) {
        check_same_either_way(
            random_scenario(seed, false, seed % 3 == 0 ? Policies::Random : Policies::Defaults));
    }
}

BOOST_AUTO_TEST_SUITE_END()
