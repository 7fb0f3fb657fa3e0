// Host cost of the DMA engine's RTL (ni.model = rtl, docs/rtl.md): one DDIO
// transfer on the default machine (16 CPs + 16 IOPs), once with the TLM network
// interface and once with the verilated RTL, each trial in its own process.
// Prints wall and CPU seconds of each and the RTL/TLM ratios (CPU seconds move
// less than wall seconds on a busy shared host), and checks that both simulated
// the same thing (simulated seconds, MB/s, events: docs/rtl.md, "Equivalence").
// A third argument `both` also puts the routers in RTL for the RTL run
// (net.model = rtl: the whole machine's Verilog against the TLM machine).
//   bench_ni_dma [file_mb] [pattern] [both]      e.g. bench_ni_dma 10 rb both
#include "bench/bench_support.h"
#include "bench/kernel_rate.h"
#include "fw/param_keys.h"
#include "tlm_models/net/net_params.h"
#include "tlm_models/node/network_interface_params.h"

#include <systemc> // declares sc_main

#include <cstdio>
#include <cstdlib>
#include <string>

using nlohmann::json;

// The SystemC banner is printed before sc_main runs, so it is switched off by a
// static initialiser.
static const int kNoBanner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

int sc_main(int argc, char *argv[]) {
    const std::string file_mb = argc > 1 ? argv[1] : "1";
    const std::string pattern = argc > 2 ? argv[2] : "rb";
    const bool both = argc > 3 && std::string(argv[3]) == "both";
    std::printf("DDIO %s, %s MB file, 16 CPs + 16 IOPs, default configuration%s\n", pattern.c_str(),
                file_mb.c_str(), both ? "; the RTL run with net.model = rtl too" : "");
    starfish::bench::print_kernel_rate("before the runs", starfish::bench::measure_kernel_rate());
    std::printf("ni.model   wall s    cpu s   simulated s  MB/s (simulated)     events\n");
    json r[2];
    const char *models[2] = {"tlm", "rtl"};
    for (int i = 0; i < 2; ++i) {
        r[i] = starfish::bench::timed_transfer_cell(
            {{starfish::keys::fs_kind.name, "ddio"},
             {starfish::keys::workload_pattern.name, pattern},
             {starfish::keys::workload_file_mb.name, file_mb},
             {starfish::keys::ni_model.name, models[i]},
             {starfish::keys::net_model.name, both && i == 1 ? "rtl" : "packet"}},
            "bench_ni_dma");
        std::printf(
            "%-8s %8.2f %8.2f %13.6f %17.3f %10.0f%s\n", models[i], r[i]["wall_s"].get<double>(),
            r[i]["cpu_s"].get<double>(), r[i]["sim_s"].get<double>(), r[i]["mb_s"].get<double>(),
            r[i]["events"].get<double>(), r[i]["verified"].get<bool>() ? "" : "  DATA WRONG");
        std::fflush(stdout);
    }
    std::printf("RTL/TLM: wall %.2f, cpu %.2f\n",
                r[1]["wall_s"].get<double>() / r[0]["wall_s"].get<double>(),
                r[1]["cpu_s"].get<double>() / r[0]["cpu_s"].get<double>());
    starfish::bench::print_kernel_rate("after the runs", starfish::bench::measure_kernel_rate());
    const bool same = r[0]["sim_s"] == r[1]["sim_s"] && r[0]["mb_s"] == r[1]["mb_s"] &&
                      r[0]["events"] == r[1]["events"];
    if (!same) {
        std::printf("THE TWO RUNS DIFFER\n");
    }
    return same && r[0]["verified"].get<bool>() && r[1]["verified"].get<bool>() ? 0 : 1;
}
