#pragma once
// workload.kind = transfer (docs/transfer.md).

#include "sim/workload/workload.h"

#include <functional>

namespace starfish::platform {
class Machine;
}

namespace starfish::sim {

const WorkloadKind &transfer_workload();

// One transfer trial, as transfer_workload().run_trial runs it. before_check, when
// set, sees the machine after the run and before the data are verified (tests use
// it to corrupt a CP buffer or a disk sector and watch verification fail).
nlohmann::json run_transfer_trial(const config::Config &cfg, int trial,
                                  const std::function<void(platform::Machine &)> &before_check);

} // namespace starfish::sim
