#pragma once
// A trivial net::Network for node and NI tests: every router's local port
// serialises the packets offered to it one 32-bit flit per cycle, from a FIFO of
// `queue_packets` (try_inject refuses when it is full), and each packet reaches
// its destination a fixed latency after its tail left the source. Per-pair order
// is kept. A packet that asks for arriving() (Packet::early_flits) gets it the
// same latency after its first early_flits flits left, but not before the
// packets ahead of it at that destination were delivered; packets that arrive
// later do not overtake it then (its worm holds the ejection port). A refused delivery blocks that
// destination's port until endpoint_ready(); nothing is ever dropped. No routing, no contention
// between sources: the real torus (tlm_models/net/packet_torus) does that.

#include "tlm_models/net/net_port.h"

#include <systemc>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace starfish::testing {

class IdealNetwork : public sc_core::sc_module, public net::Network {
public:
    struct Params {
        uint64_t cycle_ps = 20000;    // one flit per cycle at the node clock
        uint64_t latency_cycles = 10; // tail leaves the source -> tail at the destination
        size_t queue_packets = 4;     // injection FIFO per port
    };

    IdealNetwork(sc_core::sc_module_name name, int routers, const Params &params);

    int router_count() const override { return static_cast<int>(ports_.size()); }
    void attach(int router, net::PacketEndpoint *endpoint) override;
    bool try_inject(int router, net::PacketPtr &pkt) override;
    const sc_core::sc_event &injection_ready(int router) const override;
    void endpoint_ready(int router) override;

    uint64_t packets_delivered() const { return delivered_; }
    uint64_t refusals() const { return refusals_; }
    uint64_t injection_refusals() const { return injection_refusals_; }

private:
    struct Arrival {
        uint64_t time_ps; // the tail arrives
        net::PacketPtr pkt;
        uint64_t early_ps = 0; // arriving() is due (when early)
        bool early = false;    // arriving() asked for and not yet called
        bool notified = false; // arriving() called
    };
    struct Port {
        net::PacketEndpoint *endpoint = nullptr;
        std::deque<net::PacketPtr> inject; // front is being serialised
        sc_core::sc_event kick;
        sc_core::sc_event ready;
        std::deque<Arrival> arrivals; // in arrival-time order (one fixed latency)
        sc_core::sc_event arrive;
        bool blocked = false;
        sc_core::sc_event unblock;
    };

    Port &port(int router);
    const Port &port(int router) const;
    void serialise(int router);
    void eject(int router);

    const Params params_;
    std::vector<std::unique_ptr<Port>> ports_;
    uint64_t delivered_ = 0;
    uint64_t refusals_ = 0;
    uint64_t injection_refusals_ = 0;
};

} // namespace starfish::testing
