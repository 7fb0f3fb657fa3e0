// The HP 97560's observation, apart from the drive it watches (hp97560_disk.cpp):
// the media log for tests and the signals, transaction-log and timeline entries of
// docs/observe.md (mechanism state, cylinder, head, command state, cache fill,
// queued writes), all computed from the drive's state without changing it.
#include "tlm_models/storage/hp97560_disk.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace starfish::storage {

std::vector<MediaOp> Hp97560Disk::media_log() const {
    std::vector<MediaOp> log = media_log_;
    if (media_log_on_ && stream_.valid() && !stream_.never_moved()) {
        log.push_back(stream_.usage_until(kNever).op);
    }
    std::stable_sort(log.begin(), log.end(),
                     [](const MediaOp &a, const MediaOp &b) { return a.start_ps < b.start_ps; });
    return log;
}

Hp97560Disk::MechState Hp97560Disk::mech_state_at(uint64_t now, uint32_t &track) const {
    MechState state = MechState::Idle;
    track = plan().track;
    auto phase_of = [&](uint64_t start, uint64_t ready, uint64_t data, uint64_t end, uint32_t from,
                        uint32_t to, MechState transfer) {
        if (now < start || now >= end) {
            return false;
        }
        if (now < ready) {
            state = MechState::Seek;
            track = from;
        } else {
            state = now < data ? MechState::Rotate : transfer;
            track = to;
        }
        return true;
    };
    bool found = false;
    for (const auto &w : writes_.jobs()) {
        if (phase_of(w.start, w.ready, w.data, w.end, w.from_track, geom_.track_of(w.lba),
                     MechState::Write)) {
            found = true;
            break;
        }
    }
    if (!found && stream_.valid() && !stream_.never_moved()) {
        const ReadStream::Run &run = stream_.run();
        uint64_t end = stream_.free_at();
        uint32_t hi = stream_.hi(now);
        uint32_t reading = geom_.track_of(hi > run.lba0 ? hi - 1 : run.lba0);
        phase_of(run.pos_start, run.ready, mech_.slot_time(run.u0), end, run.from_track, reading,
                 MechState::Read);
    }
    return state;
}

uint64_t Hp97560Disk::next_mech_transition(uint64_t now) const {
    uint64_t next = kNever;
    auto consider = [&](uint64_t t) {
        if (t > now && t < next) {
            next = t;
        }
    };
    for (const auto &w : writes_.jobs()) {
        consider(w.start);
        consider(w.ready);
        consider(w.data);
        consider(w.end);
    }
    if (stream_.valid() && !stream_.never_moved()) {
        const ReadStream::Run &run = stream_.run();
        consider(run.pos_start);
        consider(run.ready);
        consider(mech_.slot_time(run.u0));
        consider(stream_.free_at());
        // Track changes while reading show as cylinder changes: wake at the next
        // track boundary of the run.
        uint32_t hi = stream_.hi(now);
        uint32_t spt = geom_.sectors_per_track();
        uint32_t boundary = (hi / spt + 1) * spt;
        if (boundary < run.limit && boundary > run.lba0) {
            consider(stream_.reach_time(boundary));
        }
    }
    return next;
}

// ---- observation ---------------------------------------------------------------------

void Hp97560Disk::observe(trace::TraceHub *hub, const std::string &scope) {
    hub_ = hub;
    scope_ = scope;
    // No extra wakes (they would make the run end later): the transitions between
    // two events of the drive are reported at the second, or when the hub asks.
    hub->catch_up_with([this](uint64_t now) { observe_until(now); });
    hub->at_finish([this](uint64_t end_ps) { observe_until(end_ps); });
    using trace::SignalKind;
    using trace::TimelineRole;
    sig_state_ = hub->signal({scope, "state", SignalKind::Text, 10, TimelineRole::Slices, "idle"},
                             {0, "idle"});
    sig_cylinder_ = hub->signal({scope, "cylinder", SignalKind::Int, 12, TimelineRole::None, ""});
    sig_head_ = hub->signal({scope, "head", SignalKind::Int, 5, TimelineRole::None, ""});
    sig_command_ =
        hub->signal({scope, "command", SignalKind::Text, 10, TimelineRole::None, ""}, {0, "none"});
    sig_cache_ = hub->signal({scope, "cache", SignalKind::Int, 16, TimelineRole::Counter, ""});
    sig_writes_ = hub->signal({scope, "writes", SignalKind::Int, 8, TimelineRole::Counter, ""});
}

Hp97560Disk::ObservedEvent::ObservedEvent(Hp97560Disk &disk, uint64_t now)
    : disk_(disk.hub_ != nullptr ? &disk : nullptr), now_(now) {
    if (disk_ != nullptr) {
        disk_->observe_until(now);
    }
}

Hp97560Disk::ObservedEvent::~ObservedEvent() {
    if (disk_ != nullptr) {
        uint32_t track = 0;
        MechState state = disk_->mech_state_at(now_, track);
        disk_->observe_state(now_, state, track);
        disk_->observed_until_ = now_;
    }
}

void Hp97560Disk::observe_until(uint64_t t) {
    for (uint64_t at = observed_until_;;) {
        at = next_mech_transition(at);
        if (at > t) {
            break;
        }
        uint32_t track = 0;
        MechState state = mech_state_at(at, track);
        observe_state(at, state, track);
    }
    observed_until_ = t;
}

void Hp97560Disk::observe_state(uint64_t now, MechState state, uint32_t track) {
    static const char *const kCommand[] = {"none", "overhead", "waiting", "want-bus", "connected"};
    const char *shown = "idle";
    switch (state) {
    case MechState::Idle:
        break;
    case MechState::Seek:
        shown = "seek";
        break;
    case MechState::Rotate:
        shown = "rotate";
        break;
    case MechState::Read:
        // Reading for the command in progress, or ahead of any request.
        shown = cmd_.active && cmd_uses_stream_ ? "transfer" : "read-ahead";
        break;
    case MechState::Write:
        shown = "transfer";
        break;
    }
    uint64_t cached = stream_.cached_sectors(now);
    CmdState cmd = conn_ != Connection::None ? CmdState::Connected : cmd_.state;
    hub_->set_text(sig_state_, now, shown);
    hub_->set(sig_cylinder_, now, geom_.cylinder_of_track(track));
    hub_->set(sig_head_, now, track % geom_.heads());
    hub_->set_text(sig_command_, now, kCommand[static_cast<int>(cmd)]);
    hub_->set(sig_cache_, now, static_cast<int64_t>(cached));
    hub_->set(sig_writes_, now, static_cast<int64_t>(writes_.jobs().size()));
}

void Hp97560Disk::observe_log(uint64_t at_ps, trace::Direction dir, const char *op,
                              std::string fields) {
    hub_->log({at_ps, "DISK", scope_, dir, op, dir == trace::Direction::Instant ? 0 : command_id_,
               std::move(fields)});
}

} // namespace starfish::storage
