// Host speed of the slowest 2PIO cells (docs/twophase.md): 8-byte rc, wcc and ra
// on the default machine (16 CPs + 16 IOPs, 10 MB file, contiguous layout), one
// trial each in its own process. The cyclic cells permute over a million 8-byte
// pieces through queued Memput/Memget batches; ra broadcasts every CP's share to
// every CP (160 MB delivered). Prints wall seconds, simulated seconds, events per
// wall second and pieces permuted per wall second, with the SystemC kernel's raw
// thread-switch rate measured in the same run (bench/kernel_rate.h) as the yardstick.
//   bench_twophase [file_mb] [pattern[/record_bytes] ...]   e.g. bench_twophase 1 rc wb/8192
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
    std::vector<std::string> cells;
    for (int i = 2; i < argc; ++i) {
        cells.push_back(argv[i]);
    }
    if (cells.empty()) {
        cells = {"rc", "wcc", "ra"};
    }
    std::printf("2PIO, %s MB file, 16 CPs + 16 IOPs, default configuration (8-byte records "
                "unless pattern/record_bytes)\n",
                file_mb.c_str());
    const starfish::bench::KernelRate before = starfish::bench::measure_kernel_rate();
    starfish::bench::print_kernel_rate("before the cells", before);
    std::printf("cell          wall s    cpu s   simulated s     events   events/wall s   "
                "pieces/wall s  MB/s (simulated)  switches per event\n");
    int failed = 0;
    for (const std::string &cell : cells) {
        auto slash = cell.find('/');
        std::string pattern = cell.substr(0, slash);
        std::string record = slash == std::string::npos ? "8" : cell.substr(slash + 1);
        json r = starfish::bench::timed_transfer_cell(
            {{starfish::keys::fs_kind.name, "2pio"},
             {starfish::keys::workload_pattern.name, pattern},
             {starfish::keys::workload_record_bytes.name, record},
             {starfish::keys::workload_file_mb.name, file_mb}},
            "bench_twophase");
        double wall = r["wall_s"].get<double>();
        double pieces =
            r["fs"]["local_pieces"].get<double>() + r["fs"]["remote_pieces"].get<double>();
        bool ok = r["verified"].get<bool>();
        double events = r["events"].get<double>();
        double switches_per_event =
            before.thread_switches_per_s * r["cpu_s"].get<double>() / events;
        std::printf("%-10s %9.2f %8.2f %13.4f %10.0f %15.3g %15.3g %17.2f %19.1f%s\n",
                    (pattern + " " + record).c_str(), wall, r["cpu_s"].get<double>(),
                    r["sim_s"].get<double>(), events, events / wall, pieces / wall,
                    r["mb_s"].get<double>(), switches_per_event, ok ? "" : "  DATA WRONG");
        std::fflush(stdout);
        failed += ok ? 0 : 1;
    }
    starfish::bench::print_kernel_rate("after the cells", starfish::bench::measure_kernel_rate());
    return failed ? 1 : 0;
}
