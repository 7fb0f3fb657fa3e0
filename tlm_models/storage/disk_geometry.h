#pragma once
// HP 97560 geometry, seek curve and the platter's rotation clock: pure arithmetic,
// no SystemC and no state beyond the parameters (docs/disk.md).

#include "tlm_models/storage/disk_params.h"

#include <cstdint>

namespace starfish::storage {

// Geometry and mechanical timing (no SystemC, no state).
class DiskGeometry {
public:
    explicit DiskGeometry(const DiskParams &p);

    uint32_t capacity() const { return capacity_; } // sectors
    uint32_t sectors_per_track() const { return spt_; }
    uint32_t heads() const { return heads_; }
    uint32_t cylinders() const { return cylinders_; }
    uint64_t revolution_ps() const { return rev_ps_; }

    struct Chs {
        uint32_t cylinder, head, sector; // sector: logical index within the track
    };
    Chs locate(uint32_t lba) const;
    uint32_t track_of(uint32_t lba) const { return lba / spt_; }
    uint32_t cylinder_of_track(uint32_t track) const { return track / heads_; }
    // Angular slot (0 .. spt-1) at which the sector starts, after track and cylinder skew.
    uint32_t physical_slot(uint32_t lba) const;
    // Seek time for a move of `distance` cylinders (0 for 0).
    uint64_t seek_ps(uint32_t distance) const;
    uint64_t head_switch_ps() const { return head_switch_ps_; }
    // Time to get from one track to another: a seek (which covers the head switch)
    // or a head switch within a cylinder.
    uint64_t switch_ps(uint32_t from_track, uint32_t to_track) const;
    // Slots from the end of `track`'s last sector to the start of track+1's first
    // sector given by the skew (track skew, or cylinder skew across cylinders).
    uint32_t skew_slots(uint32_t track) const;

private:
    uint32_t cylinders_, heads_, spt_, capacity_;
    uint32_t track_skew_, cylinder_skew_;
    uint64_t rev_ps_, head_switch_ps_;
    double short_base_, short_sqrt_, long_base_, long_per_cyl_;
    uint32_t long_from_;
};

// The platter as a clock of sector slots: slot u (u = revolutions * spt + slot
// index) begins when the angle (t + phase) mod revolution reaches slot index *
// revolution / spt. Every media time is a slot boundary, so timings are exact
// (one revolution is exactly revolution_ps) and streams never drift.
class RotationClock {
public:
    RotationClock() = default;
    RotationClock(uint64_t rev_ps, uint32_t spt, uint64_t phase_ps);
    int64_t slot_time(uint64_t u) const;
    uint64_t first_slot_at_or_after(int64_t t) const;
    uint64_t last_slot_at_or_before(int64_t t) const;
    // The first slot >= u whose slot index is `slot`.
    uint64_t next_slot_with_index(uint64_t u, uint32_t slot) const;
    uint64_t phase_ps() const { return phase_; }

private:
    uint64_t rev_ = 1;
    uint32_t spt_ = 1;
    uint64_t phase_ = 0;
};

} // namespace starfish::storage
