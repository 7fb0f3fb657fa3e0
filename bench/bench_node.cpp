// Host speed of the node model: firmware thread switches, device register
// accesses and NI messages simulated per wall second, and each per CPU second as
// a fraction of the SystemC kernel's raw thread-switch rate measured in the same
// run (bench/kernel_rate.h). Each figure comes from its own forked run (SystemC
// elaborates once per process).
#include "bench/kernel_rate.h"
#include "sim/runner/isolated_run.h"
#include "tests/node/fw_tests.h"
#include "tests/node/node_bench.h"
#include "tlm_models/node/node_memory_params.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace starfish;
using nlohmann::json;

namespace {

json timed(testing::NodeBenchSpec spec) {
    auto start = std::chrono::steady_clock::now();
    const double cpu_start = bench::process_cpu_seconds();
    json r = testing::run_node_bench(spec);
    r["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r["cpu_s"] = bench::process_cpu_seconds() - cpu_start;
    return r;
}

// "= 1/N of the kernel's thread-switch rate" for `count` things in the run's CPU time.
void print_ratio(double count, const json &r, const bench::KernelRate &kernel) {
    std::printf("  [per CPU s: 1/%.1f of the kernel's thread switches]\n",
                kernel.thread_switches_per_s / (count / r["cpu_s"].get<double>()));
}

void require_ok(const json &r, const char *what) {
    if (r["failure"] != "") {
        std::fprintf(stderr, "bench_node: %s failed: %s\n", what,
                     r["failure"].get<std::string>().c_str());
        std::exit(1);
    }
}

} // namespace

// The SystemC banner is printed before sc_main runs, so it is switched off by a
// static initialiser.
static const int kNoBanner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

int sc_main(int argc, char *argv[]) {
    double scale = argc > 1 ? std::atof(argv[1]) : 1.0; // bench_node [scale]
    uint32_t rounds = static_cast<uint32_t>(200000 * scale);
    uint32_t reads = static_cast<uint32_t>(1000000 * scale);
    uint32_t small_msgs = static_cast<uint32_t>(100000 * scale);
    uint32_t block_msgs = static_cast<uint32_t>(20000 * scale);
    const bench::KernelRate kernel = bench::measure_kernel_rate();
    std::printf("SystemC kernel: %.3g thread switches, %.3g method runs per CPU second\n",
                kernel.thread_switches_per_s, kernel.method_runs_per_s);

    json sw = sim::run_isolated([&] {
        testing::NodeBenchSpec spec;
        spec.mains = {fwt_bench_switch_main};
        spec.contexts = {&rounds};
        return timed(spec);
    });
    require_ok(sw, "thread switches");
    double switches = sw["nodes"][0]["stats"]["cpu"]["context_switches"];
    std::printf("thread switches:   %10.0f in %6.3f s wall = %10.0f switches/s (%.3f s simulated)",
                switches, sw["wall_s"].get<double>(), switches / sw["wall_s"].get<double>(),
                sw["sim_ps"].get<double>() * 1e-12);
    print_ratio(switches, sw, kernel);

    json rg = sim::run_isolated([&] {
        testing::NodeBenchSpec spec;
        spec.mains = {fwt_bench_regs_main};
        spec.contexts = {&reads};
        return timed(spec);
    });
    require_ok(rg, "register reads");
    std::printf("register reads:    %10u in %6.3f s wall = %10.0f accesses/s", reads,
                rg["wall_s"].get<double>(), reads / rg["wall_s"].get<double>());
    print_ratio(reads, rg, kernel);

    for (uint32_t body : {0u, 8192u}) {
        fwt_ni_args_t a{};
        a.sender = 0;
        a.receiver = 1;
        a.messages = body == 0 ? small_msgs : block_msgs;
        a.n_sizes = 1;
        a.body_sizes[0] = body;
        a.hdr_bytes = 16;
        a.ring_slots = 64;
        a.use_tx_irq = 1;
        json ni = sim::run_isolated([&] {
            testing::NodeBenchSpec spec;
            spec.mains = {fwt_ni_exchange_main, fwt_ni_exchange_main};
            spec.contexts = {&a, &a};
            spec.settings = {{keys::machine_node_memory_kb.name, "262144"}};
            return timed(spec);
        });
        require_ok(ni, "NI messages");
        if (ni["nodes"][1]["exports"]["bodies_bad"] != 0) {
            std::fprintf(stderr, "bench_node: corrupted bodies\n");
            return 1;
        }
        std::printf("NI messages (%4u B body): %8u in %6.3f s wall = %10.0f messages/s "
                    "(%.0f MB/s simulated)",
                    body, a.messages, ni["wall_s"].get<double>(),
                    a.messages / ni["wall_s"].get<double>(),
                    a.messages * double(body) / (1 << 20) / (ni["sim_ps"].get<double>() * 1e-12));
        print_ratio(a.messages, ni, kernel);
    }
    return 0;
}
