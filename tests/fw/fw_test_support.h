#pragma once
// Helpers for firmware tests on the fake HAL. A FakeMachine starts with every
// parameter of the simulator at its registered default (sim::parameter_registry),
// so firmware tests run with the same values as the machine.

#include "fw/pattern.h"
#include "hw/config/registry.h"
#include "sim/parameters.h"
#include "sim/platform/fw_params.h"
#include "tests/fw/fake_hal.h"

#include <cstdint>
#include <memory>
#include <vector>

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

// The CP's part of the file laid out in its buffer as the pattern says, file byte i
// being file_byte(i).
template <typename FileByte>
std::vector<uint8_t> expected_cp_buffer(const fw_pattern_t &p, unsigned cp, FileByte file_byte) {
    std::vector<uint8_t> out(fw_pattern_cp_bytes(&p, cp));
    fw_pattern_chunk_iter_t it;
    fw_pattern_chunk_t ch;
    fw_pattern_chunks_begin(&it, &p, cp);
    while (fw_pattern_chunks_next(&it, &ch)) {
        for (uint64_t i = 0; i < ch.length; ++i) {
            out[ch.cp_offset + i] = file_byte(ch.file_offset + i);
        }
    }
    return out;
}

} // namespace starfish::fwtest
