#pragma once
// Helpers the directed network tests share (test_net_timing,
// test_net_router_policies): the engines to test, a noise-free scenario on a torus,
// and a run in its own process that must deliver every packet without errors or
// deadlock.
#include "tests/net/net_harness.h"

#include "rtl/wrappers/rtl_build.h"
#include "sim/runner/isolated_run.h"

#include <boost/test/unit_test.hpp>

#include <vector>

namespace starfish::net::testing {

// Every net.model of this build: the TLM engines, and the Verilog router network
// when the build has the RTL engines (net.model = rtl, docs/rtl.md).
inline std::vector<const char *> engine_models() {
    std::vector<const char *> models = {"packet", "flit"};
    if (starfish::rtl::rtl_build() == starfish::rtl::RtlBuild::Included) {
        models.push_back("rtl");
    }
    return models;
}

inline Scenario quiet_scenario(const char *model, int width = 6, int height = 6) {
    Scenario s;
    s.params.model = model;
    s.params.width = width;
    s.params.height = height;
    s.params.noise_cycles = 0;
    return s;
}

inline nlohmann::json run_delivering_all(const Scenario &s) {
    nlohmann::json r = starfish::sim::run_isolated([s] { return run_scenario(s); });
    BOOST_TEST(r["errors"].empty(), r["errors"].dump());
    BOOST_TEST(!r["deadlock"].get<bool>());
    BOOST_TEST(r["delivered"] == r["expected"]);
    return r;
}

} // namespace starfish::net::testing
