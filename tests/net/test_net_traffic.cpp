// Heavy traffic: all-to-all long packets on 6x6 and 8x8 tori complete without
// deadlock (a watchdog stops the run when deliveries stop), every packet arrives
// exactly once, intact and in order per source/destination/lane; the packet-level
// model matches the reference under all-to-all load too.
#include "tests/net/net_harness.h"

#include "sim/runner/isolated_run.h"

#include <boost/test/unit_test.hpp>

using namespace starfish::net;
using namespace starfish::net::testing;
using nlohmann::json;

namespace {

// Every router sends one packet to every other router, all offered at cycle 0, in
// an order rotated per source so that destinations are spread.
Scenario all_to_all(int w, int h, uint32_t bytes, int vcs, const char *model) {
    Scenario s;
    s.params.model = model;
    s.params.width = w;
    s.params.height = h;
    s.params.vcs_per_class = vcs;
    int n = w * h;
    for (int src = 0; src < n; ++src) {
        for (int k = 1; k < n; ++k) {
            s.packets.push_back({0, src, (src + k) % n, bytes, k % 4});
        }
    }
    return s;
}

json run(const Scenario &s) {
    return starfish::sim::run_isolated([s] { return run_scenario(s); });
}

void check_complete(const json &r) {
    BOOST_TEST(!r["deadlock"].get<bool>());
    BOOST_TEST(r["errors"].empty(), r["errors"].dump()); // exactly once, intact, in order
    BOOST_TEST(r["delivered"] == r["expected"]);
    BOOST_TEST(r["stats"]["packets_delivered"] == r["expected"]);
}

} // namespace

BOOST_AUTO_TEST_SUITE(net_traffic)

BOOST_AUTO_TEST_CASE(all_to_all_8KB_on_6x6_completes) {
    Scenario s = all_to_all(6, 6, 8192, 1, "packet");
    json r = run(s);
    check_complete(r);
    // 1260 packets of 2050 flits: the run takes far longer than one packet.
    BOOST_TEST(r["stats"]["last_delivery_cycle"].get<int64_t>() > 35 * 2050);
    BOOST_TEST_MESSAGE("6x6 all-to-all 8 KB: " << r["stats"]["last_delivery_cycle"] << " cycles, "
                                               << r["work"] << " events");
}

BOOST_AUTO_TEST_CASE(all_to_all_2KB_on_8x8_with_two_lanes_completes) {
    Scenario s = all_to_all(8, 8, 2048, 2, "packet");
    json r = run(s);
    check_complete(r);
    BOOST_TEST_MESSAGE("8x8 all-to-all 2 KB: " << r["stats"]["last_delivery_cycle"] << " cycles, "
                                               << r["work"] << " events");
}

BOOST_AUTO_TEST_CASE(all_to_all_on_odd_and_16x16_tori_completes) {
    check_complete(run(all_to_all(5, 3, 1024, 1, "packet")));
    Scenario big = all_to_all(16, 16, 64, 1, "packet");
    big.packets.resize(big.packets.size() / 4); // routers 0..63 send to everyone
    check_complete(run(big));
}

BOOST_AUTO_TEST_CASE(all_to_all_matches_the_flit_reference) {
    Scenario s = all_to_all(4, 4, 256, 2, "packet");
    s.params.buffer_flits = 2;
    json fast = run(s);
    s.params.model = "flit";
    json ref = run(s);
    check_complete(ref);
    BOOST_TEST(fast["packets"] == ref["packets"]);
    BOOST_TEST(fast["stats"] == ref["stats"]);
}

BOOST_AUTO_TEST_CASE(the_watchdog_reports_a_network_that_stops) {
    // An endpoint that refuses and never becomes ready again stops the traffic to
    // it for good; the watchdog must say so rather than let the test hang.
    Scenario s = all_to_all(4, 4, 64, 1, "packet");
    s.refuse_every = 3;
    s.ready_after = 1000000000;
    s.watchdog_cycles = 5000;
    json r = run(s);
    BOOST_TEST(r["deadlock"].get<bool>());
    BOOST_TEST(r["delivered"].get<uint64_t>() < r["expected"].get<uint64_t>());
}

BOOST_AUTO_TEST_SUITE_END()
