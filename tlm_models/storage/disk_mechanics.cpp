#include "tlm_models/storage/disk_mechanics.h"

#include <algorithm>

namespace starfish::storage {

DiskMechanics::DiskMechanics(const DiskParams &params) : geom_(params) {}

void DiskMechanics::set_phase_ps(uint64_t phase_ps) {
    clock_ = RotationClock(geom_.revolution_ps(), geom_.sectors_per_track(), phase_ps);
}

Positioning DiskMechanics::position(const MechPlan &p, uint32_t lba, uint64_t earliest) const {
    Positioning pos;
    pos.start = std::max(earliest, p.free_at);
    pos.from_track = p.track;
    uint32_t to = geom_.track_of(lba);
    pos.ready = pos.start + geom_.switch_ps(p.track, to);
    uint64_t u = clock_.first_slot_at_or_after(static_cast<int64_t>(pos.ready));
    pos.u0 = clock_.next_slot_with_index(u, geom_.physical_slot(lba));
    return pos;
}

uint64_t DiskMechanics::run_end_slot(uint32_t lba, uint64_t u, uint32_t sectors) const {
    const uint32_t spt = geom_.sectors_per_track();
    for (;;) {
        uint32_t on_track = spt - lba % spt;
        if (sectors <= on_track) {
            return u + sectors;
        }
        u = next_track_slot(lba / spt, u + on_track);
        sectors -= on_track;
        lba += on_track;
    }
}

uint64_t DiskMechanics::next_track_slot(uint32_t track, uint64_t u) const {
    // Skew gap to the next track's first sector; whole revolutions more when the
    // head switch or seek does not fit in it.
    uint64_t gap = geom_.skew_slots(track);
    uint64_t need = geom_.switch_ps(track, track + 1);
    while (static_cast<uint64_t>(clock_.slot_time(u + gap) - clock_.slot_time(u)) < need) {
        gap += geom_.sectors_per_track();
    }
    return u + gap;
}

uint32_t DiskMechanics::run_sectors_by(uint32_t lba, uint64_t u, uint32_t max_sectors,
                                       uint64_t t) const {
    if (max_sectors == 0 || clock_.slot_time(u) > static_cast<int64_t>(t)) {
        return 0;
    }
    const uint32_t spt = geom_.sectors_per_track();
    uint64_t last = clock_.last_slot_at_or_before(static_cast<int64_t>(t));
    uint32_t done = 0;
    for (;;) {
        uint32_t on_track = std::min(spt - lba % spt, max_sectors - done);
        if (last < u + on_track) {
            return done + static_cast<uint32_t>(last - u);
        }
        done += on_track;
        if (done == max_sectors) {
            return done;
        }
        u = next_track_slot(lba / spt, u + on_track);
        lba += on_track;
        if (last < u) {
            return done; // in the gap, switching tracks
        }
    }
}

} // namespace starfish::storage
