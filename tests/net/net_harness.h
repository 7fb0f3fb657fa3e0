#pragma once
// Test bench for the torus models: scripted packets offered at given cycles,
// endpoints that verify every delivery (exactly once, payload intact, in order per
// source/destination/lane) and can refuse deliveries, a watchdog that stops the run
// when progress stops. Runs one scenario per process (call inside run_isolated).

#include "tlm_models/net/net_params.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starfish::net::testing {

struct ScriptedPacket {
    int64_t cycle = 0; // offered at the start of this cycle (later if the port refuses)
    int src = 0;
    int dst = 0;
    uint32_t payload_bytes = 0;
    int lane = 0;
    uint32_t early_flits = 0; // net::Packet::early_flits: ask for arriving()
};

struct Scenario {
    NetParams params;
    uint64_t seed = 1;
    uint64_t trial = 0;
    std::vector<ScriptedPacket> packets; // per source, offered in this order
    // Endpoints refuse delivery attempt i (counted per router) when
    // refuse_every > 0 and i % refuse_every == refuse_every - 1, and call
    // endpoint_ready ready_after cycles later (0: from inside deliver()).
    int refuse_every = 0;
    int ready_after = 3;
    int64_t watchdog_cycles = 20000; // no delivery for this long with packets outstanding: deadlock
    int64_t limit_cycles = 50000000;
    // Offers and endpoint_ready calls come this many picoseconds after the start of
    // their cycle (less than a cycle): callers off the cycle grid, as a firmware
    // thread is after a disk interrupt.
    uint64_t offset_ps = 0;
    bool record_packets = true; // per-packet cycles in the result
    // When set, the observation layer's VCD of every channel (net.r<k>.<port>: busy,
    // pkt, vc), as `starfish run --vcd` writes it, goes to this file.
    std::string vcd_path;
};

// Result: {"delivered": N, "expected": N, "deadlock": bool, "errors": [..],
//  "packets": [[id, accept_cycle, injected_cycle, delivered_cycle, arriving_cycle], ...]
//  (by id; arriving_cycle -1 when none was asked for),
//  "stats": model statistics, "end_cycle": c, "work": events processed (packet
//  model) or cycles simulated (flit model)}
nlohmann::json run_scenario(const Scenario &scenario);

// Payload byte i of packet id (deterministic, so the receiver can check it).
inline uint8_t payload_byte(uint64_t id, size_t i) {
    return static_cast<uint8_t>((id * 131u + i * 7u + (i >> 8)) & 0xffu);
}

} // namespace starfish::net::testing
