#pragma once
// `starfish run`: runs the configured workload on the configured machine.

#include <CLI/CLI.hpp>

namespace starfish::sim {

void add_run_command(CLI::App &app, int &exit_status);

} // namespace starfish::sim
