/* File layout on the disks (docs/reference.md §4): the file is striped block by block over D
 * disks (file block b on disk b mod D, as the disk's local block b / D), and each
 * disk places its local blocks at physical addresses:
 *
 *  contiguous     local block i at physical block start_block + i;
 *  random-blocks  each local block at a distinct random physical block of the disk;
 *  random-tracks  local blocks in groups of blocks_per_track = floor(sectors per
 *                 track / sectors per block), each group consecutive from the start
 *                 of a distinct random track (the leftover sectors of a track are
 *                 unused; 4 blocks of 16 sectors in a 72-sector track).
 *
 * A physical block p covers sectors [p * sectors_per_block, +sectors_per_block).
 * The random layouts depend only on (seed, trial, disk, geometry, block size and
 * the number of blocks on the disk), drawn from hw/rng.h stream HW_RNG_STREAM_LAYOUT
 * with instance = disk, so each trial has its own layout and every experiment with
 * the same seed and trial reuses it. Details and an example: docs/patterns.md.
 *
 * Pure C11, no allocation and no global state: random layouts live in a per-disk
 * table of first LBAs that the caller allocates (fw_layout_table_bytes()) and fills
 * with fw_layout_build_table(); contiguous needs no table.
 */
#ifndef STARFISH_FW_LAYOUT_H
#define STARFISH_FW_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fw_layout_kind {
    FW_LAYOUT_CONTIGUOUS = 0,
    FW_LAYOUT_RANDOM_BLOCKS = 1,
    FW_LAYOUT_RANDOM_TRACKS = 2
} fw_layout_kind_t;

typedef enum fw_layout_status {
    FW_LAYOUT_OK = 0,
    FW_LAYOUT_ERR_KIND = 1,       /* unknown layout kind */
    FW_LAYOUT_ERR_ZERO = 2,       /* a size or count is zero */
    FW_LAYOUT_ERR_BLOCK_SIZE = 3, /* block not a whole number of sectors, or (random-tracks)
                                     larger than a track */
    FW_LAYOUT_ERR_DISK_FULL = 4,  /* the disk cannot hold its share of the file */
    FW_LAYOUT_ERR_GEOMETRY = 5    /* disk larger than 32-bit LBAs can address */
} fw_layout_status_t;

typedef struct fw_disk_geometry {
    uint32_t sector_bytes;      /* 512 on the HP 97560 */
    uint32_t sectors_per_track; /* 72 */
    uint32_t tracks;            /* cylinders x heads: 1962 x 19 */
} fw_disk_geometry_t;

typedef struct fw_layout_params {
    fw_layout_kind_t kind;
    uint32_t block_bytes;    /* file-system block, 8192 */
    fw_disk_geometry_t disk; /* every disk alike */
    uint32_t disk_count;     /* D */
    uint64_t file_blocks;    /* blocks of the file (a partial last block counts) */
    uint64_t start_block;    /* contiguous: physical block of local block 0 */
    uint64_t seed;           /* workload seed */
    uint64_t trial;          /* trial number */
} fw_layout_params_t;

typedef struct fw_layout {
    fw_layout_params_t params;
    uint32_t sectors_per_block;
    uint32_t blocks_per_track; /* whole blocks in a track (random-tracks) */
    uint64_t disk_sectors;     /* tracks x sectors per track */
    uint64_t disk_blocks;      /* whole physical blocks on a disk */
} fw_layout_t;

/* Validates the parameters and fills *l. On error returns the fw_layout_status_t
 * and writes a one-line message to msg (NUL-terminated when msg_size > 0). */
int fw_layout_init(fw_layout_t *l, const fw_layout_params_t *params, char *msg, size_t msg_size);

/* "contiguous", "random-blocks", "random-tracks" <-> kind. parse returns false for
 * anything else. */
bool fw_layout_kind_parse(const char *name, fw_layout_kind_t *kind);
const char *fw_layout_kind_name(fw_layout_kind_t kind);
const char *fw_layout_status_name(int status);

/* Striping. */
static inline uint32_t fw_layout_disk_of(const fw_layout_t *l, uint64_t file_block) {
    return (uint32_t)(file_block % l->params.disk_count);
}
static inline uint64_t fw_layout_local_index(const fw_layout_t *l, uint64_t file_block) {
    return file_block / l->params.disk_count;
}
static inline uint64_t fw_layout_file_block(const fw_layout_t *l, uint32_t disk,
                                            uint64_t local_index) {
    return local_index * l->params.disk_count + disk;
}
/* Blocks of the file on disk `disk`. */
uint64_t fw_layout_disk_block_count(const fw_layout_t *l, uint32_t disk);

/* Table for one disk: bytes to provide (0 for contiguous), and filling it. The table
 * holds the first LBA of each local block. Building costs O(candidates): the disk's
 * physical blocks (random-blocks) or tracks (random-tracks), plus O(blocks). */
size_t fw_layout_table_bytes(const fw_layout_t *l, uint32_t disk);
void fw_layout_build_table(const fw_layout_t *l, uint32_t disk, uint32_t *table);

/* First LBA of local block local_index of a disk; table is that disk's table
 * (ignored, may be NULL, for contiguous). */
uint32_t fw_layout_lba(const fw_layout_t *l, const uint32_t *table, uint64_t local_index);

/* The LBA local block local_index would have in the contiguous layout: the disk-block
 * number a file system knows without the physical layout, in sectors. Equal to
 * fw_layout_lba() for the contiguous layout. */
static inline uint32_t fw_layout_logical_lba(const fw_layout_t *l, uint64_t local_index) {
    return (uint32_t)((l->params.start_block + local_index) * l->sectors_per_block);
}

/* (disk, first LBA) of a file block; tables[d] is disk d's table (tables itself may
 * be NULL for contiguous). */
typedef struct fw_block_location {
    uint32_t disk;
    uint32_t lba;
    uint64_t local_index;
} fw_block_location_t;
fw_block_location_t fw_layout_locate(const fw_layout_t *l, const uint32_t *const *tables,
                                     uint64_t file_block);

/* ---- block lists (the DDIO presort) ---------------------------------------------- */
typedef struct fw_disk_block {
    uint32_t lba;
    uint32_t local_index;
} fw_disk_block_t;

/* out[i] = {lba of local block i, i} for every block of the file on the disk
 * (fw_layout_disk_block_count() entries). */
void fw_layout_list_disk(const fw_layout_t *l, uint32_t disk, const uint32_t *table,
                         fw_disk_block_t *out);
/* Sorts by ascending LBA (ties by local index) in place: heapsort, O(n log n), no
 * allocation. */
void fw_layout_sort_by_lba(fw_disk_block_t *blocks, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_LAYOUT_H */
