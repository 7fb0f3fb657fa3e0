#pragma once
// `starfish study FILE`: a grid of configurations x trials (sim/study/study.h),
// summarised per cell, optionally compared with a published table; prints a table
// and writes JSON, CSV and Markdown results (docs/studies.md). Its subcommands
// plan, run-index, submit, status, resubmit and collect run a study through a
// study directory and Slurm job arrays (docs/cluster.md).

#include <CLI/CLI.hpp>

namespace starfish::sim {

void add_study_command(CLI::App &app, int &exit_status);

} // namespace starfish::sim
