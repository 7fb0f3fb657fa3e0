#include "sim/workload/workload.h"

#include "sim/workload/commtest_trial.h"
#include "sim/workload/transfer_trial.h"

#include <stdexcept>
#include <thread>

namespace starfish::sim {

const WorkloadKind &workload_kind(const std::string &name) {
    if (name == "transfer") {
        return transfer_workload();
    }
    if (name == "commtest") {
        return commtest_workload();
    }
    throw std::runtime_error("workload.kind '" + name + "' is not built into this starfish");
}

int trial_parallelism(const config::Config &cfg) {
    long long jobs = cfg.get_int("workload.jobs");
    if (jobs > 0) {
        return static_cast<int>(jobs);
    }
    unsigned cores = std::thread::hardware_concurrency();
    return cores == 0 ? 1 : static_cast<int>(cores);
}

} // namespace starfish::sim
