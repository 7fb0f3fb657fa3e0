#pragma once
// The synthetic-traffic runner behind `starfish net traffic` (docs/network.md):
// the configured torus alone with a traffic generator, one load point per
// process, alone or as a sweep of offered loads.

#include "hw/config/config.h"
#include "sim/report/run_result.h"
#include "tlm_models/net/traffic_generator.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace starfish::sim {

// One load point in the calling process (call it inside run_isolated): builds the
// configured network (net.*, seeds from workload.seed and `trial`) with a traffic
// generator, simulates, and returns the generator's result plus "network" (the
// model's statistics summary) and "host" (wall seconds, events, flits). rtl_fst:
// the FST of the Verilog routers (net.model = rtl, docs/rtl.md), none when empty.
nlohmann::json run_traffic_point(const config::Config &cfg, const net::TrafficSpec &spec,
                                 uint64_t trial, bool with_channels,
                                 const std::string &rtl_fst = {});

// The load points of a sweep: 0.05, 0.10, ..., 1.00.
std::vector<double> default_sweep_loads();

// The spec with warm-up and drain resolved (negative: cycles / 5 and
// 4 x cycles), checked against the configured torus; config::ConfigError (exit
// status 2) when it does not fit.
net::TrafficSpec resolve_traffic_spec(const config::Config &cfg, net::TrafficSpec spec,
                                      int64_t warmup_cycles, int64_t drain_cycles);

// The offered loads to simulate: the sweep's (`loads`, or the default sweep when
// empty) or the single spec_load. config::ConfigError for a load outside (0, 1].
std::vector<double> traffic_loads(bool sweep, const std::vector<double> &loads, double spec_load);

// Runs one load point per entry of `loads`, each in its own process, `jobs` at
// once; on_point sees each result as its process finishes. Channel
// statistics are kept for a single point only.
std::vector<nlohmann::json>
run_traffic_points(const config::Config &cfg, const net::TrafficSpec &spec,
                   const std::vector<double> &loads, uint64_t trial, bool sweep, int jobs,
                   const std::function<void(const nlohmann::json &point)> &on_point,
                   const std::string &rtl_fst = {});

// What the points add up to: host figures (simulated and CPU seconds, events;
// wall_s is left to the caller), corrupted packets, the point with the
// highest accepted load (the first of equals), and the saturation by the 3 x T0
// rule: in order of offered load, the highest accepted load before the first point
// whose mean latency exceeds three times the pattern's zero-load latency T0 (or
// that did not deliver every measured packet); null when the lowest load already
// does.
struct TrafficTotals {
    HostStats host;
    uint64_t errors = 0;
    nlohmann::json saturation;
    nlohmann::json saturation_3t0;
};
TrafficTotals traffic_totals(const std::vector<nlohmann::json> &points, int jobs);

} // namespace starfish::sim
