#include "tlm_models/net/torus_base.h"

#include "tlm_models/common/sim_time.h"
#include "tlm_models/net/flit_torus.h"
#include "tlm_models/net/modeled_torus.h"
#include "tlm_models/net/packet_torus.h"

#include <stdexcept>
#include <string>

namespace starfish::net {

TorusBase::TorusBase(sc_core::sc_module_name name, const NetParams &params, uint64_t seed,
                     uint64_t trial)
    : sc_core::sc_module(name), params_(params),
      topo_(params.width, params.height, params.vcs_per_class),
      cycle_units_(sc_core::sc_time(double(params.cycle_ps()), sc_core::SC_PS).value()) {
    if (cycle_units_ == 0) {
        throw std::invalid_argument(std::string(this->name()) +
                                    ": network cycle shorter than the SystemC time resolution");
    }
    int n = topo_.routers();
    endpoints_.assign(n, nullptr);
    queued_.assign(n, 0);
    delivering_.assign(n, 0);
    ready_during_deliver_.assign(n, false);
    noise_rng_.resize(n);
    for (int r = 0; r < n; ++r) {
        hw_rng_seed(&noise_rng_[r], hw_rng_stream_seed(seed, trial, HW_RNG_STREAM_NETWORK, r));
        injection_ready_.push_back(std::make_unique<sc_core::sc_event>());
    }
    stats_.channels.resize(topo_.channel_count());
}

TorusBase::~TorusBase() = default;

int64_t TorusBase::now_cycle() const {
    return int64_t(common::sim_time().value() / cycle_units_);
}

sc_core::sc_time TorusBase::time_of(int64_t cycle) const {
    return sc_core::sc_time::from_value(uint64_t(cycle) * cycle_units_);
}

void TorusBase::attach(int router, PacketEndpoint *endpoint) {
    if (router < 0 || router >= topo_.routers()) {
        throw std::out_of_range(std::string(name()) + ": attach to router " +
                                std::to_string(router) + ", but the torus has " +
                                std::to_string(topo_.routers()) + " routers");
    }
    if (endpoint == nullptr || endpoints_[router] != nullptr) {
        throw std::invalid_argument(std::string(name()) + ": router " + std::to_string(router) +
                                    (endpoint ? " already has an endpoint" : ": null endpoint"));
    }
    endpoints_[router] = endpoint;
}

const sc_core::sc_event &TorusBase::injection_ready(int router) const {
    if (router < 0 || router >= topo_.routers()) {
        throw std::out_of_range(std::string(name()) + ": injection_ready of router " +
                                std::to_string(router) + ": no such router");
    }
    return *injection_ready_[router];
}

bool TorusBase::try_inject(int router, PacketPtr &pkt) {
    auto fail = [&](const std::string &why) {
        throw std::invalid_argument(std::string(name()) + ": try_inject at router " +
                                    std::to_string(router) + ": " + why);
    };
    if (router < 0 || router >= topo_.routers()) {
        fail("no such router (the torus has " + std::to_string(topo_.routers()) + ")");
    }
    if (!pkt) {
        fail("null packet");
    }
    // Built only for an error: this runs once per packet.
    auto what = [&] { return "packet " + std::to_string(pkt->id); };
    if (pkt->src_router != router) {
        fail(what() + " has src_router " + std::to_string(pkt->src_router));
    }
    if (pkt->dst_router < 0 || pkt->dst_router >= topo_.routers()) {
        fail(what() + " to router " + std::to_string(pkt->dst_router) + ": no such router");
    }
    if (endpoints_[pkt->dst_router] == nullptr) {
        fail(what() + " to router " + std::to_string(pkt->dst_router) +
             ", which has no endpoint attached");
    }
    if (pkt->payload.size() > HW_PKT_MAX_PAYLOAD_BYTES) {
        fail(what() + " carries " + std::to_string(pkt->payload.size()) +
             " payload bytes, more than HW_PKT_MAX_PAYLOAD_BYTES");
    }
    if (queued_[router] >= params_.inject_queue_packets) {
        return false;
    }
    Injection inj;
    inj.path = routes_.route(router, pkt->dst_router, pkt->lane);
    inj.flits = params_.packet_flits(static_cast<uint32_t>(pkt->payload.size()));
    inj.accept_cycle = now_cycle();
    if (params_.noise_cycles > 0) {
        inj.noise = static_cast<uint32_t>(
            hw_rng_below(&noise_rng_[router], uint64_t(params_.noise_cycles) + 1));
    }
    inj.eligible_cycle = inj.accept_cycle + 1 + inj.noise;
    inj.pkt = std::move(pkt);
    queued_[router] += 1;
    stats_.packets_accepted += 1;
    stats_.noise_cycles += inj.noise;
    if (hub_ != nullptr) {
        observe_packet(trace::Direction::Begin, router, inj.pkt->id, inj.pkt->src_router,
                       inj.pkt->dst_router, inj.flits);
    }
    accept(router, std::move(inj));
    return true;
}

void TorusBase::endpoint_ready(int router) {
    if (router < 0 || router >= topo_.routers()) {
        throw std::out_of_range(std::string(name()) + ": endpoint_ready of router " +
                                std::to_string(router) + ": no such router");
    }
    if (delivering_[router]) {
        ready_during_deliver_[router] = true;
        return;
    }
    endpoint_ready_at(router, now_cycle() + 1);
}

void TorusBase::report_injected(int router, uint64_t tag) {
    queued_[router] -= 1;
    injection_ready_[router]->notify(sc_core::SC_ZERO_TIME);
    if (endpoints_[router]) {
        endpoints_[router]->injected(tag);
    }
}

void TorusBase::report_arriving(int router, const Packet &pkt) {
    endpoints_[router]->arriving(pkt);
}

TorusBase::Delivery TorusBase::deliver(int router, PacketPtr &pkt, const Injection &info, int hops,
                                       int64_t &retry_cycle) {
    retry_cycle = kNever;
    Packet *before = pkt.get();
    uint64_t id = pkt->id;
    int src = pkt->src_router;
    size_t payload = pkt->payload.size();
    delivering_[router] = 1;
    ready_during_deliver_[router] = false;
    bool ok = endpoints_[router]->deliver(pkt);
    delivering_[router] = 0;
    if (!ok) {
        if (pkt.get() != before) {
            throw std::logic_error(std::string(name()) + ": endpoint at router " +
                                   std::to_string(router) + " refused packet " +
                                   std::to_string(id) + " but took it");
        }
        stats_.refusals += 1;
        if (ready_during_deliver_[router]) {
            retry_cycle = now_cycle() + 1;
        }
        return Delivery::Refused;
    }
    if (hub_ != nullptr) {
        observe_packet(trace::Direction::End, router, id, src, router, info.flits);
    }
    int64_t now = now_cycle();
    uint64_t latency = uint64_t(now - info.accept_cycle);
    uint64_t zero_load = params_.zero_load_cycles(info.flits, hops);
    stats_.packets_delivered += 1;
    stats_.flits_delivered += info.flits;
    stats_.payload_bytes_delivered += payload;
    stats_.blocked_cycles += latency - zero_load - info.noise;
    stats_.latencies.push_back(static_cast<uint32_t>(latency));
    stats_.last_delivery_cycle = now;
    pkt.reset();
    return Delivery::Accepted;
}

std::unique_ptr<TorusBase> make_torus_network(const char *name, const NetParams &params,
                                              uint64_t seed, uint64_t trial) {
    if (params.model == "flit") {
        return std::make_unique<FlitTorus>(name, params, seed, trial);
    }
    if (params.model == "packet") {
        return std::make_unique<PacketTorus>(name, params, seed, trial);
    }
    if (params.model == "modeled") {
        return std::make_unique<ModeledTorus>(name, params, seed, trial);
    }
    throw std::invalid_argument("net.model = '" + params.model +
                                "': expected packet, flit or modeled here (rtl is built by "
                                "platform::make_network, sim/platform/network_factory.h)");
}

} // namespace starfish::net
