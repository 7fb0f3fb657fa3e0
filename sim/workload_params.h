#pragma once
// Experiment parameters: what a `starfish run` does (workload.kind), how many
// trials with which seeds and processes (workload.trials, .seed, .jobs), and the
// check that a transfer fits the machine. The transfer request itself
// (workload.pattern, .record_bytes, .cols, .layout, .file_mb) is declared with the
// firmware that performs it (fw/src/params.c).

#include "hw/config/registry.h"

namespace starfish::sim {

void declare_workload_params(config::Registry &registry);

} // namespace starfish::sim
