#include "hw/config/registry.h"

#include "hw/config/config.h"
#include "hw/config/config_error.h"
#include "hw/config/json_text.h"

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

ParamSpec &Registry::add_int(IntKey key, long long def, const std::string &unit, Range range,
                             const std::string &meaning, const std::string &provenance) {
    ParamSpec s;
    s.key = key.name;
    s.type = ParamType::Int;
    s.default_value = def;
    s.unit = unit;
    s.min = range.min;
    s.max = range.max;
    s.meaning = meaning;
    s.provenance = provenance;
    add(std::move(s));
    return params_.at(key.name);
}

ParamSpec &Registry::add_real(RealKey key, double def, const std::string &unit, Range range,
                              const std::string &meaning, const std::string &provenance) {
    ParamSpec s;
    s.key = key.name;
    s.type = ParamType::Real;
    s.default_value = def;
    s.unit = unit;
    s.min = range.min;
    s.max = range.max;
    s.meaning = meaning;
    s.provenance = provenance;
    add(std::move(s));
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

namespace {
size_t edit_distance(const std::string &a, const std::string &b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) {
        prev[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}
} // namespace

std::string Registry::closest_key(const std::string &key) const {
    std::string best;
    if (key.size() > 200) {
        return best; // nothing is that long; spare the quadratic distance
    }
    size_t best_dist = std::max<size_t>(3, key.size() / 4) + 1;
    for (const auto &[name, spec] : params_) {
        size_t d = edit_distance(key, name);
        if (d < best_dist) {
            best_dist = d;
            best = name;
        }
    }
    return best;
}

} // namespace starfish::config
