/* SPFS CP client planning (docs/reference.md §6; Kotz, TOCS 1997, §4): what requests a CP
 * sends for its part of a file, where each goes, and the flow control.
 *
 * The application asks for each of its chunks (the largest pieces contiguous in
 * both the file and its buffer, fw_pattern_chunks_*; never single records when a
 * chunk holds more) with one file-system call, in memory order; ra asks for the
 * whole file on every CP. The call sends one request per file block the chunk
 * touches, so the plan iterator yields each chunk split at block boundaries, in
 * order, marking where a chunk ends (the call waits for all its replies there).
 *
 * A request's destination comes from the file's striping (fw/layout.h: file block b
 * on file disk b mod D) and the placement of file disks on IOPs (fw/transfer.h:
 * file disk d on IOP d mod iop_count, as its local disk d / iop_count).
 *
 * Flow control: at most K outstanding requests per CP per file disk
 * (fw_spfs_klimit_*).
 *
 * Pure C11: no HAL calls, no allocation, no global state. Iterating costs O(1) per
 * piece produced.
 */
#ifndef STARFISH_FW_SPFS_PLAN_H
#define STARFISH_FW_SPFS_PLAN_H

#include "fw/layout.h"
#include "fw/pattern.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One request: the part of one chunk that lies in one file block. */
typedef struct fw_spfs_piece {
    uint64_t chunk; /* index of the CP's chunk (file-system call), from 0 */
    uint64_t file_block;
    uint32_t block_offset; /* first byte within the block */
    uint32_t length;       /* bytes; block_offset + length <= block_bytes */
    uint64_t buf_offset;   /* first byte in the CP's user buffer */
    bool first_of_chunk;
    bool last_of_chunk; /* the call waits for all its replies after this one */
} fw_spfs_piece_t;

typedef struct fw_spfs_plan_iter {
    fw_pattern_chunk_iter_t chunks;
    fw_pattern_chunk_t chunk; /* the chunk being split */
    uint64_t done;            /* bytes of it already produced */
    uint64_t chunk_index;
    uint32_t block_bytes;
    bool in_chunk;
} fw_spfs_plan_iter_t;

/* Starts CP cp's plan under pattern p (which must outlive the iterator). */
void fw_spfs_plan_begin(fw_spfs_plan_iter_t *it, const fw_pattern_t *p, uint32_t cp,
                        uint32_t block_bytes);
/* Writes the next piece and returns true, or returns false at the end. */
bool fw_spfs_plan_next(fw_spfs_plan_iter_t *it, fw_spfs_piece_t *out);

/* Where a file block lives. */
typedef struct fw_spfs_block_home {
    uint32_t file_disk;  /* 0 … D-1 */
    uint32_t iop;        /* IOP index serving the disk */
    uint32_t local_disk; /* the disk's index on that IOP (SCSI target) */
    uint64_t disk_block; /* the block's index among the file's blocks on the disk */
} fw_spfs_block_home_t;

fw_spfs_block_home_t fw_spfs_block_home(const fw_layout_t *l, uint32_t iop_count,
                                        uint64_t file_block);

/* Bytes of file block `file_block` that belong to a file of file_bytes (block_bytes
 * except for a partial last block; 0 past the end). */
uint32_t fw_spfs_block_len(uint64_t file_bytes, uint32_t block_bytes, uint64_t file_block);

/* ---- K outstanding requests per file disk (one CP) -------------------------------- */
typedef struct fw_spfs_klimit {
    uint32_t k;
    uint32_t disks;
    uint32_t total;        /* outstanding over all disks */
    uint32_t *outstanding; /* per file disk */
} fw_spfs_klimit_t;

/* Memory for a tracker of `disks` file disks; 0 if disks is 0. */
size_t fw_spfs_klimit_bytes(uint32_t disks);
/* Lays out a tracker with nothing outstanding in mem (8-byte aligned, mem_bytes >=
 * fw_spfs_klimit_bytes). NULL for k or disks 0 or too little memory. */
fw_spfs_klimit_t *fw_spfs_klimit_init(void *mem, size_t mem_bytes, uint32_t k, uint32_t disks);

/* May another request go to disk? (false: wait for one of its replies first.) */
bool fw_spfs_klimit_can_send(const fw_spfs_klimit_t *t, uint32_t disk);
/* A request went to disk; false (nothing counted) if that exceeds K or disk is out
 * of range. */
bool fw_spfs_klimit_sent(fw_spfs_klimit_t *t, uint32_t disk);
/* A reply came from disk; false (nothing counted) if none was outstanding. */
bool fw_spfs_klimit_replied(fw_spfs_klimit_t *t, uint32_t disk);

static inline uint32_t fw_spfs_klimit_outstanding(const fw_spfs_klimit_t *t, uint32_t disk) {
    return disk < t->disks ? t->outstanding[disk] : 0;
}
static inline uint32_t fw_spfs_klimit_total(const fw_spfs_klimit_t *t) {
    return t->total;
}

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_SPFS_PLAN_H */
