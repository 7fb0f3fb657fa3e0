#pragma once
// `starfish net traffic`: synthetic traffic on the torus alone (docs/network.md).
// The runner is sim/workload/net_traffic.h.

#include <CLI/CLI.hpp>

namespace starfish::sim {

void add_net_command(CLI::App &app, int &exit_status);

} // namespace starfish::sim
