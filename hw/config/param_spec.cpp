#include "hw/config/param_spec.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace starfish::config {

const char *param_type_name(ParamType type) {
    switch (type) {
    case ParamType::Int:
        return "integer";
    case ParamType::Real:
        return "number";
    case ParamType::Bool:
        return "boolean";
    case ParamType::String:
        return "string";
    }
    return "?";
}

namespace {
// Every digit a bound has (1048576, not 1.04858e+06): the shortest text that
// reads back as the same double.
std::string number_text(double v, ParamType type) {
    if (type == ParamType::Int || (v == std::floor(v) && std::fabs(v) < 1e15)) {
        return std::to_string(static_cast<long long>(v));
    }
    char buf[40];
    for (int digits = 6; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) {
            break;
        }
    }
    return buf;
}
} // namespace

std::string ParamSpec::allowed_text() const {
    switch (type) {
    case ParamType::Bool:
        return accepts_0_1 ? "true|false (0|1 deprecated)" : "true|false";
    case ParamType::String: {
        if (choices.empty()) {
            return "any text";
        }
        std::string text = "one of ";
        for (size_t i = 0; i < choices.size(); ++i) {
            text += (i ? "|" : "") + choices[i];
        }
        return text;
    }
    case ParamType::Int:
    case ParamType::Real: {
        std::string lo = min ? number_text(*min, type) : "-inf";
        std::string hi = max ? number_text(*max, type) : "inf";
        return "[" + lo + ", " + hi + "]";
    }
    }
    return "";
}

} // namespace starfish::config
