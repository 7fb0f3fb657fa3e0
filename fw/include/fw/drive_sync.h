/* Drive write-behind at the end of a run (docs/transfer.md, "When a run ends").
 *
 * The HP 97560 reports a write complete once its data are in the drive's cache and
 * writes them to the media afterwards (docs/reference.md §3). The paper's measured
 * time "included waiting for all I/O to complete, including outstanding write-behind
 * and prefetch requests" (Kotz, TOCS 1997, §5), so at the end of a run an IOP that
 * wrote to a drive issues SYNCHRONIZE CACHE(10) to it and answers only when every
 * such drive has its data on the media (fs.flush_drives; off = the run ends at the
 * drives' last write report). A drive nothing was written to is left alone, so read
 * runs are not touched.
 *
 * IOP side: one fw_drive_sync_t per IOP; the file system notes each WRITE(10) it
 * issues (fw_drive_sync_note_write) and calls fw_drive_sync_flush from a thread at
 * the end of the run. Per-node state in node memory, no globals. */
#ifndef STARFISH_FW_DRIVE_SYNC_H
#define STARFISH_FW_DRIVE_SYNC_H

#include "fw/hal.h"
#include "fw/scsi.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fw_drive_sync {
    fw_scsi_t *scsi;
    uint32_t targets;
    bool enabled;         /* fs.flush_drives */
    uint8_t *written;     /* per target: written to since the last flush */
    fw_scsi_cmd_t **cmds; /* per target: its SYNCHRONIZE CACHE command */
    uint64_t flushes;     /* SYNCHRONIZE CACHE commands issued */
} fw_drive_sync_t;

/* thread (boot): reads fs.flush_drives and allocates the state for `targets` drives
 * in node memory. NULL (after hal_fail) when node memory is exhausted. */
fw_drive_sync_t *fw_drive_sync_init(hal_t *h, fw_scsi_t *scsi, uint32_t targets);

static inline void fw_drive_sync_note_write(fw_drive_sync_t *ds, uint32_t target) {
    if (target < ds->targets) {
        ds->written[target] = 1;
    }
}

/* thread: SYNCHRONIZE CACHE(10) to every drive written to since the last flush, all
 * at once, then waits for them. Returns HW_SCSI_STATUS_GOOD, or the first failing
 * command's status with *failed_target set (when failed_target is not NULL). */
uint32_t fw_drive_sync_flush(fw_drive_sync_t *ds, uint32_t *failed_target);

/* thread: fw_drive_sync_flush, and on a failure hal_fail with "<who>: flushing a
 * drive's write-behind failed: <disk, command and what happened>". Returns whether
 * every flush succeeded (the caller answers its sync request only then). */
bool fw_drive_sync_flush_or_fail(fw_drive_sync_t *ds, hal_t *h, const char *who);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_DRIVE_SYNC_H */
