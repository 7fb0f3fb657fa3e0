// TorusBase's part of the observation layer (docs/observe.md): channel signals and
// the packet log, kept apart from the engine code.
#include "tlm_models/net/torus_base.h"

#include <string>

namespace starfish::net {

void TorusBase::observe(trace::TraceHub *hub,
                        const std::function<bool(const std::string &)> &want) {
    hub_ = hub; // observed(): no run-ahead, records are made at their simulated time
    int n = topo_.channel_count();
    observed_.assign(static_cast<size_t>(n), ObservedChannel{});
    using trace::SignalKind;
    using trace::TimelineRole;
    const trace::Value none{trace::kNoValue, {}};
    for (int ch = 0; ch < n; ++ch) {
        std::string scope = "net." + topo_.channel_name(ch); // "net.r7.E": a port
        if (!want(scope)) {
            continue;
        }
        ObservedChannel &o = observed_[static_cast<size_t>(ch)];
        o.on = true;
        o.busy = hub->signal({scope, "busy", SignalKind::Bit, 1, TimelineRole::None, ""});
        o.packet = hub->signal({scope, "pkt", SignalKind::Int, 64, TimelineRole::None, ""}, none);
        o.vc = hub->signal({scope, "vc", SignalKind::Int, 4, TimelineRole::None, ""}, none);
    }
}

void TorusBase::observe_channel(int channel, bool busy, int vc, uint64_t packet) {
    ObservedChannel &o = observed_[static_cast<size_t>(channel)];
    int64_t pkt = busy ? static_cast<int64_t>(packet) : -1;
    int shown_vc = busy ? vc : -1;
    if (!o.on || (o.last_packet == pkt && o.last_vc == shown_vc)) {
        return; // the flit engine reports every channel every cycle
    }
    o.last_packet = pkt;
    o.last_vc = shown_vc;
    uint64_t now = sc_core::sc_time_stamp().value();
    hub_->set(o.busy, now, busy ? 1 : 0);
    hub_->set(o.packet, now, busy ? pkt : trace::kNoValue);
    hub_->set(o.vc, now, busy ? vc : trace::kNoValue);
}

void TorusBase::observe_packet(trace::Direction dir, int router, uint64_t id, int src, int dst,
                               uint32_t flits) {
    hub_->log({sc_core::sc_time_stamp().value(), "NET", "net.r" + std::to_string(router), dir,
               "PKT", id,
               "src=" + std::to_string(src) + " dst=" + std::to_string(dst) +
                   " flits=" + std::to_string(flits)});
}

} // namespace starfish::net
