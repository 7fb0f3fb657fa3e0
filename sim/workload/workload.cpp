#include "sim/workload/workload.h"

#include "sim/platform/watchdog_params.h"
#include "sim/workload/commtest_trial.h"
#include "sim/workload/lu_trial.h"
#include "sim/workload/transfer_trial.h"
#include "sim/workload_params.h"
#include "tlm_models/node/node_memory_params.h"

#include <sys/resource.h>

#include <cstdio>
#include <stdexcept>
#include <thread>

namespace starfish::sim {

using nlohmann::json;

const WorkloadKind &workload_kind(const std::string &name) {
    if (name == "transfer") {
        return transfer_workload();
    }
    if (name == "commtest") {
        return commtest_workload();
    }
    if (name == "lu") {
        return lu_workload();
    }
    throw std::runtime_error("workload.kind '" + name + "' is not built into this starfish");
}

json run_checked_trial(const config::Config &cfg, int trial) {
    const WorkloadKind &kind = workload_kind(cfg.get_string(keys::workload_kind));
    try {
        return kind.run_trial(cfg, trial);
    } catch (const std::exception &e) {
        std::string what = e.what();
        if (what.rfind("watchdog: no progress", 0) == 0) {
            char ms[32];
            std::snprintf(ms, sizeof ms, "%g", cfg.get_real(keys::sim_watchdog_ms));
            throw std::runtime_error(
                what + "(sim.watchdog_ms = " + ms +
                " ms: if the run is healthy the setting may be too small; a CPU-bound phase, "
                "such as 2PIO permuting small records, can go that long without an event the "
                "watchdog counts. The default is 10000; docs/watchdog.md)");
        }
        if (what.find("node memory exhausted") == std::string::npos) {
            throw;
        }
        throw std::runtime_error(
            what + "\n(each node has machine.node_memory_kb = " +
            std::to_string(cfg.get_int(keys::machine_node_memory_kb)) +
            " KB: raise it, or lower what the firmware allocates there: fs.block_bytes, "
            "msg.request_buffers, msg.reply_actions, msg.send_queue_entries, "
            "msg.rx_ring_slots, the file system's buffers and the file's share per CP)");
    }
}

int trial_parallelism(const config::Config &cfg) {
    long long jobs = cfg.get_int(keys::workload_jobs);
    if (jobs > 0) {
        return static_cast<int>(jobs);
    }
    unsigned cores = std::thread::hardware_concurrency();
    return cores == 0 ? 1 : static_cast<int>(cores);
}

double host_cpu_seconds() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

} // namespace starfish::sim
