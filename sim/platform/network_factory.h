#pragma once
// Builds the network named by net.model: the TLM engines (packet, flit) through
// net::make_torus_network, or the Verilog routers (rtl, rtl_torus.h) when the build
// has the RTL engines (rtl_build.h). What the machine and `starfish net traffic` call.

#include "tlm_models/net/torus_base.h"

#include <memory>
#include <string>

namespace starfish::platform {

// rtl_fst: for net.model = rtl, write every router signal to this FST file (none
// when empty; ignored by the TLM engines).
std::unique_ptr<net::TorusBase> make_network(const char *name, const net::NetParams &params,
                                             uint64_t seed, uint64_t trial,
                                             const std::string &rtl_fst = {});

} // namespace starfish::platform
