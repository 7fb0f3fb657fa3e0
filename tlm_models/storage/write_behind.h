#pragma once
// The drive's write-behind: media writes queued in the cache (one job per bus
// burst of a WRITE), in media order, each positioned and timed when queued. It
// answers when the cache has room for more data, when earlier writes are far
// enough along for an immediate report, and when everything is on the media.

#include "tlm_models/storage/disk_mechanics.h"
#include "tlm_models/storage/disk_params.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace starfish::storage {

struct WriteJob {
    uint32_t lba, sectors;
    uint64_t start, ready, data, end; // positioning start, arm on track, first sector, done
    uint32_t from_track;
};

class WriteBehind {
public:
    WriteBehind(const DiskParams &params, const DiskMechanics &mechanics)
        : params_(params), mech_(mechanics) {}

    const std::deque<WriteJob> &jobs() const { return jobs_; }
    bool empty() const { return jobs_.empty(); }
    // Queues a media write of [lba, lba + sectors), the arm positioned by `pos`.
    const WriteJob &add(uint32_t lba, uint32_t sectors, const Positioning &pos);
    // Forgets the jobs done by `now`; the mechanism's state after the last one if
    // that emptied the queue.
    std::optional<MechPlan> prune(uint64_t now);
    // Where the mechanism is after the last queued write (not empty()).
    MechPlan plan_after() const;
    uint64_t done_at() const; // every queued write on the media (0 if none)
    // When the cache has room for `bytes` more data beside the unwritten writes.
    uint64_t room_time(uint32_t bytes, uint64_t now) const;
    // Immediate report: when the unwritten data of writes queued before a
    // command's own last `own_jobs` is at most disk.write_behind_kb.
    uint64_t earlier_writes_room_at(uint32_t own_jobs, uint64_t now) const;
    uint64_t pending_sectors(uint64_t now) const; // not yet on the media
    // The data of writes not yet on the media (the cache holds it).
    void append_pending(uint64_t now, std::vector<SectorWindow> &out) const;

private:
    const DiskParams &params_;
    const DiskMechanics &mech_;
    std::deque<WriteJob> jobs_; // media writes not yet done, in order
};

} // namespace starfish::storage
