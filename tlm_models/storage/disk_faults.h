#pragma once
// One drive's injected faults (fault.*, docs/faults.md), decided command by
// command: a MEDIUM ERROR at a sector of a READ(10) or WRITE(10) (a bad sector, or
// drawn at the configured rate from the drive's own random stream), or silence
// from some command on. SystemC-free; the drive model asks it only when faults are
// configured.

#include "hw/rng.h"
#include "tlm_models/storage/disk_fault_params.h"

#include <cstdint>
#include <vector>

namespace starfish::storage {

struct DiskFaultStats {
    uint64_t medium_errors = 0;   // commands answered with a MEDIUM ERROR
    uint64_t silent_commands = 0; // commands taken and never answered
};

class DiskFaults {
public:
    // The faults of drive `global_id` in trial `trial` (random stream seeded by
    // (seed, trial, HW_RNG_STREAM_DISK_FAULT, global_id)).
    DiskFaults(const DiskFaultParams &params, uint32_t global_id, uint64_t seed, uint64_t trial);

    // Could any fault hit this drive?
    bool active() const;

    // A command arrives: true when the drive has stopped answering (it has taken
    // silent_after commands already).
    bool silent_now();
    // A READ(10) (write false) or WRITE(10) of [lba, lba + blocks): the sector where
    // it fails, or kNone.
    static constexpr uint32_t kNone = 0xffffffffu;
    uint32_t medium_error(bool write, uint32_t lba, uint32_t blocks);

    const DiskFaultStats &stats() const { return stats_; }

private:
    DiskFaultParams params_;
    uint32_t global_id_;
    std::vector<uint32_t> bad_lbas_; // this drive's, sorted
    hw_rng rng_;
    uint64_t commands_ = 0;
    DiskFaultStats stats_;
};

} // namespace starfish::storage
