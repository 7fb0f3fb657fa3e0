/* The transfer's file layout without the HAL: the simulator's configuration check
 * (sim/workload_params.cpp, in the starfish_params library) places the file exactly
 * as the IOPs will, and links this without a node behind it. */
#include "fw/transfer.h"

#include <stdio.h>
#include <string.h>

int fw_transfer_layout_of(fw_layout_t *l, const char *layout_name, uint64_t file_bytes,
                          uint32_t block_bytes, fw_disk_geometry_t disk, uint32_t disk_count,
                          uint64_t seed, uint64_t trial, char *msg, size_t msg_size) {
    fw_layout_params_t lp;
    memset(&lp, 0, sizeof lp);
    if (!fw_layout_kind_parse(layout_name, &lp.kind)) {
        snprintf(msg, msg_size, "unknown file layout '%s'", layout_name);
        return FW_LAYOUT_ERR_KIND;
    }
    lp.block_bytes = block_bytes;
    lp.disk = disk;
    lp.disk_count = disk_count;
    lp.file_blocks = block_bytes ? (file_bytes + block_bytes - 1) / block_bytes : 0;
    lp.start_block = 0;
    lp.seed = seed;
    lp.trial = trial;
    return fw_layout_init(l, &lp, msg, msg_size);
}
