#include "tlm_models/net/route_table.h"

#include <stdexcept>
#include <string>

namespace starfish::net {

RouteTable::RouteTable(const TorusTopology &topo)
    : topo_(topo), lanes_(static_cast<size_t>(topo.vcs_per_class())) {
    size_t n = static_cast<size_t>(topo.routers());
    if (n * n * lanes_ <= kDenseLimit) {
        dense_.resize(n * n * lanes_);
    }
}

RouteView RouteTable::route(int src, int dst, int lane) {
    int routers = topo_.routers();
    if (src < 0 || src >= routers || dst < 0 || dst >= routers) {
        return RouteView(topo_.route(src, dst, lane)); // throws: no such router
    }
    int vcs = static_cast<int>(lanes_);
    size_t lane_vc = static_cast<size_t>(((lane % vcs) + vcs) % vcs);
    size_t key =
        (static_cast<size_t>(src) * static_cast<size_t>(routers) + static_cast<size_t>(dst)) *
            lanes_ +
        lane_vc;
    std::vector<Hop> &path = dense_.empty() ? sparse_[key] : dense_[key];
    if (path.empty()) { // a path has at least its inject and eject hops
        path = topo_.route(src, dst, static_cast<int>(lane_vc));
    }
    return RouteView(path);
}

} // namespace starfish::net
