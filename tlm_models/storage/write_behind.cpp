#include "tlm_models/storage/write_behind.h"

#include "hw/data_pattern.h"

namespace starfish::storage {

const WriteJob &WriteBehind::add(uint32_t lba, uint32_t sectors, const Positioning &pos) {
    WriteJob job;
    job.lba = lba;
    job.sectors = sectors;
    job.start = pos.start;
    job.ready = pos.ready;
    job.data = mech_.slot_time(pos.u0);
    job.end = mech_.slot_time(mech_.run_end_slot(lba, pos.u0, sectors));
    job.from_track = pos.from_track;
    jobs_.push_back(job);
    return jobs_.back();
}

std::optional<MechPlan> WriteBehind::prune(uint64_t now) {
    std::optional<MechPlan> last;
    while (!jobs_.empty() && jobs_.front().end <= now) {
        const WriteJob &w = jobs_.front();
        if (jobs_.size() == 1) {
            last = MechPlan{w.end, mech_.geometry().track_of(w.lba + w.sectors - 1),
                            w.lba + w.sectors};
        }
        jobs_.pop_front();
    }
    return last;
}

MechPlan WriteBehind::plan_after() const {
    const WriteJob &w = jobs_.back();
    uint32_t next = w.lba + w.sectors;
    return MechPlan{w.end, mech_.geometry().track_of(next - 1), next};
}

uint64_t WriteBehind::done_at() const {
    return jobs_.empty() ? 0 : jobs_.back().end;
}

uint64_t WriteBehind::earlier_writes_room_at(uint32_t own_jobs, uint64_t now) const {
    // jobs_ is in media order and this command's jobs are the last own_jobs (or
    // fewer, if some already finished, and then every earlier one did too).
    size_t earlier = jobs_.size() > own_jobs ? jobs_.size() - own_jobs : 0;
    uint64_t dirty = 0;
    for (size_t i = 0; i < earlier; ++i) {
        if (jobs_[i].end > now) {
            dirty += static_cast<uint64_t>(jobs_[i].sectors) * HW_SECTOR_BYTES;
        }
    }
    for (size_t i = 0; i < earlier && dirty > params_.write_behind_bytes; ++i) {
        if (jobs_[i].end <= now) {
            continue;
        }
        dirty -= static_cast<uint64_t>(jobs_[i].sectors) * HW_SECTOR_BYTES;
        if (dirty <= params_.write_behind_bytes) {
            return jobs_[i].end;
        }
    }
    return now;
}

uint64_t WriteBehind::room_time(uint32_t bytes, uint64_t now) const {
    uint64_t dirty = 0;
    for (const auto &w : jobs_) {
        if (w.end > now) {
            dirty += static_cast<uint64_t>(w.sectors) * HW_SECTOR_BYTES;
        }
    }
    if (dirty + bytes <= params_.cache_bytes) {
        return now;
    }
    for (const auto &w : jobs_) {
        if (w.end <= now) {
            continue;
        }
        dirty -= static_cast<uint64_t>(w.sectors) * HW_SECTOR_BYTES;
        if (dirty + bytes <= params_.cache_bytes) {
            return w.end;
        }
    }
    return done_at();
}

uint64_t WriteBehind::pending_sectors(uint64_t now) const {
    uint64_t n = 0;
    for (const auto &w : jobs_) {
        if (w.end > now) {
            n += w.sectors;
        }
    }
    return n;
}

void WriteBehind::append_pending(uint64_t now, std::vector<SectorWindow> &out) const {
    for (const auto &w : jobs_) {
        if (w.end > now) {
            out.push_back(SectorWindow{w.lba, w.lba + w.sectors});
        }
    }
}

} // namespace starfish::storage
