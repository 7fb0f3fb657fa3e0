#include "hw/config/param_spec.h"

#include "hw/config/json_text.h"

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
// Every digit a bound has (1048576, not 1.04858e+06).
std::string number_text(double v, ParamType type) {
    return type == ParamType::Int ? std::to_string(static_cast<long long>(v))
                                  : exact_number_text(v);
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
