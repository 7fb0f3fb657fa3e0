/* A collective file transfer (docs/reference.md §5, §9): what the CPs ask the file system to
 * move, and the file the IOPs hold. Shared by the file systems (DDIO now; SPFS and
 * 2PIO later) and by the transfer application (fw/apps.h).
 *
 * The file: workload.file_mb bytes striped block by block (fs.block_bytes) over all
 * D = iop_count x disks_per_iop disks. File disk d (block b is on d = b mod D)
 * belongs to IOP d mod iop_count as its local disk d / iop_count (SCSI target), so
 * consecutive blocks go to different IOPs and buses; its global disk id (whose
 * contents hw/data_pattern.h defines) is IOP x disks_per_iop + local disk.
 *
 * The file's contents: before a read, the bytes the disks hold where the layout
 * puts each block (never-written sectors, hw_disk_word); a write stores
 * hw_file_byte(data seed, offset) with data seed = hw_rng_stream_seed(workload.seed,
 * trial, HW_RNG_STREAM_DATA, 0).
 *
 * Pure C11, no allocation or global state; the fw_transfer_* functions that take a
 * hal_t read the configuration through it.
 */
#ifndef STARFISH_FW_TRANSFER_H
#define STARFISH_FW_TRANSFER_H

#include "fw/hal.h"
#include "fw/layout.h"
#include "fw/pattern.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The collective request as it travels from CP 0 to the IOPs (a message body). */
typedef struct fw_transfer_req {
    char pattern[4];    /* canonical pattern name, NUL-terminated */
    uint32_t cp_count;  /* P */
    uint32_t requester; /* node id of the CP that waits for the completions */
    uint32_t reserved;
    uint64_t record_bytes;
    uint64_t file_bytes;
    uint64_t cols; /* 0 = automatic */
} fw_transfer_req_t;

/* Fills the request from workload.* (thread or boot context). */
void fw_transfer_req_from_config(hal_t *h, fw_transfer_req_t *req);

/* The pattern a request names; returns FW_PATTERN_OK or the error (msg filled). */
int fw_transfer_pattern(const fw_transfer_req_t *req, fw_pattern_t *p, char *msg, size_t msg_size);

/* The file's layout: `layout_name` placement (workload.layout) of a file of
 * file_bytes in blocks of block_bytes over disk_count disks; returns FW_LAYOUT_OK or
 * the error (msg filled). */
int fw_transfer_layout_of(fw_layout_t *l, const char *layout_name, uint64_t file_bytes,
                          uint32_t block_bytes, fw_disk_geometry_t disk, uint32_t disk_count,
                          uint64_t seed, uint64_t trial, char *msg, size_t msg_size);
/* The same from workload.*, fs.block_bytes, disk.* and the machine shape. */
int fw_transfer_layout(hal_t *h, fw_layout_t *l, char *msg, size_t msg_size);

/* Seed of the file contents a writing CP stores. */
uint64_t fw_transfer_data_seed(hal_t *h);

/* Striping of file disks over IOPs (see above). */
static inline uint32_t fw_file_disk(uint32_t iop, uint32_t local, uint32_t iop_count) {
    return local * iop_count + iop;
}
static inline uint32_t fw_file_disk_iop(uint32_t file_disk, uint32_t iop_count) {
    return file_disk % iop_count;
}
static inline uint32_t fw_file_disk_local(uint32_t file_disk, uint32_t iop_count) {
    return file_disk / iop_count;
}

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_TRANSFER_H */
