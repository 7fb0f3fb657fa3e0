#pragma once
// workload.kind = transfer (docs/transfer.md).

#include "sim/workload/workload.h"

namespace starfish::sim {

const WorkloadKind &transfer_workload();

} // namespace starfish::sim
