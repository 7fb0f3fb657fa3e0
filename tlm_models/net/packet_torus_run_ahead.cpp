#include "tlm_models/net/packet_torus_run_ahead.h"

#include "tlm_models/common/sim_time.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace starfish::net {

// ---- endpoint calls ------------------------------------------------------------------

bool PacketTorusRunAhead::replayed_matches(int64_t now, bool injected, int router) {
    // The replay must meet the calls the run-ahead made, in order.
    const bool same = replayed_outputs_ < deferred_next_ &&
                      deferred_[replayed_outputs_].cycle == now &&
                      deferred_[replayed_outputs_].injected == injected &&
                      deferred_[replayed_outputs_].router == router;
    if (!same) {
        throw std::logic_error(std::string(t_.name()) + ": run-ahead replay diverged");
    }
    ++replayed_outputs_;
    return true;
}

bool PacketTorusRunAhead::take_injected(int64_t now, int router, uint64_t tag) {
    switch (outputs_) {
    case Outputs::Emit:
        return false;
    case Outputs::Defer:
        deferred_.push_back(Output{now, true, router, tag, nullptr});
        return true;
    case Outputs::Suppress:
        return replayed_matches(now, true, router);
    }
    return false;
}

bool PacketTorusRunAhead::take_arriving(int64_t now, int router, const Packet &pkt) {
    switch (outputs_) {
    case Outputs::Emit:
        return false;
    case Outputs::Defer:
        deferred_.push_back(Output{now, false, router, 0, &pkt});
        return true;
    case Outputs::Suppress:
        return replayed_matches(now, false, router);
    }
    return false;
}

// ---- running ahead -------------------------------------------------------------------

// Whether processing `cycle` would offer a packet to its endpoint: a running
// ejection hop whose run reaches the tail by then.
bool PacketTorusRunAhead::delivers_at(int64_t cycle) const {
    for (const Event &e : t_.events_) {
        if (e.cycle != cycle || e.kind != Ev::Check) {
            continue;
        }
        const Seg &s = *e.seg;
        if (e.gen != s.gen || s.finished || !s.running || s.hop != s.worm->last_hop) {
            continue;
        }
        const Run &r = s.runs.back();
        if (int64_t(r.first) + (cycle - r.t0) >= int64_t(t_.flits(s))) {
            return true;
        }
    }
    return false;
}

// Saves what the worm's events will change, then processes them ahead up to
// (not including) its delivery.
bool PacketTorusRunAhead::begin(Worm &w) {
    if (!t_.params_.torus_run_ahead) {
        return false;
    }
    ++packets_;
    worm_ = &w;
    seq_ = t_.seq_;
    events_ = t_.events_processed_;
    channels_.clear();
    fifos_.clear();
    for (const Seg &s : w.segs) {
        const Channel &c = t_.channels_[s.channel];
        channels_.push_back(ChannelSnapshot{s.channel, s.vc, c.last_vc, c.vcs[s.vc].last_key,
                                            c.port_last_vc, t_.channel_stats(s.channel)});
        if (t_.params_.vc_realloc_tail_sent) {
            fifos_.push_back(c.vcs[s.vc].fifo);
        }
    }
    deferred_.clear();
    deferred_next_ = 0;

    t_.current_ = t_.now_cycle(); // no wake-ups while scheduling
    if (lone_full_rate(w)) {
        ++closed_form_packets_;
        closed_form(w);
    } else {
        t_.schedule(w.inj.eligible_cycle, Ev::HeadReady, &w.segs[0]);
        outputs_ = Outputs::Defer;
        ahead_through_ = -1;
        while (!t_.events_.empty() && !delivers_at(t_.next_event().cycle)) {
            const int64_t cycle = t_.next_event().cycle;
            t_.process_cycle(cycle);
            ahead_through_ = cycle;
        }
        outputs_ = Outputs::Emit;
    }
    t_.current_ = -1;
    ahead_ = ahead_through_ >= 0;
    t_.wake_.cancel();
    wake();
    return true;
}

// Whether a packet alone in the network crosses every channel in one run of
// consecutive cycles: true when it fits in a buffer, or when every credit comes
// back in time (router delay + 2 x wire + 1 <= buffer, docs/network.md). The
// closed form keeps only the state of the default router policies: under
// tail_sent (shared buffer streams) or an input speedup (per-port round robin)
// the packet runs ahead event by event, as it does with the switch off.
bool PacketTorusRunAhead::lone_full_rate(const Worm &w) const {
    const NetParams &p = t_.params_;
    if (!p.torus_closed_form || p.vc_realloc_tail_sent || p.input_speedup != 0) {
        return false;
    }
    if (int64_t(w.inj.flits) <= p.buffer_flits) {
        return true;
    }
    for (int h = 0; h < w.last_hop; ++h) {
        if (p.router_delay_cycles + 2 * w.segs[h].wire + 1 > p.buffer_flits) {
            return false;
        }
    }
    return true;
}

// The run-ahead of a lone packet that moves at full rate, in closed form: hop h
// starts at T_h (T_0 = eligible cycle, T_h = T_(h-1) + wire + router delay, its
// VC granted and its link won the cycle its head is ready) and crosses flit k at
// T_h + k. Leaves exactly the state the event processing reaches after the last
// cycle before the delivery D = T_H + flits: every hop before the last finished,
// their VCs released except the one before the last (released at the delivery),
// the eject hop running with its check at D, the endpoint calls deferred. Only
// host-side figures differ (events_processed_ and superseded checks are not
// counted), and ahead_through_ is D - 1, which at most makes a replay start
// from a cycle with nothing to process.
void PacketTorusRunAhead::closed_form(Worm &w) {
    const int64_t n = int64_t(w.inj.flits);
    int64_t t = w.inj.eligible_cycle;
    for (int h = 0; h <= w.last_hop; ++h) {
        Seg &s = w.segs[h];
        if (h > 0) {
            t += w.segs[h - 1].wire + t_.params_.router_delay_cycles;
        }
        s.runs.push_back({0, t});
        s.head_ready = t;
        s.vc_owned = true;
        Channel &c = t_.channels_[s.channel];
        c.last_vc = s.vc;
        VcState &v = c.vcs[s.vc];
        v.last_key = std::max(0, w.inj.path[h].requester);
        v.owner = h + 1 >= w.last_hop ? &s : nullptr;
        t_.record_head(s.channel, 0);
        if (h < w.last_hop) {
            s.finished = true;
            s.count = int32_t(n);
            t_.record_flits(s.channel, w.inj.flits);
        } else {
            s.running = true;
            c.sender = &s;
        }
    }
    const Packet &pkt = *w.inj.pkt;
    const int64_t injected = w.segs[0].runs[0].t0 + n;
    const int64_t last_start = w.segs[w.last_hop].runs[0].t0;
    const int64_t arriving = last_start + int64_t(pkt.early_flits);
    const bool wants = PacketTorus::wants_arriving(pkt, w.inj.flits);
    if (wants && arriving < injected) {
        deferred_.push_back(Output{arriving, false, pkt.dst_router, 0, &pkt});
    }
    deferred_.push_back(Output{injected, true, w.src, pkt.tag, nullptr});
    if (wants && arriving >= injected) {
        deferred_.push_back(Output{arriving, false, pkt.dst_router, 0, &pkt});
    }
    t_.queues_[w.src].pop_front();
    const int64_t delivery = last_start + n;
    t_.schedule(delivery, Ev::Check, &w.segs[w.last_hop]);
    ahead_through_ = delivery - 1;
}

// The next cycle with work while ahead: an endpoint call due, or the first
// cycle not processed yet.
void PacketTorusRunAhead::wake() {
    int64_t next = PacketTorus::kNever;
    if (deferred_next_ < deferred_.size()) {
        next = deferred_[deferred_next_].cycle;
    }
    if (!t_.events_.empty()) {
        next = std::min(next, t_.next_event().cycle);
    }
    if (next != PacketTorus::kNever) {
        t_.wake_at(next);
    }
}

bool PacketTorusRunAhead::step(int64_t now) {
    if (now <= ahead_through_) {
        // Processed already: only the endpoint calls of this cycle are due.
        while (deferred_next_ < deferred_.size() && deferred_[deferred_next_].cycle <= now) {
            const Output &o = deferred_[deferred_next_++];
            if (o.cycle != now) {
                throw std::logic_error(std::string(t_.name()) + ": run-ahead output for cycle " +
                                       std::to_string(o.cycle) + " made at cycle " +
                                       std::to_string(now));
            }
            if (o.injected) {
                t_.report_injected(o.router, o.tag);
            } else {
                t_.report_arriving(o.router, *o.pkt);
            }
        }
        wake();
        return true;
    }
    // Caught up with the processed cycles: from here on as usual.
    if (deferred_next_ != deferred_.size()) {
        throw std::logic_error(std::string(t_.name()) + ": run-ahead outputs left unmade");
    }
    ahead_ = false;
    deferred_.clear();
    deferred_next_ = 0;
    return false;
}

// Something from outside (a packet offered, an endpoint ready) happens during
// `now` while the engine is ahead: returns to the state the ahead worm found
// and replays its events as far as cycle-by-cycle processing would have got by
// now: through `now` if this cycle's processing has run, else through the cycle
// before. Cycle-by-cycle processing runs a cycle at its start, so it has run for
// every caller later in the cycle (a thread that a disk interrupt put off the
// cycle grid) and for every thread process; only a method at the cycle's very
// start may come first. Endpoint calls made so far are exactly the replayed ones;
// later ones are dropped and will be made by the usual processing.
void PacketTorusRunAhead::catch_up(int64_t now) {
    ahead_ = false;
    const bool cycle_ran = t_.last_step_cycle_ == now || common::sim_time() > t_.time_of(now);
    const int64_t cycle = cycle_ran ? now : now - 1;
    if (ahead_through_ > cycle) {
        ++replays_;
        Worm &w = *worm_;
        t_.seq_ = seq_;
        t_.events_processed_ = events_;
        t_.events_.clear();
        for (size_t i = 0; i < channels_.size(); ++i) {
            const ChannelSnapshot &cs = channels_[i];
            Channel &c = t_.channels_[cs.channel];
            c.port_sender = nullptr;
            c.port_last_vc = cs.port_last_vc;
            c.port_dirty = false;
            c.port_eligible[cs.vc] = nullptr;
            if (t_.params_.vc_realloc_tail_sent) {
                c.vcs[cs.vc].fifo = fifos_[i];
            }
            c.sender = nullptr;
            c.last_vc = cs.last_vc;
            c.dirty = false;
            c.eligible[cs.vc] = nullptr;
            VcState &v = c.vcs[cs.vc];
            v.owner = nullptr;
            v.waiting.clear();
            v.marked = false;
            v.last_key = cs.last_key;
            t_.channel_stats(cs.channel) = cs.stats;
        }
        t_.reset_segs(w);
        if (t_.queues_[w.src].empty()) {
            t_.queues_[w.src].push_back(&w);
        }
        t_.current_ = cycle;
        t_.schedule(w.inj.eligible_cycle, Ev::HeadReady, &w.segs[0]);
        outputs_ = Outputs::Suppress;
        replayed_outputs_ = 0;
        while (!t_.events_.empty() && t_.next_event().cycle <= cycle) {
            t_.process_cycle(t_.next_event().cycle);
        }
        outputs_ = Outputs::Emit;
        if (replayed_outputs_ != deferred_next_) {
            throw std::logic_error(std::string(t_.name()) + ": run-ahead replay diverged");
        }
        t_.current_ = -1;
    } else if (deferred_next_ != deferred_.size()) {
        throw std::logic_error(std::string(t_.name()) + ": run-ahead outputs left unmade");
    }
    deferred_.clear();
    deferred_next_ = 0;
    t_.wake_.cancel();
    if (!t_.events_.empty()) {
        t_.wake_at(t_.next_event().cycle);
    }
}

} // namespace starfish::net
