#include "hw/config/loader.h"

#include "hw/config/config_error.h"

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

std::string line_col(const std::string &text, size_t byte) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < text.size() && i + 1 < byte; ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return std::to_string(line) + ":" + std::to_string(col);
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
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error &e) {
        std::string what = e.what();
        // nlohmann's message starts with "[json.exception.parse_error.101] parse error at ..."
        auto pos = what.find("] ");
        std::string detail = pos == std::string::npos ? what : what.substr(pos + 2);
        throw ConfigError(origin + ":" + line_col(text, e.byte) + ": malformed JSON: " + detail);
    }
    apply_json(cfg, doc, origin);
}

void apply_file(Config &cfg, const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        throw ConfigError("cannot read configuration file '" + path + "'");
    }
    std::ostringstream text;
    text << in.rdbuf();
    apply_json_text(cfg, text.str(), path);
}

void apply_override(Config &cfg, const std::string &assignment) {
    auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw ConfigError("--set expects key=value, got '" + assignment + "'");
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
