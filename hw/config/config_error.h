#pragma once
// A configuration problem the user must fix. Commands exit with status 2 on it.

#include <stdexcept>
#include <string>

namespace starfish::config {

class ConfigError : public std::runtime_error {
public:
    explicit ConfigError(const std::string &what) : std::runtime_error(what) {}
};

} // namespace starfish::config
