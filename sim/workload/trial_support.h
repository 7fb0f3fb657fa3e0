#pragma once
// Pieces every file workload's trial needs (transfer, lu): the file's layout as the
// IOPs build it, and the values the firmware exported.

#include "fw/layout.h"
#include "hw/config/config.h"

#include <cstdint>
#include <string>

namespace starfish::platform {
class Node;
}

namespace starfish::sim {

// The layout the IOPs build at boot (fw_transfer_layout) for a file of file_bytes:
// workload.layout, fs.block_bytes, the disk.* geometry, the machine's disks,
// workload.seed and the trial. Throws std::runtime_error with the firmware's message.
fw_layout_t file_layout_of(const config::Config &cfg, uint64_t file_bytes, int trial);

// The value node n exported under key (hal_export); throws if it did not.
uint64_t node_export(platform::Node &n, const std::string &key);

} // namespace starfish::sim
