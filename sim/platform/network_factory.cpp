#include "sim/platform/network_factory.h"

#include "hw/config/config_error.h"
#include "rtl/wrappers/rtl_build.h"

#ifdef STARFISH_HAVE_RTL_NET
#include "rtl/wrappers/rtl_torus.h"
#endif

namespace starfish::platform {

std::unique_ptr<net::TorusBase> make_network(const char *name, const net::NetParams &params,
                                             uint64_t seed, uint64_t trial,
                                             const std::string &rtl_fst) {
    if (params.model != "rtl") {
        return net::make_torus_network(name, params, seed, trial);
    }
#ifdef STARFISH_HAVE_RTL_NET
    return std::make_unique<rtl::RtlTorus>(name, params, seed, trial, rtl_fst);
#else
    (void)rtl_fst;
    throw config::ConfigError(rtl::rtl_missing_message("net.model = rtl", rtl::rtl_build()));
#endif
}

} // namespace starfish::platform
