// Speed and capacity of the torus model (tlm_models/net/packet_torus.h) on the paper's
// 6x6 machine: simulated flits and packets per wall second for uniform random
// traffic (packet-level model, the modeled network of modeled_torus.h, and the
// flit-level reference for scale), then the
// uniform-random latency-load curve with its saturation throughput.
// Every speed figure is also given per CPU second as a fraction of the SystemC
// kernel's own method-run rate measured in the same run (bench/kernel_rate.h; the
// torus is one SC_METHOD), which moves far less than wall figures on a shared host.
// Usage: bench_net [--quick]
#include "bench/kernel_rate.h"
#include "hw/config/loader.h"
#include "sim/parameters.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/net_traffic.h"
#include "tlm_models/net/net_params.h"

#include <systemc>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace starfish;
using nlohmann::json;

static const int kNoBanner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

namespace {

config::Config machine(const char *model) {
    config::Config cfg(sim::parameter_registry());
    config::apply_json_text(cfg, sim::default_config_text(), "default.json");
    cfg.set(keys::net_model, model, "bench");
    return cfg;
}

json point(const config::Config &cfg, double load, uint32_t bytes, int64_t cycles) {
    net::TrafficSpec spec;
    spec.load = load;
    spec.packet_bytes = bytes;
    spec.measure_cycles = cycles;
    spec.warmup_cycles = cycles / 5;
    spec.drain_cycles = 2 * cycles;
    return sim::run_isolated([=] {
        const double cpu_start = bench::process_cpu_seconds();
        json p = sim::run_traffic_point(cfg, spec, 0, false);
        p["host"]["cpu_s"] = bench::process_cpu_seconds() - cpu_start;
        return p;
    });
}

void speed(const char *model, double load, uint32_t bytes, int64_t cycles,
           const bench::KernelRate &kernel) {
    json p = point(machine(model), load, bytes, cycles);
    const json &h = p["host"];
    double wall = h["wall_s"].get<double>(), cpu = h["cpu_s"].get<double>();
    double flits = h["flits"].get<double>(), packets = h["packets"].get<double>();
    std::printf("%-7s %6u B  load %.2f  %9.0f packets %11.0f flits  %7.3f s wall  "
                "%10.3g flits/s %9.3g packets/s  packets per CPU s = 1/%.0f of kernel method runs",
                model, bytes, load, packets, flits, wall, flits / wall, packets / wall,
                kernel.method_runs_per_s / (packets / cpu));
    if (h["events"].get<double>() > 0) {
        std::printf("  %.1f events/packet", h["events"].get<double>() / packets);
    }
    std::printf("\n");
}

void curve(uint32_t bytes, int64_t cycles, double step) {
    config::Config cfg = machine("packet");
    std::printf("\nuniform random, 6x6, %u-byte packets, %lld cycles measured per point\n", bytes,
                (long long)cycles);
    std::printf("  offered  accepted  accepted B/s  mean lat  p99 lat\n");
    double best = 0, best_bps = 0, best_at = 0;
    int points = int(1.0 / step + 0.5);
    for (int i = 1; i <= points; ++i) {
        double load = i == points ? 1.0 : i * step;
        json p = point(cfg, load, bytes, cycles);
        double acc = p["accepted_load"].get<double>();
        std::printf("  %7.2f %9.3f %13.4g %9.1f %8u%s\n", load, acc,
                    p["accepted_bytes_per_s"].get<double>(), p["mean_latency_cycles"].get<double>(),
                    p["p99_latency_cycles"].get<unsigned>(),
                    p["complete"].get<bool>() ? "" : "  (not drained)");
        if (acc > best) {
            best = acc;
            best_bps = p["accepted_bytes_per_s"].get<double>();
            best_at = load;
        }
    }
    std::printf("saturation throughput: %.3f flits/node/cycle = %.3g payload B/s in all "
                "(%.3g per node) at offered %.2f\n",
                best, best_bps, best_bps / 36, best_at);
}

} // namespace

int sc_main(int argc, char *argv[]) {
    bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    int64_t scale = quick ? 1 : 5;
    const bench::KernelRate kernel = bench::measure_kernel_rate();
    std::printf("SystemC kernel: %.3g thread switches, %.3g method runs per CPU second\n",
                kernel.thread_switches_per_s, kernel.method_runs_per_s);
    std::printf("simulation speed, uniform random traffic on the 6x6 torus (net.noise_cycles "
                "default)\n");
    speed("packet", 0.3, 64, 20000 * scale, kernel);
    speed("packet", 0.3, 1024, 20000 * scale, kernel);
    speed("packet", 0.3, 8192, 100000 * scale, kernel);
    speed("packet", 0.9, 8192, 100000 * scale, kernel);
    speed("modeled", 0.3, 64, 20000 * scale, kernel);
    speed("modeled", 0.3, 8192, 100000 * scale, kernel);
    speed("modeled", 0.9, 8192, 100000 * scale, kernel);
    speed("flit", 0.3, 64, 4000 * scale, kernel);
    speed("flit", 0.3, 8192, 20000 * scale, kernel);
    curve(64, 10000 * scale, 0.05);
    curve(8192, 100000 * scale, 0.1);
    return 0;
}
