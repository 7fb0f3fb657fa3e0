#pragma once
// The contract between a network model (the TLM torus, later the Verilog router
// mesh) and the network interfaces attached to its local ports. Packets travel
// whole as C++ objects; their timing is the network model's business.

#include "hw/packet.h"

#include <systemc>

#include <cstdint>
#include <memory>
#include <vector>

namespace starfish::net {

struct Packet {
    uint64_t id = 0;    // unique within a run (assigned by the sender), for traces
    int src_router = 0; // router ids: y * width + x
    int dst_router = 0;
    uint64_t tag = 0;             // opaque to the network; returned in PacketEndpoint::injected
    std::vector<uint8_t> payload; // the bytes after the two head flits (hw/packet.h)
    // Virtual-channel lane within the packet's dateline class, taken modulo net.vcs
    // (length flit bits [23:20], hw/packet.h). Packets of one source/destination pair
    // stay in order within a lane; 0 (the only lane when net.vcs = 1) by default.
    uint8_t lane = 0;
    // Cut-through reception: the destination's endpoint wants arriving() once the
    // first early_flits flits (head first) have crossed its ejection channel, at the
    // start of the next cycle. 0, or at least flits(), asks for nothing (deliver()
    // comes at the tail anyway).
    uint32_t early_flits = 0;

    uint32_t flits() const { return hw_packet_flits(static_cast<uint32_t>(payload.size())); }
};
using PacketPtr = std::unique_ptr<Packet>;

// Implemented by whatever sits on a router's local port (the network interface).
// Called from the network's processes; implementations must not block.
class PacketEndpoint {
public:
    virtual ~PacketEndpoint() = default;
    // The packet's tail flit has arrived at this local port. Return true and take
    // ownership (move out of pkt) to accept it. Return false to refuse (receive
    // buffer full): the packet stays in the network holding its channels, as a
    // blocked worm does, until the endpoint calls Network::endpoint_ready().
    virtual bool deliver(PacketPtr &pkt) = 0;
    // The tail flit of the packet with this tag has left the local injection port:
    // the sender's buffer may be reused.
    virtual void injected(uint64_t tag) = 0;
    // The first pkt.early_flits flits of a packet have arrived (see Packet). The
    // endpoint may read what they carry (the object holds the whole payload; only
    // the first early_flits flits' worth has physically arrived) but not take the
    // packet: deliver() still follows when the tail arrives, and may still refuse.
    virtual void arriving(const Packet &pkt) { (void)pkt; }
};

class Network {
public:
    virtual ~Network() = default;
    virtual int router_count() const = 0;
    virtual void attach(int router, PacketEndpoint *endpoint) = 0;
    // Offers a packet at the router's local port at the current simulated time.
    // Returns true and takes ownership if the injection queue has room; returns
    // false (pkt untouched) otherwise, and notifies injection_ready(router) when
    // room appears.
    virtual bool try_inject(int router, PacketPtr &pkt) = 0;
    virtual const sc_core::sc_event &injection_ready(int router) const = 0;
    // An endpoint that refused a delivery can take packets again.
    virtual void endpoint_ready(int router) = 0;
};

} // namespace starfish::net
