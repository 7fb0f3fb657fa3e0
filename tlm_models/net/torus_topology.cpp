#include "tlm_models/net/torus_topology.h"

#include <stdexcept>

namespace starfish::net {

const char *port_name(int port) {
    static const char *names[] = {"E", "W", "N", "S", "L"};
    return port >= 0 && port < kPorts ? names[port] : "?";
}

TorusTopology::TorusTopology(int width, int height, int vcs_per_class)
    : width_(width), height_(height), vcs_(vcs_per_class) {
    if (width < 2 || height < 2 || vcs_per_class < 1) {
        throw std::invalid_argument("torus needs width, height >= 2 and at least one VC per "
                                    "class (got " +
                                    std::to_string(width) + "x" + std::to_string(height) + ", " +
                                    std::to_string(vcs_per_class) + " VCs)");
    }
}

int TorusTopology::neighbour(int router, int port) const {
    int x = x_of(router), y = y_of(router);
    switch (port) {
    case kEast:
        return router_at((x + 1) % width_, y);
    case kWest:
        return router_at((x + width_ - 1) % width_, y);
    case kNorth:
        return router_at(x, (y + 1) % height_);
    case kSouth:
        return router_at(x, (y + height_ - 1) % height_);
    default:
        return router;
    }
}

ChannelKind TorusTopology::channel_kind(int channel) const {
    if (channel < 4 * routers()) {
        return ChannelKind::Link;
    }
    return channel < 5 * routers() ? ChannelKind::Inject : ChannelKind::Eject;
}

int TorusTopology::channel_router(int channel) const {
    switch (channel_kind(channel)) {
    case ChannelKind::Link:
        return channel / 4;
    case ChannelKind::Inject:
        return channel - 4 * routers();
    default:
        return channel - 5 * routers();
    }
}

int TorusTopology::channel_port(int channel) const {
    return channel_kind(channel) == ChannelKind::Link ? channel % 4 : kLocal;
}

int TorusTopology::channel_vcs(int channel) const {
    return channel_kind(channel) == ChannelKind::Link ? vcs_total() : 1;
}

std::string TorusTopology::channel_name(int channel) const {
    std::string r = "r" + std::to_string(channel_router(channel));
    switch (channel_kind(channel)) {
    case ChannelKind::Link:
        return r + "." + port_name(channel_port(channel));
    case ChannelKind::Inject:
        return r + ".inject";
    default:
        return r + ".eject";
    }
}

int TorusTopology::ring_distance(int from, int to, int n) {
    int plus = ((to - from) % n + n) % n;
    return plus <= n - plus ? plus : n - plus;
}

namespace {
// Direction along one ring: +1, -1 or 0 (arrived), with the half-way tie decided
// by the parity of the source coordinate.
int ring_direction(int here, int to, int src, int n) {
    int plus = ((to - here) % n + n) % n;
    if (plus == 0) {
        return 0;
    }
    int minus = n - plus;
    if (plus != minus) {
        return plus < minus ? +1 : -1;
    }
    return src % 2 == 0 ? +1 : -1;
}

// Class 1 from the wrap-around link on: going + the wrap link leaves n-1, and a
// packet is past it when here < src; going - it leaves 0, and past it when here > src.
int dateline_class(int here, int src, int dir, int n) {
    if (dir > 0) {
        return (here == n - 1 || here < src) ? 1 : 0;
    }
    return (here == 0 || here > src) ? 1 : 0;
}
} // namespace

RouteStep TorusTopology::route_step(int here, int src, int dst) const {
    int hx = x_of(here), hy = y_of(here);
    int sx = x_of(src), sy = y_of(src);
    int dx = x_of(dst), dy = y_of(dst);
    int dir = ring_direction(hx, dx, sx, width_);
    if (dir != 0) {
        return {dir > 0 ? kEast : kWest, dateline_class(hx, sx, dir, width_)};
    }
    dir = ring_direction(hy, dy, sy, height_);
    if (dir != 0) {
        return {dir > 0 ? kNorth : kSouth, dateline_class(hy, sy, dir, height_)};
    }
    return {kLocal, 0};
}

std::vector<Hop> TorusTopology::route(int src, int dst, int lane) const {
    if (src < 0 || src >= routers() || dst < 0 || dst >= routers()) {
        throw std::out_of_range("route from router " + std::to_string(src) + " to router " +
                                std::to_string(dst) + ": no such router (torus has " +
                                std::to_string(routers()) + ")");
    }
    int lane_vc = ((lane % vcs_) + vcs_) % vcs_;
    std::vector<Hop> path;
    path.reserve(size_t(2 + hops(src, dst))); // inject, the links, eject
    path.push_back({inject_channel(src), 0, -1});
    int here = src;
    int in_key = kLocal * vcs_total(); // the head waits in the local input, VC 0
    for (;;) {
        RouteStep step = route_step(here, src, dst);
        if (step.port == kLocal) {
            path.push_back({eject_channel(here), 0, in_key});
            return path;
        }
        int vc = step.vc_class * vcs_ + lane_vc;
        path.push_back({link_channel(here, step.port), vc, in_key});
        in_key = step.port * vcs_total() + vc;
        here = neighbour(here, step.port);
    }
}

int TorusTopology::hops(int src, int dst) const {
    return ring_distance(x_of(src), x_of(dst), width_) +
           ring_distance(y_of(src), y_of(dst), height_);
}

} // namespace starfish::net
