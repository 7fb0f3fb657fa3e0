// The modeled network (net.model = modeled, tlm_models/net/modeled_torus.h): exact
// zero-load timing, endpoints that serialise and queue, a contention delay that
// follows Agarwal's formula from the load of its window and forgets it afterwards,
// exponential draws of that delay (deterministic per seed and trial), and every
// packet delivered exactly once and in order per pair under load and refusals.
#include "tests/net/net_test_cases.h"

#include "tests/support/vcd_reader.h"
#include "tlm_models/net/torus_topology.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <unistd.h>

using namespace starfish::net;
using namespace starfish::net::testing;
using nlohmann::json;

namespace {

int64_t accepted(const json &r, int id) {
    return r["packets"][id][1].get<int64_t>();
}
int64_t delivered(const json &r, int id) {
    return r["packets"][id][3].get<int64_t>();
}

// Agarwal's mean contention wait for a wormhole k-ary n-cube (n = 2), written out
// here independently of the engine: per hop rho / (1 - rho) * B * (k_d - 1) / k_d^2
// * (1 + 1/n), with k_d = 1.5 on a 6 x 6 torus.
double agarwal_wait(int hops, double rho, double mean_flits) {
    const double k_d = 1.5;
    return hops * rho / (1 - rho) * mean_flits * (k_d - 1) / (k_d * k_d) * 1.5;
}

// Ten 8 KB packets over three links each (routers 0..9 to 18..27) enter the
// network at cycle 1; a 64-byte probe from router 35 to router 28 (two links)
// follows at `probe_cycle`.
Scenario loaded_with_probe(int64_t probe_cycle, bool exponential) {
    Scenario s = quiet_scenario("modeled");
    s.params.modeled_window_cycles = 1000;
    s.params.modeled_delay_exponential = exponential;
    for (int src = 0; src < 10; ++src) {
        s.packets.push_back({0, src, src + 18, 8192, 0});
    }
    s.packets.push_back({probe_cycle, 35, 28, 64, 0});
    return s;
}
constexpr int kProbe = 10;

// The probe's expected mean contention delay in loaded_with_probe.
double probe_mean_wait(const NetParams &p) {
    const double flits = p.packet_flits(8192); // 2050
    const double rho = 10 * flits * 3 / (144.0 * p.modeled_window_cycles);
    return agarwal_wait(2, rho, flits);
}

int64_t probe_zero_load(const NetParams &p) {
    return int64_t(p.zero_load_cycles(p.packet_flits(64), 2));
}

} // namespace

BOOST_AUTO_TEST_SUITE(net_modeled)

BOOST_AUTO_TEST_CASE(alone_in_the_network_a_packet_has_the_exact_engines_timing) {
    // Every pair of the 6 x 6 torus, one packet at a time (120 cycles apart, longer
    // than the window, so that no load is seen): accepted, injected, delivered and
    // arriving cycles all equal the packet engine's.
    Scenario s = quiet_scenario("packet");
    s.params.modeled_window_cycles = 100;
    int64_t cycle = 0;
    for (int src = 0; src < 36; ++src) {
        for (int dst = 0; dst < 36; ++dst) {
            uint32_t bytes = uint32_t((src * 7 + dst * 3) % 64);
            uint32_t n = s.params.packet_flits(bytes);
            s.packets.push_back({cycle, src, dst, bytes, 0, 1 + uint32_t(src + dst) % (n - 1)});
            cycle += 120;
        }
    }
    json exact = run_delivering_all(s);
    s.params.model = "modeled";
    json modeled = run_delivering_all(s);
    BOOST_TEST(modeled["packets"] == exact["packets"]);
    BOOST_TEST(modeled["stats"]["blocked_cycles"] == 0);
}

BOOST_AUTO_TEST_CASE(a_destination_takes_its_packets_one_after_another) {
    // Three 32-flit packets reach router 7 from its neighbours 1, 6 and 8 at once:
    // its ejection channel takes them in turn (heads at cycle 3, tails 32 cycles
    // apart), while a packet from 2 to 3 crossing the same area is not delayed
    // (links are not simulated). The window is so long that the load estimate is 0.
    Scenario s = quiet_scenario("modeled");
    s.params.modeled_window_cycles = 100000000;
    s.params.modeled_delay_exponential = false;
    for (int src : {1, 6, 8}) {
        s.packets.push_back({0, src, 7, 120, 0});
    }
    s.packets.push_back({0, 2, 3, 120, 0});
    json r = run_delivering_all(s);
    std::set<int64_t> to7 = {delivered(r, 0), delivered(r, 1), delivered(r, 2)};
    BOOST_TEST((to7 == std::set<int64_t>{35, 67, 99}));
    BOOST_TEST(delivered(r, 3) == 35); // zero load: 1 + 32 + 2
    BOOST_TEST(r["stats"]["channels"][TorusTopology(6, 6, 1).eject_channel(7)]["busy_cycles"] ==
               96);
}

BOOST_AUTO_TEST_CASE(the_contention_delay_follows_the_load_of_its_window) {
    // Mean draws: the probe waits Agarwal's delay for the window's utilisation
    // (61500 flit-hops over 144 links x 1000 cycles), rounded to a cycle.
    Scenario s = loaded_with_probe(500, false);
    json r = run_delivering_all(s);
    const double wait = probe_mean_wait(s.params);
    BOOST_TEST(wait > 500); // a visible delay: about 1020 cycles
    BOOST_TEST(delivered(r, kProbe) - accepted(r, kProbe) ==
               probe_zero_load(s.params) + std::llround(wait));
    // Once the window has passed, the load is forgotten: zero-load latency again.
    Scenario later = loaded_with_probe(5000, false);
    json q = run_delivering_all(later);
    BOOST_TEST(delivered(q, kProbe) - accepted(q, kProbe) == probe_zero_load(later.params));
}

BOOST_AUTO_TEST_CASE(exponential_draws_average_to_the_formula_and_repeat_per_trial) {
    std::vector<double> waits;
    for (uint64_t trial = 0; trial < 40; ++trial) {
        Scenario s = loaded_with_probe(500, true);
        s.trial = trial;
        json r = run_delivering_all(s);
        waits.push_back(
            double(delivered(r, kProbe) - accepted(r, kProbe) - probe_zero_load(s.params)));
        if (trial == 0) {
            json again = run_delivering_all(s); // same seed and trial: same cycles
            BOOST_TEST(again["packets"] == r["packets"]);
        }
    }
    double mean = 0, var = 0;
    for (double w : waits) {
        mean += w / double(waits.size());
    }
    for (double w : waits) {
        var += (w - mean) * (w - mean) / double(waits.size() - 1);
    }
    const double expect = probe_mean_wait(loaded_with_probe(500, true).params);
    // 40 exponential draws: the mean is within 3 standard errors (16% each) and
    // the spread is that of an exponential (cv 1), not a constant.
    BOOST_TEST(std::abs(mean - expect) < 0.5 * expect, "mean " << mean << " vs " << expect);
    BOOST_TEST(std::sqrt(var) > 0.5 * expect);
}

BOOST_AUTO_TEST_CASE(under_load_and_refusals_every_packet_arrives_once_and_in_order) {
    // All-to-all, three 256-byte packets per pair on two lanes, every third delivery
    // refused (ready again 3 cycles later, or from inside deliver()): the harness
    // checks exactly once, intact and in order per source, destination and lane,
    // which the random delays must not break.
    for (int ready_after : {3, 0}) {
        Scenario s = quiet_scenario("modeled");
        s.params.modeled_window_cycles = 2000;
        s.refuse_every = 3;
        s.ready_after = ready_after;
        for (int src = 0; src < 36; ++src) {
            for (int k = 1; k < 36; ++k) {
                for (int copy = 0; copy < 3; ++copy) {
                    s.packets.push_back({0, src, (src + k) % 36, 256, copy % 2});
                }
            }
        }
        json r = run_delivering_all(s);
        BOOST_TEST(r["stats"]["refusals"].get<uint64_t>() > 1000u);
        BOOST_TEST(r["stats"]["blocked_cycles"].get<uint64_t>() > 0u);
    }
}

BOOST_AUTO_TEST_CASE(the_vcd_shows_the_endpoint_channels_as_the_exact_engine_does) {
    // `starfish run --vcd` under the modeled network: the injection and ejection
    // channels are simulated exactly, so where the links carry no contention their
    // busy, pkt and vc signals change at the packet engine's cycles, through a
    // refusal (the held tail crosses again when retried, also from inside deliver()),
    // packets from one source back to back, offered as the tail before crosses and
    // to an idle channel, and packets sharing an ejection channel. The links
    // themselves have no timeline under this engine and stay idle.
    const char *endpoint_channels[] = {"net.r0.inject", "net.r2.inject", "net.r5.inject",
                                       "net.r1.eject",  "net.r20.eject", "net.r21.eject",
                                       "net.r7.eject",  "net.r22.eject", "net.r23.eject"};
    for (int ready_after : {3, 0}) {
        auto vcd_of = [ready_after](const char *model) {
            Scenario s = quiet_scenario(model);
            s.params.modeled_window_cycles = 100000000; // no load estimate: zero delay
            s.refuse_every = 3;
            s.ready_after = ready_after;
            s.packets.push_back({0, 0, 1, 40, 0});
            s.packets.push_back({30, 2, 1, 40, 0});
            s.packets.push_back({31, 0, 1, 0, 0}); // refused, held at r1's ejection channel
            s.packets.push_back({200, 5, 20, 300, 0});
            s.packets.push_back({201, 5, 21, 64, 0}); // behind it at r5's injection channel
            s.packets.push_back({296, 5, 22, 16, 0}); // offered as the tail before it crosses
            s.packets.push_back({330, 5, 23, 16, 0}); // to an idle injection channel
            int64_t cycle = 400; // heads a cycle apart: r7's ejection channel in turn
            for (int src : {8, 1, 6}) {
                s.packets.push_back({cycle++, src, 7, 120, 0});
            }
            s.vcd_path = std::string("/tmp/starfish_net_modeled_") + model + "_" +
                         std::to_string(ready_after) + "_" + std::to_string(::getpid()) + ".vcd";
            json r = run_delivering_all(s);
            BOOST_TEST(r["stats"]["refusals"] == 2); // r1's and r7's third deliveries
            starfish::testing::VcdFile vcd(s.vcd_path);
            std::remove(s.vcd_path.c_str());
            return vcd;
        };
        const starfish::testing::VcdFile exact = vcd_of("packet"), modeled = vcd_of("modeled");
        for (const char *channel : endpoint_channels) {
            for (const char *signal : {"busy", "pkt", "vc"}) {
                BOOST_TEST_CONTEXT(channel << "." << signal << " ready_after " << ready_after) {
                    BOOST_TEST(modeled.changes(channel, signal).size() > 1u); // not idle
                    BOOST_TEST(
                        (modeled.changes(channel, signal) == exact.changes(channel, signal)));
                }
            }
        }
        BOOST_TEST(exact.changes("net.r0.E", "busy").size() > 1u);
        BOOST_TEST(modeled.changes("net.r0.E", "busy").size() == 1u); // declared, never busy
    }
}

BOOST_AUTO_TEST_CASE(the_largest_torus_runs) {
    // 64 x 64: per-node state stays small (no table of every pair of 4096 nodes).
    Scenario s = quiet_scenario("modeled", 64, 64);
    for (int k = 0; k < 200; ++k) {
        s.packets.push_back({k, (k * 37) % 4096, (k * 1009 + 11) % 4096, 512, 0});
    }
    json r = run_delivering_all(s);
    BOOST_TEST(r["delivered"] == 200);
}

BOOST_AUTO_TEST_SUITE_END()
