#pragma once
// `starfish net traffic`: synthetic traffic on the torus alone (docs/network.md).

#include "hw/config/config.h"
#include "tlm_models/net/traffic_generator.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace starfish::sim {

void add_net_command(CLI::App &app, int &exit_status);

// One load point in the calling process (call it inside run_isolated): builds the
// configured network (net.*, seeds from workload.seed and `trial`) with a traffic
// generator, simulates, and returns the generator's result plus "network" (the
// model's statistics summary) and "host" (wall seconds, events, flits).
nlohmann::json run_traffic_point(const config::Config &cfg, const net::TrafficSpec &spec,
                                 uint64_t trial, bool with_channels);

// The load points of a sweep: 0.05, 0.10, ..., 1.00.
std::vector<double> default_sweep_loads();

} // namespace starfish::sim
