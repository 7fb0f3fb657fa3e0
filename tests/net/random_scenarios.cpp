#include "tests/net/random_scenarios.h"

#include "hw/rng.h"

#include <algorithm>
#include <sstream>

namespace starfish::net::testing {

Scenario random_scenario(uint64_t seed, bool sparse, Policies policies) {
    hw_rng rng;
    hw_rng_seed(&rng, hw_rng_stream_seed(seed, 0, HW_RNG_STREAM_WORKLOAD, 77));
    auto pick = [&](int lo, int hi) { return lo + int(hw_rng_below(&rng, uint64_t(hi - lo + 1))); };
    Scenario s;
    NetParams &p = s.params;
    p.width = pick(2, seed % 10 == 0 ? 7 : 5);
    p.height = pick(2, 4);
    p.router_delay_cycles = pick(1, 3);
    p.link_delay_cycles = pick(0, 2);
    p.buffer_flits = pick(1, 6);
    p.vcs_per_class = pick(1, seed % 7 == 0 ? 3 : 2);
    p.inject_queue_packets = pick(1, 3);
    p.noise_cycles = pick(0, 1) ? pick(0, 3) : 0;
    p.flit_bytes = seed % 11 == 0 ? 8 : 4;
    if (policies != Policies::Defaults) {
        // Drawn from their own stream, so the rest of the scenario stays as it was.
        hw_rng prng;
        hw_rng_seed(&prng, hw_rng_stream_seed(seed, 0, HW_RNG_STREAM_WORKLOAD, 78));
        p.vc_realloc_tail_sent = policies == Policies::TailSent || hw_rng_below(&prng, 2) == 1;
        p.input_speedup = policies == Policies::InputSpeedup || hw_rng_below(&prng, 2) == 1 ? 1 : 0;
    }
    s.seed = seed;
    s.refuse_every = pick(0, 1) ? pick(2, 5) : 0;
    s.ready_after = pick(0, 4);
    int routers = p.width * p.height;
    // Traffic concentrated on a few destinations so that worms block each other.
    int hot = pick(0, routers - 1);
    int packets = pick(10, 60);
    int span = sparse ? packets * pick(10, 150) : pick(20, 400);
    for (int i = 0; i < packets; ++i) {
        ScriptedPacket sp;
        sp.src = pick(0, routers - 1);
        sp.dst = pick(0, 2) == 0 ? hot : pick(0, routers - 1);
        sp.cycle = pick(0, span);
        sp.payload_bytes = uint32_t(pick(0, 1) ? pick(0, 16) : pick(0, 400));
        sp.lane = pick(0, 3);
        // Cut-through notifications after the head, in the middle, at the tail
        // (none is due then) or not at all.
        int flits = int(p.packet_flits(sp.payload_bytes));
        int how = pick(0, 3);
        sp.early_flits = uint32_t(how == 0 ? 0 : how == 1 ? 1 : how == 2 ? pick(1, flits) : flits);
        s.packets.push_back(sp);
    }
    // Each source offers its packets in cycle order.
    std::stable_sort(
        s.packets.begin(), s.packets.end(),
        [](const ScriptedPacket &a, const ScriptedPacket &b) { return a.cycle < b.cycle; });
    return s;
}

std::string describe(const Scenario &s) {
    std::ostringstream o;
    const NetParams &p = s.params;
    o << p.width << "x" << p.height << " R=" << p.router_delay_cycles
      << " L=" << p.link_delay_cycles << " B=" << p.buffer_flits << " vcs=" << p.vcs_per_class
      << " Q=" << p.inject_queue_packets << " noise=" << p.noise_cycles
      << " refuse_every=" << s.refuse_every << " ready_after=" << s.ready_after
      << " packets=" << s.packets.size() << (p.vc_realloc_tail_sent ? " tail_sent" : " tail_credit")
      << " input_speedup=" << p.input_speedup << " offset_ps=" << s.offset_ps;
    return o.str();
}

} // namespace starfish::net::testing
