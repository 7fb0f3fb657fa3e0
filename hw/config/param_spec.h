#pragma once
// Declaration of one configuration parameter: its type, unit, default, allowed
// values, one-line meaning and the provenance of its default.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace starfish::config {

enum class ParamType { Int, Real, Bool, String };

const char *param_type_name(ParamType type);

struct ParamSpec {
    std::string key; // dotted, e.g. "disk.rpm"
    ParamType type = ParamType::Int;
    nlohmann::json default_value;
    std::string unit;                 // "" for dimensionless
    std::optional<double> min;        // numeric types only, inclusive
    std::optional<double> max;        // numeric types only, inclusive
    std::vector<std::string> choices; // String only; empty means any string
    std::string meaning;              // one line
    std::string provenance;           // where the default comes from
    // Bool only: older configuration files gave it as 0/1, which still loads with a
    // deprecation warning on stderr naming the key.
    bool accepts_0_1 = false;

    // Describes the allowed values, e.g. "[1, 1024]" or "one of fcfs|cscan".
    std::string allowed_text() const;
};

} // namespace starfish::config
