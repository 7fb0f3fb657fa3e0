#pragma once
// Whether this build has the Verilog engines (net.model = rtl, ni.model = rtl), and
// the configuration error that says how to add them when it has not. CMake decides
// (rtl/CMakeLists.txt): they are built where Verilator is installed and the option
// STARFISH_RTL is on, its default; scripts/run-default.sh turns it off for a new
// build directory, so the main job does not wait for the Verilated models.

#include "hw/config/config.h"

#include <string>

namespace starfish::rtl {

enum class RtlBuild {
    Included,      // the engines are linked in
    ConfiguredOff, // -DSTARFISH_RTL=OFF
    NoVerilator,   // STARFISH_RTL on, but Verilator was not found
};

RtlBuild rtl_build();

// The message of the configuration error for `setting` (e.g. "net.model = rtl") in a
// build of kind `build` without the engines: why, and the command that adds them.
std::string rtl_missing_message(const std::string &setting, RtlBuild build);

// Throws that message as a config::ConfigError when `cfg` asks for an RTL engine
// (net.model or ni.model = rtl) and `build` has none: what the commands check right
// after loading their configuration, so the run stops with exit status 2 before
// anything starts (the engines' factories throw the same error when called anyway).
void require_rtl_engines(const config::Config &cfg, RtlBuild build = rtl_build());

} // namespace starfish::rtl
