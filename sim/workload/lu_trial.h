#pragma once
// workload.kind = lu: the out-of-core LU decomposition (docs/lu.md). One trial puts
// the seeded matrix on the disks, runs the program of Kotz's HPDC 1995 paper on the
// machine through fs.kind (spfs or ddio), and verifies the file it leaves: L U
// against the original, bit-equality with the sequential reference, and the guard
// blocks after the matrix unchanged.

#include "sim/workload/workload.h"

#include <cstdint>
#include <functional>

namespace starfish::platform {
class Machine;
}

namespace starfish::sim {

const WorkloadKind &lu_workload();

// Bytes of the matrix file: N x N floats rounded up to whole blocks, then one guard
// block per disk that the program must never write.
uint64_t lu_file_bytes(const config::Config &cfg);

// The configuration the machine runs: cfg with workload.file_mb set to lu_file_bytes
// (the IOPs place the file from it).
config::Config lu_machine_config(const config::Config &cfg);

// One LU trial. before_check, when set, sees the machine after the run and before
// the file is verified (tests corrupt a sector with it and watch the check fail).
nlohmann::json run_lu_trial(const config::Config &cfg, int trial,
                            const std::function<void(platform::Machine &)> &before_check);

} // namespace starfish::sim
