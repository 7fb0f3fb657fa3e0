#include "sim/platform/placement.h"

#include <stdexcept>

namespace starfish::platform {

const char *role_name(NodeRole role) {
    return role == NodeRole::Compute ? "CP" : "IOP";
}

std::vector<NodeSite> place_nodes(int cp_count, int iop_count, int width, int height,
                                  const std::string &policy) {
    if (cp_count < 1 || iop_count < 0 || width < 1 || height < 1) {
        throw std::invalid_argument("placement needs at least one CP and a non-empty torus");
    }
    int routers = width * height;
    if (cp_count + iop_count > routers) {
        throw std::invalid_argument(std::to_string(cp_count) + " CPs + " +
                                    std::to_string(iop_count) + " IOPs do not fit on a " +
                                    std::to_string(width) + "x" + std::to_string(height) +
                                    " torus (" + std::to_string(routers) + " routers)");
    }
    std::vector<NodeSite> sites(cp_count + iop_count);
    for (int i = 0; i < cp_count + iop_count; ++i) {
        sites[i].node = i;
        sites[i].role = i < cp_count ? NodeRole::Compute : NodeRole::Io;
        sites[i].index = i < cp_count ? i : i - cp_count;
    }
    std::vector<int> order; // node id on each router in router order (-1: empty)
    if (policy == "split") {
        for (int i = 0; i < cp_count + iop_count; ++i) {
            order.push_back(i);
        }
    } else if (policy == "interleaved") {
        // Checkerboard: CPs take the routers with x+y even, IOPs those with x+y
        // odd (row-major within each colour); whoever runs out of their colour
        // continues on the other colour's leftover routers.
        std::vector<int> even, odd;
        for (int r = 0; r < routers; ++r) {
            ((r % width + r / width) % 2 == 0 ? even : odd).push_back(r);
        }
        std::vector<int> router_of(cp_count + iop_count, -1);
        std::vector<bool> used(routers, false);
        auto take = [&](std::vector<int> &colour, int node) {
            for (int r : colour) {
                if (!used[r]) {
                    used[r] = true;
                    router_of[node] = r;
                    return true;
                }
            }
            return false;
        };
        for (int i = 0; i < cp_count; ++i) {
            take(even, i) || take(odd, i);
        }
        for (int i = 0; i < iop_count; ++i) {
            take(odd, cp_count + i) || take(even, cp_count + i);
        }
        order.assign(routers, -1);
        for (int n = 0; n < cp_count + iop_count; ++n) {
            order[router_of[n]] = n;
        }
    } else {
        throw std::invalid_argument("unknown placement policy '" + policy + "'");
    }
    for (size_t r = 0; r < order.size(); ++r) {
        if (order[r] < 0) {
            continue; // empty router
        }
        NodeSite &s = sites[order[r]];
        s.router = static_cast<int>(r);
        s.x = static_cast<int>(r) % width;
        s.y = static_cast<int>(r) / width;
    }
    return sites;
}

} // namespace starfish::platform
