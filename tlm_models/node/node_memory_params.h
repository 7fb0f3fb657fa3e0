#pragma once
// Parameter of a node's memory (tlm_models/node/node_memory.h): its size.

#include "hw/config/config.h"
#include "hw/config/registry.h"

#include <cstdint>

namespace starfish::node {

// machine.node_memory_kb.
void declare_node_memory_params(config::Registry &registry);
// Node memory size in bytes from machine.node_memory_kb.
uint32_t node_memory_bytes(const config::Config &cfg);

} // namespace starfish::node
