#pragma once
// Experiment parameters: what a `starfish run` does (workload.kind), how many
// trials with which seeds and processes (workload.trials, .seed, .jobs), and the
// check that a transfer fits the machine. The transfer request itself
// (workload.pattern, .record_bytes, .cols, .layout, .file_mb) is declared with the
// firmware that performs it (fw/src/params.c).

#include "hw/config/key.h"
#include "hw/config/registry.h"

// The keys of the experiment parameters; workload.seed and the transfer request's
// are the firmware's (fw/param_keys.h).
namespace starfish::keys {
inline constexpr config::StringKey workload_kind{"workload.kind"};
inline constexpr config::IntKey workload_trials{"workload.trials"};
inline constexpr config::IntKey workload_jobs{"workload.jobs"};
} // namespace starfish::keys

namespace starfish::sim {

void declare_workload_params(config::Registry &registry);

} // namespace starfish::sim
