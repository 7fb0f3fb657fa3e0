#pragma once
// Geometry and routing of the X x Y torus, shared by the packet-level and the
// flit-level network models (and the contract the Verilog router in rtl/router meets).
//
// Routers are numbered y * width + x. Each router has four neighbour ports and a
// local port; a *channel* is one direction of one connection:
//   link(r, d)  router r's output towards its neighbour in direction d (4 per router)
//   inject(r)   the network interface into router r's local input
//   eject(r)    router r's local output to the network interface
//
// Routing is dimension order (X, then Y) the shorter way round each ring. On an
// even ring a destination exactly half-way round is reached in the + direction when
// the source coordinate in that dimension is even, in the - direction when it is
// odd (balances the two directions; decidable at every router from the route flit).
// Two virtual-channel classes per link, split at a dateline: a packet uses class 0
// on a ring until it takes the ring's wrap-around link (from width-1 to 0 going +,
// from 0 to width-1 going -), and class 1 from that link on; it starts again in
// class 0 when it turns into Y. Within its class a packet uses VC lane % vcs.

#include <cstdint>
#include <string>
#include <vector>

namespace starfish::net {

enum Port : int { kEast = 0, kWest = 1, kNorth = 2, kSouth = 3, kLocal = 4 };
constexpr int kPorts = 5;
const char *port_name(int port); // "E", "W", "N", "S", "L"

enum class ChannelKind { Link, Inject, Eject };

// One hop of a packet's path: the channel it crosses, the VC it holds there, and
// the input (port, VC) its head occupies while it requests that VC (the key the
// VC allocator arbitrates on; -1 for the injection hop).
struct Hop {
    int channel;
    int vc;
    int requester;
};

struct RouteStep {
    int port;     // output port at the current router
    int vc_class; // 0 or 1 on neighbour ports, 0 on the local port
};

class TorusTopology {
public:
    TorusTopology(int width, int height, int vcs_per_class);

    int width() const { return width_; }
    int height() const { return height_; }
    int routers() const { return width_ * height_; }
    int vcs_per_class() const { return vcs_; }
    int vcs_total() const { return 2 * vcs_; }
    int x_of(int router) const { return router % width_; }
    int y_of(int router) const { return router / width_; }
    int router_at(int x, int y) const { return y * width_ + x; }
    int neighbour(int router, int port) const;

    int channel_count() const { return 6 * routers(); }
    int link_channel(int router, int port) const { return router * 4 + port; }
    int inject_channel(int router) const { return 4 * routers() + router; }
    int eject_channel(int router) const { return 5 * routers() + router; }
    ChannelKind channel_kind(int channel) const;
    int channel_router(
        int channel) const; // the router the channel leaves (inject: the router it enters)
    int channel_port(int channel) const; // direction of a link, kLocal for inject/eject
    int channel_vcs(int channel) const;  // VCs on the channel: 2 x vcs on links, 1 otherwise
    std::string channel_name(int channel) const; // "r7.E", "r7.inject", "r7.eject"

    // The routing function of one router: where a packet from src to dst goes next
    // when its head is at router `here`.
    RouteStep route_step(int here, int src, int dst) const;
    // The whole path: inject hop, link hops, eject hop.
    std::vector<Hop> route(int src, int dst, int lane) const;
    // Router-to-router links on the path (shortest distance on the torus).
    int hops(int src, int dst) const;
    // Shortest distance along one ring of size n (the hop count; for testing).
    static int ring_distance(int from, int to, int n);

private:
    int width_, height_, vcs_;
};

} // namespace starfish::net
