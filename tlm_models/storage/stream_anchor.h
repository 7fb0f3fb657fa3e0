#pragma once
// Where a read stream's current run is on the media: the first sector not yet read
// at a given time, and the slot at which the run is done through a given sector.
//
// Speed (speed.disk_stream_anchor): a run is computed sector by sector across
// tracks from its start, which for a long stream is a walk over every track it has
// read. The movable anchor keeps a sector of the run and the slot where it starts,
// moved forward as the run progresses, and computes from there instead. It is an
// exact speed-up (any sector of a run determines the rest): with it off the same
// values come from the run's first sector, the straightforward way.

#include "tlm_models/storage/disk_mechanics.h"

#include <cstdint>

namespace starfish::storage {

class StreamAnchor {
public:
    StreamAnchor(const DiskMechanics &mechanics, bool enabled)
        : mech_(mechanics), enabled_(enabled) {}
    bool enabled() const { return enabled_; }

    // A new run reads from lba0, whose first sector starts at slot u0.
    void reset(uint32_t lba0, uint64_t u0);
    // The first LBA of [lba0, limit) not yet read at time `until`.
    uint32_t reached_by(uint32_t limit, uint64_t until) const;
    // The slot at which the run has read every sector before `end_lba`.
    uint64_t end_slot(uint32_t end_lba) const;
    // The same for the run's limit (which never lies before the anchor).
    uint64_t limit_end_slot(uint32_t limit) const;

private:
    void advance(uint32_t lba) const;

    const DiskMechanics &mech_;
    bool enabled_;
    uint32_t lba0_ = 0;
    uint64_t u0_ = 0;
    // A sector of the current run and the slot where it starts; moved forward by
    // queries, so mutable (no result may depend on where it is).
    mutable uint32_t anchor_lba_ = 0;
    mutable uint64_t anchor_u_ = 0;
};

} // namespace starfish::storage
