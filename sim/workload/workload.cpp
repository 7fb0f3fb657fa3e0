#include "sim/workload/workload.h"

#include "sim/workload/commtest_trial.h"
#include "sim/workload/lu_trial.h"
#include "sim/workload/transfer_trial.h"

#include <sys/resource.h>

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
    if (name == "lu") {
        return lu_workload();
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

double host_cpu_seconds() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

} // namespace starfish::sim
