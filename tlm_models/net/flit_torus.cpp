#include "tlm_models/net/flit_torus.h"

#include <algorithm>

namespace starfish::net {

FlitTorus::FlitTorus(sc_core::sc_module_name name, const NetParams &params, uint64_t seed,
                     uint64_t trial)
    : TorusBase(name, params, seed, trial) {
    channels_.resize(topo_.channel_count());
    for (int ch = 0; ch < topo_.channel_count(); ++ch) {
        channels_[ch].vcs.resize(topo_.channel_vcs(ch));
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
    const size_t b = size_t(params_.buffer_flits);
    if (hop < w.last_hop && k >= b) {
        const auto &down = w.cross[hop + 1];
        if (k - b >= down.size() || down[k - b] > now - 1 - wire(w, hop)) {
            return false;
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
            channels_[last.channel].vcs[last.vc].release_at = now + wire(*w, h - 1);
            w->delivered = true;
        } else {
            w->cross[h].pop_back();
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

    // VC allocation: each head that is ready requests the VC of its next hop; each
    // free VC goes to the requester after the last one granted (round robin).
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
        } else {
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
            v.owner = best->worm;
            v.last_key = best->key;
            best->worm->vc_owned[best->hop] = true;
        }
    }

    // Link arbitration: the VC that crossed last cycle keeps the link while it can
    // send; otherwise the next VC after the last sender's that can send gets it.
    std::vector<std::vector<int>> candidates(channels_.size()); // per channel: hop per VC
    std::vector<std::vector<Worm *>> owners(channels_.size());
    for (auto &wp : worms_) {
        Worm &w = *wp;
        for (int hop = 0; hop <= w.last_hop; ++hop) {
            if (!can_send(w, hop, now)) {
                continue;
            }
            const Hop &h = w.inj.path[hop];
            auto &cand = candidates[h.channel];
            if (cand.empty()) {
                cand.assign(channels_[h.channel].vcs.size(), -1);
                owners[h.channel].assign(channels_[h.channel].vcs.size(), nullptr);
            }
            cand[h.vc] = hop;
            owners[h.channel][h.vc] = &w;
        }
    }
    for (size_t ch = 0; ch < channels_.size(); ++ch) {
        Channel &c = channels_[ch];
        const auto &cand = candidates[ch];
        int chosen = -1;
        if (!cand.empty()) {
            int nvc = int(c.vcs.size());
            if (c.sent_last_cycle >= 0 && cand[c.sent_last_cycle] >= 0) {
                chosen = c.sent_last_cycle;
            } else {
                for (int j = 1; j <= nvc; ++j) {
                    int vc = ((c.last_vc + j) % nvc + nvc) % nvc;
                    if (cand[vc] >= 0) {
                        chosen = vc;
                        break;
                    }
                }
            }
        }
        c.sent_last_cycle = chosen;
        trace_channel(int(ch), chosen >= 0, chosen);
        if (chosen < 0) {
            continue;
        }
        c.last_vc = chosen;
        Worm &w = *owners[ch][chosen];
        int hop = cand[chosen];
        auto &cross = w.cross[hop];
        cross.push_back(now);
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
                } else {
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
