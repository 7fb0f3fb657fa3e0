// The Verilog router (net.model = rtl: rtl/router/, verilated, wired into a torus by
// rtl/wrappers/rtl_torus.*) against the flit-level reference (net.model = flit),
// whose rules are the timing contract of docs/network.md: on randomized scenarios
// on 4x4 and 6x6 tori (uniform, transpose and hot-spot traffic, packets of 2 to
// 2050 flits, buffers of 2 to 8 flits, both router policies, refusals, cut-through
// notifications), every packet's acceptance, injected(), delivery and arriving()
// cycle must be the same, and so must the statistics (the channels' head waits
// come from counters in the RTL's input VCs). The payload bytes travel
// through the RTL flits; the wrapper checks them at the ejection, the harness's
// endpoints again, and every router's error output after every clock edge.
#include "tests/net/net_harness.h"

#include "hw/rng.h"
#include "sim/runner/isolated_run.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <sstream>

using namespace starfish::net;
using namespace starfish::net::testing;
using nlohmann::json;

namespace {

enum class Pattern { Uniform, Transpose, Hotspot };

const char *pattern_name(Pattern p) {
    return p == Pattern::Uniform ? "uniform" : p == Pattern::Transpose ? "transpose" : "hotspot";
}

struct Case {
    Scenario scenario;
    Pattern pattern = Pattern::Uniform;
};

Case random_case(uint64_t seed) {
    hw_rng rng;
    hw_rng_seed(&rng, hw_rng_stream_seed(seed, 0, HW_RNG_STREAM_WORKLOAD, 91));
    auto pick = [&](int lo, int hi) { return lo + int(hw_rng_below(&rng, uint64_t(hi - lo + 1))); };
    Case c;
    Scenario &s = c.scenario;
    NetParams &p = s.params;
    const int side = seed % 3 == 0 ? 6 : 4;
    p.width = side;
    p.height = side;
    p.router_delay_cycles = pick(1, 3);
    p.link_delay_cycles = pick(0, 2);
    p.buffer_flits = pick(2, 8);
    p.vcs_per_class = pick(1, 2);
    p.inject_queue_packets = pick(1, 3);
    p.noise_cycles = pick(0, 1) ? pick(0, 3) : 0;
    // Both policies in all four combinations.
    p.vc_realloc_tail_sent = (seed / 2) % 2 == 1;
    p.input_speedup = int(seed % 2);
    s.seed = seed;
    s.refuse_every = pick(0, 1) ? pick(2, 5) : 0;
    s.ready_after = pick(0, 4);
    c.pattern = Pattern((seed / 4) % 3);
    const int routers = side * side;
    const int hot = pick(0, routers - 1);
    const int packets = pick(10, 40);
    const int span = pick(20, 300);
    for (int i = 0; i < packets; ++i) {
        ScriptedPacket sp;
        sp.src = pick(0, routers - 1);
        switch (c.pattern) {
        case Pattern::Uniform:
            sp.dst = pick(0, routers - 1);
            break;
        case Pattern::Transpose: // (x, y) -> (y, x); the diagonal sends to itself
            sp.dst = (sp.src % side) * side + sp.src / side;
            break;
        case Pattern::Hotspot:
            sp.dst = pick(0, 1) ? hot : pick(0, routers - 1);
            break;
        }
        sp.cycle = pick(0, span);
        // Mostly short packets, some medium, and now and then an 8 KB one (2050 flits).
        const int kind = pick(0, 199);
        sp.payload_bytes = uint32_t(kind < 140 ? pick(0, 64) : kind < 198 ? pick(65, 600) : 8192);
        if (seed % 40 == 7 && i == 0) {
            sp.payload_bytes = 8192; // every fortieth scenario surely has one
        }
        sp.lane = pick(0, 3);
        const int flits = int(p.packet_flits(sp.payload_bytes));
        const int how = pick(0, 3);
        sp.early_flits = uint32_t(how == 0 ? 0 : how == 1 ? 1 : how == 2 ? pick(1, flits) : flits);
        s.packets.push_back(sp);
    }
    std::stable_sort(
        s.packets.begin(), s.packets.end(),
        [](const ScriptedPacket &a, const ScriptedPacket &b) { return a.cycle < b.cycle; });
    return c;
}

std::string describe(const Case &c) {
    const Scenario &s = c.scenario;
    const NetParams &p = s.params;
    std::ostringstream o;
    o << "seed " << s.seed << ": " << p.width << "x" << p.height << " " << pattern_name(c.pattern)
      << " R=" << p.router_delay_cycles << " L=" << p.link_delay_cycles << " B=" << p.buffer_flits
      << " vcs=" << p.vcs_per_class << " Q=" << p.inject_queue_packets
      << " noise=" << p.noise_cycles << " refuse_every=" << s.refuse_every
      << " ready_after=" << s.ready_after << " packets=" << s.packets.size()
      << (p.vc_realloc_tail_sent ? " tail_sent" : " tail_credit")
      << " input_speedup=" << p.input_speedup;
    return o.str();
}

json run_model(Scenario s, const char *model) {
    s.params.model = model;
    return starfish::sim::run_isolated([s] { return run_scenario(s); });
}

struct Totals {
    uint64_t scenarios = 0, packets = 0, contended = 0, refusals = 0, arrivals = 0;
    uint64_t long_packets = 0, flits = 0, rtl_cycles = 0;
    uint64_t by_pattern[3] = {0, 0, 0};
    uint64_t by_policy[4] = {0, 0, 0, 0};
};

void check_equivalent(const Case &c, Totals &t) {
    const Scenario &s = c.scenario;
    json rtl = run_model(s, "rtl");
    json ref = run_model(s, "flit");
    BOOST_TEST_CONTEXT(describe(c)) {
        BOOST_TEST(ref["errors"].empty(), ref["errors"].dump());
        BOOST_TEST(rtl["errors"].empty(), rtl["errors"].dump());
        BOOST_TEST(!ref["deadlock"].get<bool>());
        BOOST_TEST(!rtl["deadlock"].get<bool>());
        BOOST_TEST(ref["delivered"] == ref["expected"]);
        BOOST_TEST(rtl["delivered"] == rtl["expected"]);
        const json &a = rtl["packets"], &b = ref["packets"];
        BOOST_REQUIRE(a.size() == b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            BOOST_TEST(a[i] == b[i], "packet [id, accepted, injected, delivered, arriving]: rtl "
                                         << a[i].dump() << ", flit model " << b[i].dump());
            if (a[i] != b[i]) {
                break;
            }
        }
        BOOST_TEST(rtl["stats"] == ref["stats"]);
    }
    t.scenarios += 1;
    t.packets += s.packets.size();
    t.contended += ref["stats"]["blocked_cycles"].get<uint64_t>() > 0 ? 1 : 0;
    t.refusals += ref["stats"]["refusals"].get<uint64_t>();
    t.flits += ref["stats"]["flits_delivered"].get<uint64_t>();
    t.rtl_cycles += rtl["work"].get<uint64_t>();
    for (const json &pk : ref["packets"]) {
        t.arrivals += pk[4].get<int64_t>() >= 0 ? 1 : 0;
    }
    for (const ScriptedPacket &p : s.packets) {
        t.long_packets += s.params.packet_flits(p.payload_bytes) == 2050 ? 1 : 0;
    }
    t.by_pattern[int(c.pattern)] += 1;
    t.by_policy[(s.params.vc_realloc_tail_sent ? 2 : 0) + s.params.input_speedup] += 1;
}

} // namespace

BOOST_AUTO_TEST_SUITE(rtl_router_equivalence)

BOOST_AUTO_TEST_CASE(randomized_scenarios_give_identical_cycles_and_payloads) {
    Totals t;
    for (uint64_t seed = 1; seed <= 400; ++seed) {
        check_equivalent(random_case(seed), t);
    }
    BOOST_TEST_MESSAGE("scenarios " << t.scenarios << ", packets " << t.packets << " ("
                                    << t.long_packets << " of 2050 flits), flits " << t.flits
                                    << ", contended " << t.contended << ", refusals " << t.refusals
                                    << ", arriving() " << t.arrivals << ", RTL cycles "
                                    << t.rtl_cycles);
    // The scenarios must cover what they claim, or they prove little.
    BOOST_TEST(t.scenarios >= 400u);
    BOOST_TEST(t.contended > 200u);
    BOOST_TEST(t.refusals > 100u);
    BOOST_TEST(t.arrivals > 1000u);
    BOOST_TEST(t.long_packets >= 10u);
    for (uint64_t n : t.by_pattern) {
        BOOST_TEST(n >= 100u);
    }
    for (uint64_t n : t.by_policy) {
        BOOST_TEST(n >= 100u);
    }
}

BOOST_AUTO_TEST_SUITE_END()
