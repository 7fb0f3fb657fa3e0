#pragma once
// The simulation's current time without a library call: sc_time_stamp() is not
// inline in SystemC 2.3, and the CPU, NI and torus read the time tens of times per
// message (docs/performance.md).

#include <systemc>

namespace starfish::common {

inline const sc_core::sc_time &sim_time() {
    return sc_core::sc_get_curr_simcontext()->time_stamp();
}

} // namespace starfish::common
