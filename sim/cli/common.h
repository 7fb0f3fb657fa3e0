#pragma once
// Options every subcommand takes: --config FILE (repeatable), --set key=value
// (repeatable) and --json FILE ("-" for standard output).

#include "hw/config/config.h"

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

namespace starfish::sim {

struct CommonOptions {
    std::vector<std::string> config_files;
    std::vector<std::string> overrides;
    std::string json_path;

    // Set when another output of the command (--csv -, --markdown -) is standard
    // output.
    bool other_output_on_stdout = false;

    // Human-readable output goes to stderr when a result goes to stdout, so
    // `--json -` output can be piped into a JSON tool unmixed.
    std::ostream &human() const;
};

void add_common_options(CLI::App *cmd, CommonOptions &opts);
// --config and --set only (commands whose JSON output is something else).
void add_config_options(CLI::App *cmd, CommonOptions &opts);

// A CLI11 check for options naming a directory: "" is refused (it would
// otherwise fall back to a default without a word).
CLI::Validator non_empty_directory_name();

// --no-memory-check: run even when the host-memory estimate exceeds what the
// machine has (sim/workload/host_memory.h).
void add_memory_check_option(CLI::App *cmd, bool &no_memory_check);

// Registered defaults, then default.json, then each --config file, then each
// --set; validated. Throws config::ConfigError (exit status 2).
config::Config load_config(const CommonOptions &opts);

// Exit status of the starfish command for each outcome.
enum ExitStatus { kExitOk = 0, kExitRunFailed = 1, kExitUsage = 2 };

} // namespace starfish::sim
