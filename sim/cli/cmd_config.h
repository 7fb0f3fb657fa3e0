#pragma once
// `starfish config`: the effective configuration, every key with its value, unit,
// default and meaning; `--explain KEY` for one key in full.

#include <CLI/CLI.hpp>

namespace starfish::sim {

void add_config_command(CLI::App &app, int &exit_status);

} // namespace starfish::sim
