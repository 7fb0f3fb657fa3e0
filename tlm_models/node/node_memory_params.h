#pragma once
// Parameter of a node's memory (tlm_models/node/node_memory.h): its size.

#include "hw/config/config.h"
#include "hw/config/key.h"
#include "hw/config/registry.h"

#include <cstdint>

// The key of the node memory's size (hw/config/key.h).
namespace starfish::keys {
inline constexpr config::IntKey machine_node_memory_kb{"machine.node_memory_kb"};
} // namespace starfish::keys

namespace starfish::node {

// machine.node_memory_kb.
void declare_node_memory_params(config::Registry &registry);
// Node memory size in bytes from machine.node_memory_kb.
uint32_t node_memory_bytes(const config::Config &cfg);

} // namespace starfish::node
