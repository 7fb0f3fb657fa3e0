#pragma once
// Whole-machine transfer trials for the system tests (DDIO, SPFS, 2PIO): a cell is
// a list of parameter settings and a trial number; run_cells runs each in its own
// forked process, two at a time.

#include "hw/config/config.h"
#include "sim/platform/machine.h"
#include "tests/support/study_patterns.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace starfish::testing {

using Settings = std::vector<std::pair<std::string, std::string>>;

struct Cell {
    Settings settings;
    int trial = 0;

    std::string label() const;
    // The last value set for `key`, or `def`.
    std::string get(const std::string &key, const std::string &def) const;
};

Cell cell(Settings base, const Settings &more, int trial = 0);

// Every pattern (kAllPatterns) at 8- and 8192-byte records under each of
// `variants` (the outermost loop) over `base`. Trial numbers go round 0 ..
// trial_cycle - 1, so a random layout is drawn anew from cell to cell.
std::vector<Cell> every_pattern_cells(const Settings &base, const std::vector<Settings> &variants,
                                      int trial_cycle);

// The default configuration with `settings` applied and validated (throws on error).
config::Config make_config(const Settings &settings);

// What make_config(base + more) throws, "" when that configuration is valid.
std::string config_error(Settings base, const Settings &more);

// A trial document without what the host decides (its CPU time): equal for two
// trials exactly when their simulations are.
nlohmann::json simulated_part(nlohmann::json trial);

// Runs each cell as one trial in its own process (two at a time). The trial
// document gains file_bytes and cp_count, and whatever `annotate` adds from the
// configuration. A trial that fails (hal_fail, deadlock, bad configuration) comes
// back as {"error": text}, so the assertion can name its cell.
std::vector<nlohmann::json>
run_cells(const std::vector<Cell> &cells,
          const std::function<void(platform::Machine &)> &before_check = {},
          const std::function<void(const config::Config &, nlohmann::json &)> &annotate = {});

} // namespace starfish::testing
