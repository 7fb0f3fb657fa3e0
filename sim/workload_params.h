#pragma once
// Experiment parameters (workload.*): what a `starfish run` does.

#include "hw/config/registry.h"

namespace starfish::sim {

void declare_workload_params(config::Registry &registry);

} // namespace starfish::sim
