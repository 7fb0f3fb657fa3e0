#pragma once
// Where the compute and I/O processors sit on the torus routers. The original
// placement is not published (docs/reference.md §2), so it is a configuration choice.

#include <string>
#include <vector>

namespace starfish::platform {

enum class NodeRole { Compute, Io };

struct NodeSite {
    int node = 0; // node id: CPs are 0..cp_count-1, IOPs follow
    NodeRole role = NodeRole::Compute;
    int index = 0;  // index within its role (CP k or IOP k)
    int router = 0; // router id = y * width + x
    int x = 0;
    int y = 0;
};

// Policies (machine.placement):
//  "interleaved" (default): a checkerboard. CPs fill the routers with x+y even
//     and IOPs those with x+y odd, row-major within each colour, so every IOP
//     has CP neighbours and IOP-to-CP traffic spreads over the whole torus; a
//     role with more nodes than its colour continues on the other colour's
//     leftover routers. On 6x6 with 16+16 nodes the last four routers are empty.
//  "split": CPs fill the first routers in row-major order, IOPs the routers
//     after them (a "compute partition" and an "I/O partition").
// Throws std::invalid_argument if the nodes do not fit or the policy is unknown.
std::vector<NodeSite> place_nodes(int cp_count, int iop_count, int width, int height,
                                  const std::string &policy);

const char *role_name(NodeRole role);

} // namespace starfish::platform
