#pragma once
// The paths of a torus, computed once per (source, destination, VC lane) and then
// handed out by reference: every packet of a run between the same two routers in
// the same lane takes the same path, so the network engines need not rebuild it
// (and allocate it) per packet. The table never changes a path, so a RouteView
// stays valid for the table's life.

#include "tlm_models/net/torus_topology.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace starfish::net {

// A path held by a RouteTable: inject hop, links, eject hop (TorusTopology::route).
class RouteView {
public:
    RouteView() = default;
    explicit RouteView(const std::vector<Hop> &hops) : hops_(hops.data()), count_(hops.size()) {}
    size_t size() const { return count_; }
    const Hop &operator[](size_t i) const { return hops_[i]; }
    const Hop *begin() const { return hops_; }
    const Hop *end() const { return hops_ + count_; }

private:
    const Hop *hops_ = nullptr;
    size_t count_ = 0;
};

class RouteTable {
public:
    explicit RouteTable(const TorusTopology &topo);
    // The path of a packet from src to dst in `lane` (as TorusTopology::route).
    RouteView route(int src, int dst, int lane);

private:
    // Up to this many (src, dst, lane VC) entries the table is a flat array;
    // beyond (very large tori) a hash map holds only the paths used.
    static constexpr size_t kDenseLimit = size_t(1) << 18;
    const TorusTopology &topo_;
    size_t lanes_;
    std::vector<std::vector<Hop>> dense_; // empty: not computed yet
    std::unordered_map<uint64_t, std::vector<Hop>> sparse_;
};

} // namespace starfish::net
