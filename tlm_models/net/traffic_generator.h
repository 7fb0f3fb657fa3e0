#pragma once
// Synthetic traffic on the torus alone (`starfish net traffic`, bench_net): every
// router's local port gets a source that creates packets as a Bernoulli process
// (geometric gaps, stream HW_RNG_STREAM_TRAFFIC) and a sink that checks them.
//
// Offered load = flits per injecting node per cycle, as a fraction of the
// injection channel's bandwidth (one flit per cycle): load 1.0 means every node
// creates packets whose flits (head flits included) would keep its injection
// channel busy all the time. Packets created in the measurement window
// [warmup, warmup + measure) are measured from creation (so source queueing counts)
// to delivery; accepted throughput counts everything delivered in the window.

#include "tlm_models/net/torus_base.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace starfish::net {

struct TrafficSpec {
    std::string pattern = "uniform"; // uniform | transpose | hotspot | neighbor
    double load = 0.1;               // offered flits per injecting node per cycle, (0, 1]
    uint32_t packet_bytes = 64;      // payload bytes per packet
    int64_t warmup_cycles = 2000;
    int64_t measure_cycles = 10000;
    int64_t drain_cycles = 40000;  // after the window, wait at most this long for measured packets
    double hotspot_fraction = 0.1; // hotspot: share of packets sent to hotspot_router
    int hotspot_router = 0;
    // Other simulators' conventions: uniform (and hotspot's uniform part) may pick the
    // source itself, and transpose's diagonal routers send to themselves.
    bool include_self = false;

    // Throws std::invalid_argument naming the bad field.
    void validate(const TorusTopology &topo) const;
    // Whether the router creates packets (transpose: not on the diagonal unless
    // include_self).
    bool injects(const TorusTopology &topo, int router) const;
    // T0 of the pattern: the zero-load latency (docs/network.md) averaged over the
    // injecting routers and the destinations each picks, with their probabilities.
    double zero_load_latency(const NetParams &params) const;
};

class TrafficNode;

class TrafficGenerator : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(TrafficGenerator);
    TrafficGenerator(sc_core::sc_module_name name, TorusBase &net, const TrafficSpec &spec,
                     uint64_t seed, uint64_t trial);
    ~TrafficGenerator() override;

    // offered_load, generated_load, accepted_load (flits/node/cycle),
    // accepted_bytes_per_s (payload), mean/p50/p99/max_latency_cycles of measured
    // packets, measured_packets, measured_delivered, complete, errors.
    nlohmann::json result() const;
    bool finished() const; // every measured packet delivered

private:
    friend class TrafficNode;
    void delivered(const Packet &pkt, int64_t created, int64_t now);
    void check_end();
    void end();
    void error(const std::string &what);
    int pick_destination(int src, hw_rng &rng) const;

    TorusBase &net_;
    TrafficSpec spec_;
    int injecting_nodes_ = 0;
    std::vector<std::unique_ptr<TrafficNode>> nodes_;
    uint64_t measured_created_ = 0, measured_delivered_ = 0;
    uint64_t window_flits_created_ = 0;
    uint64_t window_flits_delivered_ = 0, window_bytes_delivered_ = 0;
    std::vector<uint32_t> latencies_;
    std::vector<std::string> errors_;
    uint64_t error_count_ = 0;
    bool generation_over_ = false;
    sc_core::sc_event end_check_;
};

} // namespace starfish::net
