#include "hw/config/config.h"

#include "hw/config/config_error.h"
#include "hw/config/json_text.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <iostream>

namespace starfish::config {

using nlohmann::json;

namespace {

std::string where(const std::string &source) {
    return source.empty() ? std::string() : " (from " + printable(source, 300) + ")";
}

[[noreturn]] void type_error(const ParamSpec &spec, const json &value, const std::string &source) {
    throw ConfigError("configuration key '" + spec.key + "' expects " + param_type_name(spec.type) +
                      " " + spec.allowed_text() + ", got " + printable_json(value) + where(source));
}

void check_range(const ParamSpec &spec, double v, const json &value, const std::string &source) {
    if ((spec.min && v < *spec.min) || (spec.max && v > *spec.max) || !std::isfinite(v)) {
        std::string unit = spec.unit.empty() ? "" : " " + spec.unit;
        throw ConfigError("configuration key '" + spec.key + "' = " + printable_json(value) +
                          " is out of range; allowed " + spec.allowed_text() + unit +
                          where(source));
    }
}

// A decimal number as JSON writes one, with an optional '+' and nothing around it:
// [+-]digits[.digits][e[+-]digits] (also "5." and ".5"). strtod alone would also
// take leading blanks and hexadecimal ("0x10").
bool is_decimal_number(const std::string &text) {
    size_t i = 0, n = text.size();
    auto digits = [&] {
        size_t start = i;
        while (i < n && text[i] >= '0' && text[i] <= '9') {
            ++i;
        }
        return i - start;
    };
    if (i < n && (text[i] == '+' || text[i] == '-')) {
        ++i;
    }
    size_t whole = digits();
    size_t fraction = 0;
    if (i < n && text[i] == '.') {
        ++i;
        fraction = digits();
    }
    if (whole + fraction == 0) {
        return false;
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < n && (text[i] == '+' || text[i] == '-')) {
            ++i;
        }
        if (digits() == 0) {
            return false;
        }
    }
    return i == n;
}

// The whole of text as a finite decimal number, else a ConfigError.
double number_from_text(const ParamSpec &spec, const std::string &text, const std::string &source) {
    char *end = nullptr;
    double d = std::strtod(text.c_str(), &end);
    bool whole = !text.empty() && end == text.c_str() + text.size();
    if (!whole || (std::isfinite(d) && !is_decimal_number(text))) {
        type_error(spec, json(text), source);
    }
    if (!std::isfinite(d)) {
        throw ConfigError("configuration key '" + spec.key + "' expects a finite number " +
                          spec.allowed_text() + ", got " + printable(text) + where(source));
    }
    return d;
}

} // namespace

json checked_value(const ParamSpec &spec, const json &value, const std::string &source) {
    switch (spec.type) {
    case ParamType::Int: {
        long long v = 0;
        if (value.is_number_unsigned() &&
            value.get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX)) {
            check_range(spec, value.get<double>(), value, source); // beyond every range
            type_error(spec, value, source);
        } else if (value.is_number_integer()) {
            v = value.get<long long>();
        } else if (value.is_number_float()) {
            // 3.0 is acceptable for an integer; 3.5 is not.
            double d = value.get<double>();
            if (std::floor(d) != d) {
                type_error(spec, value, source);
            }
            // Out of the range, or beyond the integers a double holds exactly.
            check_range(spec, d, value, source);
            if (std::fabs(d) > 9.0e15) {
                type_error(spec, value, source);
            }
            v = static_cast<long long>(d);
        } else {
            type_error(spec, value, source);
        }
        check_range(spec, static_cast<double>(v), value, source);
        return json(v);
    }
    case ParamType::Real: {
        if (!value.is_number()) {
            type_error(spec, value, source);
        }
        double v = value.get<double>();
        check_range(spec, v, value, source);
        return json(v);
    }
    case ParamType::Bool:
        if (spec.accepts_0_1 && value.is_number_integer() &&
            (value.get<long long>() == 0 || value.get<long long>() == 1)) {
            bool on = value.get<long long>() == 1;
            std::cerr << "warning: configuration key '" << spec.key << "' is a boolean now; "
                      << value.dump() << " read as " << (on ? "true" : "false") << where(source)
                      << " (0/1 is deprecated: write true or false)\n";
            return json(on);
        }
        if (!value.is_boolean()) {
            type_error(spec, value, source);
        }
        return value;
    case ParamType::String: {
        if (!value.is_string()) {
            type_error(spec, value, source);
        }
        if (!spec.choices.empty()) {
            const std::string &s = value.get_ref<const std::string &>();
            bool ok = false;
            for (const auto &c : spec.choices) {
                ok = ok || c == s;
            }
            if (!ok) {
                throw ConfigError("configuration key '" + spec.key +
                                  "' = " + printable_json(value) + " is not allowed; " +
                                  spec.allowed_text() + where(source));
            }
        }
        return value;
    }
    }
    type_error(spec, value, source);
}

Config::Config(const Registry &registry) : registry_(&registry) {
    for (const auto &[key, spec] : registry.all()) {
        values_[key] = spec.default_value;
        sources_[key] = "default";
    }
}

void Config::set(const std::string &key, const json &value, const std::string &source) {
    const ParamSpec &spec = registry_->at(key);
    values_[key] = checked_value(spec, value, source);
    sources_[key] = source;
}

void Config::set_from_text(const std::string &key, const std::string &text,
                           const std::string &source) {
    const ParamSpec &spec = registry_->at(key);
    if (!is_valid_utf8(text)) {
        throw ConfigError("configuration key '" + spec.key + "': the value '" + printable(text) +
                          "' is not valid UTF-8" + where(source));
    }
    json value;
    switch (spec.type) {
    case ParamType::Int: {
        errno = 0;
        char *end = nullptr;
        long long v = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE ||
            !is_decimal_number(text)) {
            // Let "1e3" or "2.0" through the float path; checked_value rejects fractions.
            value = number_from_text(spec, text, source);
        } else {
            value = v;
        }
        break;
    }
    case ParamType::Real:
        value = number_from_text(spec, text, source);
        break;
    case ParamType::Bool:
        if (text == "true" || text == "1" || text == "yes" || text == "on") {
            value = true;
        } else if (text == "false" || text == "0" || text == "no" || text == "off") {
            value = false;
        } else {
            type_error(spec, json(text), source);
        }
        break;
    case ParamType::String:
        value = text;
        break;
    }
    set(key, value, source);
}

void Config::set(IntKey key, long long value, const std::string &source) {
    set(key.name, json(value), source);
}

void Config::set(RealKey key, double value, const std::string &source) {
    set(key.name, json(value), source);
}

void Config::set(BoolKey key, bool value, const std::string &source) {
    set(key.name, json(value), source);
}

void Config::set(StringKey key, const std::string &value, const std::string &source) {
    set(key.name, json(value), source);
}

const json &Config::value_of(const char *key, ParamType type) const {
    const ParamSpec &spec = registry_->at(key);
    if (spec.type != type) {
        throw std::logic_error("configuration key '" + spec.key + "' is " +
                               param_type_name(spec.type) + ", read as " + param_type_name(type));
    }
    return values_.at(spec.key);
}

long long Config::get_int(IntKey key) const {
    return value_of(key.name, ParamType::Int).get<long long>();
}

double Config::get_real(RealKey key) const {
    return value_of(key.name, ParamType::Real).get<double>();
}

bool Config::get_bool(BoolKey key) const {
    return value_of(key.name, ParamType::Bool).get<bool>();
}

const std::string &Config::get_string(StringKey key) const {
    return value_of(key.name, ParamType::String).get_ref<const std::string &>();
}

const json &Config::get(const std::string &key) const {
    registry_->at(key);
    return values_.at(key);
}

const std::string &Config::source(const std::string &key) const {
    registry_->at(key);
    return sources_.at(key);
}

void Config::validate() const {
    std::string errors;
    for (const auto &check : registry_->checks()) {
        std::string msg = check(*this);
        if (!msg.empty()) {
            errors += (errors.empty() ? "" : "\n") + msg;
        }
    }
    if (!errors.empty()) {
        throw ConfigError(errors);
    }
}

json Config::to_flat_json() const {
    json out = json::object();
    for (const auto &[key, value] : values_) {
        out[key] = value;
    }
    return out;
}

json Config::to_nested_json() const {
    json out = json::object();
    for (const auto &[key, value] : values_) {
        out[json::json_pointer("/" + [&] {
            std::string p = key;
            for (auto &c : p) {
                if (c == '.') {
                    c = '/';
                }
            }
            return p;
        }())] = value;
    }
    return out;
}

} // namespace starfish::config
