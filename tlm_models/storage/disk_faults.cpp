#include "tlm_models/storage/disk_faults.h"

#include <algorithm>

namespace starfish::storage {

DiskFaults::DiskFaults(const DiskFaultParams &params, uint32_t global_id, uint64_t seed,
                       uint64_t trial)
    : params_(params), global_id_(global_id) {
    for (const auto &[disk, lba] : params.bad_sectors) {
        if (disk == global_id) {
            bad_lbas_.push_back(lba);
        }
    }
    std::sort(bad_lbas_.begin(), bad_lbas_.end());
    hw_rng_seed(&rng_, hw_rng_stream_seed(seed, trial, HW_RNG_STREAM_DISK_FAULT, global_id));
}

bool DiskFaults::active() const {
    return params_.read_error_rate > 0 || params_.write_error_rate > 0 || !bad_lbas_.empty() ||
           params_.silent_disk == static_cast<int64_t>(global_id_);
}

bool DiskFaults::silent_now() {
    bool silent = params_.silent_disk == static_cast<int64_t>(global_id_) &&
                  commands_ >= params_.silent_after;
    ++commands_;
    if (silent) {
        ++stats_.silent_commands;
    }
    return silent;
}

uint32_t DiskFaults::medium_error(bool write, uint32_t lba, uint32_t blocks) {
    uint32_t at = kNone;
    auto bad = std::lower_bound(bad_lbas_.begin(), bad_lbas_.end(), lba);
    if (bad != bad_lbas_.end() && *bad - lba < blocks) {
        at = *bad; // a bad sector fails every time
    }
    double rate = write ? params_.write_error_rate : params_.read_error_rate;
    // The draw is made whenever the rate is on, so the stream does not depend on
    // the bad sectors.
    if (rate > 0 && hw_rng_unit(&rng_) < rate) {
        uint32_t drawn = lba + static_cast<uint32_t>(hw_rng_below(&rng_, blocks));
        at = std::min(at, drawn);
    }
    if (at != kNone) {
        ++stats_.medium_errors;
    }
    return at;
}

} // namespace starfish::storage
