#include "hw/config/registry.h"

#include "hw/config/config.h"
#include "hw/config/config_error.h"
#include "hw/config/json_text.h"
#include "hw/config/name_hint.h"

#include <algorithm>

namespace starfish::config {

void Registry::add(ParamSpec spec) {
    if (spec.key.empty() || spec.meaning.empty()) {
        throw std::logic_error("parameter declared without key or meaning: '" + spec.key + "'");
    }
    if (params_.count(spec.key)) {
        throw std::logic_error("parameter declared twice: " + spec.key);
    }
    // A default outside its own range is a programming error, caught at start-up.
    spec.default_value = checked_value(spec, spec.default_value, "declared default");
    std::string key = spec.key;
    params_.emplace(key, std::move(spec));
}

namespace {

// An integer or real parameter with a unit and a range.
ParamSpec numeric_spec(const std::string &name, ParamType type, nlohmann::json def,
                       const std::string &unit, Registry::Range range, const std::string &meaning,
                       const std::string &provenance) {
    ParamSpec s;
    s.key = name;
    s.type = type;
    s.default_value = std::move(def);
    s.unit = unit;
    s.min = range.min;
    s.max = range.max;
    s.meaning = meaning;
    s.provenance = provenance;
    return s;
}

} // namespace

ParamSpec &Registry::add_int(IntKey key, long long def, const std::string &unit, Range range,
                             const std::string &meaning, const std::string &provenance) {
    add(numeric_spec(key.name, ParamType::Int, def, unit, range, meaning, provenance));
    return params_.at(key.name);
}

ParamSpec &Registry::add_real(RealKey key, double def, const std::string &unit, Range range,
                              const std::string &meaning, const std::string &provenance) {
    add(numeric_spec(key.name, ParamType::Real, def, unit, range, meaning, provenance));
    return params_.at(key.name);
}

ParamSpec &Registry::add_bool(BoolKey key, bool def, const std::string &meaning,
                              const std::string &provenance) {
    ParamSpec s;
    s.key = key.name;
    s.type = ParamType::Bool;
    s.default_value = def;
    s.meaning = meaning;
    s.provenance = provenance;
    add(std::move(s));
    return params_.at(key.name);
}

ParamSpec &Registry::add_string(StringKey key, const std::string &def,
                                std::vector<std::string> choices, const std::string &meaning,
                                const std::string &provenance) {
    ParamSpec s;
    s.key = key.name;
    s.type = ParamType::String;
    s.default_value = def;
    s.choices = std::move(choices);
    s.meaning = meaning;
    s.provenance = provenance;
    add(std::move(s));
    return params_.at(key.name);
}

void Registry::add_check(CrossCheck check) {
    checks_.push_back(std::move(check));
}

const ParamSpec *Registry::find(const std::string &key) const {
    auto it = params_.find(key);
    return it == params_.end() ? nullptr : &it->second;
}

const ParamSpec &Registry::at(const std::string &key) const {
    const ParamSpec *spec = find(key);
    if (!spec) {
        throw ConfigError(unknown_key_message(key));
    }
    return *spec;
}

std::string Registry::unknown_key_message(const std::string &key) const {
    std::string msg = "unknown configuration key '" + printable(key) + "'";
    std::string hint = closest_key(key);
    if (!hint.empty()) {
        msg += " (did you mean '" + hint + "'?)";
    }
    return msg;
}

std::string Registry::closest_key(const std::string &key) const {
    std::vector<std::string> keys;
    keys.reserve(params_.size());
    for (const auto &entry : params_) {
        keys.push_back(entry.first);
    }
    return closest_name(key, keys);
}

} // namespace starfish::config
