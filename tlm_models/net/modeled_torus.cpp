#include "tlm_models/net/modeled_torus.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace starfish::net {

namespace {

// Mean ring distance of uniform traffic (zero distance included) on a ring of k.
double mean_ring_distance(int k) {
    double sum = 0;
    for (int d = 0; d < k; ++d) {
        sum += std::min(d, k - d);
    }
    return sum / k;
}

// Utilisation above which the estimate stops growing: Agarwal's wait diverges at 1.
constexpr double kMaxUtilisation = 0.95;

} // namespace

ModeledTorus::ModeledTorus(sc_core::sc_module_name name, const NetParams &params, uint64_t seed,
                           uint64_t trial)
    : TorusBase(name, params, seed, trial) {
    const int n = topo_.routers();
    ends_.resize(n);
    delay_rng_.resize(n);
    for (int r = 0; r < n; ++r) {
        hw_rng_seed(&delay_rng_[r],
                    hw_rng_stream_seed(seed, trial, HW_RNG_STREAM_NET_CONTENTION, r));
    }
    for (int ch = 0; ch < topo_.channel_count(); ++ch) {
        links_ += topo_.channel_kind(ch) == ChannelKind::Link ? 1 : 0;
    }
    k_d_ = (mean_ring_distance(params_.width) + mean_ring_distance(params_.height)) / 2;
    SC_METHOD(step);
    sensitive << wake_;
    dont_initialize();
}

ModeledTorus::~ModeledTorus() = default;

double ModeledTorus::mean_contention_cycles(int hops, double rho, double mean_flits) const {
    if (hops <= 0 || rho <= 0 || k_d_ <= 1) {
        return 0;
    }
    rho = std::min(rho, kMaxUtilisation);
    const double dimensions = 2;
    return hops * rho / (1 - rho) * mean_flits * (k_d_ - 1) / (k_d_ * k_d_) * (1 + 1 / dimensions);
}

ModeledTorus::Msg *ModeledTorus::new_msg() {
    if (free_msgs_.empty()) {
        msgs_.push_back(std::make_unique<Msg>());
        return msgs_.back().get();
    }
    Msg *m = free_msgs_.back();
    free_msgs_.pop_back();
    *m = Msg{};
    return m;
}

void ModeledTorus::free_msg(Msg *m) {
    m->inj = Injection{};
    free_msgs_.push_back(m);
}

void ModeledTorus::schedule(int64_t cycle, Ev kind, int router, Msg *msg) {
    events_.push_back({cycle, seq_++, kind, router, msg});
    std::push_heap(events_.begin(), events_.end(), std::greater<Event>());
    if (cycle < wake_cycle_) {
        wake_cycle_ = cycle;
        wake_.notify(time_of(cycle) - sc_core::sc_time_stamp());
    }
}

void ModeledTorus::accept(int router, Injection &&inj) {
    Msg *m = new_msg();
    m->inj = std::move(inj);
    m->dst = m->inj.pkt->dst_router;
    m->hops = int(m->inj.path.size()) - 2;
    m->seq = msg_seq_++;
    Endpoint &e = ends_[router];
    e.sending.push_back(m);
    // Start now if nothing waits before it (the front may still be streaming).
    const bool first_waiting =
        e.sending.size() == 1 || (e.sending.size() == 2 && e.sending.front()->started);
    if (first_waiting) {
        schedule(std::max(m->inj.eligible_cycle, e.inject_free), Ev::StartInject, router, m);
    }
}

void ModeledTorus::endpoint_ready_at(int router, int64_t cycle) {
    Msg *m = ends_[router].ejecting;
    if (m && m->refused && !m->retry_scheduled) {
        schedule_retry(router, m, cycle);
    }
}

void ModeledTorus::schedule_retry(int router, Msg *m, int64_t cycle) {
    m->retry_scheduled = true;
    if (observed()) {
        schedule(cycle, Ev::TailRecross, router, m);
    }
    schedule(cycle + 1, Ev::Deliver, router, m);
}

int64_t ModeledTorus::contention_delay(int router, int hops, int64_t now) {
    const int64_t window = params_.modeled_window_cycles;
    while (!window_.empty() && window_.front().cycle <= now - window) {
        window_flit_hops_ -= window_.front().flit_hops;
        window_flits_ -= window_.front().flits;
        window_.pop_front();
    }
    if (window_.empty() || hops == 0) {
        return 0;
    }
    const double rho = double(window_flit_hops_) / (double(links_) * double(window));
    const double mean_flits = double(window_flits_) / double(window_.size());
    const double mean = mean_contention_cycles(hops, rho, mean_flits);
    if (mean <= 0) {
        return 0;
    }
    if (!params_.modeled_delay_exponential) {
        return std::llround(mean);
    }
    const double u = hw_rng_unit(&delay_rng_[router]);
    return std::llround(-mean * std::log1p(-u));
}

void ModeledTorus::start_injection(int router, Msg *m, int64_t now) {
    Endpoint &e = ends_[router];
    const uint32_t flits = m->inj.flits;
    m->started = true;
    const int64_t wait = contention_delay(router, m->hops, now);
    window_.push_back({now, uint64_t(flits) * uint64_t(m->hops), flits});
    window_flit_hops_ += window_.back().flit_hops;
    window_flits_ += flits;

    int64_t head = now + int64_t(m->hops + 1) * params_.router_delay_cycles +
                   int64_t(m->hops) * params_.link_delay_cycles + wait;
    // Packets of one source and destination keep their order.
    int64_t &last = e.last_head[m->dst]; // 0 when new
    head = std::max(head, last);
    last = head;
    m->head = head;

    record_head(m->inj.path[0].channel, now - m->inj.eligible_cycle);
    record_flits(m->inj.path[0].channel, flits);
    trace_channel(m->inj.path[0].channel, true, m->inj.path[0].vc, m->inj.pkt->id);
    for (int h = 1; h <= m->hops; ++h) {
        record_head(m->inj.path[size_t(h)].channel, 0);
        record_flits(m->inj.path[size_t(h)].channel, flits);
    }
    // The tail crosses in now + flits - 1 and is reported in the next cycle; the
    // packet behind it starts in the cycle after that, as on the exact engines.
    e.inject_free = now + flits + 1;
    schedule(now + flits, Ev::Injected, router, m);
    schedule(head, Ev::HeadArrives, m->dst, m);
    // The packet behind it, if already offered, follows its tail (m is the front:
    // the one before it reported its tail earlier in this cycle at the latest).
    if (e.sending.size() > 1) {
        Msg *next = e.sending[1];
        schedule(std::max(next->inj.eligible_cycle, e.inject_free), Ev::StartInject, router, next);
    }
}

void ModeledTorus::try_eject(int router, int64_t now) {
    Endpoint &e = ends_[router];
    if (e.ejecting != nullptr || e.eject_free > now || e.waiting.empty()) {
        return;
    }
    auto first = std::min_element(e.waiting.begin(), e.waiting.end(), [](Msg *a, Msg *b) {
        return a->head != b->head ? a->head < b->head : a->seq < b->seq;
    });
    Msg *m = *first;
    e.waiting.erase(first);
    e.ejecting = m;
    const Hop &eject = m->inj.path.end()[-1];
    record_head(eject.channel, now - m->head);
    trace_channel(eject.channel, true, eject.vc, m->inj.pkt->id);
    if (wants_arriving(*m->inj.pkt, m->inj.flits)) {
        schedule(now + m->inj.pkt->early_flits, Ev::Arriving, router, m);
    }
    schedule(now + m->inj.flits, Ev::Deliver, router, m);
}

void ModeledTorus::step() {
    const int64_t now = now_cycle();
    wake_cycle_ = kNever;
    // This cycle's events, by kind; within a kind in router order (then in the order
    // they were scheduled), as the other engines report them.
    auto &due = due_;
    for (auto &list : due) {
        list.clear();
    }
    while (!events_.empty() && events_.front().cycle <= now) {
        std::pop_heap(events_.begin(), events_.end(), std::greater<Event>());
        const Event ev = events_.back();
        events_.pop_back();
        due[size_t(ev.kind)].push_back(ev);
        ++events_processed_;
    }
    for (auto &list : due) {
        std::stable_sort(list.begin(), list.end(),
                         [](const Event &a, const Event &b) { return a.router < b.router; });
    }
    for (const Event &ev : due[size_t(Ev::Injected)]) {
        Endpoint &e = ends_[ev.router];
        e.sending.pop_front(); // ev.msg: the front, the only one streaming
        trace_channel(ev.msg->inj.path[0].channel, false, -1);
        report_injected(ev.router, ev.msg->inj.pkt->tag);
    }
    std::vector<int> &touched = touched_;
    touched.clear();
    for (const Event &ev : due[size_t(Ev::Deliver)]) {
        Msg *m = ev.msg;
        m->retry_scheduled = false;
        int64_t retry = kNever;
        const Injection &info = m->inj;
        trace_channel(info.path.end()[-1].channel, false, -1); // the tail crossed
        if (deliver(ev.router, m->inj.pkt, info, m->hops, retry) == Delivery::Accepted) {
            record_flits(info.path.end()[-1].channel, info.flits);
            Endpoint &e = ends_[ev.router];
            e.ejecting = nullptr;
            e.eject_free = now;
            free_msg(m);
            touched.push_back(ev.router);
        } else {
            m->refused = true;
            if (retry != kNever) {
                schedule_retry(ev.router, m, retry);
            }
        }
    }
    for (const Event &ev : due[size_t(Ev::TailRecross)]) {
        const Hop &eject = ev.msg->inj.path.end()[-1];
        trace_channel(eject.channel, true, eject.vc, ev.msg->inj.pkt->id);
    }
    for (const Event &ev : due[size_t(Ev::Arriving)]) {
        report_arriving(ev.router, *ev.msg->inj.pkt);
    }
    for (const Event &ev : due[size_t(Ev::StartInject)]) {
        start_injection(ev.router, ev.msg, now);
    }
    for (const Event &ev : due[size_t(Ev::HeadArrives)]) {
        ends_[ev.router].waiting.push_back(ev.msg);
        touched.push_back(ev.router);
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (int r : touched) {
        try_eject(r, now);
    }
    if (!events_.empty() && events_.front().cycle < wake_cycle_) {
        wake_cycle_ = events_.front().cycle;
        wake_.notify(time_of(wake_cycle_) - sc_core::sc_time_stamp());
    }
}

} // namespace starfish::net
