#pragma once
// A small firmware sequence that uses every charged HAL service, run both on the
// machine (tests/node/test_node_cpu.cpp) and on the firmware tests' fake HAL
// (tests/fw/test_fake_hal.cpp): each compares what it charged with the cycles
// the one rule source (tlm_models/node/hal_cost_rules.h) gives for the charges the
// sequence makes, so the fake and the machine cannot charge a service differently.

#include "fw/hal.h"
#include "tlm_models/node/hal_cost_rules.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace starfish::testing {

// The node's first thread ("main"): allocates and frees, programs the NI to
// raise one interrupt (its handler writes a register), spawns "helper", waits
// for its post, yields to it, posts and waits without blocking, and returns.
void hal_charge_sequence_main(hal_t *h);

// Who pays a charge: the node's thread "main", its thread "helper", or the
// interrupt handler.
enum class ChargedActivity { Main, Helper, Handler };

struct ExpectedCharge {
    ChargedActivity activity;
    node::HalCharge charge;
    uint64_t count;
};

// Every charge the sequence makes, by activity.
const std::vector<ExpectedCharge> &hal_charge_sequence_charges();

// A different number of cycles for each cost.* key (key, value), so that a
// service charged under another cost, or charged to another activity, changes
// the sums the tests compare.
std::vector<std::pair<std::string, int64_t>> distinct_hal_costs();

// The cycles charged to `activity` by the rules with these costs.
uint64_t expected_cycles(const node::HalCostRules &rules, ChargedActivity activity);

} // namespace starfish::testing
