// The router policies net.vc_realloc (tail_credit | tail_sent) and
// net.input_speedup (0 | 1) of docs/network.md, "Router policies": zero-load
// latency unchanged under every combination, back-to-back packets on one VC,
// the input-port limit, deeper buffers that pay off only under tail_sent, and
// all-to-all traffic without deadlock under every combination.
#include "tests/net/net_test_cases.h"

#include "sim/runner/isolated_run.h"
#include "tlm_models/net/torus_base.h"
#include "tlm_models/net/traffic_generator.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace starfish::net;
using namespace starfish::net::testing;
using nlohmann::json;

namespace {

struct Policy {
    bool tail_sent;
    int speedup;
};
const Policy kPolicies[] = {{false, 0}, {true, 0}, {false, 1}, {true, 1}};

std::string name_of(const Policy &p) {
    return std::string(p.tail_sent ? "tail_sent" : "tail_credit") +
           " input_speedup=" + std::to_string(p.speedup);
}

Scenario base(const char *model, const Policy &p, int width = 6, int height = 6) {
    Scenario s = quiet_scenario(model, width, height);
    s.params.vc_realloc_tail_sent = p.tail_sent;
    s.params.input_speedup = p.speedup;
    return s;
}

json run(const Scenario &s) {
    return run_delivering_all(s);
}

// [id, accepted, injected, delivered, arriving] -> field
int64_t field(const json &r, size_t id, int f) {
    return r["packets"][id][f].get<int64_t>();
}

} // namespace

const std::vector<const char *> kPolicyModels = engine_models();

BOOST_AUTO_TEST_SUITE(net_router_policies)

// T0 = 1 + n + (h + 1) R + h L for every pair of a 6x6 torus, whatever the policies:
// a lone packet never meets a previous one in a buffer nor another input VC.
BOOST_AUTO_TEST_CASE(zero_load_latency_is_the_same_under_every_policy) {
    for (const char *model : kPolicyModels) {
        for (const Policy &pol : kPolicies) {
            for (auto [r, l] : {std::pair{3, 0}, {2, 1}}) {
                if (std::string(model) == "flit" && r != 3) {
                    continue; // the reference is slow; one timing point is enough for it
                }
                Scenario s = base(model, pol);
                s.params.router_delay_cycles = r;
                s.params.link_delay_cycles = l;
                s.params.buffer_flits = r + 2 * l + 1;
                TorusTopology topo(6, 6, 1);
                int64_t cycle = 0;
                for (int src = 0; src < 36; ++src) {
                    for (int dst = 0; dst < 36; ++dst) {
                        uint32_t bytes = uint32_t((src * 5 + dst * 3) % 72);
                        s.packets.push_back({cycle, src, dst, bytes, 0, 1});
                        cycle += 150;
                    }
                }
                json res = run(s);
                BOOST_TEST_CONTEXT(model << " " << name_of(pol) << " R=" << r << " L=" << l) {
                    for (size_t i = 0; i < s.packets.size(); ++i) {
                        const ScriptedPacket &p = s.packets[i];
                        uint32_t n = s.params.packet_flits(p.payload_bytes);
                        int h = topo.hops(p.src, p.dst);
                        BOOST_TEST(field(res, i, 3) - field(res, i, 1) ==
                                       int64_t(s.params.zero_load_cycles(n, h)),
                                   "packet " << p.src << "->" << p.dst);
                        BOOST_TEST(field(res, i, 2) == p.cycle + 1 + n);
                    }
                    BOOST_TEST(res["stats"]["blocked_cycles"] == 0);
                }
            }
        }
    }
}

// Back-to-back packets between neighbours: under tail_credit each VC idles one
// cycle per packet (released when the tail's credit is back); under tail_sent the
// next packet follows the tail on the same VC, so a packet arrives every n cycles.
BOOST_AUTO_TEST_CASE(tail_sent_streams_packets_back_to_back_on_one_vc) {
    for (const char *model : kPolicyModels) {
        for (const Policy &pol : kPolicies) {
            Scenario s = base(model, pol);
            s.params.inject_queue_packets = 2;
            const uint32_t bytes = 32, n = s.params.packet_flits(bytes); // 10 flits
            for (int i = 0; i < 20; ++i) {
                s.packets.push_back({0, 0, 1, bytes, 0});
            }
            json res = run(s);
            BOOST_TEST_CONTEXT(model << " " << name_of(pol)) {
                BOOST_TEST(field(res, 0, 3) == int64_t(s.params.zero_load_cycles(n, 1)));
                const int64_t gap = pol.tail_sent ? n : n + 1;
                for (size_t i = 1; i < 20; ++i) {
                    BOOST_TEST(field(res, i, 3) - field(res, i - 1, 3) == gap, "packet " << i);
                }
            }
        }
    }
}

// Two worms in router 1's west input port (fed by link 0.E) on different VCs,
// leaving through different ports. C (1 -> 3) holds 1.E; A (0 -> 2, VC class 0)
// blocks behind it with four flits in router 1's west buffer; B (5 -> 7, over the
// wrap link so VC class 1) streams through that port to 1.N meanwhile. When C is
// gone, A's four buffered flits leave at once with no input limit; with
// input_speedup = 1 B keeps the port while it streams, so they wait for its tail.
BOOST_AUTO_TEST_CASE(input_speedup_one_lets_one_flit_leave_an_input_port_per_cycle) {
    for (const char *model : kPolicyModels) {
        for (const Policy &pol : kPolicies) {
            Scenario s = base(model, pol);
            s.packets.push_back({0, 1, 3, 392, 0});    // C: 100 flits, 1.E and 2.E
            s.packets.push_back({0, 0, 2, 152, 0, 4}); // A: 40 flits, 0.E and 1.E
            s.packets.push_back({0, 5, 7, 1592, 0});   // B: 400 flits, 5.E, 0.E, 1.N
            json res = run(s);
            BOOST_TEST_CONTEXT(model << " " << name_of(pol)) {
                const int64_t c = field(res, 0, 3), a_first4 = field(res, 1, 4),
                              b = field(res, 2, 3);
                BOOST_TEST(c == int64_t(s.params.zero_load_cycles(100, 2)));
                if (pol.speedup == 0) {
                    BOOST_TEST(a_first4 < c + 20);
                } else {
                    BOOST_TEST(a_first4 > b);
                }
            }
        }
    }
}

// Every router sends to every other, all at once: no deadlock (the watchdog would
// fire), every packet exactly once, intact and in order, under every combination.
BOOST_AUTO_TEST_CASE(all_to_all_completes_under_every_policy) {
    for (const Policy &pol : kPolicies) {
        for (auto [w, bytes, vcs] :
             {std::tuple{6, 8u, 1}, {6, 256u, 2}, {8, 72u, 1}, {8, 1024u, 2}}) {
            Scenario s = base("packet", pol, w, w);
            s.params.router_delay_cycles = 3;
            s.params.buffer_flits = 4;
            s.params.vcs_per_class = vcs;
            s.watchdog_cycles = 5000;
            s.record_packets = false;
            const int n = w * w;
            for (int src = 0; src < n; ++src) {
                for (int k = 1; k < n; ++k) {
                    s.packets.push_back({0, src, (src + k) % n, bytes, k % 4});
                }
            }
            BOOST_TEST_CONTEXT(name_of(pol) << " " << w << "x" << w << " " << bytes << " B, " << vcs
                                            << " VCs per class") {
                json r = run(s);
                BOOST_TEST(r["stats"]["packets_delivered"] == r["expected"]);
            }
        }
    }
}

namespace {

// Accepted load (flits per node per cycle) of uniform traffic beyond saturation on
// a 5x5 torus, 4-flit packets, BookSim-like routers (R = 3, no noise). (On a 4x4
// torus every link carries one VC class only, so input_speedup would not matter.)
double accepted_load(bool tail_sent, int speedup, int buffer_flits) {
    json r = starfish::sim::run_isolated([=] {
        NetParams p;
        p.width = 5;
        p.height = 5;
        p.router_delay_cycles = 3;
        p.noise_cycles = 0;
        p.buffer_flits = buffer_flits;
        p.vc_realloc_tail_sent = tail_sent;
        p.input_speedup = speedup;
        auto network = make_torus_network("net", p, 1, 0);
        TrafficSpec spec;
        spec.load = 0.8;
        spec.packet_bytes = 8; // 4 flits
        spec.warmup_cycles = 2000;
        spec.measure_cycles = 8000;
        spec.drain_cycles = 0;
        TrafficGenerator gen("traffic", *network, spec, 1, 0);
        sc_core::sc_start();
        return gen.result();
    });
    BOOST_TEST(r["errors"] == 0);
    return r["accepted_load"].get<double>();
}

} // namespace

// The point of tail_sent: with packets no longer than the buffer, a deeper buffer
// holds the next packet behind the tail, so the network carries more.
BOOST_AUTO_TEST_CASE(deeper_buffers_raise_saturation_under_tail_sent) {
    for (int speedup : {0, 1}) {
        const double credit4 = accepted_load(false, speedup, 4);
        const double credit8 = accepted_load(false, speedup, 8);
        const double sent4 = accepted_load(true, speedup, 4);
        const double sent8 = accepted_load(true, speedup, 8);
        BOOST_TEST_MESSAGE("5x5 uniform, 4-flit packets, offered 0.8, input_speedup="
                           << speedup << ": tail_credit B=4 " << credit4 << ", B=8 " << credit8
                           << "; tail_sent B=4 " << sent4 << ", B=8 " << sent8);
        BOOST_TEST(sent8 > 1.1 * sent4);
        BOOST_TEST(sent8 > 1.15 * credit8);
        // Under tail_credit a VC never holds two packets: the extra depth is unused.
        BOOST_TEST(std::abs(credit8 - credit4) < 0.02 * credit4);
    }
}

BOOST_AUTO_TEST_SUITE_END()
