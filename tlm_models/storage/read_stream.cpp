#include "tlm_models/storage/read_stream.h"

#include "hw/data_pattern.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace starfish::storage {

ReadStream::ReadStream(const DiskParams &params, const DiskMechanics &mechanics, std::string owner)
    : params_(params), mech_(mechanics), owner_(std::move(owner)),
      anchor_(mechanics, params.stream_anchor) {}

uint32_t ReadStream::capacity_sectors() const {
    return std::max<uint32_t>(1, params_.cache_bytes / params_.cache_segments / HW_SECTOR_BYTES);
}

uint32_t ReadStream::hi(uint64_t t) const {
    return anchor_.reached_by(run_.limit, std::min(t, run_.abort_at));
}

uint64_t ReadStream::natural_end() const {
    return mech_.slot_time(anchor_.limit_end_slot(run_.limit));
}

uint64_t ReadStream::free_at() const {
    const Run &s = run_;
    uint64_t end = natural_end();
    if (s.abort_at < end) {
        if (s.abort_at <= s.pos_start) {
            return s.before.free_at; // the arm never moved for this run
        }
        return std::max(s.abort_at, s.ready); // a seek under way completes
    }
    return end;
}

uint32_t ReadStream::final_track() const {
    const Run &s = run_;
    if (s.abort_at <= s.pos_start) {
        return s.before.track;
    }
    uint64_t end = std::min(s.abort_at, natural_end());
    uint32_t h = hi(end);
    return mech_.geometry().track_of(h > s.lba0 ? h - 1 : s.lba0);
}

SectorWindow ReadStream::window(uint64_t t) const {
    uint32_t h = hi(t);
    uint32_t cap = capacity_sectors();
    uint32_t lo = std::max(run_.first, h > cap ? h - cap : 0u);
    if (params_.cache_keeps_only_ahead) {
        lo = std::max(lo, run_.consumed); // the host's reads released what lies before
    }
    return SectorWindow{std::min(lo, h), h};
}

uint64_t ReadStream::reach_time(uint32_t end_lba) const {
    if (end_lba <= run_.lba0) {
        return 0;
    }
    if (end_lba > run_.limit) {
        throw std::logic_error(owner_ + ": read stream cannot reach the request");
    }
    return run_end(end_lba);
}

uint64_t ReadStream::run_end(uint32_t end_lba) const {
    return mech_.slot_time(anchor_.end_slot(end_lba));
}

MechPlan ReadStream::plan_after() const {
    if (run_.abort_at <= run_.pos_start) {
        return run_.before;
    }
    uint64_t end = std::min(run_.abort_at, natural_end());
    return MechPlan{free_at(), final_track(), hi(end)};
}

bool ReadStream::reaches_before_repositioning(uint32_t m, uint32_t h, uint64_t now,
                                              uint64_t overhead_end) const {
    // The stream's run may reach past its limit here.
    const DiskGeometry &geom = mech_.geometry();
    const RotationClock &clock = mech_.clock();
    uint64_t t_stream = run_end(m + 1);
    uint32_t track = geom.track_of(h > run_.lba0 ? h - 1 : run_.lba0);
    uint64_t ready = std::max(overhead_end, now) + geom.switch_ps(track, geom.track_of(m));
    uint64_t u = clock.next_slot_with_index(
        clock.first_slot_at_or_after(static_cast<int64_t>(ready)), geom.physical_slot(m));
    return t_stream <= mech_.slot_time(u + 1);
}

ReadStream::Usage ReadStream::usage_until(uint64_t until) const {
    const Run &s = run_;
    Usage usage;
    uint64_t end = std::min({until, s.abort_at, natural_end()});
    if (s.abort_at <= s.pos_start && s.abort_at <= until) {
        return usage;
    }
    uint64_t busy_end = std::max(end, std::min(s.ready, until));
    uint32_t h = hi(end);
    usage.counted = true;
    usage.busy_ps = busy_end > s.pos_start ? busy_end - s.pos_start : 0;
    usage.sectors = h - s.lba0;
    usage.op = MediaOp{false, s.lba0, h - s.lba0, s.pos_start, mech_.slot_time(s.u0), end};
    return usage;
}

void ReadStream::stop(uint64_t now) {
    if (run_.valid && run_.abort_at == kNever && natural_end() > now) {
        run_.abort_at = now;
    }
}

void ReadStream::retire(uint64_t now) {
    SectorWindow w = window(now);
    if (w.hi > w.lo) {
        segments_.push_back(w);
    }
    run_.valid = false;
}

void ReadStream::make_room_for_new_segment() {
    while (segments_.size() + 1 > params_.cache_segments) {
        segments_.pop_front(); // the least recently filled segment is reused
    }
}

void ReadStream::start(const MechPlan &before, const Positioning &pos, uint32_t first,
                       uint32_t lba0, uint32_t consumed) {
    Run &s = run_;
    s = Run{};
    s.valid = true;
    s.before = before;
    s.first = first;
    s.consumed = consumed;
    s.lba0 = lba0;
    s.pos_start = pos.start;
    s.ready = pos.ready;
    s.u0 = pos.u0;
    s.from_track = pos.from_track;
    uint32_t stop = params_.readahead ? mech_.geometry().capacity() : stop_lba_;
    s.limit = static_cast<uint32_t>(
        std::min<uint64_t>(stop, static_cast<uint64_t>(consumed) + capacity_sectors()));
    s.limit = std::max(s.limit, lba0 + 1);
    anchor_.reset(s.lba0, s.u0);
}

ReadStream::Resume ReadStream::consume(uint32_t consumed, uint64_t now) {
    Run &s = run_;
    Resume resume;
    if (!s.valid || s.abort_at != kNever) {
        return resume;
    }
    s.consumed = std::max(s.consumed, consumed);
    uint32_t stop = params_.readahead ? mech_.geometry().capacity() : std::max(s.limit, stop_lba_);
    uint32_t limit = static_cast<uint32_t>(
        std::min<uint64_t>(stop, static_cast<uint64_t>(s.consumed) + capacity_sectors()));
    uint64_t end = natural_end();
    if (end <= now) {
        // The run stopped (segment full, or the end of the request without
        // read-ahead): resume from where it stopped if there is room now. The arm
        // stayed on the track, so this costs a rotational wait.
        if (limit > s.limit) {
            resume = Resume{true, end, limit};
        }
        return resume;
    }
    s.limit = std::max({limit, hi(now), s.lba0 + 1});
    return resume;
}

void ReadStream::resume(const MechPlan &stopped, const Positioning &pos, uint32_t limit) {
    Run &s = run_;
    s.before = stopped;
    s.lba0 = s.limit;
    s.pos_start = pos.start;
    s.ready = pos.ready;
    s.u0 = pos.u0;
    s.from_track = pos.from_track;
    s.limit = limit;
    anchor_.reset(s.lba0, s.u0);
}

void ReadStream::append_cached(uint64_t now, std::vector<SectorWindow> &out) const {
    out.insert(out.end(), segments_.begin(), segments_.end());
    if (run_.valid) {
        out.push_back(window(now));
    }
}

uint64_t ReadStream::cached_sectors(uint64_t now) const {
    uint64_t cached = 0;
    if (run_.valid) {
        SectorWindow w = window(now);
        cached += w.hi > w.lo ? w.hi - w.lo : 0;
    }
    for (const SectorWindow &w : segments_) {
        cached += w.hi > w.lo ? w.hi - w.lo : 0;
    }
    return cached;
}

} // namespace starfish::storage
