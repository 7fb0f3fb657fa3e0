#pragma once
// The drive's mechanism: positioning the arm for a sector (seek or head switch,
// then the rotational wait) and how a run of consecutive sectors passes under the
// head across track and cylinder boundaries (docs/disk.md). Arithmetic on the
// geometry and the platter's rotation clock only; the drive keeps the schedule.
//
// The platter angle is a function of simulated time, so a run's progress is
// computed from elapsed time when it matters, never one event per sector. All
// times are integer picoseconds.

#include "tlm_models/storage/disk_geometry.h"
#include "tlm_models/storage/disk_params.h"

#include <cstdint>

namespace starfish::storage {

// Where the mechanism will be after its scheduled work.
struct MechPlan {
    uint64_t free_at = 0;
    uint32_t track = 0;
    uint32_t next_lba = 0; // sector after the last one transferred
};

// The arm positioned for a sector: seek/switch from `start` to `ready`, the sector
// then starts at slot u0.
struct Positioning {
    uint64_t start, ready, u0;
    uint32_t from_track;
};

// Sectors [lo, hi): a cache window or the data of a queued write.
struct SectorWindow {
    uint32_t lo, hi;
};

class DiskMechanics {
public:
    explicit DiskMechanics(const DiskParams &params);

    const DiskGeometry &geometry() const { return geom_; }
    const RotationClock &clock() const { return clock_; }
    // The initial platter angle: slot 0 of cylinder 0 head 0 passes under the head
    // at t = revolution - phase.
    void set_phase_ps(uint64_t phase_ps);
    uint64_t phase_ps() const { return clock_.phase_ps(); }
    uint64_t slot_time(uint64_t u) const { return static_cast<uint64_t>(clock_.slot_time(u)); }

    // Positions the arm for `lba` from the plan, starting no earlier than `earliest`.
    Positioning position(const MechPlan &from, uint32_t lba, uint64_t earliest) const;
    // A run reading from `lba` (starting at slot u): the slot where `sectors`
    // sectors are done, counting the skew gaps and any revolutions a head switch or
    // seek does not fit in.
    uint64_t run_end_slot(uint32_t lba, uint64_t u, uint32_t sectors) const;
    // The same run: how many of at most `max_sectors` sectors are done by time t.
    uint32_t run_sectors_by(uint32_t lba, uint64_t u, uint32_t max_sectors, uint64_t t) const;

private:
    // The slot where track + 1's first sector passes under the head for a run that
    // reaches the end of `track` at slot u.
    uint64_t next_track_slot(uint32_t track, uint64_t u) const;

    DiskGeometry geom_;
    RotationClock clock_;
};

} // namespace starfish::storage
