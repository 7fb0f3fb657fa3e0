#pragma once
// The name of a configuration parameter together with the type it is declared
// and read as. Each component spells each of its keys once, beside its parameters:
//
//   namespace starfish::keys {
//   inline constexpr config::IntKey disk_cylinders{"disk.cylinders"};
//   }
//
// (the constant's name is the key with '.' as '_'; the firmware's keys are built
// from its FW_KEY_* macros). Registry::add_int and Config::get_int take only an
// IntKey, and so on for each type, so a misspelt constant or a key read as the
// wrong type does not compile; an Int read as a number is converted at the site
// (static_cast<double>(cfg.get_int(key))). The CTest config_keys
// (scripts/check_config_keys.py) fails on any other literal of a registered key in
// the production sources (docs/configuration.md, "Keys").

#include <string>

namespace starfish::config {

template <class T> struct Key {
    // Explicit, so that a bare string literal is never taken for a key: a key read
    // by a name known only at run time (the firmware's hal_config_*) says so with
    // IntKey{name}, and is checked against the registry when it is read.
    explicit constexpr Key(const char *key_name) : name(key_name) {}
    const char *name;
};

using IntKey = Key<long long>;
using RealKey = Key<double>;
using BoolKey = Key<bool>;
using StringKey = Key<std::string>;

} // namespace starfish::config
