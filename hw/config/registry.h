#pragma once
// The set of every configuration parameter the simulator knows. Each component
// declares its own parameters into it (see sim/platform/parameters.cpp), so the
// configuration files, `starfish config` and validation all come from one place.

#include "hw/config/key.h"
#include "hw/config/param_spec.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace starfish::config {

class Config;

class Registry {
public:
    // A check across several parameters; returns an error message or "" when fine.
    using CrossCheck = std::function<std::string(const Config &)>;

    struct Range {
        double min;
        double max;
    };

    // A parameter whose type is known only at run time (the firmware's table,
    // fw/include/fw/params.h).
    void add(ParamSpec spec);
    ParamSpec &add_int(IntKey key, long long def, const std::string &unit, Range range,
                       const std::string &meaning, const std::string &provenance);
    ParamSpec &add_real(RealKey key, double def, const std::string &unit, Range range,
                        const std::string &meaning, const std::string &provenance);
    ParamSpec &add_bool(BoolKey key, bool def, const std::string &meaning,
                        const std::string &provenance);
    ParamSpec &add_string(StringKey key, const std::string &def, std::vector<std::string> choices,
                          const std::string &meaning, const std::string &provenance);
    void add_check(CrossCheck check);

    const ParamSpec *find(const std::string &key) const;
    const ParamSpec &at(const std::string &key) const; // throws ConfigError if unknown
    // Parameters sorted by key.
    const std::map<std::string, ParamSpec> &all() const { return params_; }
    const std::vector<CrossCheck> &checks() const { return checks_; }

    // The closest known key, for "did you mean" hints ("" if nothing is close).
    std::string closest_key(const std::string &key) const;
    std::string unknown_key_message(const std::string &key) const;

private:
    std::map<std::string, ParamSpec> params_;
    std::vector<CrossCheck> checks_;
};

} // namespace starfish::config
