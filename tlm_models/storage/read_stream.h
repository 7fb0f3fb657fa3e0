#pragma once
// The drive's read stream and read cache: the current media pass (run) of
// sequential reading that serves a read and continues as read-ahead, its cache
// segment, and the segments earlier streams left behind (docs/disk.md).
//
// The stream's progress is computed from time; it stops when it reaches `limit`
// (cache full, end of request without read-ahead, end of disk) or when a command
// needs the mechanism (abort). The drive (Hp97560Disk) starts, stops and resumes
// it and accounts what it read; positioning comes from the drive, which knows what
// else the mechanism has scheduled.

#include "tlm_models/storage/disk_mechanics.h"
#include "tlm_models/storage/disk_params.h"
#include "tlm_models/storage/disk_stats.h"
#include "tlm_models/storage/stream_anchor.h"

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <vector>

namespace starfish::storage {

class ReadStream {
public:
    static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

    struct Run {
        bool valid = false;
        MechPlan before;        // the mechanism before this run (if aborted before it moved)
        uint32_t first = 0;     // lowest LBA the stream's cache segment holds
        uint32_t consumed = 0;  // data below this may be overwritten; limit <= consumed + capacity
        uint32_t lba0 = 0;      // first LBA of the current run
        uint64_t pos_start = 0; // positioning start of the run
        uint64_t ready = 0;     // arm on the track
        uint64_t u0 = 0;        // slot where lba0 starts
        uint32_t limit = 0;     // the run reads [lba0, limit)
        uint64_t abort_at = kNever;
        uint32_t from_track = 0;
    };

    // `owner` names the drive in error messages.
    ReadStream(const DiskParams &params, const DiskMechanics &mechanics, std::string owner);

    const Run &run() const { return run_; }
    bool valid() const { return run_.valid; }
    // Valid and not stopped by a command.
    bool flowing() const { return run_.valid && run_.abort_at == kNever; }
    // The run stopped before its arm moved: it read nothing.
    bool never_moved() const { return run_.abort_at <= run_.pos_start; }
    uint32_t capacity_sectors() const; // of one cache segment

    uint32_t hi(uint64_t t) const; // first LBA not yet read by the stream at t
    uint64_t natural_end() const;
    uint64_t free_at() const;
    uint32_t final_track() const;
    SectorWindow window(uint64_t t) const;
    uint64_t reach_time(uint32_t end_lba) const; // all of [.., end_lba) read
    uint64_t run_end(uint32_t end_lba) const;    // the same past the limit, unchecked
    // Where the mechanism is after the run (the run is its latest activity).
    MechPlan plan_after() const;
    // Reading on from hi through the gap reaches m before a command decoded at
    // overhead_end could reposition the arm there.
    bool reaches_before_repositioning(uint32_t m, uint32_t hi, uint64_t now,
                                      uint64_t overhead_end) const;

    // What the run has done up to `until`: busy time, sectors read, and the media
    // access it amounts to. `counted` is false if it never moved the arm.
    struct Usage {
        bool counted = false;
        uint64_t busy_ps = 0;
        uint32_t sectors = 0;
        MediaOp op{};
    };
    Usage usage_until(uint64_t until) const;

    // Without read-ahead: the stream stops at this LBA (the end of the request).
    void set_stop_lba(uint32_t lba) { stop_lba_ = lba; }
    void stop(uint64_t now); // a command needs the mechanism
    // Keeps the stopped stream's window as a cached segment; the stream is gone.
    void retire(uint64_t now);
    // Frees a segment for a new stream (the least recently filled one is reused).
    void make_room_for_new_segment();
    void start(const MechPlan &before, const Positioning &pos, uint32_t first, uint32_t lba0,
               uint32_t consumed);
    // The host has read up to `consumed`: room for more read-ahead. If the run had
    // stopped and now has room, the drive resumes it (resume()) from where it stopped.
    struct Resume {
        bool needed = false;
        uint64_t stopped_at = 0;
        uint32_t limit = 0;
    };
    Resume consume(uint32_t consumed, uint64_t now);
    void resume(const MechPlan &stopped, const Positioning &pos, uint32_t limit);

    // Cached windows: the earlier streams' segments, then the stream's own.
    void append_cached(uint64_t now, std::vector<SectorWindow> &out) const;
    uint64_t cached_sectors(uint64_t now) const;

private:
    const DiskParams &params_;
    const DiskMechanics &mech_;
    std::string owner_;
    Run run_;
    StreamAnchor anchor_;
    uint32_t stop_lba_ = 0;
    std::deque<SectorWindow> segments_; // cached windows of earlier streams (LRU at front)
};

} // namespace starfish::storage
