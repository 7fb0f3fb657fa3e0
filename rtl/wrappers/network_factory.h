#pragma once
// Builds the network named by net.model: the TLM engines (packet, flit) through
// net::make_torus_network, or the Verilog routers (rtl, rtl_torus.h) when the build
// has Verilator. What the machine and `starfish net traffic` call.

#include "tlm_models/net/torus_base.h"

#include <memory>

namespace starfish::rtl {

std::unique_ptr<net::TorusBase> make_network(const char *name, const net::NetParams &params,
                                             uint64_t seed, uint64_t trial);

// Whether this build includes the RTL network (Verilator was found).
bool rtl_network_available();

} // namespace starfish::rtl
