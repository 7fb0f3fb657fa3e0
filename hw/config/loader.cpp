#include "hw/config/loader.h"

#include "hw/config/config_error.h"
#include "hw/config/input_file.h"
#include "hw/config/json_text.h"
#include "hw/config/name_hint.h"

#include <set>

namespace starfish::config {

using nlohmann::json;

namespace {

// Configuration files are a few KB; anything near this is not one.
constexpr size_t kMaxConfigBytes = 16u << 20;

bool missing(const std::string &problem) {
    return problem.rfind("does not exist", 0) == 0;
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
    std::set<std::string> seen;
    for (const auto &[key, value] : entries) {
        if (!cfg.registry().find(key)) {
            throw ConfigError(origin + ": " + cfg.registry().unknown_key_message(key));
        }
        if (!seen.insert(key).second) {
            throw ConfigError(origin + ": key '" + key +
                              "' is given twice (nested and dotted); which value is meant?");
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
    InputFile in = read_regular_file(path, kMaxConfigBytes);
    if (!in.ok) {
        throw ConfigError("configuration file '" + printable(path) + "' " + in.problem);
    }
    apply_json_text(cfg, in.text, path);
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
    // A path that exists but is no regular file (a directory, a FIFO, a link loop)
    // is reported as what it is, not looked up further.
    std::string problem = regular_file_problem(name);
    if (problem.empty()) {
        return name;
    }
    if (!missing(problem)) {
        throw ConfigError("configuration file '" + printable(name) + "' " + problem);
    }
    for (const std::string &candidate :
         {config_dir + "/" + name, config_dir + "/" + name + ".json"}) {
        if (regular_file_problem(candidate).empty()) {
            return candidate;
        }
    }
    throw ConfigError("configuration file '" + printable(name) +
                      "' not found (looked in the current directory and " + config_dir + ")" +
                      (name.find('/') == std::string::npos ? shipped_names_hint(name, config_dir)
                                                           : std::string()));
}

} // namespace starfish::config
