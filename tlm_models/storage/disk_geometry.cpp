#include "tlm_models/storage/disk_geometry.h"

#include <algorithm>
#include <cmath>

namespace starfish::storage {

// ---- geometry -----------------------------------------------------------------

DiskGeometry::DiskGeometry(const DiskParams &p)
    : cylinders_(p.cylinders), heads_(p.heads), spt_(p.sectors_per_track),
      capacity_(p.cylinders * p.heads * p.sectors_per_track), track_skew_(p.track_skew),
      cylinder_skew_(p.cylinder_skew), rev_ps_(static_cast<uint64_t>(std::llround(60e12 / p.rpm))),
      head_switch_ps_(ms_to_ps(p.head_switch_ms)), short_base_(p.seek_short_base_ms),
      short_sqrt_(p.seek_short_sqrt_ms), long_base_(p.seek_long_base_ms),
      long_per_cyl_(p.seek_long_per_cyl_ms), long_from_(p.seek_long_from_cyl) {}

DiskGeometry::Chs DiskGeometry::locate(uint32_t lba) const {
    uint32_t track = lba / spt_;
    return Chs{track / heads_, track % heads_, lba % spt_};
}

uint32_t DiskGeometry::physical_slot(uint32_t lba) const {
    uint64_t track = lba / spt_;
    uint64_t cyl = track / heads_, head = track % heads_;
    // Each head switch within a cylinder adds the track skew; each step to the next
    // cylinder adds the cylinder skew instead.
    uint64_t per_cylinder = static_cast<uint64_t>(heads_ - 1) * track_skew_ + cylinder_skew_;
    uint64_t offset = (cyl * per_cylinder + head * track_skew_) % spt_;
    return static_cast<uint32_t>((lba % spt_ + offset) % spt_);
}

uint64_t DiskGeometry::seek_ps(uint32_t d) const {
    if (d == 0) {
        return 0;
    }
    double ms = d < long_from_ ? short_base_ + short_sqrt_ * std::sqrt(static_cast<double>(d))
                               : long_base_ + long_per_cyl_ * static_cast<double>(d);
    return ms_to_ps(ms);
}

uint64_t DiskGeometry::switch_ps(uint32_t from_track, uint32_t to_track) const {
    if (from_track == to_track) {
        return 0;
    }
    uint32_t a = cylinder_of_track(from_track), b = cylinder_of_track(to_track);
    if (a == b) {
        return head_switch_ps_;
    }
    return std::max(seek_ps(a > b ? a - b : b - a), head_switch_ps_);
}

uint32_t DiskGeometry::skew_slots(uint32_t track) const {
    bool crosses_cylinder = (track + 1) % heads_ == 0;
    return (crosses_cylinder ? cylinder_skew_ : track_skew_) % spt_;
}

// ---- rotation -------------------------------------------------------------------

RotationClock::RotationClock(uint64_t rev_ps, uint32_t spt, uint64_t phase_ps)
    : rev_(rev_ps), spt_(spt), phase_(phase_ps % rev_ps) {}

int64_t RotationClock::slot_time(uint64_t u) const {
    uint64_t t = (u / spt_) * rev_ + (u % spt_) * rev_ / spt_;
    return static_cast<int64_t>(t) - static_cast<int64_t>(phase_);
}

uint64_t RotationClock::first_slot_at_or_after(int64_t t) const {
    uint64_t x = static_cast<uint64_t>(t + static_cast<int64_t>(phase_));
    uint64_t r = x / rev_, w = x % rev_;
    uint64_t s = (w * spt_ + rev_ - 1) / rev_; // smallest s with floor(s * rev / spt) >= w
    return r * spt_ + s;
}

uint64_t RotationClock::last_slot_at_or_before(int64_t t) const {
    uint64_t x = static_cast<uint64_t>(t + static_cast<int64_t>(phase_));
    uint64_t r = x / rev_, w = x % rev_;
    uint64_t s = w * spt_ / rev_;
    while (s + 1 < spt_ && (s + 1) * rev_ / spt_ <= w) {
        ++s;
    }
    return r * spt_ + s;
}

uint64_t RotationClock::next_slot_with_index(uint64_t u, uint32_t slot) const {
    return u + (slot + spt_ - u % spt_) % spt_;
}

} // namespace starfish::storage
