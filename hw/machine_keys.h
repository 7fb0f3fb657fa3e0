/* Keys of the parameters that components on both sides of a layer boundary read,
 * so they are spelt here, in the layer every component sees (docs/configuration.md,
 * "Keys"):
 *   - the machine's shape, declared by sim/platform/machine_params.cpp and read by
 *     the node, network and storage models and the firmware;
 *   - the drive geometry the firmware computes disk addresses from, declared by
 *     the disk model (tlm_models/storage/disk_params.h builds its constants from
 *     these names) and read by the firmware (fw/param_keys.h). */
#ifndef STARFISH_HW_MACHINE_KEYS_H
#define STARFISH_HW_MACHINE_KEYS_H

#define HW_KEY_MACHINE_CPU_MHZ "machine.cpu_mhz"
#define HW_KEY_DISK_SECTOR_BYTES "disk.sector_bytes"
#define HW_KEY_DISK_SECTORS_PER_TRACK "disk.sectors_per_track"
#define HW_KEY_DISK_CYLINDERS "disk.cylinders"
#define HW_KEY_DISK_HEADS "disk.heads"

#ifdef __cplusplus
#include "hw/config/key.h"

namespace starfish::keys {
inline constexpr config::IntKey machine_cp_count{"machine.cp_count"};
inline constexpr config::IntKey machine_iop_count{"machine.iop_count"};
inline constexpr config::IntKey machine_disks_per_iop{"machine.disks_per_iop"};
inline constexpr config::RealKey machine_cpu_mhz{HW_KEY_MACHINE_CPU_MHZ};
inline constexpr config::StringKey machine_placement{"machine.placement"};
inline constexpr config::IntKey net_width{"net.width"};
inline constexpr config::IntKey net_height{"net.height"};
} // namespace starfish::keys
#endif

#endif
