#pragma once
// Random configuration input for the fuzz test (tests/config/test_config_fuzz.cpp,
// docs/configuration.md "Fuzzing"): configuration files (random keys, types and
// values; nested and dotted; malformed text, overflowing numbers, deep nesting,
// bytes that are not UTF-8), --set strings and study files, layered like the
// command line does.

#include "hw/config/config.h"
#include "hw/rng.h"

#include <optional>
#include <string>
#include <vector>

namespace starfish::testing {

struct FuzzLayer {
    enum class Kind { File, Set, Study } kind = Kind::File;
    std::string origin; // file name in messages ("fuzz3.json"); empty for --set
    std::string text;   // file contents, or the whole --set argument "key=value"
};

struct FuzzInput {
    uint64_t index = 0;
    std::vector<FuzzLayer> layers;
    // A readable rendering (bytes escaped) for failure messages.
    std::string describe() const;
};

// What loading an input did.
struct FuzzOutcome {
    bool config_error = false; // else it loaded and validated
    std::string message;       // the ConfigError's text
    std::optional<config::Config> cfg;
};

class ConfigFuzzer {
public:
    ConfigFuzzer(const config::Registry &registry, uint64_t seed);
    // Input number `index` of this seed (independent of the order they are drawn in).
    FuzzInput input(uint64_t index);
    // An input whose layers touch only keys that keep a run tiny (pattern, record
    // size, file system options, small machines on top of `small`): for the few
    // inputs that run a simulation.
    FuzzInput small_run_input(uint64_t index);

private:
    std::string file_text(hw_rng *r, bool small_run);
    std::string set_text(hw_rng *r, bool small_run);
    std::string study_text(hw_rng *r);
    std::string key(hw_rng *r, const config::ParamSpec **spec, bool small_run);
    // A value for spec (nullptr: an unknown key); typed_share of them of spec's type.
    std::string value_token(hw_rng *r, const config::ParamSpec *spec, bool as_text,
                            double typed_share);
    // A value of spec's type inside its range.
    std::string valid_value(hw_rng *r, const config::ParamSpec *spec, bool as_text);
    std::string mutate(hw_rng *r, std::string text);

    const config::Registry &registry_;
    uint64_t seed_;
    std::vector<const config::ParamSpec *> specs_;
    std::vector<const config::ParamSpec *> small_specs_;
};

// Applies the input on top of default.json the way `starfish` does (files and
// studies in order, then --set, then validation); a study layer is expanded into its
// cells. Throws whatever the loader throws other than ConfigError.
FuzzOutcome load_fuzz_input(const config::Registry &registry, const std::string &default_text,
                            const FuzzInput &in);

// Whether a configuration error message names the place of the problem: a file
// with line and column, a registered key, the unknown key, the --set argument, or
// (a usage error of the command line) the option.
// Empty when it does, else why not.
std::string unplaced_error(const config::Registry &registry, const std::string &message);

} // namespace starfish::testing
