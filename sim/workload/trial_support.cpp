#include "sim/workload/trial_support.h"

#include "fw/transfer.h"
#include "sim/platform/node.h"

#include <stdexcept>

namespace starfish::sim {

fw_layout_t file_layout_of(const config::Config &cfg, uint64_t file_bytes, int trial) {
    fw_disk_geometry_t disk{
        static_cast<uint32_t>(cfg.get_int("disk.sector_bytes")),
        static_cast<uint32_t>(cfg.get_int("disk.sectors_per_track")),
        static_cast<uint32_t>(cfg.get_int("disk.cylinders") * cfg.get_int("disk.heads"))};
    fw_layout_t l;
    char msg[256];
    if (fw_transfer_layout_of(&l, cfg.get_string("workload.layout").c_str(), file_bytes,
                              static_cast<uint32_t>(cfg.get_int("fs.block_bytes")), disk,
                              static_cast<uint32_t>(cfg.get_int("machine.iop_count") *
                                                    cfg.get_int("machine.disks_per_iop")),
                              static_cast<uint64_t>(cfg.get_int("workload.seed")),
                              static_cast<uint64_t>(trial), msg, sizeof msg) != FW_LAYOUT_OK) {
        throw std::runtime_error(msg);
    }
    return l;
}

uint64_t node_export(platform::Node &n, const std::string &key) {
    const auto &e = n.exports();
    auto it = e.find(key);
    if (it == e.end()) {
        throw std::runtime_error("node " + std::to_string(n.setup().node_id) + " did not report " +
                                 key);
    }
    return it->second;
}

} // namespace starfish::sim
