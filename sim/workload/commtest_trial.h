#pragma once
// workload.kind = commtest: the communication self-test program (fw/apps.h,
// docs/messaging.md "commtest") on the whole machine (docs/machine.md).

#include "sim/platform/machine.h"
#include "sim/workload/workload.h"

#include <string>

namespace starfish::sim {

const WorkloadKind &commtest_workload();

// The trial document of a machine that has run fw_commtest_cp_main /
// fw_commtest_iop_main: the nodes' commtest.* exports gathered into
// measurements, the verdict, sim_s, events and the machine summary (everything
// but host_cpu_s). `failure` is what Machine::run returned. Tests that build and
// instrument the machine themselves use it to read the same figures.
nlohmann::json commtest_trial_result(platform::Machine &m, const config::Config &cfg,
                                     const std::string &failure);

} // namespace starfish::sim
