#include "tlm_models/net/packet_torus.h"

#include "tlm_models/common/sim_time.h"
#include "tlm_models/net/packet_torus_run_ahead.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace starfish::net {

PacketTorus::PacketTorus(sc_core::sc_module_name name, const NetParams &params, uint64_t seed,
                         uint64_t trial)
    : TorusBase(name, params, seed, trial),
      run_ahead_(std::make_unique<PacketTorusRunAhead>(*this)) {
    channels_.resize(topo_.channel_count());
    for (int ch = 0; ch < topo_.channel_count(); ++ch) {
        Channel &c = channels_[ch];
        int nvc = topo_.channel_vcs(ch);
        c.vcs.resize(nvc);
        c.eligible.assign(nvc, nullptr);
        c.port_eligible.assign(nvc, nullptr);
        c.wire = topo_.channel_kind(ch) == ChannelKind::Link ? params_.link_delay_cycles : 0;
    }
    queues_.resize(topo_.routers());
    SC_METHOD(step);
    sensitive << wake_;
    dont_initialize();
}

PacketTorus::~PacketTorus() = default;

uint64_t PacketTorus::run_ahead_packets() const {
    return run_ahead_->packets();
}

uint64_t PacketTorus::run_ahead_replays() const {
    return run_ahead_->replays();
}

uint64_t PacketTorus::run_ahead_closed_form() const {
    return run_ahead_->closed_form_packets();
}

// ---- flit timing -------------------------------------------------------------------

int64_t PacketTorus::cross_cycle(const Seg &s, int32_t k) const {
    int32_t known = s.running ? int32_t(flits(s)) : s.count;
    if (k < 0 || k >= known) {
        return kNever;
    }
    auto it = std::upper_bound(s.runs.begin(), s.runs.end(), k,
                               [](int32_t v, const Run &r) { return v < r.first; });
    const Run &r = *(it - 1);
    return r.t0 + (k - r.first);
}

// The first flit k >= k_start whose crossing cycle minus k exceeds threshold; flits
// not (yet) scheduled count as crossing never. Runs start ever later relative to
// their first flit, so the scan stops at the first run above the threshold.
int32_t PacketTorus::first_offset_above(const Seg &s, int32_t k_start, int64_t threshold) const {
    int32_t known = s.running ? int32_t(flits(s)) : s.count;
    if (k_start >= known) {
        return k_start;
    }
    auto it = std::upper_bound(s.runs.begin(), s.runs.end(), k_start,
                               [](int32_t v, const Run &r) { return v < r.first; });
    for (--it; it != s.runs.end(); ++it) {
        if (it->t0 - it->first > threshold) {
            return std::max(k_start, it->first);
        }
    }
    return known;
}

// Whether flit k of this hop may cross its channel in cycle `now` (link arbitration
// aside): docs/network.md, "Timing contract".
bool PacketTorus::can_send(const Seg &s, int32_t k, int64_t now) const {
    const Worm &w = *s.worm;
    if (!s.vc_owned || k >= int32_t(w.inj.flits)) {
        return false;
    }
    if (s.hop == 0) {
        if (k == 0 && now < w.inj.eligible_cycle) {
            return false;
        }
    } else {
        const Seg &up = w.segs[s.hop - 1];
        if (k == 0) {
            if (cross_cycle(up, 0) + up.wire + params_.router_delay_cycles > now) {
                return false;
            }
        } else if (cross_cycle(up, k) > now - 1 - up.wire) {
            return false;
        }
    }
    if (s.hop < w.last_hop && k >= params_.buffer_flits) {
        const Seg &down = w.segs[s.hop + 1];
        if (cross_cycle(down, k - params_.buffer_flits) > now - 1 - s.wire) {
            return false;
        }
    } else if (s.hop < w.last_hop && params_.vc_realloc_tail_sent) {
        // The credit of a flit of a packet ahead in the buffer.
        const int64_t pos = s.base + k - params_.buffer_flits;
        if (pos >= 0 && departure(fifo_filled_by(s), pos) > now - 1 - s.wire) {
            return false;
        }
    }
    if (s.refused && k == int32_t(w.inj.flits) - 1 && now < s.retry) {
        return false;
    }
    return true;
}

// A running segment crosses flit k at t0 + (k - first) until the first flit whose
// data or credit is not there in time (or the tail has crossed): the cycle of that
// flit is when the run stops.
int64_t PacketTorus::predicted_stop(const Seg &s, int64_t now) const {
    const Worm &w = *s.worm;
    const Run &r = s.runs.back();
    int32_t n = int32_t(w.inj.flits);
    int32_t next = int32_t(r.first + (now + 1 - r.t0));
    int32_t stop = n;
    if (s.hop > 0) {
        const Seg &up = w.segs[s.hop - 1];
        stop = std::min(stop, first_offset_above(up, next, r.t0 - r.first - 1 - up.wire));
    }
    if (s.hop < w.last_hop) {
        const Seg &down = w.segs[s.hop + 1];
        int32_t b = params_.buffer_flits;
        int32_t m =
            first_offset_above(down, std::max(0, next - b), r.t0 - r.first - 1 - s.wire + b);
        stop = std::min(stop, m + b);
        if (params_.vc_realloc_tail_sent && next < b) {
            const int64_t p =
                first_position_above(fifo_filled_by(s), std::max<int64_t>(0, s.base + next - b),
                                     s.base, r.t0 - r.first - 1 - s.wire - s.base + b);
            if (p < s.base) {
                stop = std::min(stop, int32_t(p - s.base + b));
            }
        }
    }
    if (stop < next) {
        throw std::logic_error(std::string(name()) + ": inconsistent run prediction");
    }
    return r.t0 + (stop - r.first);
}

// First cycle an idle hop that owns its VC can send its next flit (kNever while
// that depends on a neighbour that is not moving).
int64_t PacketTorus::eligible_from(const Seg &s) const {
    const Worm &w = *s.worm;
    int32_t k = s.count;
    int64_t t = 0;
    if (s.hop == 0) {
        if (k == 0) {
            t = w.inj.eligible_cycle;
        }
    } else {
        const Seg &up = w.segs[s.hop - 1];
        int64_t x = cross_cycle(up, k);
        if (x == kNever) {
            return kNever;
        }
        t = k == 0 ? x + up.wire + params_.router_delay_cycles : x + 1 + up.wire;
    }
    if (s.hop < w.last_hop && k >= params_.buffer_flits) {
        int64_t x = cross_cycle(w.segs[s.hop + 1], k - params_.buffer_flits);
        if (x == kNever) {
            return kNever;
        }
        t = std::max(t, x + 1 + s.wire);
    } else if (s.hop < w.last_hop && params_.vc_realloc_tail_sent) {
        const int64_t pos = s.base + k - params_.buffer_flits;
        if (pos >= 0) {
            int64_t x = departure(fifo_filled_by(s), pos);
            if (x == kNever) {
                return kNever;
            }
            t = std::max(t, x + 1 + s.wire);
        }
    }
    if (s.refused && k == int32_t(w.inj.flits) - 1) {
        t = std::max(t, s.retry);
    }
    return t;
}

int64_t PacketTorus::departure(const Fifo &f, int64_t pos) const {
    if (pos < f.gone_end) {
        if (f.gone.empty() || pos < f.gone.front().first) {
            return -kNever; // left before anything a credit can still wait for
        }
        auto it = std::upper_bound(f.gone.begin(), f.gone.end(), pos,
                                   [](int64_t v, const PosRun &r) { return v < r.first; });
        const PosRun &r = *(it - 1);
        return r.t0 + (pos - r.first);
    }
    for (const Seg *filler : f.fillers) {
        const Seg &drainer = filler->worm->segs[filler->hop + 1];
        if (pos < filler->base + int64_t(flits(drainer))) {
            return cross_cycle(drainer, int32_t(pos - filler->base));
        }
    }
    return kNever;
}

// Departures minus positions never decrease along a buffer's stream (it is a FIFO
// that one flit leaves per cycle at most), so the scan stops at the first hit.
int64_t PacketTorus::first_position_above(const Fifo &f, int64_t from, int64_t to,
                                          int64_t threshold) const {
    int64_t pos = from;
    if (pos < f.gone_end) {
        auto it = std::upper_bound(f.gone.begin(), f.gone.end(), pos,
                                   [](int64_t v, const PosRun &r) { return v < r.first; });
        if (it != f.gone.begin()) {
            --it;
        }
        for (; it != f.gone.end(); ++it) {
            if (it->t0 - it->first > threshold) {
                return std::min(to, std::max(pos, it->first));
            }
        }
        pos = f.gone_end;
    }
    for (const Seg *filler : f.fillers) {
        if (pos >= to) {
            break;
        }
        const Seg &drainer = filler->worm->segs[filler->hop + 1];
        const int64_t n = int64_t(flits(drainer));
        if (pos >= filler->base + n) {
            continue;
        }
        int32_t k = first_offset_above(drainer, int32_t(std::max<int64_t>(0, pos - filler->base)),
                                       threshold + filler->base);
        if (k < n) {
            return std::min(to, filler->base + k);
        }
        pos = filler->base + n;
    }
    return to;
}

// ---- events ----------------------------------------------------------------------

void PacketTorus::schedule(int64_t cycle, Ev kind, Seg *seg, int channel, int vc) {
    Event e{cycle, seq_++, kind, seg ? seg->gen : 0u, seg, channel, vc};
    if (seg) {
        seg->worm->pending_events += 1;
    }
    events_.push_back(e);
    std::push_heap(events_.begin(), events_.end(), std::greater<Event>());
    if (current_ < 0) {
        wake_at(cycle);
    }
}

void PacketTorus::pop_event() {
    std::pop_heap(events_.begin(), events_.end(), std::greater<Event>());
    events_.pop_back();
}

void PacketTorus::wake_at(int64_t cycle) {
    const sc_core::sc_time at = time_of(cycle);
    const sc_core::sc_time now = common::sim_time();
    if (at < now) {
        // sc_time cannot go negative: the notification would wrap round to a time
        // in the past, and SystemC would move its clock backwards to get there.
        throw std::logic_error(std::string(name()) + ": wake-up for cycle " +
                               std::to_string(cycle) + " (" + at.to_string() + ") scheduled at " +
                               now.to_string());
    }
    wake_.notify(at - now);
}

void PacketTorus::reset_segs(Worm &w) {
    w.pending_events = 0;
    w.delivered = false;
    w.segs.resize(w.inj.path.size());
    for (int h = 0; h <= w.last_hop; ++h) {
        Seg &s = w.segs[h];
        std::vector<Run> runs = std::move(s.runs);
        runs.clear(); // keeps its capacity
        s = Seg{};
        s.runs = std::move(runs);
        s.worm = &w;
        s.hop = h;
        s.channel = w.inj.path[h].channel;
        s.vc = w.inj.path[h].vc;
        s.wire = channels_[s.channel].wire;
    }
}

void PacketTorus::accept(int router, Injection &&inj) {
    if (run_ahead_->ahead()) {
        run_ahead_->catch_up(now_cycle());
    }
    Worm *w = nullptr;
    if (free_worms_.empty()) {
        worms_.push_back(std::make_unique<Worm>());
        w = worms_.back().get();
    } else {
        w = free_worms_.back();
        free_worms_.pop_back();
    }
    w->src = router;
    w->inj = std::move(inj);
    w->last_hop = int(w->inj.path.size()) - 1;
    reset_segs(*w);
    ++live_worms_;
    queues_[router].push_back(w);
    // Alone in the network: nothing can meet it before the next packet is offered.
    const bool alone = live_worms_ == 1 && events_.empty() && !observed();
    if (alone && run_ahead_->begin(*w)) {
        return;
    }
    if (queues_[router].size() == 1) {
        schedule(w->inj.eligible_cycle, Ev::HeadReady, &w->segs[0]);
    }
}

void PacketTorus::endpoint_ready_at(int router, int64_t cycle) {
    if (run_ahead_->ahead() && current_ < 0) {
        run_ahead_->catch_up(now_cycle());
    }
    VcState &v = channels_[topo_.eject_channel(router)].vcs[0];
    Seg *s = v.owner;
    if (s == nullptr || !s->refused || s->retry != kNever || s->eligible || s->running) {
        return;
    }
    s->retry = cycle;
    if (current_ >= 0) {
        mark(*s);
        return;
    }
    s->gen += 1;
    schedule(eligible_from(*s), Ev::Check, s);
}

// ---- state changes ---------------------------------------------------------------

void PacketTorus::mark(Seg &s) {
    if (!s.marked) {
        s.marked = true;
        recompute_.push_back(&s);
    }
}

void PacketTorus::mark_with_neighbours(Seg &s) {
    mark(s);
    if (s.hop > 0) {
        mark(s.worm->segs[s.hop - 1]);
        if (params_.vc_realloc_tail_sent) {
            mark_later_fillers(s);
        }
    }
    if (s.hop < s.worm->last_hop) {
        mark(s.worm->segs[s.hop + 1]);
    }
}

// ---- tail_sent: buffers shared by consecutive packets -------------------------------

// A hop got its VC: its flits follow those of the packets ahead in the buffer.
void PacketTorus::enter_fifo(Seg &filler) {
    Fifo &f = fifo_filled_by(filler);
    filler.base = f.next_base;
    f.next_base += flits(filler);
    f.fillers.push_back(&filler);
    // Only the last buffer_flits positions before this packet can still be waited for.
    const int64_t keep_from = filler.base - params_.buffer_flits;
    size_t drop = 0;
    while (drop + 1 < f.gone.size() && f.gone[drop + 1].first <= keep_from) {
        ++drop;
    }
    f.gone.erase(f.gone.begin(), f.gone.begin() + long(drop));
}

// The drainer's tail left the buffer its previous hop fills (crossed, or for an
// ejection, was accepted): the packet behind it is at the front now.
void PacketTorus::leave_fifo(Seg &drainer, int64_t now) {
    Seg &filler = drainer.worm->segs[drainer.hop - 1];
    Fifo &f = fifo_filled_by(filler);
    if (f.fillers.empty() || f.fillers.front() != &filler) {
        throw std::logic_error(std::string(name()) +
                               ": packet left a buffer out of order at cycle " +
                               std::to_string(now));
    }
    f.fillers.pop_front();
    for (const Run &r : drainer.runs) {
        f.gone.push_back(PosRun{filler.base + r.first, r.t0});
    }
    f.gone_end = filler.base + int64_t(flits(drainer));
    if (!f.fillers.empty()) {
        const Seg &next_filler = *f.fillers.front();
        Seg &next = next_filler.worm->segs[next_filler.hop + 1];
        if (next.head_waits_front) {
            next.head_waits_front = false;
            heads_now_.push_back(&next);
        }
    }
}

// The hops filling the drainer's buffer behind its packet wait for its credits.
void PacketTorus::mark_later_fillers(const Seg &drainer) {
    const Seg *filler = &drainer.worm->segs[drainer.hop - 1];
    bool later = false;
    for (Seg *x : fifo_filled_by(*filler).fillers) {
        if (later) {
            mark(*x);
        }
        later = later || x == filler;
    }
}

// A refused delivery took back a tail crossing whose credit the hops behind it in
// the last buffer may have counted on for this very cycle.
void PacketTorus::recheck_later_fillers(const Seg &drainer, int64_t now) {
    const Seg *filler = &drainer.worm->segs[drainer.hop - 1];
    bool later = false;
    for (Seg *x : fifo_filled_by(*filler).fillers) {
        if (later) {
            if (x->running) {
                const Run &r = x->runs.back();
                int32_t k = int32_t(r.first + (now - r.t0));
                if (!can_send(*x, k, now)) {
                    stop(*x, k);
                }
            } else if (x->eligible && !can_send(*x, x->count, now)) {
                x->eligible = false;
                channels_[x->channel].eligible[x->vc] = nullptr;
                if (x->hop > 0) {
                    const Seg &up = x->worm->segs[x->hop - 1];
                    channels_[up.channel].port_eligible[up.vc] = nullptr;
                }
            }
            mark(*x);
        }
        later = later || x == filler;
    }
}

void PacketTorus::mark_port_dirty(int port) {
    if (!channels_[port].port_dirty) {
        channels_[port].port_dirty = true;
        dirty_ports_.push_back(port);
    }
}

void PacketTorus::mark_dirty(int channel) {
    if (!channels_[channel].dirty) {
        channels_[channel].dirty = true;
        dirty_.push_back(channel);
    }
}

void PacketTorus::release(int channel, int vc, int64_t at, int64_t now) {
    if (at == now) {
        releases_now_.emplace_back(channel, vc);
    } else {
        schedule(at, Ev::Release, nullptr, channel, vc);
    }
}

void PacketTorus::make_eligible(Seg &s) {
    s.eligible = true;
    channels_[s.channel].eligible[s.vc] = &s;
    mark_dirty(s.channel);
    if (params_.input_speedup == 1 && s.hop > 0) {
        const Seg &up = s.worm->segs[s.hop - 1];
        channels_[up.channel].port_eligible[up.vc] = &s;
    }
}

void PacketTorus::start(Seg &s, int64_t now) {
    Channel &c = channels_[s.channel];
    s.runs.push_back({s.count, now});
    s.running = true;
    s.eligible = false;
    c.eligible[s.vc] = nullptr;
    c.sender = &s;
    c.last_vc = s.vc;
    if (params_.input_speedup == 1 && s.hop > 0) {
        const Seg &up = s.worm->segs[s.hop - 1];
        Channel &port = channels_[up.channel];
        port.port_eligible[up.vc] = nullptr;
        port.port_sender = &s;
        port.port_last_vc = up.vc;
    }
    trace_channel(s.channel, true, s.vc, s.worm->inj.pkt->id);
    // A run of the eject hop that includes flit early_flits - 1 reports it the
    // cycle after it crosses; the event checks that the run got that far.
    const Packet &pkt = *s.worm->inj.pkt;
    if (s.hop == s.worm->last_hop && wants_arriving(pkt, flits(s)) &&
        s.count < int32_t(pkt.early_flits)) {
        schedule(now + (int32_t(pkt.early_flits) - 1 - s.count) + 1, Ev::Arriving, &s);
    }
    if (s.count == 0) {
        record_head(s.channel, now - s.head_ready);
        if (s.hop < s.worm->last_hop) {
            schedule(now + s.wire + params_.router_delay_cycles, Ev::HeadReady,
                     &s.worm->segs[s.hop + 1]);
        }
    }
    mark_with_neighbours(s);
}

void PacketTorus::stop(Seg &s, int32_t k) {
    s.running = false;
    s.count = k;
    channels_[s.channel].sender = nullptr;
    free_port(s);
    trace_channel(s.channel, false, -1);
    mark_dirty(s.channel);
    mark_with_neighbours(s);
}

void PacketTorus::finish(Seg &s, int64_t now) {
    Worm &w = *s.worm;
    s.running = false;
    s.count = int32_t(w.inj.flits);
    s.finished = true;
    channels_[s.channel].sender = nullptr;
    free_port(s);
    trace_channel(s.channel, false, -1);
    mark_dirty(s.channel);
    if (s.hop == w.last_hop) {
        deliveries_.push_back(&s);
        return;
    }
    record_flits(s.channel, w.inj.flits);
    if (s.hop == 0) {
        injected_.push_back(w.src);
    }
    if (params_.vc_realloc_tail_sent) {
        release(s.channel, s.vc, now, now); // the tail crossed in the previous cycle
        if (s.hop > 0) {
            leave_fifo(s, now);
        }
    } else if (s.hop > 0) {
        const Seg &up = w.segs[s.hop - 1];
        release(up.channel, up.vc, now + up.wire, now);
    }
}

// input_speedup: the hop no longer holds its router input port.
void PacketTorus::free_port(Seg &s) {
    if (params_.input_speedup == 1 && s.hop > 0) {
        Channel &port = channels_[s.worm->segs[s.hop - 1].channel];
        if (port.port_sender == &s) {
            port.port_sender = nullptr;
            mark_port_dirty(s.worm->segs[s.hop - 1].channel);
        }
    }
}

// ---- one cycle -------------------------------------------------------------------

void PacketTorus::step() {
    const int64_t now = now_cycle();
    last_step_cycle_ = now;
    if (run_ahead_->ahead() && run_ahead_->step(now)) {
        return; // processed ahead already
    }
    process_cycle(now);
    if (!events_.empty()) {
        wake_at(next_event().cycle);
    }
}

void PacketTorus::process_cycle(int64_t now) {
    current_ = now;
    std::vector<Seg *> &checks = checks_;
    checks.clear();
    while (!events_.empty() && next_event().cycle <= now) {
        Event e = next_event();
        pop_event();
        if (e.cycle < now) {
            throw std::logic_error(std::string(name()) + ": event for cycle " +
                                   std::to_string(e.cycle) + " seen at cycle " +
                                   std::to_string(now));
        }
        ++events_processed_;
        if (e.seg) {
            e.seg->worm->pending_events -= 1;
        }
        switch (e.kind) {
        case Ev::Check:
            if (e.gen == e.seg->gen && !e.seg->finished) {
                checks.push_back(e.seg);
            }
            break;
        case Ev::HeadReady:
            if (params_.vc_realloc_tail_sent && e.seg->hop > 0 && !at_front(*e.seg)) {
                e.seg->head_waits_front = true; // leave_fifo makes it ready
            } else {
                heads_now_.push_back(e.seg);
            }
            break;
        case Ev::PortRetry:
            mark_port_dirty(e.channel);
            break;
        case Ev::Release:
            releases_now_.emplace_back(e.channel, e.vc);
            break;
        case Ev::Arriving:
            if (cross_cycle(*e.seg, int32_t(e.seg->worm->inj.pkt->early_flits) - 1) == now - 1) {
                arrivals_.push_back(e.seg);
            }
            break;
        }
    }

    // Runs that end this cycle, idle hops that may send again.
    for (Seg *s : checks) {
        if (s->running) {
            const Run &r = s->runs.back();
            int32_t k = int32_t(r.first + (now - r.t0));
            if (k >= int32_t(flits(*s))) {
                finish(*s, now);
            } else if (!can_send(*s, k, now)) {
                stop(*s, k);
            } else {
                mark(*s);
            }
        } else if (!s->eligible) {
            if (can_send(*s, s->count, now)) {
                make_eligible(*s);
            } else {
                mark(*s);
            }
        }
    }

    // Tails that left injection ports, then tails that reached endpoints.
    std::sort(injected_.begin(), injected_.end());
    for (int r : injected_) {
        Worm *w = queues_[r].front();
        queues_[r].pop_front();
        if (!queues_[r].empty()) {
            Worm *next = queues_[r].front();
            int64_t ready = std::max(next->inj.eligible_cycle, now);
            if (ready == now) {
                heads_now_.push_back(&next->segs[0]);
            } else {
                schedule(ready, Ev::HeadReady, &next->segs[0]);
            }
        }
        output_injected(now, r, w->inj.pkt ? w->inj.pkt->tag : 0);
    }
    injected_.clear();
    if (!deliveries_.empty() && !run_ahead_->emitting()) {
        throw std::logic_error(std::string(name()) + ": a delivery in a cycle processed ahead");
    }
    std::sort(deliveries_.begin(), deliveries_.end(),
              [](const Seg *a, const Seg *b) { return a->channel < b->channel; });
    for (Seg *s : deliveries_) {
        Worm &w = *s->worm;
        int dst = w.inj.pkt->dst_router;
        int64_t retry = kNever;
        if (deliver(dst, w.inj.pkt, w.inj, w.last_hop - 1, retry) == Delivery::Accepted) {
            record_flits(s->channel, w.inj.flits);
            release(s->channel, s->vc, now, now);
            if (params_.vc_realloc_tail_sent) {
                leave_fifo(*s, now);
            } else {
                const Seg &up = w.segs[s->hop - 1];
                release(up.channel, up.vc, now + up.wire, now);
            }
            w.delivered = true;
            --live_worms_;
            graveyard_.push_back(&w);
        } else {
            // The tail did not cross after all: the worm keeps its channels.
            s->finished = false;
            s->count = int32_t(w.inj.flits) - 1;
            if (s->runs.back().first == s->count) {
                s->runs.pop_back();
            }
            s->refused = true;
            s->retry = retry;
            mark(*s);
            if (params_.vc_realloc_tail_sent) {
                recheck_later_fillers(*s, now);
            }
        }
    }
    deliveries_.clear();
    std::sort(arrivals_.begin(), arrivals_.end(),
              [](const Seg *a, const Seg *b) { return a->channel < b->channel; });
    for (Seg *s : arrivals_) {
        output_arriving(now, s->worm->inj.pkt->dst_router, *s->worm->inj.pkt);
    }
    arrivals_.clear();

    // Freed VCs, then heads that are ready to request one.
    for (auto [ch, vc] : releases_now_) {
        VcState &v = channels_[ch].vcs[vc];
        v.owner = nullptr;
        if (!v.waiting.empty() && !v.marked) {
            v.marked = true;
            alloc_.emplace_back(ch, vc);
        }
    }
    releases_now_.clear();
    for (Seg *s : heads_now_) {
        s->head_ready = now;
        VcState &v = channels_[s->channel].vcs[s->vc];
        v.waiting.push_back(s);
        if (!v.marked) {
            v.marked = true;
            alloc_.emplace_back(s->channel, s->vc);
        }
    }
    heads_now_.clear();

    // VC allocation: round robin over the requesting inputs.
    const int keys = kPorts * topo_.vcs_total();
    for (auto [ch, vc] : alloc_) {
        VcState &v = channels_[ch].vcs[vc];
        v.marked = false;
        if (v.owner || v.waiting.empty()) {
            continue;
        }
        size_t best = 0;
        int best_rank = keys + 1;
        for (size_t i = 0; i < v.waiting.size(); ++i) {
            const Seg *s = v.waiting[i];
            int key = std::max(0, s->worm->inj.path[s->hop].requester);
            // (key - last_key - 1) mod keys; the difference lies in [-keys, keys).
            int rank = key - v.last_key - 1;
            rank += rank < 0 ? keys : 0;
            if (rank < best_rank) {
                best_rank = rank;
                best = i;
            }
        }
        Seg *s = v.waiting[best];
        v.waiting.erase(v.waiting.begin() + long(best));
        v.owner = s;
        v.last_key = std::max(0, s->worm->inj.path[s->hop].requester);
        s->vc_owned = true;
        if (!params_.vc_realloc_tail_sent) {
            make_eligible(*s);
            continue;
        }
        if (s->hop < s->worm->last_hop) {
            enter_fifo(*s);
        }
        // The head may still wait for the credits of the packet ahead of it.
        if (can_send(*s, 0, now)) {
            make_eligible(*s);
        } else {
            mark(*s);
        }
    }
    alloc_.clear();

    // Link arbitration: the sender keeps the link while it can send; otherwise the
    // next eligible VC after the last sender's gets it.
    if (params_.input_speedup == 1) {
        arbitrate_ports(now);
    }
    for (size_t i = 0; i < dirty_.size(); ++i) {
        Channel &c = channels_[dirty_[i]];
        c.dirty = false;
        if (c.sender) {
            continue;
        }
        int nvc = int(c.vcs.size());
        for (int j = 1; j <= nvc; ++j) {
            int vc = c.last_vc + j; // in [0, 2 nvc): last_vc >= -1, j in 1..nvc
            vc -= vc >= nvc ? nvc : 0;
            if (c.eligible[vc]) {
                start(*c.eligible[vc], now);
                break;
            }
        }
    }
    dirty_.clear();

    // New predictions for every hop whose neighbourhood changed.
    for (size_t i = 0; i < recompute_.size(); ++i) {
        Seg &s = *recompute_[i];
        s.marked = false;
        if (s.finished) {
            continue;
        }
        s.gen += 1;
        if (s.running) {
            schedule(predicted_stop(s, now), Ev::Check, &s);
        } else if (s.vc_owned && !s.eligible) {
            int64_t t = eligible_from(s);
            if (t != kNever) {
                if (t <= now) {
                    throw std::logic_error(std::string(name()) +
                                           ": hop became eligible in the past");
                }
                schedule(t, Ev::Check, &s);
            }
        }
    }
    recompute_.clear();

    // Worms whose last events have passed.
    size_t kept = 0;
    for (Worm *w : graveyard_) {
        if (w->pending_events == 0) {
            w->inj.pkt.reset();
            free_worms_.push_back(w);
        } else {
            graveyard_[kept++] = w;
        }
    }
    graveyard_.resize(kept);
    current_ = -1;
}

bool PacketTorus::at_front(const Seg &s) const {
    const Fifo &f = fifo_filled_by(s.worm->segs[s.hop - 1]);
    return f.fillers.empty() || f.fillers.front()->worm == s.worm;
}

// Switch allocation with input_speedup = 1 (docs/network.md, "Router policies"):
// each input port without a sender puts forward its first eligible hop after the VC
// that left it last whose channel has no sender; each such channel takes the first
// of them after its last sender's VC. A port that lost tries again next cycle.
void PacketTorus::arbitrate_ports(int64_t now) {
    picks_.clear();
    for (int ch : dirty_) {
        Channel &c = channels_[ch];
        c.dirty = false;
        if (c.sender) {
            continue;
        }
        for (Seg *e : c.eligible) {
            if (e == nullptr) {
                continue;
            }
            if (e->hop == 0) {
                picks_.push_back(e); // the injection channel has no router input port
            } else {
                mark_port_dirty(e->worm->segs[e->hop - 1].channel);
            }
        }
    }
    dirty_.clear();
    for (int port : dirty_ports_) {
        Channel &p = channels_[port];
        p.port_dirty = false;
        if (p.port_sender) {
            continue;
        }
        const int nvc = int(p.port_eligible.size());
        for (int j = 1; j <= nvc; ++j) {
            int vc = p.port_last_vc + j; // in [0, 2 nvc)
            vc -= vc >= nvc ? nvc : 0;
            Seg *e = p.port_eligible[vc];
            if (e && channels_[e->channel].sender == nullptr) {
                picks_.push_back(e);
                break;
            }
        }
    }
    dirty_ports_.clear();
    auto rank = [this](const Seg *e) {
        const int nvc = int(channels_[e->channel].vcs.size());
        int r = e->vc - channels_[e->channel].last_vc - 1;
        return r < 0 ? r + nvc : r;
    };
    std::sort(picks_.begin(), picks_.end(), [&](const Seg *a, const Seg *b) {
        return a->channel != b->channel ? a->channel < b->channel : rank(a) < rank(b);
    });
    for (size_t i = 0; i < picks_.size(); ++i) {
        Seg *e = picks_[i];
        if (i > 0 && picks_[i - 1]->channel == e->channel) {
            schedule(now + 1, Ev::PortRetry, nullptr, e->worm->segs[e->hop - 1].channel);
        } else {
            start(*e, now);
        }
    }
}

// ---- endpoint calls ------------------------------------------------------------------

void PacketTorus::output_injected(int64_t now, int router, uint64_t tag) {
    if (run_ahead_->emitting() || !run_ahead_->take_injected(now, router, tag)) {
        report_injected(router, tag);
    }
}

void PacketTorus::output_arriving(int64_t now, int router, const Packet &pkt) {
    if (run_ahead_->emitting() || !run_ahead_->take_arriving(now, router, pkt)) {
        report_arriving(router, pkt);
    }
}

} // namespace starfish::net
