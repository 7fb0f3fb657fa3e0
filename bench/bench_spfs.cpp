// Host speed of the slowest SPFS cells (docs/reference.md §10 table, docs/spfs.md): 8-byte
// rc, wc, wbc and rcc on the default machine (16 CPs + 16 IOPs, 10 MB file,
// contiguous layout), one trial each in its own process (SystemC elaborates once
// per process). Each moves over a million 8-byte requests. Prints wall seconds,
// simulated seconds, events per wall second and requests per wall second, and
// the SystemC kernel's raw thread-switch rate measured before and after the
// cells (bench/kernel_rate.h). Each cell's CPU seconds and its host cost per
// event in kernel thread switches (CPU time per event / CPU time per switch)
// move much less than the wall figures on a busy shared host.
//   bench_spfs [file_mb] [pattern ...]     e.g. bench_spfs 1 rc
#include "bench/bench_support.h"
#include "bench/kernel_rate.h"
#include "fw/param_keys.h"

#include <systemc> // declares sc_main

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using nlohmann::json;

// The SystemC banner is printed before sc_main runs, so it is switched off by a
// static initialiser.
static const int kNoBanner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

int sc_main(int argc, char *argv[]) {
    std::string file_mb = argc > 1 ? argv[1] : "10";
    std::vector<std::string> patterns;
    for (int i = 2; i < argc; ++i) {
        patterns.push_back(argv[i]);
    }
    if (patterns.empty()) {
        patterns = {"rc", "wc", "wbc", "rcc"};
    }
    std::printf("SPFS, 8-byte records, %s MB file, 16 CPs + 16 IOPs, default configuration\n",
                file_mb.c_str());
    const starfish::bench::KernelRate before = starfish::bench::measure_kernel_rate();
    starfish::bench::print_kernel_rate("before the cells", before);
    std::printf("cell      wall s    cpu s   simulated s     events   events/wall s  "
                "requests/wall s  MB/s (simulated)  switches per event\n");
    int failed = 0;
    for (const std::string &p : patterns) {
        json r =
            starfish::bench::timed_transfer_cell({{starfish::keys::fs_kind.name, "spfs"},
                                                  {starfish::keys::workload_pattern.name, p},
                                                  {starfish::keys::workload_record_bytes.name, "8"},
                                                  {starfish::keys::workload_file_mb.name, file_mb}},
                                                 "bench_spfs");
        double wall = r["wall_s"].get<double>();
        double events = r["events"].get<double>();
        // Host cost of one event in kernel switches, both per CPU second.
        double switches_per_event =
            before.thread_switches_per_s * r["cpu_s"].get<double>() / events;
        std::printf("%-6s %9.2f %8.2f %13.4f %10.0f %15.3g %16.3g %17.2f %19.1f%s\n",
                    (p + " 8").c_str(), wall, r["cpu_s"].get<double>(), r["sim_s"].get<double>(),
                    events, events / wall, r["fs"]["requests"].get<double>() / wall,
                    r["mb_s"].get<double>(), switches_per_event,
                    r["verified"].get<bool>() ? "" : "  DATA WRONG");
        std::fflush(stdout);
        failed += r["verified"].get<bool>() ? 0 : 1;
    }
    starfish::bench::print_kernel_rate("after the cells", starfish::bench::measure_kernel_rate());
    return failed ? 1 : 0;
}
