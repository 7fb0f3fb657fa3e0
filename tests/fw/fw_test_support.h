#pragma once
// Helpers for firmware tests on the fake HAL. A FakeMachine starts with every
// parameter of the simulator at its registered default (sim::parameter_registry),
// so firmware tests run with the same values as the machine.

#include "hw/config/registry.h"
#include "hw/platform/fw_params.h"
#include "sim/parameters.h"
#include "tests/fw/fake_hal.h"

#include <memory>

namespace starfish::fwtest {

// The firmware's own parameters alone (fw/src/params.c and their checks).
inline const config::Registry &fw_registry() {
    static const config::Registry registry = [] {
        config::Registry reg;
        platform::declare_fw_params(reg);
        return reg;
    }();
    return registry;
}

inline std::unique_ptr<FakeMachine> make_machine(const FakeOptions &opts = FakeOptions()) {
    return std::make_unique<FakeMachine>(opts);
}

// The default of an integer parameter (so tests follow the registered values).
inline long long fw_param(const std::string &key) {
    return sim::parameter_registry().at(key).default_value.get<long long>();
}

} // namespace starfish::fwtest
