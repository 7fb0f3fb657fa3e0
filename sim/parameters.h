#pragma once
// The registry of every configuration parameter of the simulator.

#include "hw/config/registry.h"

namespace starfish::sim {

// Built once, on first use, by asking each component to declare its parameters.
const config::Registry &parameter_registry();

// Text of sim/configs/default.json, embedded at build time so `starfish` works
// from any directory.
const char *default_config_text();

// Directory holding the shipped configuration files (sim/configs).
const char *config_dir();

// Directory holding the shipped study files (sim/studies).
const char *studies_dir();

} // namespace starfish::sim
