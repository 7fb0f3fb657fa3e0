#include "sim/workload/trial_support.h"

#include "fw/param_keys.h"
#include "fw/transfer.h"
#include "hw/machine_keys.h"
#include "sim/platform/node.h"
#include "tlm_models/storage/disk_params.h"

#include <stdexcept>

namespace starfish::sim {

fw_layout_t file_layout_of(const config::Config &cfg, uint64_t file_bytes, int trial) {
    fw_disk_geometry_t disk{
        static_cast<uint32_t>(cfg.get_int(keys::disk_sector_bytes)),
        static_cast<uint32_t>(cfg.get_int(keys::disk_sectors_per_track)),
        static_cast<uint32_t>(cfg.get_int(keys::disk_cylinders) * cfg.get_int(keys::disk_heads))};
    fw_layout_t l;
    char msg[256];
    if (fw_transfer_layout_of(&l, cfg.get_string(keys::workload_layout).c_str(), file_bytes,
                              static_cast<uint32_t>(cfg.get_int(keys::fs_block_bytes)), disk,
                              static_cast<uint32_t>(cfg.get_int(keys::machine_iop_count) *
                                                    cfg.get_int(keys::machine_disks_per_iop)),
                              static_cast<uint64_t>(cfg.get_int(keys::workload_seed)),
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
