#pragma once
// The registry of every configuration parameter of the simulator, and the
// configuration and study files shipped with it.

#include "hw/config/registry.h"

namespace starfish::sim {

// Built once, on first use, by asking each component to declare its parameters
// (library starfish_params: no SystemC, so firmware tests on the fake HAL use the
// same registry as runs).
const config::Registry &parameter_registry();

// The rest is in starfish_sim (sim/default_config.cpp.in).

// Text of sim/configs/default.json, embedded at build time so `starfish` works
// from any directory.
const char *default_config_text();

// Directory holding the shipped configuration files (sim/configs).
const char *config_dir();

// Directory holding the shipped study files (sim/studies).
const char *studies_dir();

// Directory holding the report scripts `starfish reproduce` runs (sim/report).
const char *report_scripts_dir();

} // namespace starfish::sim
