/* Disk-directed I/O (docs/reference.md §6; Kotz, TOCS 1997, §3-4): the CPs make one
 * collective request that reaches every IOP; each IOP builds the list of its file
 * blocks, optionally sorts it by physical address, and streams the blocks between
 * its disks and the CP memories with a few one-block buffers per disk, each with
 * its own thread, using Memput (reads) and Memget (writes), batched per CP for
 * records smaller than a block. docs/ddio.md.
 *
 * CP side: fw_ddio_collective() multicasts the request and waits for every IOP's
 * completion (the barriers around it are the application's).
 * IOP side: fw_ddio_iop_init() at boot registers the request service; each request
 * runs in a server thread that plans, starts ddio.buffers_per_disk buffer threads
 * per local disk, waits for them and replies.
 *
 * Costs charged here (besides the messaging, SCSI and HAL charges): per block of
 * the plan cost.ddio_plan_block_cycles, per block moved cost.ddio_block_cycles, per
 * piece (a run of the block for one CP) cost.ddio_piece_cycles, plus
 * cost.ddio_piece_2d_cycles for two-dimensional patterns.
 */
#ifndef STARFISH_FW_DDIO_H
#define STARFISH_FW_DDIO_H

#include "fw/hal.h"
#include "fw/layout.h"
#include "fw/msg.h"
#include "fw/scsi.h"
#include "fw/transfer.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FW_DDIO_REQUEST_TYPE (FW_MSG_TYPE_USER + 1)
#define FW_DDIO_RANGE_REQUEST_TYPE (FW_MSG_TYPE_USER + 6)
#define FW_DDIO_SYNC_TYPE (FW_MSG_TYPE_USER + 7)

/* A collective request for a byte range of the file whose records are dealt
 * cyclically to the CPs, starting with first_cp: record r of the range (r = 0, 1, …)
 * belongs to CP (first_cp + r) mod cp_count, at offset (r / cp_count) x
 * record_bytes in that CP's registered buffer. The out-of-core LU program's combined
 * slab (fw/lu.h) is such a range of columns. A block the range covers only partly
 * is read before it is written (the rest of it must survive). */
typedef struct fw_ddio_range_req {
    uint64_t file_offset;
    uint64_t length;
    uint64_t record_bytes;
    uint32_t cp_count;
    uint32_t first_cp;
    uint32_t is_write;
    uint32_t reserved;
} fw_ddio_range_req_t;

/* The pieces of a range request within file bytes [file_offset, file_offset +
 * length), clipped to the request's range, in file order (pure). */
typedef struct fw_ddio_range_iter {
    const fw_ddio_range_req_t *req;
    uint64_t pos, end;
} fw_ddio_range_iter_t;
void fw_ddio_range_pieces_begin(fw_ddio_range_iter_t *it, const fw_ddio_range_req_t *req,
                                uint64_t file_offset, uint64_t length);
bool fw_ddio_range_pieces_next(fw_ddio_range_iter_t *it, fw_pattern_piece_t *out);

/* ---- planning (pure) ------------------------------------------------------------ */

/* The blocks of file disk `file_disk` in the order the IOP moves them: local-block
 * order, sorted by LBA when presort, then rotated left by `rotate` places (staggered
 * DDIO). out needs fw_layout_disk_block_count(l, file_disk) entries; table is the
 * disk's layout table (NULL for contiguous). */
void fw_ddio_block_list(const fw_layout_t *l, uint32_t file_disk, const uint32_t *table,
                        bool presort, uint64_t rotate, fw_disk_block_t *out);

/* Rotates out[0..n) left by `rotate` places. */
void fw_ddio_rotate(fw_disk_block_t *out, uint64_t n, uint64_t rotate);

/* Staggered DDIO: IOP k of n starts its list of `len` blocks k/n of the way in. */
static inline uint64_t fw_ddio_stagger_rotation(uint32_t iop, uint32_t iop_count, uint64_t len) {
    return iop_count == 0 ? 0 : (uint64_t)iop * len / iop_count;
}

/* ddio.queued: "on", "off", or "auto" = batch when records are smaller than a block. */
bool fw_ddio_use_queued(const char *mode, uint64_t record_bytes, uint32_t block_bytes);

/* ---- CP side ---------------------------------------------------------------------- */

/* thread: sends the collective request to every IOP and waits until each has
 * reported completion. Returns FW_MSG_OK or the first IOP's error status. */
int fw_ddio_collective(fw_msg_t *m, const fw_transfer_req_t *req);

/* thread: the same for a range request (the barriers around it are the caller's). */
int fw_ddio_collective_range(fw_msg_t *m, const fw_ddio_range_req_t *req);

/* thread (one CP, after the last request of a run): with fs.flush_drives, asks every
 * IOP to put its drives' write-behind on the media (fw/drive_sync.h) and waits for
 * all of them; without it returns at once. */
int fw_ddio_sync_all(fw_msg_t *m);

/* ---- IOP side -------------------------------------------------------------------- */

typedef struct fw_ddio_iop fw_ddio_iop_t;

/* The statistics a DDIO IOP exports when a request ends (hal_export): the one list of
 * their names, which the firmware exports under and the simulator reads. */
#define FW_DDIO_STAT_REQUESTS "ddio.requests"
#define FW_DDIO_STAT_BLOCKS "ddio.blocks"
#define FW_DDIO_STAT_PIECES "ddio.pieces"
#define FW_DDIO_STAT_PREFETCHES "ddio.prefetches"
#define FW_DDIO_STAT_BYTES "ddio.bytes"
#define FW_DDIO_STAT_PARTIAL_READS "ddio.partial_reads" /* range requests only */

typedef struct fw_ddio_stats {
    uint64_t requests;
    uint64_t blocks;
    uint64_t pieces;
    uint64_t prefetches;
    uint64_t bytes;
    uint64_t partial_reads; /* range requests: partly covered blocks read before the write */
} fw_ddio_stats_t;

/* thread (boot): reads fs.*, ddio.* and the file's layout from the configuration,
 * builds the layout tables of the local disks (file metadata, not timed: it is
 * known before any request), and registers the request service. Fails the run
 * (hal_fail) on a configuration the IOP cannot serve. */
fw_ddio_iop_t *fw_ddio_iop_init(fw_msg_t *m, fw_scsi_t *scsi);
const fw_ddio_stats_t *fw_ddio_iop_stats(const fw_ddio_iop_t *d);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_DDIO_H */
