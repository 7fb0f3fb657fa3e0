#pragma once
// `starfish reproduce [STUDY...]`: the paper's studies, sensitivity and tuning
// experiments run through the study runner and written up as a report directory
// with tables and figures (sim/study/reproduce.h, docs/reproduce.md).

#include <CLI/CLI.hpp>

namespace starfish::sim {

void add_reproduce_command(CLI::App &app, int &exit_status);

} // namespace starfish::sim
