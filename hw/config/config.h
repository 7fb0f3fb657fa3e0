#pragma once
// The effective configuration: a value for every registered parameter, with the
// place each value came from. Values are validated when set.

#include "hw/config/key.h"
#include "hw/config/registry.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace starfish::config {

class Config {
public:
    // Starts from every parameter's registered default.
    explicit Config(const Registry &registry);

    const Registry &registry() const { return *registry_; }

    // Sets a value after checking its type and range; `source` says where it came
    // from ("default.json", "--set", ...) for listings and error messages. The
    // string-keyed forms are for keys known only at run time (configuration files,
    // --set, study axes).
    void set(const std::string &key, const nlohmann::json &value, const std::string &source);
    void set(IntKey key, long long value, const std::string &source);
    void set(RealKey key, double value, const std::string &source);
    void set(BoolKey key, bool value, const std::string &source);
    void set(BoolKey key, const char *text, const std::string &source) = delete; // not a bool
    void set(StringKey key, const std::string &value, const std::string &source);
    // Parses text as the parameter's type, then sets it (used by --set key=value).
    void set_from_text(const std::string &key, const std::string &text, const std::string &source);

    // The value of a parameter, read as the type its key declares (hw/config/key.h).
    // A key of another type than the registered parameter's is a programming error
    // (std::logic_error); so is an Int read as a Real: convert at the site.
    long long get_int(IntKey key) const;
    double get_real(RealKey key) const;
    bool get_bool(BoolKey key) const;
    const std::string &get_string(StringKey key) const;
    // Any parameter as JSON, by a name known at run time (listings, reports).
    const nlohmann::json &get(const std::string &key) const;
    const std::string &source(const std::string &key) const;

    // Runs the registry's cross-parameter checks; throws ConfigError listing all failures.
    void validate() const;

    // {"disk.rpm": 4002, ...} sorted by key.
    nlohmann::json to_flat_json() const;
    // {"disk": {"rpm": 4002}, ...}
    nlohmann::json to_nested_json() const;

private:
    const nlohmann::json &value_of(const char *key, ParamType type) const;

    const Registry *registry_;
    std::map<std::string, nlohmann::json> values_;
    std::map<std::string, std::string> sources_;
};

// Checks a JSON value against a parameter; returns a normalised value (Int stays
// integer, Real becomes double) or throws ConfigError naming the key and the range.
nlohmann::json checked_value(const ParamSpec &spec, const nlohmann::json &value,
                             const std::string &source);

} // namespace starfish::config
