#pragma once
// `starfish disk replay` and `starfish disk demerit`: validating the HP 97560
// model against request traces and other disk models (docs/disk.md). The
// testbench is sim/workload/disk_replay.h, the trace format
// sim/workload/disk_trace.h, the figure sim/report/demerit.h.

#include <CLI/CLI.hpp>

namespace starfish::sim {

void add_disk_command(CLI::App &app, int &exit_status);

} // namespace starfish::sim
