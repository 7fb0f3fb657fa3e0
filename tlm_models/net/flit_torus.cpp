#include "tlm_models/net/flit_torus.h"

#include <algorithm>

namespace starfish::net {

FlitTorus::FlitTorus(sc_core::sc_module_name name, const NetParams &params, uint64_t seed,
                     uint64_t trial)
    : TorusBase(name, params, seed, trial) {
    channels_.resize(topo_.channel_count());
    for (int ch = 0; ch < topo_.channel_count(); ++ch) {
        channels_[ch].vcs.resize(topo_.channel_vcs(ch));
        channels_[ch].fifos.resize(topo_.channel_vcs(ch));
        channels_[ch].wire =
            topo_.channel_kind(ch) == ChannelKind::Link ? params_.link_delay_cycles : 0;
    }
    queues_.resize(topo_.routers());
    SC_METHOD(step);
    sensitive << tick_;
    dont_initialize();
}

FlitTorus::~FlitTorus() = default;

void FlitTorus::keep_ticking() {
    if (!ticking_) {
        ticking_ = true;
        tick_.notify(time_of(now_cycle() + 1) - sc_core::sc_time_stamp());
    }
}

void FlitTorus::accept(int router, Injection &&inj) {
    auto w = std::make_unique<Worm>();
    w->src = router;
    w->inj = std::move(inj);
    w->last_hop = int(w->inj.path.size()) - 1;
    w->cross.resize(w->inj.path.size());
    w->vc_owned.assign(w->inj.path.size(), false);
    w->head_ready.assign(w->inj.path.size(), kNever);
    w->base.assign(w->inj.path.size(), 0);
    queues_[router].push_back(w.get());
    worms_.push_back(std::move(w));
    keep_ticking();
}

void FlitTorus::endpoint_ready_at(int router, int64_t cycle) {
    Worm *w = channels_[topo_.eject_channel(router)].vcs[0].owner;
    if (w && w->refused && w->retry == kNever) {
        w->retry = cycle;
        keep_ticking();
    }
}

// Flit `cross[hop].size()` of the worm may cross the hop's channel this cycle
// (arbitration aside): docs/network.md, "Timing contract".
bool FlitTorus::can_send(const Worm &w, int hop, int64_t now) const {
    const size_t k = w.cross[hop].size();
    const size_t n = w.inj.flits;
    if (!w.vc_owned[hop] || k >= n) {
        return false;
    }
    if (hop == 0) {
        if (k == 0 && now < w.inj.eligible_cycle) {
            return false;
        }
    } else {
        const auto &up = w.cross[hop - 1];
        int64_t limit = k == 0 ? now - wire(w, hop - 1) - params_.router_delay_cycles
                               : now - 1 - wire(w, hop - 1);
        if (k >= up.size() || up[k] > limit) {
            return false;
        }
    }
    // Credit: the flit buffer_flits positions earlier in the buffer's stream (of this
    // packet or, under tail_sent, of the one before) has left it.
    if (hop < w.last_hop) {
        const Fifo &f = fifo(w, hop);
        const int64_t pos = w.base[hop] + int64_t(k) - params_.buffer_flits;
        if (pos >= f.departs_base) {
            if (pos >= f.departed() ||
                f.departs[size_t(pos - f.departs_base)] > now - 1 - wire(w, hop)) {
                return false;
            }
        }
    }
    if (hop == w.last_hop && w.refused && k == n - 1 && now < w.retry) {
        return false;
    }
    return true;
}

void FlitTorus::step() {
    const int64_t now = now_cycle();
    ticking_ = false;
    ++cycles_simulated_;
    const bool tail_sent = params_.vc_realloc_tail_sent;

    // Tails that left injection ports, then tails that reached endpoints.
    std::vector<int> injected;
    injected.swap(injected_);
    std::sort(injected.begin(), injected.end());
    for (int r : injected) {
        Worm *w = queues_[r].front();
        queues_[r].pop_front();
        report_injected(r, w->inj.pkt->tag);
    }
    std::vector<Worm *> deliveries;
    deliveries.swap(deliveries_);
    std::sort(deliveries.begin(), deliveries.end(), [](const Worm *a, const Worm *b) {
        return a->inj.pkt->dst_router < b->inj.pkt->dst_router;
    });
    for (Worm *w : deliveries) {
        int h = w->last_hop;
        int dst = w->inj.pkt->dst_router;
        int64_t retry = kNever;
        if (deliver(dst, w->inj.pkt, w->inj, h - 1, retry) == Delivery::Accepted) {
            const Hop &eject = w->inj.path[h];
            const Hop &last = w->inj.path[h - 1];
            record_flits(eject.channel, w->inj.flits);
            channels_[eject.channel].vcs[eject.vc].release_at = now;
            if (!tail_sent) {
                channels_[last.channel].vcs[last.vc].release_at = now + wire(*w, h - 1);
            }
            w->delivered = true;
        } else {
            // The tail did not cross after all: it is still in the last buffer.
            w->cross[h].pop_back();
            fifo(*w, h - 1).departs.pop_back();
            w->refused = true;
            w->retry = retry;
        }
    }
    std::vector<Worm *> arrivals;
    arrivals.swap(arrivals_);
    std::sort(arrivals.begin(), arrivals.end(), [](const Worm *a, const Worm *b) {
        return a->inj.pkt->dst_router < b->inj.pkt->dst_router;
    });
    for (Worm *w : arrivals) {
        report_arriving(w->inj.pkt->dst_router, *w->inj.pkt);
    }

    // Freed VCs.
    for (Channel &c : channels_) {
        for (VcState &v : c.vcs) {
            if (v.owner && v.release_at <= now) {
                v.owner = nullptr;
                v.release_at = kNever;
            }
        }
    }
    worms_.erase(std::remove_if(worms_.begin(), worms_.end(),
                                [](const std::unique_ptr<Worm> &w) { return w->delivered; }),
                 worms_.end());

    // VC allocation: each head that is ready (R cycles after its arrival, and at the
    // front of its input buffer) requests the VC of its next hop; each free VC goes
    // to the requester after the last one granted (round robin).
    const int keys = kPorts * topo_.vcs_total();
    struct Request {
        Worm *worm;
        int hop;
        int key;
    };
    std::vector<std::vector<std::vector<Request>>> requests(channels_.size());
    for (auto &wp : worms_) {
        Worm &w = *wp;
        int hop = 0;
        while (hop <= w.last_hop && !w.cross[hop].empty()) {
            ++hop;
        }
        if (hop > w.last_hop || w.vc_owned[hop]) {
            continue;
        }
        int64_t ready = kNever;
        if (hop == 0) {
            if (queues_[w.src].front() == &w) {
                ready = w.inj.eligible_cycle;
            }
        } else if (fifo(w, hop - 1).departed() >= w.base[hop - 1]) {
            ready = w.cross[hop - 1][0] + wire(w, hop - 1) + params_.router_delay_cycles;
        }
        if (ready > now) {
            continue;
        }
        if (w.head_ready[hop] == kNever) {
            w.head_ready[hop] = std::max(ready, now);
        }
        const Hop &h = w.inj.path[hop];
        auto &list = requests[h.channel];
        list.resize(channels_[h.channel].vcs.size());
        list[h.vc].push_back({&w, hop, std::max(0, h.requester)});
    }
    for (size_t ch = 0; ch < channels_.size(); ++ch) {
        for (size_t vc = 0; vc < requests[ch].size(); ++vc) {
            VcState &v = channels_[ch].vcs[vc];
            auto &list = requests[ch][vc];
            if (v.owner || list.empty()) {
                continue;
            }
            const Request *best = nullptr;
            int best_rank = keys + 1;
            for (const Request &r : list) {
                int rank = ((r.key - v.last_key - 1) % keys + keys) % keys;
                if (rank < best_rank) {
                    best_rank = rank;
                    best = &r;
                }
            }
            Worm &w = *best->worm;
            v.owner = &w;
            v.last_key = best->key;
            w.vc_owned[best->hop] = true;
            if (best->hop < w.last_hop) {
                Fifo &f = fifo(w, best->hop);
                w.base[best->hop] = f.next_base;
                f.last_base = f.next_base;
                f.next_base += w.inj.flits;
                while (f.departs_base < f.last_base - params_.buffer_flits && !f.departs.empty()) {
                    f.departs.pop_front();
                    ++f.departs_base;
                }
            }
        }
    }

    // Switch allocation. Every VC whose packet can send its next flit is a
    // candidate for its channel. (1) The packet that crossed a channel in the
    // previous cycle keeps it while it can send. (2) With input_speedup = 1, each
    // router input port not used by such a packet picks one of its candidate VCs
    // whose channel is not kept, the first after the VC that left the port last.
    // (3) Each channel not kept takes the first candidate left after the VC that
    // crossed it last (round robin).
    struct Candidate {
        Worm *worm = nullptr;
        int hop = -1;
    };
    std::vector<std::vector<Candidate>> cand(channels_.size()); // per channel, per VC
    for (auto &wp : worms_) {
        Worm &w = *wp;
        for (int hop = 0; hop <= w.last_hop; ++hop) {
            if (!can_send(w, hop, now)) {
                continue;
            }
            const Hop &h = w.inj.path[hop];
            auto &c = cand[h.channel];
            c.resize(channels_[h.channel].vcs.size());
            c[h.vc] = {&w, hop};
        }
    }
    std::vector<int> chosen(channels_.size(), -1);
    std::vector<bool> kept(channels_.size(), false);
    std::vector<bool> port_busy;
    for (size_t ch = 0; ch < channels_.size(); ++ch) {
        const Channel &c = channels_[ch];
        const int v = c.sent_last_cycle;
        if (v >= 0 && !cand[ch].empty() && cand[ch][size_t(v)].worm == c.sent_worm) {
            chosen[ch] = v;
            kept[ch] = true;
        }
    }
    if (params_.input_speedup == 1) {
        // Input ports are named by the channel that feeds them; its VCs are theirs.
        std::vector<std::vector<Candidate>> picked(channels_.size());
        port_busy.assign(channels_.size(), false);
        for (size_t ch = 0; ch < channels_.size(); ++ch) {
            if (kept[ch]) {
                const Candidate &k = cand[ch][size_t(chosen[ch])];
                if (k.hop > 0) {
                    port_busy[size_t(k.worm->inj.path[k.hop - 1].channel)] = true;
                }
            }
        }
        // Per input port, per VC: the candidate draining that buffer (at most one).
        std::vector<std::vector<Candidate>> by_port(channels_.size());
        for (size_t ch = 0; ch < channels_.size(); ++ch) {
            for (const Candidate &k : cand[ch]) {
                if (k.worm == nullptr || kept[ch]) {
                    continue;
                }
                if (k.hop == 0) { // the injection channel has no router input port
                    picked[ch].resize(channels_[ch].vcs.size());
                    picked[ch][size_t(k.worm->inj.path[0].vc)] = k;
                    continue;
                }
                const Hop &up = k.worm->inj.path[k.hop - 1];
                auto &p = by_port[size_t(up.channel)];
                p.resize(channels_[up.channel].vcs.size());
                p[size_t(up.vc)] = k;
            }
        }
        for (size_t port = 0; port < channels_.size(); ++port) {
            if (by_port[port].empty() || port_busy[port]) {
                continue;
            }
            const int nvc = int(by_port[port].size());
            for (int j = 1; j <= nvc; ++j) {
                int vc = ((channels_[port].port_last_vc + j) % nvc + nvc) % nvc;
                const Candidate &k = by_port[port][size_t(vc)];
                if (k.worm) {
                    const Hop &h = k.worm->inj.path[k.hop];
                    picked[size_t(h.channel)].resize(channels_[h.channel].vcs.size());
                    picked[size_t(h.channel)][size_t(h.vc)] = k;
                    break;
                }
            }
        }
        for (size_t ch = 0; ch < channels_.size(); ++ch) {
            if (!kept[ch]) {
                cand[ch] = std::move(picked[ch]);
            }
        }
    }
    for (size_t ch = 0; ch < channels_.size(); ++ch) {
        Channel &c = channels_[ch];
        if (!kept[ch] && !cand[ch].empty()) {
            int nvc = int(c.vcs.size());
            for (int j = 1; j <= nvc; ++j) {
                int vc = ((c.last_vc + j) % nvc + nvc) % nvc;
                if (cand[ch][size_t(vc)].worm) {
                    chosen[ch] = vc;
                    break;
                }
            }
        }
        const int sent = chosen[ch];
        c.sent_last_cycle = sent;
        c.sent_worm = sent >= 0 ? cand[ch][size_t(sent)].worm : nullptr;
        trace_channel(int(ch), sent >= 0, sent,
                      c.sent_worm != nullptr && c.sent_worm->inj.pkt ? c.sent_worm->inj.pkt->id
                                                                     : 0);
        if (sent < 0) {
            continue;
        }
        c.last_vc = sent;
        Worm &w = *cand[ch][size_t(sent)].worm;
        int hop = cand[ch][size_t(sent)].hop;
        auto &cross = w.cross[hop];
        cross.push_back(now);
        if (hop > 0) {
            const Hop &up = w.inj.path[hop - 1];
            channels_[up.channel].port_last_vc = up.vc;
            fifo(w, hop - 1).departs.push_back(now);
        }
        if (cross.size() == 1) {
            record_head(int(ch), now - w.head_ready[hop]);
        }
        if (hop == w.last_hop && wants_arriving(*w.inj.pkt, w.inj.flits) &&
            cross.size() == w.inj.pkt->early_flits) {
            arrivals_.push_back(&w);
        }
        if (cross.size() == w.inj.flits) {
            if (hop == w.last_hop) {
                deliveries_.push_back(&w);
            } else {
                record_flits(int(ch), w.inj.flits);
                if (hop == 0) {
                    injected_.push_back(w.src);
                }
                if (tail_sent) {
                    channels_[ch].vcs[size_t(sent)].release_at = now + 1;
                } else if (hop > 0) {
                    const Hop &up = w.inj.path[hop - 1];
                    channels_[up.channel].vcs[up.vc].release_at = now + 1 + wire(w, hop - 1);
                }
            }
        }
    }

    if (!worms_.empty() || !injected_.empty() || !deliveries_.empty() || !arrivals_.empty()) {
        keep_ticking();
    }
}

} // namespace starfish::net
