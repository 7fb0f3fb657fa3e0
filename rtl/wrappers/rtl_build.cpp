#include "rtl/wrappers/rtl_build.h"

#include "hw/config/config_error.h"
#include "tlm_models/net/net_params.h"
#include "tlm_models/node/network_interface_params.h"

namespace starfish::rtl {

RtlBuild rtl_build() {
#if defined(STARFISH_HAVE_RTL_NET)
    return RtlBuild::Included;
#elif defined(STARFISH_RTL_CONFIGURED_OFF)
    return RtlBuild::ConfiguredOff;
#else
    return RtlBuild::NoVerilator;
#endif
}

std::string rtl_missing_message(const std::string &setting, RtlBuild build) {
    const std::string add = "`bash scripts/build.sh -DSTARFISH_RTL=ON` adds them (a few minutes; "
                            "scripts/test.sh does that too; docs/rtl.md)";
    switch (build) {
    case RtlBuild::ConfiguredOff:
        return setting + ": this build has no RTL engines: its build directory was configured " +
               "with -DSTARFISH_RTL=OFF (scripts/run-default.sh does that for a new build " +
               "directory, so that the main job does not wait for the Verilated models); " + add;
    case RtlBuild::NoVerilator:
        return setting + ": this build has no RTL engines: Verilator was not found when it was " +
               "configured; scripts/install-deps.sh installs it, then " + add;
    case RtlBuild::Included:
        break;
    }
    return setting + ": the RTL engines are in this build"; // not an error; callers check first
}

void require_rtl_engines(const config::Config &cfg, RtlBuild build) {
    if (build == RtlBuild::Included) {
        return;
    }
    for (config::StringKey key : {keys::net_model, keys::ni_model}) {
        if (cfg.get_string(key) == "rtl") {
            throw config::ConfigError(rtl_missing_message(std::string(key.name) + " = rtl", build));
        }
    }
}

} // namespace starfish::rtl
