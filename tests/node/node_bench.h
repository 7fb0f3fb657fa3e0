#pragma once
// Builds a few nodes on the ideal network (tests/support/ideal_network.h), runs
// their firmware and returns what the tests assert on. Call inside run_isolated
// (SystemC elaborates once per process).

#include "sim/platform/node.h"
#include "tests/support/ideal_network.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace starfish::testing {

struct NodeBenchSpec {
    std::vector<platform::FirmwareMain> mains; // one per node; nullptr: no firmware
    std::vector<const void *> contexts;        // per node, set as hal_context (optional)
    std::vector<std::pair<std::string, std::string>> settings; // key=value overrides
    int iop_count = 0;                                         // the last iop_count nodes are IOPs
    bool timers = false; // a TimerDevice at FWT_TIMER_BASE on every node
    bool trace = false;  // record CPU activity intervals
    IdealNetwork::Params net;
    double limit_cycles = 2e9;
};

using NodeInspector = std::function<void(nlohmann::json &, std::vector<platform::Node *> &)>;

// {"failure": first node failure or "", "sim_ps", "sim_cycles", "cycle_ps",
//  "nodes": [{"exports", "stats", "ni_error", "trace"?}], "network": {...}}
nlohmann::json run_node_bench(const NodeBenchSpec &spec, const NodeInspector &inspect = {});

} // namespace starfish::testing
