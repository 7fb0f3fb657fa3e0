#include "hw/config/loader.h"

#include "hw/config/config_error.h"
#include "hw/config/json_text.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace starfish::config {

using nlohmann::json;

namespace {

bool file_exists(const std::string &path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// A JSON object key may hold a nested group or a value; a group's members are
// joined with dots. Objects are never parameter values, so there is no ambiguity.
void flatten(const json &node, const std::string &prefix, const std::string &origin,
             std::vector<std::pair<std::string, json>> &out) {
    for (auto it = node.begin(); it != node.end(); ++it) {
        std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it->is_object()) {
            flatten(*it, key, origin, out);
        } else {
            out.emplace_back(key, *it);
        }
    }
}

} // namespace

void apply_json(Config &cfg, const json &doc, const std::string &origin) {
    if (!doc.is_object()) {
        throw ConfigError(origin + ": a configuration file must hold a JSON object, got " +
                          std::string(doc.type_name()));
    }
    std::vector<std::pair<std::string, json>> entries;
    flatten(doc, "", origin, entries);
    for (const auto &[key, value] : entries) {
        if (!cfg.registry().find(key)) {
            throw ConfigError(origin + ": " + cfg.registry().unknown_key_message(key));
        }
        cfg.set(key, value, origin);
    }
}

void apply_json_text(Config &cfg, const std::string &text, const std::string &origin) {
    json doc = parse_json_text(text, origin);
    if (!doc.is_object()) {
        size_t start = text.find_first_not_of(" \t\r\n");
        throw ConfigError(origin + ":" + line_column(text, start == std::string::npos ? 0 : start) +
                          ": a configuration file must hold a JSON object, got " +
                          std::string(doc.type_name()));
    }
    apply_json(cfg, doc, origin);
}

void apply_file(Config &cfg, const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        throw ConfigError("cannot read configuration file '" + printable(path) + "'");
    }
    std::ostringstream text;
    text << in.rdbuf();
    apply_json_text(cfg, text.str(), path);
}

void apply_override(Config &cfg, const std::string &assignment) {
    auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw ConfigError("--set expects key=value, got '" + printable(assignment) + "'");
    }
    std::string key = assignment.substr(0, eq);
    cfg.set_from_text(key, assignment.substr(eq + 1), "--set " + key);
}

std::string resolve_config_path(const std::string &name, const std::string &config_dir) {
    if (file_exists(name)) {
        return name;
    }
    for (const std::string &candidate :
         {config_dir + "/" + name, config_dir + "/" + name + ".json"}) {
        if (file_exists(candidate)) {
            return candidate;
        }
    }
    throw ConfigError("configuration file '" + name +
                      "' not found (looked in the current "
                      "directory and " +
                      config_dir + ")");
}

} // namespace starfish::config
