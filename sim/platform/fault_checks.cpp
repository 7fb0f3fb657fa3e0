#include "sim/platform/fault_checks.h"

#include "hw/config/config.h"
#include "tlm_models/storage/disk_fault_params.h"
#include "tlm_models/storage/disk_params.h"

#include <string>
#include <utility>
#include <vector>

namespace starfish::platform {

void declare_fault_checks(config::Registry &reg) {
    reg.add_check([](const config::Config &cfg) -> std::string {
        std::vector<std::pair<uint32_t, uint32_t>> sectors;
        std::string error;
        if (!storage::parse_bad_sectors(cfg.get_string(keys::fault_bad_sectors), &sectors,
                                        &error)) {
            return ""; // the fault parameters' own check reports it
        }
        long long capacity = cfg.get_int(keys::disk_cylinders) * cfg.get_int(keys::disk_heads) *
                             cfg.get_int(keys::disk_sectors_per_track);
        for (const auto &[disk, lba] : sectors) {
            if (static_cast<long long>(lba) >= capacity) {
                return "fault.bad_sectors names sector " + std::to_string(lba) + " of disk " +
                       std::to_string(disk) + "; a disk has " + std::to_string(capacity) +
                       " sectors (disk.cylinders x disk.heads x disk.sectors_per_track), "
                       "0 to " +
                       std::to_string(capacity - 1);
            }
        }
        return "";
    });
}

} // namespace starfish::platform
