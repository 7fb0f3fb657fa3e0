#pragma once
// Helpers for firmware tests on the fake HAL: a fake machine configured with every
// firmware parameter at its registered default (hw/platform/fw_params.cpp).

#include "hw/config/registry.h"
#include "hw/platform/fw_params.h"
#include "tests/fw/fake_hal.h"

#include <memory>

namespace starfish::fwtest {

inline const config::Registry &fw_registry() {
    static const config::Registry registry = [] {
        config::Registry reg;
        platform::declare_fw_params(reg);
        return reg;
    }();
    return registry;
}

inline std::unique_ptr<FakeMachine> make_machine(const FakeOptions &opts = FakeOptions()) {
    auto m = std::make_unique<FakeMachine>(opts);
    m->set_defaults(fw_registry());
    return m;
}

// The default of a firmware parameter (so tests follow the registered values).
inline long long fw_param(const std::string &key) {
    return fw_registry().at(key).default_value.get<long long>();
}

} // namespace starfish::fwtest
