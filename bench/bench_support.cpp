#include "bench/bench_support.h"

#include "bench/kernel_rate.h"

#include "sim/parameters.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/transfer_trial.h"

#include <chrono>
#include <cstdio>

namespace starfish::bench {

using nlohmann::json;

json timed_transfer_cell(const Settings &settings, const std::string &origin) {
    return sim::run_isolated([&] {
        config::Config cfg(sim::parameter_registry());
        for (const auto &[k, v] : settings) {
            cfg.set_from_text(k, v, origin);
        }
        cfg.validate();
        double cpu_start = process_cpu_seconds();
        auto start = std::chrono::steady_clock::now();
        json t = sim::run_transfer_trial(cfg, 0, {});
        double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return json{{"verified", t["verified"]},
                    {"wall_s", wall},
                    {"cpu_s", process_cpu_seconds() - cpu_start},
                    {"sim_s", t["sim_s"]},
                    {"mb_s", t["mb_s"]},
                    {"events", t["events"]},
                    {"fs", t["fs"]}};
    });
}

void print_kernel_rate(const char *when, const KernelRate &k) {
    std::printf("SystemC kernel %s: %.3g thread switches, %.3g method runs per CPU second\n", when,
                k.thread_switches_per_s, k.method_runs_per_s);
    std::fflush(stdout);
}

} // namespace starfish::bench
