#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "tests/support/ideal_network.h"

#include <iterator>
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
        // The destination knows the packet from the head on: its arrival (and the
        // early notification) are fixed now, in tail-time order.
        const uint64_t now = sc_core::sc_time_stamp().value();
        const uint64_t latency_ps = params_.latency_cycles * params_.cycle_ps;
        net::PacketPtr &front = p.inject.front();
        const uint64_t flits = front->flits(), tag = front->tag;
        Arrival a{now + flits * params_.cycle_ps + latency_ps, nullptr};
        if (front->early_flits > 0 && front->early_flits < flits) {
            a.early = true;
            a.early_ps = now + front->early_flits * params_.cycle_ps + latency_ps;
        }
        Port &dst = *ports_[front->dst_router];
        a.pkt = std::move(front);
        auto pos = dst.arrivals.end();
        while (pos != dst.arrivals.begin() && std::prev(pos)->time_ps > a.time_ps &&
               !std::prev(pos)->notified) {
            --pos;
        }
        dst.arrivals.insert(pos, std::move(a));
        dst.arrive.notify(sc_core::SC_ZERO_TIME);
        sc_core::wait(sc_core::sc_time::from_value(flits * params_.cycle_ps));
        p.inject.pop_front();
        p.ready.notify();
        if (p.endpoint != nullptr) {
            p.endpoint->injected(tag);
        }
    }
}

void IdealNetwork::eject(int router) {
    Port &p = *ports_[router];
    for (;;) {
        if (p.arrivals.empty()) {
            sc_core::wait(p.arrive);
            continue;
        }
        if (p.endpoint == nullptr) {
            throw std::logic_error("IdealNetwork: packet for router " + std::to_string(router) +
                                   " which has no endpoint");
        }
        uint64_t now = sc_core::sc_time_stamp().value();
        Arrival &a = p.arrivals.front();
        uint64_t due = a.early ? a.early_ps : a.time_ps;
        if (due > now) {
            // A packet inserted ahead of this one wakes us earlier.
            sc_core::wait(sc_core::sc_time::from_value(due - now), p.arrive);
            continue;
        }
        if (a.early) {
            a.early = false;
            a.notified = true;
            p.endpoint->arriving(*a.pkt);
            continue;
        }
        if (!p.endpoint->deliver(a.pkt)) {
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
