#include "rtl/wrappers/network_factory.h"

#include "hw/config/config_error.h"

#ifdef STARFISH_HAVE_RTL_NET
#include "rtl/wrappers/rtl_torus.h"
#endif

namespace starfish::rtl {

bool rtl_network_available() {
#ifdef STARFISH_HAVE_RTL_NET
    return true;
#else
    return false;
#endif
}

std::unique_ptr<net::TorusBase> make_network(const char *name, const net::NetParams &params,
                                             uint64_t seed, uint64_t trial,
                                             const std::string &rtl_fst) {
    if (params.model != "rtl") {
        return net::make_torus_network(name, params, seed, trial);
    }
#ifdef STARFISH_HAVE_RTL_NET
    return std::make_unique<RtlTorus>(name, params, seed, trial, rtl_fst);
#else
    (void)rtl_fst;
    throw config::ConfigError("net.model = rtl: this build has no RTL network (Verilator was not "
                              "found when it was configured; scripts/install-deps.sh installs it)");
#endif
}

} // namespace starfish::rtl
