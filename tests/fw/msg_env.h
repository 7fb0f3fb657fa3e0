#pragma once
// Runs one firmware thread per fake node with the messaging library set up:
// fw_msg_init, a zeroed base of base_bytes registered, and a barrier over all
// nodes (id 0) passed once before the test body runs.

#include "fw/msg.h"
#include "tests/fw/fw_test_support.h"

#include <cstring>
#include <functional>
#include <vector>

namespace starfish::fwtest {

struct NodeEnv {
    hal_t *h = nullptr;
    fw_msg_t *m = nullptr;
    uint8_t *base = nullptr;
    uint32_t base_bytes = 0;
    fw_msg_barrier_t *all = nullptr;
};

using NodeBody = std::function<void(unsigned node, NodeEnv &env)>;

inline void spawn_all(FakeMachine &fm, std::vector<NodeEnv> &envs, const NodeBody &body,
                      uint32_t base_bytes = 65536, const std::string &name = "test") {
    envs.assign(fm.node_count(), NodeEnv());
    for (unsigned i = 0; i < fm.node_count(); ++i) {
        fm.spawn(
            i,
            [&envs, body, base_bytes, i](hal_t *h) {
                NodeEnv &e = envs[i];
                e.h = h;
                e.m = fw_msg_init(h);
                e.base = static_cast<uint8_t *>(hal_mem_alloc(h, base_bytes, 8));
                std::memset(e.base, 0, base_bytes);
                e.base_bytes = base_bytes;
                fw_msg_set_base(e.m, e.base, base_bytes);
                std::vector<unsigned> nodes;
                for (unsigned k = 0; k < fw_msg_node_count(e.m); ++k) {
                    nodes.push_back(k);
                }
                e.all = fw_msg_barrier_create(e.m, 0, nodes.data(),
                                              static_cast<unsigned>(nodes.size()));
                fw_msg_barrier_wait(e.m, e.all);
                body(i, e);
            },
            name);
    }
}

// A deterministic byte pattern.
inline uint8_t pattern_byte(uint32_t seed, uint32_t i) {
    uint32_t x = seed * 2654435761u + i * 40503u + (i >> 8) * 7u;
    return static_cast<uint8_t>(x ^ (x >> 13) ^ (x >> 24));
}

} // namespace starfish::fwtest
