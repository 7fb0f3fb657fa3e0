#include "tlm_models/node/cpu_sync_shortcuts.h"

#include "tlm_models/node/node_cpu.h"

#include <systemc>

namespace starfish::node {

// Beyond this much pending work a point is never left out: firmware that loops
// over such points alone (a thread spinning on hal_yield) must still let the
// simulation's time go on (the deadlock watchdog watches it).
constexpr uint64_t kQuietPendingLimitCycles = 10000;

bool CpuSyncShortcuts::quiet_through_pending() const {
    const NodeCpu &c = cpu_;
    if (!skip_quiet_sync_ || c.hub_ != nullptr || c.pending_ps_ == 0) {
        return false; // traced: every point at its own time (the trace's stamps)
    }
    if (c.pending_ps_ > kQuietPendingLimitCycles * c.params_.cycle_ps) {
        return false;
    }
    if (!c.in_handler_ && c.enabled_mask_ != 0 && c.running_ != nullptr &&
        c.first_raised_line() >= 0) {
        return false; // a synchronisation would serve it at once
    }
    // No process is runnable or notified now, and no timed event comes up to and
    // including the end of the pending work (sc_time_to_pending_activity, without
    // its allocation).
    const sc_core::sc_simcontext *sim = sc_core::sc_get_curr_simcontext();
    if (sim->pending_activity_at_current_time()) {
        return false;
    }
    sc_core::sc_time next;
    return !sim->next_time(next) || next.value() > c.now_ps() + c.pending_ps_;
}

bool CpuSyncShortcuts::skip_sync() {
    if (!skip_quiet_sync_) {
        return false;
    }
    if (cpu_.in_handler_ && cpu_.hub_ == nullptr) {
        // Nothing interrupts a handler, and what it posts or spawns runs only after
        // it ends: such a point orders nothing here.
        ++handler_syncs_skipped_;
        return true;
    }
    if (quiet_through_pending()) {
        ++quiet_syncs_skipped_;
        return true;
    }
    return false;
}

bool CpuSyncShortcuts::post_write(uint32_t addr, uint32_t value, bool only_when_quiet) {
    if (!posted_writes_) {
        return false;
    }
    if (only_when_quiet) {
        if (!quiet_through_pending()) {
            return false;
        }
        ++quiet_posts_;
    }
    if (cpu_.in_handler_) {
        // Nothing interrupts a handler: its writes apply at its next synchronisation.
        handler_posted_.push_back({0, addr, value});
        return true;
    }
    if (cpu_.enabled_mask_ != 0 && cpu_.first_raised_line() >= 0) {
        return false;
    }
    posted_.push_back({work_ps_ + cpu_.pending_ps_, addr, value});
    return true;
}

void CpuSyncShortcuts::apply_reached_writes() {
    while (posted_head_ < posted_.size() && posted_[posted_head_].at_ps <= work_ps_) {
        const PostedWrite w = posted_[posted_head_++];
        posted_sink_(w.addr, w.value);
    }
    if (posted_head_ == posted_.size() && posted_head_ != 0) {
        posted_.clear();
        posted_head_ = 0;
    }
}

void CpuSyncShortcuts::apply_handler_writes() {
    for (size_t i = 0; i < handler_posted_.size(); ++i) {
        posted_sink_(handler_posted_[i].addr, handler_posted_[i].value);
    }
    handler_posted_.clear();
}

} // namespace starfish::node
