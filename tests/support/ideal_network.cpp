#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "tests/support/ideal_network.h"

#include <stdexcept>
#include <string>

namespace starfish::testing {

IdealNetwork::IdealNetwork(sc_core::sc_module_name name, int routers, const Params &params)
    : sc_core::sc_module(name), params_(params) {
    for (int r = 0; r < routers; ++r) {
        ports_.push_back(std::make_unique<Port>());
        sc_core::sc_spawn([this, r] { serialise(r); }, ("serialise_" + std::to_string(r)).c_str());
        sc_core::sc_spawn([this, r] { eject(r); }, ("eject_" + std::to_string(r)).c_str());
    }
}

IdealNetwork::Port &IdealNetwork::port(int router) {
    if (router < 0 || router >= router_count()) {
        throw std::out_of_range("IdealNetwork: no router " + std::to_string(router));
    }
    return *ports_[router];
}

const IdealNetwork::Port &IdealNetwork::port(int router) const {
    return const_cast<IdealNetwork *>(this)->port(router);
}

void IdealNetwork::attach(int router, net::PacketEndpoint *endpoint) {
    port(router).endpoint = endpoint;
}

bool IdealNetwork::try_inject(int router, net::PacketPtr &pkt) {
    Port &p = port(router);
    port(pkt->dst_router); // checks the destination
    if (p.inject.size() >= params_.queue_packets) {
        ++injection_refusals_;
        return false;
    }
    p.inject.push_back(std::move(pkt));
    p.kick.notify();
    return true;
}

const sc_core::sc_event &IdealNetwork::injection_ready(int router) const {
    return port(router).ready;
}

void IdealNetwork::endpoint_ready(int router) {
    Port &p = port(router);
    if (p.blocked) {
        p.blocked = false;
        p.unblock.notify(sc_core::SC_ZERO_TIME);
    }
}

void IdealNetwork::serialise(int router) {
    Port &p = *ports_[router];
    for (;;) {
        while (p.inject.empty()) {
            sc_core::wait(p.kick);
        }
        uint64_t flits = p.inject.front()->flits();
        sc_core::wait(sc_core::sc_time::from_value(flits * params_.cycle_ps));
        net::PacketPtr pkt = std::move(p.inject.front());
        p.inject.pop_front();
        p.ready.notify();
        if (p.endpoint != nullptr) {
            p.endpoint->injected(pkt->tag);
        }
        Port &dst = *ports_[pkt->dst_router];
        uint64_t latency_ps = params_.latency_cycles * params_.cycle_ps;
        dst.arrivals.push_back(
            Arrival{sc_core::sc_time_stamp().value() + latency_ps, std::move(pkt)});
        dst.arrive.notify(sc_core::sc_time::from_value(latency_ps));
    }
}

void IdealNetwork::eject(int router) {
    Port &p = *ports_[router];
    for (;;) {
        if (p.arrivals.empty()) {
            sc_core::wait(p.arrive);
            continue;
        }
        uint64_t now = sc_core::sc_time_stamp().value();
        if (p.arrivals.front().time_ps > now) {
            sc_core::wait(sc_core::sc_time::from_value(p.arrivals.front().time_ps - now));
            continue;
        }
        if (p.endpoint == nullptr) {
            throw std::logic_error("IdealNetwork: packet for router " + std::to_string(router) +
                                   " which has no endpoint");
        }
        if (!p.endpoint->deliver(p.arrivals.front().pkt)) {
            ++refusals_;
            p.blocked = true;
            while (p.blocked) {
                sc_core::wait(p.unblock);
            }
            continue;
        }
        p.arrivals.pop_front();
        ++delivered_;
    }
}

} // namespace starfish::testing
