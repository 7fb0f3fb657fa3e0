// Speed of the disk subsystem model: disk requests simulated per wall second for
// the access patterns the study produces (random 8 KB blocks, sequential 8 KB
// streams), with one drive per bus and with drives sharing a bus. Each scenario
// runs in its own process (SystemC elaborates once per process).
#include "bench/kernel_rate.h"
#include "hw/rng.h"
#include "sim/parameters.h"
#include "sim/runner/host_clock.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/disk_replay.h"

#include <systemc>

#include <cstdio>
#include <cstdlib>

using namespace starfish;
using nlohmann::json;

namespace {

json scenario(uint32_t disks, uint32_t buses, uint32_t per_disk, bool random) {
    return sim::run_isolated([=] {
        config::Config cfg(sim::parameter_registry());
        hw_rng rng;
        hw_rng_seed(&rng, hw_rng_stream_seed(1, 0, HW_RNG_STREAM_WORKLOAD, 0));
        const uint32_t blocks = 1962u * 19 * 72 / 16;
        std::vector<sim::DiskTraceRequest> reqs;
        for (uint32_t i = 0; i < per_disk; ++i) {
            for (uint32_t d = 0; d < disks; ++d) {
                sim::DiskTraceRequest r;
                r.disk = d;
                r.sectors = 16;
                r.lba = random ? static_cast<uint32_t>(hw_rng_below(&rng, blocks)) * 16 : i * 16;
                reqs.push_back(r);
            }
        }
        sim::DiskReplayOptions opt;
        opt.disks = disks;
        opt.buses = buses;
        sim::HostClock clock;
        const double cpu_start = bench::process_cpu_seconds();
        auto res = sim::run_disk_replay(cfg, reqs, opt);
        double wall = clock.elapsed_s();
        return json{{"requests", reqs.size()},
                    {"wall_s", wall},
                    {"cpu_s", bench::process_cpu_seconds() - cpu_start},
                    {"sim_s", res.sim_s},
                    {"events", res.events},
                    {"mb_s", res.summary["throughput_mb_s"]}};
    });
}

} // namespace

static const int kNoBanner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

int sc_main(int, char *[]) {
    struct Case {
        const char *name;
        uint32_t disks, buses, per_disk;
        bool random;
    };
    const Case cases[] = {
        {"random 8KB, 1 disk", 1, 1, 20000, true},
        {"random 8KB, 16 disks/16 buses", 16, 16, 2000, true},
        {"sequential 8KB, 1 disk", 1, 1, 20000, false},
        {"sequential 8KB, 16 disks/16 buses", 16, 16, 2000, false},
        {"sequential 8KB, 8 disks/1 bus", 8, 1, 4000, false},
        {"random 8KB, 32 disks/1 bus", 32, 1, 1000, true},
    };
    const bench::KernelRate kernel = bench::measure_kernel_rate();
    std::printf("SystemC kernel: %.3g thread switches, %.3g method runs per CPU second\n",
                kernel.thread_switches_per_s, kernel.method_runs_per_s);
    std::printf("%-36s %9s %9s %9s %11s %10s %12s %18s\n", "scenario", "requests", "sim s",
                "wall s", "MB/s (sim)", "events", "requests/s", "method runs/request");
    for (const Case &c : cases) {
        json r = scenario(c.disks, c.buses, c.per_disk, c.random);
        double wall = r["wall_s"];
        // Host cost of one request in kernel method runs, both per CPU second.
        double per_request =
            kernel.method_runs_per_s * r["cpu_s"].get<double>() / r["requests"].get<double>();
        std::printf("%-36s %9llu %9.2f %9.3f %11.2f %10llu %12.0f %18.1f\n", c.name,
                    r["requests"].get<unsigned long long>(), r["sim_s"].get<double>(), wall,
                    r["mb_s"].get<double>(), r["events"].get<unsigned long long>(),
                    r["requests"].get<double>() / wall, per_request);
    }
    return 0;
}
