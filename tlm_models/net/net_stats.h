#pragma once
// Statistics of a network run, filled identically by the packet-level and the
// flit-level models (the equivalence tests compare them field by field).

#include "tlm_models/net/torus_topology.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace starfish::net {

struct ChannelStats {
    uint64_t busy_cycles = 0;      // flits carried (one per cycle)
    uint64_t packets = 0;          // heads that crossed
    uint64_t head_wait_cycles = 0; // cycles heads waited here beyond their ready time
};

struct NetStats {
    uint64_t packets_accepted = 0;  // try_inject returned true
    uint64_t packets_delivered = 0; // deliver returned true
    uint64_t flits_delivered = 0;
    uint64_t payload_bytes_delivered = 0;
    uint64_t refusals = 0;       // deliver returned false
    uint64_t noise_cycles = 0;   // injection noise added, summed over packets
    uint64_t blocked_cycles = 0; // latency beyond zero-load and noise, summed over packets
    int64_t last_delivery_cycle = -1;
    std::vector<uint32_t> latencies;    // try_inject to deliver, cycles, in delivery order
    std::vector<ChannelStats> channels; // indexed by channel id (TorusTopology)

    double mean_latency() const;
    // Nearest-rank percentile (p in (0, 100]) of the latencies; 0 when there are none.
    uint32_t latency_percentile(double p) const;
    // Summary, and per channel the busy, head-wait and packet counts.
    nlohmann::json to_json(const TorusTopology &topo, uint64_t cycle_ps) const;
};

} // namespace starfish::net
