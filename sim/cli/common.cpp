#include "sim/cli/common.h"

#include "hw/config/loader.h"
#include "rtl/wrappers/rtl_build.h"
#include "sim/parameters.h"

#include <iostream>

namespace starfish::sim {

std::ostream &CommonOptions::human() const {
    return json_path == "-" || other_output_on_stdout ? std::cerr : std::cout;
}

void add_common_options(CLI::App *cmd, CommonOptions &opts) {
    add_config_options(cmd, opts);
    cmd->add_option("--json", opts.json_path, "write the result as JSON to FILE ('-' = stdout)");
}

CLI::Validator non_empty_directory_name() {
    return CLI::Validator(
        [](std::string &value) {
            return value.empty() ? std::string("needs a directory, got an empty name")
                                 : std::string();
        },
        "DIR");
}

void add_memory_check_option(CLI::App *cmd, bool &no_memory_check) {
    cmd->add_flag("--no-memory-check", no_memory_check,
                  "run even when the trials at once are estimated to need more host memory than "
                  "the machine has (docs/configuration.md, \"Host memory\")");
}

void add_config_options(CLI::App *cmd, CommonOptions &opts) {
    cmd->add_option("-c,--config", opts.config_files,
                    "configuration file overlaid on default.json (repeatable, applied in order; "
                    "a bare name is looked up in sim/configs)");
    cmd->add_option("-s,--set", opts.overrides,
                    "override one parameter, key=value (repeatable, applied after files)");
}

config::Config load_config(const CommonOptions &opts) {
    config::Config cfg(parameter_registry());
    config::apply_json_text(cfg, default_config_text(), "default.json");
    for (const auto &name : opts.config_files) {
        config::apply_file(cfg, config::resolve_config_path(name, config_dir()));
    }
    for (const auto &assignment : opts.overrides) {
        config::apply_override(cfg, assignment);
    }
    cfg.validate();
    rtl::require_rtl_engines(cfg);
    return cfg;
}

} // namespace starfish::sim
