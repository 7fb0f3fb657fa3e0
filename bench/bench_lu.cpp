// Host speed of the out-of-core LU decomposition (docs/lu.md) on the paper's machine
// (1024 x 1024 floats, 8 CPs, 8 IOPs, 8 disks), by default its slowest cell: SPFS,
// 16-column slabs, random-blocks layout, 1 KB blocks (four block requests per
// column). One trial in its own process; prints wall and CPU seconds, simulated
// seconds, events per wall second and the run's disk traffic, and the SystemC
// kernel's raw thread-switch rate (bench/kernel_rate.h) as the host yardstick.
//   bench_lu [fs.kind [block_bytes [slab_cols [layout [n]]]]]
//   e.g. bench_lu spfs 4096 16 random-blocks 1024
#include "bench/bench_support.h"
#include "bench/kernel_rate.h"
#include "fw/param_keys.h"
#include "hw/machine_keys.h"
#include "sim/parameters.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/lu_trial.h"
#include "sim/workload_params.h"

#include <systemc> // declares sc_main

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using nlohmann::json;

static const int kNoBanner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

namespace {

double process_cpu_seconds() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

} // namespace

int sc_main(int argc, char *argv[]) {
    std::string fs = argc > 1 ? argv[1] : "spfs";
    std::string block = argc > 2 ? argv[2] : "1024";
    std::string slab = argc > 3 ? argv[3] : "16";
    std::string layout = argc > 4 ? argv[4] : "random-blocks";
    std::string n = argc > 5 ? argv[5] : "1024";
    std::printf("LU %s x %s, %s, %s-byte blocks, %s-column slabs, %s layout; 8 CPs, 8 IOPs, 8 "
                "disks\n",
                n.c_str(), n.c_str(), fs.c_str(), block.c_str(), slab.c_str(), layout.c_str());
    const starfish::bench::KernelRate before = starfish::bench::measure_kernel_rate();
    starfish::bench::print_kernel_rate("before the cell", before);
    json r = starfish::sim::run_isolated([&] {
        starfish::config::Config cfg(starfish::sim::parameter_registry());
        for (const auto &[k, v] :
             starfish::bench::Settings{{starfish::keys::workload_kind.name, "lu"},
                                       {starfish::keys::lu_n.name, n},
                                       {starfish::keys::lu_slab_cols.name, slab},
                                       {starfish::keys::fs_kind.name, fs},
                                       {starfish::keys::fs_block_bytes.name, block},
                                       {starfish::keys::workload_layout.name, layout},
                                       {starfish::keys::machine_cp_count.name, "8"},
                                       {starfish::keys::machine_iop_count.name, "8"},
                                       {starfish::keys::machine_disks_per_iop.name, "1"},
                                       {starfish::keys::spfs_cache_buffers_per_cp_disk.name, "2"},
                                       {starfish::keys::spfs_outstanding.name, "1"},
                                       {starfish::keys::ddio_buffers_per_disk.name, "2"}}) {
            cfg.set_from_text(k, v, "bench_lu");
        }
        cfg.validate();
        double cpu_start = process_cpu_seconds();
        auto start = std::chrono::steady_clock::now();
        json t = starfish::sim::run_lu_trial(cfg, 0, {});
        t["wall_s"] =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        t["cpu_s"] = process_cpu_seconds() - cpu_start;
        return t;
    });
    if (r.contains("error")) {
        std::printf("failed: %s\n", r["error"].get<std::string>().c_str());
        return 1;
    }
    double wall = r["wall_s"].get<double>();
    std::printf("wall %.1f s, cpu %.1f s, simulated %.1f s (elapsed %.1f s), %.3g events "
                "(%.3g per wall s), %.2f GB disk traffic, %s\n",
                wall, r["cpu_s"].get<double>(), r["sim_s"].get<double>(),
                r["elapsed_s"].get<double>(), r["events"].get<double>(),
                r["events"].get<double>() / wall, r["traffic_bytes"].get<double>() / 1e9,
                r["verified"].get<bool>() ? "verified" : "DATA WRONG");
    return r["verified"].get<bool>() ? 0 : 1;
}
