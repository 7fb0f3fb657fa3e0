#include "sim/cli/cmd_config.h"

#include "sim/cli/common.h"
#include "sim/report/run_result.h"
#include "sim/runner/host_clock.h"

#include <algorithm>
#include <iomanip>
#include <memory>
#include <ostream>

namespace starfish::sim {

using nlohmann::json;

namespace {

struct ConfigCommandOptions {
    CommonOptions common;
    std::string explain;
};

std::string value_text(const json &v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

json describe(const config::Config &cfg, const config::ParamSpec &spec) {
    return json{{"key", spec.key},
                {"value", cfg.get(spec.key)},
                {"type", config::param_type_name(spec.type)},
                {"unit", spec.unit},
                {"default", spec.default_value},
                {"allowed", spec.allowed_text()},
                {"source", cfg.source(spec.key)},
                {"meaning", spec.meaning},
                {"provenance", spec.provenance}};
}

void print_table(std::ostream &out, const config::Config &cfg) {
    size_t wk = 3, wv = 5, wu = 4, wd = 7;
    for (const auto &[key, spec] : cfg.registry().all()) {
        wk = std::max(wk, key.size());
        wv = std::max(wv, value_text(cfg.get(key)).size());
        wu = std::max(wu, spec.unit.size());
        wd = std::max(wd, value_text(spec.default_value).size());
    }
    out << std::left << std::setw(static_cast<int>(wk)) << "KEY"
        << "  " << std::setw(static_cast<int>(wv)) << "VALUE"
        << "  " << std::setw(static_cast<int>(wu)) << "UNIT"
        << "  " << std::setw(static_cast<int>(wd)) << "DEFAULT"
        << "  MEANING\n";
    for (const auto &[key, spec] : cfg.registry().all()) {
        std::string value = value_text(cfg.get(key));
        bool changed = cfg.get(key) != spec.default_value;
        out << std::setw(static_cast<int>(wk)) << key << "  " << std::setw(static_cast<int>(wv))
            << value << "  " << std::setw(static_cast<int>(wu)) << spec.unit << "  "
            << std::setw(static_cast<int>(wd)) << value_text(spec.default_value) << "  "
            << spec.meaning;
        if (changed) {
            out << " [set by " << cfg.source(key) << "]";
        }
        out << "\n";
    }
    out << cfg.registry().all().size() << " parameters; `starfish config --explain KEY` gives "
        << "allowed values and provenance\n";
}

void print_explain(std::ostream &out, const config::Config &cfg, const config::ParamSpec &spec) {
    out << spec.key << "\n"
        << "  value:      " << value_text(cfg.get(spec.key)) << " " << spec.unit << "  (from "
        << cfg.source(spec.key) << ")\n"
        << "  default:    " << value_text(spec.default_value) << " " << spec.unit << "\n"
        << "  type:       " << config::param_type_name(spec.type) << "\n"
        << "  allowed:    " << spec.allowed_text() << "\n"
        << "  meaning:    " << spec.meaning << "\n"
        << "  provenance: " << spec.provenance << "\n";
}

int run_config(const ConfigCommandOptions &opts) {
    HostClock clock;
    config::Config cfg = load_config(opts.common);
    OutputTarget json_out = check_output(opts.common.json_path, "--json");
    RunResult result("config", cfg);
    if (!opts.explain.empty()) {
        const config::ParamSpec &spec = cfg.registry().at(opts.explain);
        print_explain(opts.common.human(), cfg, spec);
        result.doc()["parameters"] = json::array({describe(cfg, spec)});
    } else {
        print_table(opts.common.human(), cfg);
        json params = json::array();
        for (const auto &[key, spec] : cfg.registry().all()) {
            params.push_back(describe(cfg, spec));
        }
        result.doc()["parameters"] = params;
    }
    if (!opts.common.json_path.empty()) {
        HostStats host;
        host.wall_s = clock.elapsed_s();
        result.set_host(host);
        result.write(json_out);
    }
    return kExitOk;
}

} // namespace

void add_config_command(CLI::App &app, int &exit_status) {
    auto opts = std::make_shared<ConfigCommandOptions>();
    CLI::App *cmd = app.add_subcommand(
        "config", "print the effective configuration: every key with value, unit, default and "
                  "meaning");
    add_common_options(cmd, opts->common);
    cmd->add_option("--explain", opts->explain,
                    "describe one key in full (type, allowed values, provenance)");
    cmd->callback([opts, &exit_status] { exit_status = run_config(*opts); });
}

} // namespace starfish::sim
