#include "tests/support/transfer_cells.h"

#include "fw/param_keys.h"
#include "hw/machine_keys.h"
#include "sim/parameters.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/transfer_trial.h"

#include <cmath>
#include <exception>

namespace starfish::testing {

using nlohmann::json;

std::string Cell::label() const {
    std::string s = "trial " + std::to_string(trial);
    for (const auto &[k, v] : settings) {
        s += " " + k + "=" + v;
    }
    return s;
}

std::string Cell::get(const std::string &key, const std::string &def) const {
    std::string v = def;
    for (const auto &[k, val] : settings) {
        if (k == key) {
            v = val;
        }
    }
    return v;
}

Cell cell(Settings base, const Settings &more, int trial) {
    base.insert(base.end(), more.begin(), more.end());
    return Cell{base, trial};
}

config::Config make_config(const Settings &settings) {
    config::Config cfg(sim::parameter_registry());
    for (const auto &[k, v] : settings) {
        cfg.set_from_text(k, v, "test");
    }
    cfg.validate();
    return cfg;
}

std::string config_error(Settings base, const Settings &more) {
    base.insert(base.end(), more.begin(), more.end());
    try {
        make_config(base);
    } catch (const std::exception &e) {
        return e.what();
    }
    return "";
}

std::vector<Cell> every_pattern_cells(const Settings &base, const std::vector<Settings> &variants,
                                      int trial_cycle) {
    std::vector<Cell> cells;
    for (const Settings &variant : variants) {
        for (const char *record : {"8", "8192"}) {
            for (const char *pattern : kAllPatterns) {
                Settings more = {{"workload.pattern", pattern}, {"workload.record_bytes", record}};
                more.insert(more.end(), variant.begin(), variant.end());
                cells.push_back(cell(base, more, static_cast<int>(cells.size()) % trial_cycle));
            }
        }
    }
    return cells;
}

json simulated_part(json trial) {
    trial.erase("host_cpu_s");
    return trial;
}

std::vector<json> run_cells(const std::vector<Cell> &cells,
                            const std::function<void(platform::Machine &)> &before_check,
                            const std::function<void(const config::Config &, json &)> &annotate) {
    std::vector<sim::IsolatedJob> jobs;
    for (const Cell &c : cells) {
        jobs.push_back([c, before_check, annotate]() -> json {
            try {
                config::Config cfg = make_config(c.settings);
                json t = sim::run_transfer_trial(cfg, c.trial, before_check);
                t["file_bytes"] = std::llround(cfg.get_real(keys::workload_file_mb) * 1048576.0);
                t["cp_count"] = cfg.get_int(keys::machine_cp_count);
                if (annotate) {
                    annotate(cfg, t);
                }
                return t;
            } catch (const std::exception &e) {
                return json{{"error", e.what()}};
            }
        });
    }
    return sim::run_isolated_all(jobs, 2);
}

} // namespace starfish::testing
