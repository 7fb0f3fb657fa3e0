#include "fw/transfer.h"

#include "fw/param_keys.h"
#include "hw/rng.h"

#include <stdio.h>
#include <string.h>

static uint64_t file_bytes(hal_t *h) {
    /* Validation guarantees a whole number of bytes (sim/workload_params.cpp). */
    return (uint64_t)(hal_config_real(h, FW_KEY_WORKLOAD_FILE_MB) * 1048576.0 + 0.5);
}

void fw_transfer_req_from_config(hal_t *h, fw_transfer_req_t *req) {
    memset(req, 0, sizeof *req);
    const char *name = hal_config_string(h, FW_KEY_WORKLOAD_PATTERN);
    strncpy(req->pattern, name, sizeof req->pattern - 1);
    req->cp_count = hal_cp_count(h);
    req->requester = hal_cp_node(h, 0);
    req->record_bytes = (uint64_t)hal_config_int(h, FW_KEY_WORKLOAD_RECORD_BYTES);
    req->file_bytes = file_bytes(h);
    req->cols = (uint64_t)hal_config_int(h, FW_KEY_WORKLOAD_COLS);
}

int fw_transfer_pattern(const fw_transfer_req_t *req, fw_pattern_t *p, char *msg, size_t msg_size) {
    char name[sizeof req->pattern + 1];
    memcpy(name, req->pattern, sizeof req->pattern);
    name[sizeof req->pattern] = '\0';
    return fw_pattern_init(p, name, req->record_bytes, req->file_bytes, req->cp_count, req->cols,
                           msg, msg_size);
}

int fw_transfer_layout(hal_t *h, fw_layout_t *l, char *msg, size_t msg_size) {
    fw_disk_geometry_t disk;
    disk.sector_bytes = (uint32_t)hal_config_int(h, FW_KEY_DISK_SECTOR_BYTES);
    disk.sectors_per_track = (uint32_t)hal_config_int(h, FW_KEY_DISK_SECTORS_PER_TRACK);
    disk.tracks =
        (uint32_t)(hal_config_int(h, FW_KEY_DISK_CYLINDERS) * hal_config_int(h, FW_KEY_DISK_HEADS));
    return fw_transfer_layout_of(l, hal_config_string(h, FW_KEY_WORKLOAD_LAYOUT), file_bytes(h),
                                 (uint32_t)hal_config_int(h, FW_KEY_FS_BLOCK_BYTES), disk,
                                 hal_iop_count(h) * hal_disks_per_iop(h),
                                 (uint64_t)hal_config_int(h, FW_KEY_WORKLOAD_SEED), hal_trial(h),
                                 msg, msg_size);
}

uint64_t fw_transfer_data_seed(hal_t *h) {
    return hw_rng_stream_seed((uint64_t)hal_config_int(h, FW_KEY_WORKLOAD_SEED), hal_trial(h),
                              HW_RNG_STREAM_DATA, 0);
}
