#pragma once
// Reading configuration files and command-line overrides into a Config.
//
// Files are JSON objects; keys may be nested ({"disk": {"rpm": 4002}}) or dotted
// ({"disk.rpm": 4002}). Later layers override earlier ones: registered defaults,
// then each file in order, then each --set in order.

#include "hw/config/config.h"

#include <string>
#include <vector>

namespace starfish::config {

// Applies a JSON document (already parsed) to cfg; `origin` names it in errors.
void apply_json(Config &cfg, const nlohmann::json &doc, const std::string &origin);
// Parses text as JSON (errors give origin:line:column) and applies it.
void apply_json_text(Config &cfg, const std::string &text, const std::string &origin);
// Reads and applies a file.
void apply_file(Config &cfg, const std::string &path);
// Applies "key=value".
void apply_override(Config &cfg, const std::string &assignment);

// Where `name` refers to a file: itself if it exists, else <config_dir>/<name>
// or <config_dir>/<name>.json. Throws ConfigError when none exists.
std::string resolve_config_path(const std::string &name, const std::string &config_dir);

} // namespace starfish::config
