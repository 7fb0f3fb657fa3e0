#pragma once
// What a call throws as a configuration error: the message a user would read, or
// "" when the call returns. Tests then assert on the words it must contain.
#include "hw/config/config_error.h"

#include <functional>
#include <string>

namespace starfish::testing {

inline std::string config_error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const config::ConfigError &e) {
        return e.what();
    }
    return "";
}

} // namespace starfish::testing
