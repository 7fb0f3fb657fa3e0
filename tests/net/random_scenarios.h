#pragma once
// Randomized small torus scenarios with contention, refusals and every timing
// parameter varied (the equivalence and speed-switch tests share them).

#include "tests/net/net_harness.h"

#include <cstdint>
#include <string>

namespace starfish::net::testing {

// Router policies of a scenario (docs/network.md, "Router policies"): the defaults,
// or one of them forced on with the other one random.
enum class Policies { Defaults, TailSent, InputSpeedup, Random };

// sparse: packets spread out so that the network is often empty, which is when the
// packet engine runs a packet ahead (and replays it when the next one comes).
Scenario random_scenario(uint64_t seed, bool sparse = false,
                         Policies policies = Policies::Defaults);

// The scenario's parameters in one line (a failing check's context).
std::string describe(const Scenario &s);

} // namespace starfish::net::testing
