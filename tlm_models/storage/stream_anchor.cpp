#include "tlm_models/storage/stream_anchor.h"

namespace starfish::storage {

void StreamAnchor::reset(uint32_t lba0, uint64_t u0) {
    lba0_ = lba0;
    u0_ = u0;
    anchor_lba_ = lba0;
    anchor_u_ = u0;
}

void StreamAnchor::advance(uint32_t lba) const {
    // Keep the anchor within a couple of tracks behind `lba`, on the second sector
    // of a track (its start slot is the end slot of the sector before it).
    const uint32_t spt = mech_.geometry().sectors_per_track();
    if (lba < anchor_lba_ + 3 * spt || spt < 2) {
        return;
    }
    uint32_t target = (lba / spt - 1) * spt + 1;
    if (target <= anchor_lba_) {
        return;
    }
    anchor_u_ = mech_.run_end_slot(anchor_lba_, anchor_u_, target - anchor_lba_);
    anchor_lba_ = target;
}

uint32_t StreamAnchor::reached_by(uint32_t limit, uint64_t until) const {
    if (enabled_ && mech_.clock().slot_time(anchor_u_) <= static_cast<int64_t>(until)) {
        uint32_t hi =
            anchor_lba_ + mech_.run_sectors_by(anchor_lba_, anchor_u_, limit - anchor_lba_, until);
        advance(hi);
        return hi;
    }
    return lba0_ + mech_.run_sectors_by(lba0_, u0_, limit - lba0_, until);
}

uint64_t StreamAnchor::end_slot(uint32_t end_lba) const {
    // From the anchor only if it lies before end_lba: a query may have moved it
    // further ahead.
    if (enabled_ && end_lba > anchor_lba_) {
        return mech_.run_end_slot(anchor_lba_, anchor_u_, end_lba - anchor_lba_);
    }
    return mech_.run_end_slot(lba0_, u0_, end_lba - lba0_);
}

uint64_t StreamAnchor::limit_end_slot(uint32_t limit) const {
    if (enabled_) {
        return mech_.run_end_slot(anchor_lba_, anchor_u_, limit - anchor_lba_);
    }
    return mech_.run_end_slot(lba0_, u0_, limit - lba0_);
}

} // namespace starfish::storage
