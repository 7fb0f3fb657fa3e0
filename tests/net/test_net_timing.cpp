// The timing contract of docs/network.md, checked on every model: zero-load
// latency for every pair of a 6x6 torus, serialisation on a shared link, the
// classic blocking scenario, full link rate, injection back-pressure, refusals,
// timing noise, idleness, bad input.
#include "tests/net/net_test_cases.h"

#include "sim/runner/isolated_run.h"
#include "tests/support/vcd_reader.h"
#include "tlm_models/net/torus_base.h"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <unistd.h>

using namespace starfish::net;
using namespace starfish::net::testing;
using nlohmann::json;

namespace {

const std::vector<const char *> kModels = engine_models();

Scenario base(const char *model, int width = 6, int height = 6) {
    return quiet_scenario(model, width, height);
}

json run(const Scenario &s) {
    return run_delivering_all(s);
}

// [id, accepted, injected, delivered, arriving] -> field
int64_t accepted(const json &r, int id) {
    return r["packets"][id][1].get<int64_t>();
}
int64_t injected(const json &r, int id) {
    return r["packets"][id][2].get<int64_t>();
}
int64_t delivered(const json &r, int id) {
    return r["packets"][id][3].get<int64_t>();
}
int64_t arriving(const json &r, int id) {
    return r["packets"][id][4].get<int64_t>();
}

} // namespace

BOOST_AUTO_TEST_SUITE(net_timing)

BOOST_AUTO_TEST_CASE(zero_load_latency_for_every_pair_of_a_6x6_torus) {
    for (const char *model : kModels) {
        for (auto [r, l] : {std::pair{1, 0}, {2, 1}}) {
            if (std::string(model) == "flit" && r != 1) {
                continue; // the reference is slow; one timing point is enough for it
            }
            Scenario s = base(model);
            s.params.router_delay_cycles = r;
            s.params.link_delay_cycles = l;
            s.params.buffer_flits = r + 2 * l + 1; // the least that keeps a worm at full rate
            TorusTopology topo(6, 6, 1);
            int64_t cycle = 0;
            for (int src = 0; src < 36; ++src) {
                for (int dst = 0; dst < 36; ++dst) {
                    uint32_t bytes = uint32_t((src * 7 + dst * 3) % 64);
                    // Cut-through notification after 1 .. n-1 flits.
                    uint32_t n = s.params.packet_flits(bytes);
                    uint32_t early = 1 + uint32_t(src + dst) % (n - 1);
                    s.packets.push_back({cycle, src, dst, bytes, 0, early});
                    cycle += 120; // one packet at a time
                }
            }
            json res = run(s);
            BOOST_TEST_CONTEXT(model << " R=" << r << " L=" << l) {
                for (size_t i = 0; i < s.packets.size(); ++i) {
                    const ScriptedPacket &p = s.packets[i];
                    uint32_t n = s.params.packet_flits(p.payload_bytes);
                    int h = topo.hops(p.src, p.dst);
                    int64_t expect = 1 + n + (h + 1) * r + h * l;
                    BOOST_TEST(accepted(res, int(i)) == p.cycle);
                    BOOST_TEST(delivered(res, int(i)) - accepted(res, int(i)) == expect,
                               "packet " << p.src << "->" << p.dst << ", " << n << " flits, " << h
                                         << " hops");
                    // The tail leaves the injection port n cycles after the head.
                    BOOST_TEST(injected(res, int(i)) == p.cycle + 1 + n);
                    // The first k flits are in k - n cycles before the tail.
                    BOOST_TEST(arriving(res, int(i)) - accepted(res, int(i)) ==
                               expect - (n - p.early_flits));
                }
                BOOST_TEST(res["stats"]["blocked_cycles"] == 0);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(two_packets_sharing_a_link_are_serialised) {
    // A: router 0 -> 2 over links 0.E, 1.E; B: router 1 -> 3 over 1.E, 2.E, on the
    // other VC lane. B takes 1.E first (its head is there a cycle earlier) and keeps
    // it while it streams; A's head waits for B's tail, its body backs up behind it.
    for (const char *model : kModels) {
        Scenario s = base(model);
        s.params.vcs_per_class = 2;
        const uint32_t bytes = 120, n = s.params.packet_flits(bytes); // 32 flits
        s.packets.push_back({0, 0, 2, bytes, 0, 5});
        s.packets.push_back({0, 1, 3, bytes, 1, 5});
        json res = run(s);
        BOOST_TEST_CONTEXT(model) {
            BOOST_TEST(delivered(res, 1) == 4 + n);     // B: zero load (1 + n + 3)
            BOOST_TEST(delivered(res, 0) == 2 * n + 3); // A: after B's n flits on 1.E
            // Five flits in: B streams; A's head waited, then A streamed too.
            BOOST_TEST(arriving(res, 1) == 4 + 5);
            BOOST_TEST(arriving(res, 0) == delivered(res, 0) - (n - 5));
            const json &ch = res["stats"]["channels"];
            TorusTopology topo(6, 6, 2);
            BOOST_TEST(ch[topo.link_channel(1, kEast)]["busy_cycles"] == 2 * n);
            BOOST_TEST(ch[topo.link_channel(1, kEast)]["head_wait_cycles"] == n - 1);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_blocked_packet_holds_its_channels) {
    // C (router 4 -> 3, 50 flits) holds router 3's ejection port. A (0 -> 3 over
    // 0.E, 1.E, 2.E, 10 flits) reaches router 3 at cycle 5 and blocks there, its
    // flits filling the buffers behind it and its VCs held. D (1 -> 2 over 1.E, 10
    // flits) needs the VC A holds on 1.E: it waits although its own path and
    // destination are idle, until A's tail has crossed 2.E (cycle 59) and the
    // credit is back (60).
    for (const char *model : kModels) {
        Scenario s = base(model);
        s.packets.push_back({0, 4, 3, 192, 0}); // C: 50 flits
        s.packets.push_back({0, 0, 3, 32, 0});  // A: 10 flits
        s.packets.push_back({5, 1, 2, 32, 0});  // D: 10 flits
        json res = run(s);
        BOOST_TEST_CONTEXT(model) {
            BOOST_TEST(delivered(res, 0) == 53); // C: zero load, 1 + 50 + 2
            BOOST_TEST(delivered(res, 1) == 63); // A: head crosses the ejection at 53
            BOOST_TEST(delivered(res, 2) == 71); // D: crosses 1.E at 60
            BOOST_TEST(delivered(res, 2) - accepted(res, 2) > 4 * (1 + 10 + 2));
            // A's 10 flits fit in its four 4-flit buffers (flits 0-3 at router 3, 4-7
            // at router 2, 8-9 at router 1), so its tail left the port at full rate.
            BOOST_TEST(injected(res, 1) == 11);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_single_stream_saturates_a_link) {
    // Back-to-back 8 KB packets from router 0 to its neighbour: the link carries
    // flit_bytes per cycle, 200e6 B/s at 50 MHz, less one idle cycle per packet
    // (the VC is released when the tail's credit returns).
    for (const char *model : kModels) {
        if (std::string(model) == "flit") {
            continue; // the engines agree cycle for cycle (test_net_equivalence); slow here
        }
        Scenario s = base(model);
        const uint32_t bytes = 8192;
        const int count = 60;
        for (int i = 0; i < count; ++i) {
            s.packets.push_back({0, 0, 1, bytes, 0});
        }
        json res = run(s);
        double cycles = double(delivered(res, count - 1) - delivered(res, 0));
        double seconds = cycles * double(s.params.cycle_ps()) * 1e-12;
        double payload_rate = double(count - 1) * bytes / seconds;
        TorusTopology topo(6, 6, 1);
        double flit_rate =
            double(res["stats"]["channels"][topo.link_channel(0, kEast)]["busy_cycles"]
                       .get<uint64_t>()) *
            s.params.flit_bytes /
            (double(delivered(res, count - 1)) * double(s.params.cycle_ps()) * 1e-12);
        BOOST_TEST_MESSAGE("payload " << payload_rate / 1e6 << " MB/s, link " << flit_rate / 1e6
                                      << " MB/s (1 MB = 1e6 B here)");
        BOOST_TEST(s.params.link_bytes_per_s() == 200e6);
        BOOST_TEST(std::abs(payload_rate - 200e6) <= 0.01 * 200e6);
        BOOST_TEST(std::abs(flit_rate - 200e6) <= 0.01 * 200e6);
    }
}

BOOST_AUTO_TEST_CASE(a_full_injection_queue_refuses_until_a_tail_leaves) {
    for (const char *model : kModels) {
        Scenario s = base(model);
        s.params.inject_queue_packets = 1;
        for (int i = 0; i < 4; ++i) {
            s.packets.push_back({0, 7, 20, 40, 0});
        }
        json res = run(s);
        BOOST_TEST_CONTEXT(model) {
            BOOST_TEST(accepted(res, 0) == 0);
            for (int i = 1; i < 4; ++i) {
                // Offered again when injection_ready fires, in the cycle the slot frees.
                BOOST_TEST(accepted(res, i) == injected(res, i - 1));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_refused_delivery_holds_the_ejection_port_until_endpoint_ready) {
    for (const char *model : kModels) {
        for (int ready_after : {0, 10}) {
            Scenario s = base(model);
            s.refuse_every = 2; // every second attempt at each router is refused
            s.ready_after = ready_after;
            s.packets.push_back({0, 0, 1, 40, 0});  // attempt 0: accepted at 1 + 12 + 2 = 15
            s.packets.push_back({30, 2, 1, 40, 0}); // attempt 1 at 45: refused
            s.packets.push_back({31, 0, 1, 0, 0});  // behind it at the same ejection port
            json res = run(s);
            BOOST_TEST_CONTEXT(model << " ready_after " << ready_after) {
                BOOST_TEST(delivered(res, 0) == 15);
                // Refused at 45; endpoint_ready at 45 + ready_after; the tail crosses
                // again in the next cycle and arrives one later.
                int64_t retry = 45 + ready_after + 1;
                BOOST_TEST(delivered(res, 1) == retry + 1);
                // The third packet's first attempt is refused too (attempt 3).
                BOOST_TEST(delivered(res, 2) == delivered(res, 1) + 2 + 1 + ready_after + 1);
                BOOST_TEST(res["stats"]["refusals"] == 2);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(noise_delays_injection_deterministically_and_zero_is_a_no_op) {
    auto scenario = [](int noise, uint64_t trial) {
        Scenario s = base("packet");
        s.params.noise_cycles = noise;
        s.trial = trial;
        for (int i = 0; i < 40; ++i) {
            s.packets.push_back({i * 100, i % 36, (i * 7 + 3) % 36, 16, 0});
        }
        return s;
    };
    json quiet = run(scenario(0, 0));
    BOOST_TEST(quiet["stats"]["noise_cycles"] == 0);
    BOOST_TEST(quiet["stats"]["blocked_cycles"] == 0);
    json a = run(scenario(5, 0)), b = run(scenario(5, 0)), c = run(scenario(5, 1));
    BOOST_TEST(a == b); // same seed and trial: bit-identical
    BOOST_TEST(a["packets"] != c["packets"]);
    BOOST_TEST(a["stats"]["noise_cycles"].get<uint64_t>() > 0u);
    BOOST_TEST(a["stats"]["noise_cycles"].get<uint64_t>() <= 40u * 5u);
    for (int i = 0; i < 40; ++i) {
        int64_t extra = delivered(a, i) - delivered(quiet, i);
        BOOST_TEST(extra >= 0);
        BOOST_TEST(extra <= 5);
    }
}

BOOST_AUTO_TEST_CASE(nothing_runs_while_the_network_is_idle) {
    for (const char *model : kModels) {
        Scenario s = base(model);
        s.packets.push_back({0, 0, 14, 64, 0});
        s.packets.push_back({1000000, 3, 9, 64, 0});
        json res = run(s);
        BOOST_TEST_CONTEXT(model) {
            // The reference ticks only while packets are in flight; the packet model
            // handles a few events per packet-hop.
            BOOST_TEST(res["work"].get<uint64_t>() < 200u);
            BOOST_TEST(delivered(res, 1) - accepted(res, 1) == 1 + 18 + 2); // one hop
        }
    }
}

BOOST_AUTO_TEST_CASE(channels_show_busy_packet_and_vc_in_the_vcd) {
    // The observation layer's VCD (`starfish run --vcd`, docs/observe.md) shows a
    // channel's flits at their cycles: r0.E carries the 12 flits of packet 0 from
    // cycle 2 to 13, so its busy bit rises at 40 ns and falls at 280 ns, and while
    // busy it shows the packet and its VC (0), else x.
    for (const char *model : kModels) {
        Scenario s = base(model, 3, 3);
        s.vcd_path = std::string("/tmp/starfish_net_trace_") + model + "_" +
                     std::to_string(::getpid()) + ".vcd";
        s.packets.push_back({0, 0, 1, 40, 0});
        run(s);
        starfish::testing::VcdFile vcd(s.vcd_path);
        using Changes = std::vector<starfish::testing::VcdChange>;
        BOOST_TEST_CONTEXT(model) {
            BOOST_TEST((vcd.changes("net.r0.E", "busy") ==
                        Changes{{0, "0"}, {40000, "1"}, {280000, "0"}}));
            BOOST_TEST((vcd.changes("net.r0.E", "vc") ==
                        Changes{{0, "bx"}, {40000, "b0"}, {280000, "bx"}}));
            BOOST_TEST((vcd.changes("net.r0.E", "pkt") ==
                        Changes{{0, "bx"}, {40000, "b0"}, {280000, "bx"}}));
            BOOST_TEST(vcd.declares("net.r8.eject", "busy"));
            BOOST_TEST(vcd.changes("net.r0.W", "busy").size() == 1u); // never busy
        }
        std::remove(s.vcd_path.c_str());
    }
}

BOOST_AUTO_TEST_CASE(bad_input_is_reported_naming_the_router) {
    auto expect_error = [](std::function<void(TorusBase &)> f, const std::string &text) {
        try {
            starfish::sim::run_isolated([f] {
                NetParams p;
                auto net = make_torus_network("net", p, 1, 0);
                f(*net);
                return json();
            });
            BOOST_FAIL("no error for " << text);
        } catch (const starfish::sim::IsolatedRunError &e) {
            BOOST_TEST(std::string(e.what()).find(text) != std::string::npos, e.what());
        }
    };
    struct Sink : PacketEndpoint {
        bool deliver(PacketPtr &) override { return true; }
        void injected(uint64_t) override {}
    };
    expect_error(
        [](TorusBase &net) {
            auto pkt = std::make_unique<Packet>();
            pkt->src_router = 3;
            pkt->dst_router = 99;
            net.try_inject(3, pkt);
        },
        "router 99: no such router");
    expect_error(
        [](TorusBase &net) {
            auto pkt = std::make_unique<Packet>();
            pkt->src_router = 3;
            pkt->dst_router = 4;
            net.try_inject(3, pkt);
        },
        "router 4, which has no endpoint");
    expect_error(
        [](TorusBase &net) {
            static Sink a, b;
            net.attach(2, &a);
            net.attach(2, &b);
        },
        "router 2 already has an endpoint");
    expect_error([](TorusBase &net) { net.endpoint_ready(40); }, "router 40");
}

BOOST_AUTO_TEST_SUITE_END()
