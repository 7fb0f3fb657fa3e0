/* File layout on the disks: see fw/include/fw/layout.h and docs/patterns.md. */
#include "fw/layout.h"
#include "fw/status_msg.h"

#include "hw/rng.h"

#include <stdio.h>
#include <string.h>

bool fw_layout_kind_parse(const char *name, fw_layout_kind_t *kind) {
    if (name == NULL) {
        return false;
    }
    if (strcmp(name, "contiguous") == 0) {
        *kind = FW_LAYOUT_CONTIGUOUS;
    } else if (strcmp(name, "random-blocks") == 0) {
        *kind = FW_LAYOUT_RANDOM_BLOCKS;
    } else if (strcmp(name, "random-tracks") == 0) {
        *kind = FW_LAYOUT_RANDOM_TRACKS;
    } else {
        return false;
    }
    return true;
}

const char *fw_layout_kind_name(fw_layout_kind_t kind) {
    switch (kind) {
    case FW_LAYOUT_CONTIGUOUS:
        return "contiguous";
    case FW_LAYOUT_RANDOM_BLOCKS:
        return "random-blocks";
    case FW_LAYOUT_RANDOM_TRACKS:
        return "random-tracks";
    }
    return "?";
}

const char *fw_layout_status_name(int status) {
    switch (status) {
    case FW_LAYOUT_OK:
        return "FW_LAYOUT_OK";
    case FW_LAYOUT_ERR_KIND:
        return "FW_LAYOUT_ERR_KIND";
    case FW_LAYOUT_ERR_ZERO:
        return "FW_LAYOUT_ERR_ZERO";
    case FW_LAYOUT_ERR_BLOCK_SIZE:
        return "FW_LAYOUT_ERR_BLOCK_SIZE";
    case FW_LAYOUT_ERR_DISK_FULL:
        return "FW_LAYOUT_ERR_DISK_FULL";
    case FW_LAYOUT_ERR_GEOMETRY:
        return "FW_LAYOUT_ERR_GEOMETRY";
    default:
        return "FW_LAYOUT_ERR_UNKNOWN";
    }
}

int fw_layout_init(fw_layout_t *l, const fw_layout_params_t *params, char *msg, size_t msg_size) {
    if (msg != NULL && msg_size > 0) {
        msg[0] = '\0';
    }
    memset(l, 0, sizeof *l);
    const fw_layout_params_t *p = params;
    if (p->kind != FW_LAYOUT_CONTIGUOUS && p->kind != FW_LAYOUT_RANDOM_BLOCKS &&
        p->kind != FW_LAYOUT_RANDOM_TRACKS) {
        return fw_status_msg(
            msg, msg_size, FW_LAYOUT_ERR_KIND,
            "unknown file layout %d: use contiguous, random-blocks or random-tracks", (int)p->kind);
    }
    const char *zero = p->block_bytes == 0              ? "block size"
                       : p->disk.sector_bytes == 0      ? "sector size"
                       : p->disk.sectors_per_track == 0 ? "sectors per track"
                       : p->disk.tracks == 0            ? "track count"
                       : p->disk_count == 0             ? "disk count"
                       : p->file_blocks == 0            ? "file size in blocks"
                                                        : NULL;
    if (zero != NULL) {
        return fw_status_msg(msg, msg_size, FW_LAYOUT_ERR_ZERO, "file layout: %s is 0", zero);
    }
    if (p->block_bytes % p->disk.sector_bytes != 0) {
        return fw_status_msg(
            msg, msg_size, FW_LAYOUT_ERR_BLOCK_SIZE,
            "file layout: a %u-byte block is not a whole number of %u-byte sectors", p->block_bytes,
            p->disk.sector_bytes);
    }
    uint64_t disk_sectors = (uint64_t)p->disk.tracks * p->disk.sectors_per_track;
    if (disk_sectors > UINT32_MAX) {
        return fw_status_msg(msg, msg_size, FW_LAYOUT_ERR_GEOMETRY,
                             "file layout: a disk of %llu sectors exceeds 32-bit LBAs",
                             (unsigned long long)disk_sectors);
    }
    l->params = *p;
    l->sectors_per_block = p->block_bytes / p->disk.sector_bytes;
    l->blocks_per_track = p->disk.sectors_per_track / l->sectors_per_block;
    l->disk_sectors = disk_sectors;
    l->disk_blocks = disk_sectors / l->sectors_per_block;

    const uint64_t most = fw_layout_disk_block_count(l, 0); /* disk 0 holds the most */
    const char *kind = fw_layout_kind_name(p->kind);
    switch (p->kind) {
    case FW_LAYOUT_CONTIGUOUS:
        if (p->start_block > l->disk_blocks || most > l->disk_blocks - p->start_block) {
            return fw_status_msg(
                msg, msg_size, FW_LAYOUT_ERR_DISK_FULL,
                "file layout %s: %llu blocks per disk from physical block %llu do not "
                "fit a disk of %llu blocks",
                kind, (unsigned long long)most, (unsigned long long)p->start_block,
                (unsigned long long)l->disk_blocks);
        }
        break;
    case FW_LAYOUT_RANDOM_BLOCKS:
        if (most > l->disk_blocks) {
            return fw_status_msg(
                msg, msg_size, FW_LAYOUT_ERR_DISK_FULL,
                "file layout %s: %llu blocks per disk do not fit a disk of %llu blocks", kind,
                (unsigned long long)most, (unsigned long long)l->disk_blocks);
        }
        break;
    case FW_LAYOUT_RANDOM_TRACKS:
        if (l->blocks_per_track == 0) {
            return fw_status_msg(
                msg, msg_size, FW_LAYOUT_ERR_BLOCK_SIZE,
                "file layout %s: a block of %u sectors does not fit a %u-sector track", kind,
                l->sectors_per_block, p->disk.sectors_per_track);
        }
        if ((most + l->blocks_per_track - 1) / l->blocks_per_track > p->disk.tracks) {
            return fw_status_msg(
                msg, msg_size, FW_LAYOUT_ERR_DISK_FULL,
                "file layout %s: %llu blocks per disk at %u per track need more than "
                "the disk's %u tracks",
                kind, (unsigned long long)most, l->blocks_per_track, p->disk.tracks);
        }
        break;
    }
    return FW_LAYOUT_OK;
}

uint64_t fw_layout_disk_block_count(const fw_layout_t *l, uint32_t disk) {
    const uint64_t d = l->params.disk_count, n = l->params.file_blocks;
    return disk < d && disk < n ? (n - disk + d - 1) / d : 0;
}

size_t fw_layout_table_bytes(const fw_layout_t *l, uint32_t disk) {
    if (l->params.kind == FW_LAYOUT_CONTIGUOUS) {
        return 0;
    }
    return (size_t)fw_layout_disk_block_count(l, disk) * sizeof(uint32_t);
}

/* Uniform integer in [0, bound) (Lemire's nearly divisionless method on 32 bits,
 * which is all a 32-bit-LBA disk needs; exact, like hw_rng_below but cheaper). */
static uint64_t below(hw_rng *r, uint64_t bound) {
    if (bound > UINT32_MAX) {
        return hw_rng_below(r, bound);
    }
    const uint32_t b = (uint32_t)bound;
    uint64_t m = (hw_rng_next(r) >> 32) * b;
    if ((uint32_t)m < b) {
        const uint32_t threshold = (0u - b) % b;
        while ((uint32_t)m < threshold) {
            m = (hw_rng_next(r) >> 32) * b;
        }
    }
    return m >> 32;
}

/* Writes `count` distinct values of [0, candidates) to out in random order:
 * selection sampling (Knuth, TAOCP 3.4.2 algorithm S) then a Fisher-Yates shuffle. */
static void sample_distinct(hw_rng *r, uint64_t candidates, uint64_t count, uint32_t *out) {
    uint64_t chosen = 0;
    for (uint64_t c = 0; chosen < count; ++c) {
        if (below(r, candidates - c) < count - chosen) {
            out[chosen++] = (uint32_t)c;
        }
    }
    for (uint64_t i = count; i > 1; --i) {
        uint64_t j = below(r, i);
        uint32_t t = out[i - 1];
        out[i - 1] = out[j];
        out[j] = t;
    }
}

void fw_layout_build_table(const fw_layout_t *l, uint32_t disk, uint32_t *table) {
    const uint64_t count = fw_layout_disk_block_count(l, disk);
    if (l->params.kind == FW_LAYOUT_CONTIGUOUS || count == 0) {
        return;
    }
    hw_rng r;
    hw_rng_seed(&r,
                hw_rng_stream_seed(l->params.seed, l->params.trial, HW_RNG_STREAM_LAYOUT, disk));
    const uint32_t spb = l->sectors_per_block;
    if (l->params.kind == FW_LAYOUT_RANDOM_BLOCKS) {
        sample_distinct(&r, l->disk_blocks, count, table);
        for (uint64_t i = 0; i < count; ++i) {
            table[i] *= spb;
        }
        return;
    }
    /* random-tracks: choose the tracks into the front of the table, then expand
     * from the back (entry i reads entry i / bpt <= i, not yet overwritten). */
    const uint32_t bpt = l->blocks_per_track, spt = l->params.disk.sectors_per_track;
    sample_distinct(&r, l->params.disk.tracks, (count + bpt - 1) / bpt, table);
    for (uint64_t i = count; i-- > 0;) {
        table[i] = table[i / bpt] * spt + (uint32_t)(i % bpt) * spb;
    }
}

uint32_t fw_layout_lba(const fw_layout_t *l, const uint32_t *table, uint64_t local_index) {
    if (l->params.kind == FW_LAYOUT_CONTIGUOUS) {
        return fw_layout_logical_lba(l, local_index);
    }
    return table[local_index];
}

fw_block_location_t fw_layout_locate(const fw_layout_t *l, const uint32_t *const *tables,
                                     uint64_t file_block) {
    fw_block_location_t loc;
    loc.disk = fw_layout_disk_of(l, file_block);
    loc.local_index = fw_layout_local_index(l, file_block);
    loc.lba = fw_layout_lba(l, tables != NULL ? tables[loc.disk] : NULL, loc.local_index);
    return loc;
}

void fw_layout_list_disk(const fw_layout_t *l, uint32_t disk, const uint32_t *table,
                         fw_disk_block_t *out) {
    const uint64_t count = fw_layout_disk_block_count(l, disk);
    for (uint64_t i = 0; i < count; ++i) {
        out[i].lba = fw_layout_lba(l, table, i);
        out[i].local_index = (uint32_t)i;
    }
}

static inline bool block_less(const fw_disk_block_t *a, const fw_disk_block_t *b) {
    return a->lba < b->lba || (a->lba == b->lba && a->local_index < b->local_index);
}

static void sift_down(fw_disk_block_t *v, size_t root, size_t n) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && block_less(&v[child], &v[child + 1])) {
            ++child;
        }
        if (!block_less(&v[root], &v[child])) {
            return;
        }
        fw_disk_block_t t = v[root];
        v[root] = v[child];
        v[child] = t;
        root = child;
    }
}

void fw_layout_sort_by_lba(fw_disk_block_t *blocks, size_t n) {
    for (size_t i = n / 2; i-- > 0;) {
        sift_down(blocks, i, n);
    }
    for (size_t end = n; end > 1; --end) {
        fw_disk_block_t t = blocks[0];
        blocks[0] = blocks[end - 1];
        blocks[end - 1] = t;
        sift_down(blocks, 0, end - 1);
    }
}
