/* Drive write-behind at the end of a run: see fw/include/fw/drive_sync.h. */
#include "fw/drive_sync.h"

#include "fw/param_keys.h"
#include "hw/scsi_regs.h"

#include <stdio.h>
#include <string.h>

fw_drive_sync_t *fw_drive_sync_init(hal_t *h, fw_scsi_t *scsi, uint32_t targets) {
    fw_drive_sync_t *ds = (fw_drive_sync_t *)hal_mem_alloc(h, sizeof *ds, 8);
    uint32_t n = targets ? targets : 1;
    uint8_t *written = (uint8_t *)hal_mem_alloc(h, n, 8);
    fw_scsi_cmd_t **cmds = (fw_scsi_cmd_t **)hal_mem_alloc(h, (uint32_t)(sizeof *cmds * n), 8);
    if (!ds || !written || !cmds) {
        hal_fail(h, "drive sync: node memory exhausted");
        return NULL;
    }
    memset(ds, 0, sizeof *ds);
    memset(written, 0, n);
    ds->scsi = scsi;
    ds->targets = targets;
    ds->enabled = hal_config_int(h, FW_KEY_FS_FLUSH_DRIVES) != 0;
    ds->written = written;
    ds->cmds = cmds;
    for (uint32_t t = 0; t < targets; ++t) {
        cmds[t] = fw_scsi_cmd_alloc(scsi);
        if (!cmds[t]) {
            hal_fail(h, "drive sync: node memory exhausted (SCSI commands)");
            return NULL;
        }
    }
    return ds;
}

uint32_t fw_drive_sync_flush(fw_drive_sync_t *ds, uint32_t *failed_target) {
    uint32_t status = HW_SCSI_STATUS_GOOD;
    if (!ds->enabled) {
        return status;
    }
    for (uint32_t t = 0; t < ds->targets; ++t) {
        if (ds->written[t]) {
            fw_scsi_submit10(ds->scsi, ds->cmds[t], t, HW_SCSI_OP_SYNC_CACHE10, 0, 0, 0, 0);
            ++ds->flushes;
        }
    }
    for (uint32_t t = 0; t < ds->targets; ++t) {
        if (!ds->written[t]) {
            continue;
        }
        ds->written[t] = 0;
        uint32_t st = fw_scsi_wait(ds->scsi, ds->cmds[t]);
        if (st != HW_SCSI_STATUS_GOOD && status == HW_SCSI_STATUS_GOOD) {
            status = st;
            if (failed_target != NULL) {
                *failed_target = t;
            }
        }
    }
    return status;
}

bool fw_drive_sync_flush_or_fail(fw_drive_sync_t *ds, hal_t *h, const char *who) {
    uint32_t target = 0;
    uint32_t st = fw_drive_sync_flush(ds, &target);
    if (st == HW_SCSI_STATUS_GOOD) {
        return true;
    }
    char where[200], msg[300];
    fw_scsi_describe(ds->scsi, ds->cmds[target], st, where, sizeof where);
    snprintf(msg, sizeof msg, "%s: flushing a drive's write-behind failed: %s", who, where);
    hal_fail(h, msg);
    return false;
}
