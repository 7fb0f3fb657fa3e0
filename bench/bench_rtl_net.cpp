// Speed of the Verilog router network (net.model = rtl, docs/rtl.md) against the
// TLM engines on the paper's 6x6 machine: wall seconds of the same traffic run with
// each engine (uniform random, 64-byte and 8 KB packets, light and heavy load),
// the RTL/TLM wall-time ratios, and the RTL's simulated cycles per wall second.
// All three engines deliver the same packets at the same cycles
// (tests/rtl/test_rtl_router_equivalence.cpp), so the ratios compare equal work.
// Usage: bench_rtl_net [--quick]
#include "hw/config/loader.h"
#include "sim/parameters.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/net_traffic.h"
#include "tlm_models/net/net_params.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace starfish;
using nlohmann::json;

static const int kNoBanner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

namespace {

json point(const char *model, double load, uint32_t bytes, int64_t cycles) {
    config::Config cfg(sim::parameter_registry());
    config::apply_json_text(cfg, sim::default_config_text(), "default.json");
    cfg.set(keys::net_model, model, "bench");
    net::TrafficSpec spec;
    spec.load = load;
    spec.packet_bytes = bytes;
    spec.measure_cycles = cycles;
    spec.warmup_cycles = cycles / 5;
    spec.drain_cycles = 2 * cycles;
    return sim::run_isolated([=] { return sim::run_traffic_point(cfg, spec, 0, false); });
}

void compare(double load, uint32_t bytes, int64_t cycles) {
    json rtl = point("rtl", load, bytes, cycles);
    json flit = point("flit", load, bytes, cycles);
    json packet = point("packet", load, bytes, cycles);
    const double wr = rtl["host"]["wall_s"].get<double>();
    const double wf = flit["host"]["wall_s"].get<double>();
    const double wp = packet["host"]["wall_s"].get<double>();
    const double cycles_run = rtl["host"]["events"].get<double>(); // clocked cycles
    std::printf("%6u B  load %.2f  %8.0f packets  wall: rtl %7.3f s, flit %7.3f s, packet "
                "%7.3f s  rtl/flit %6.1f  rtl/packet %7.1f  rtl %8.3g cycles/s%s\n",
                bytes, load, rtl["host"]["packets"].get<double>(), wr, wf, wp, wr / wf, wr / wp,
                cycles_run / wr, rtl["network"] == flit["network"] ? "" : "  (STATISTICS DIFFER)");
}

} // namespace

int sc_main(int argc, char **argv) {
    (void)kNoBanner;
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    const int64_t cycles = quick ? 2000 : 10000;
    std::printf("6x6 torus, default parameters, uniform random traffic, %lld cycles measured\n",
                (long long)cycles);
    for (uint32_t bytes : {64u, 8192u}) {
        for (double load : {0.05, 0.3}) {
            compare(load, bytes, cycles);
        }
    }
    return 0;
}
