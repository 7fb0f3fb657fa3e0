/* SPFS CP client planning: see fw/include/fw/spfs_plan.h. */
#include "fw/spfs_plan.h"

#include "fw/transfer.h"

#include <string.h>

void fw_spfs_plan_begin(fw_spfs_plan_iter_t *it, const fw_pattern_t *p, uint32_t cp,
                        uint32_t block_bytes) {
    memset(it, 0, sizeof *it);
    fw_pattern_chunks_begin(&it->chunks, p, cp);
    it->block_bytes = block_bytes;
}

bool fw_spfs_plan_next(fw_spfs_plan_iter_t *it, fw_spfs_piece_t *out) {
    if (it->block_bytes == 0) {
        return false;
    }
    if (!it->in_chunk) {
        if (!fw_pattern_chunks_next(&it->chunks, &it->chunk)) {
            return false;
        }
        it->in_chunk = true;
        it->done = 0;
    }
    const uint64_t pos = it->chunk.file_offset + it->done;
    const uint64_t block = pos / it->block_bytes;
    const uint64_t offset = pos % it->block_bytes;
    const uint64_t left = it->chunk.length - it->done;
    const uint64_t to_block_end = it->block_bytes - offset;
    const uint64_t len = left < to_block_end ? left : to_block_end;
    out->chunk = it->chunk_index;
    out->file_block = block;
    out->block_offset = (uint32_t)offset;
    out->length = (uint32_t)len;
    out->buf_offset = it->chunk.cp_offset + it->done;
    out->first_of_chunk = it->done == 0;
    it->done += len;
    out->last_of_chunk = it->done == it->chunk.length;
    if (out->last_of_chunk) {
        it->in_chunk = false;
        ++it->chunk_index;
    }
    return true;
}

fw_spfs_block_home_t fw_spfs_block_home(const fw_layout_t *l, uint32_t iop_count,
                                        uint64_t file_block) {
    fw_spfs_block_home_t h;
    h.file_disk = fw_layout_disk_of(l, file_block);
    h.iop = fw_file_disk_iop(h.file_disk, iop_count);
    h.local_disk = fw_file_disk_local(h.file_disk, iop_count);
    h.disk_block = fw_layout_local_index(l, file_block);
    return h;
}

uint32_t fw_spfs_block_len(uint64_t file_bytes, uint32_t block_bytes, uint64_t file_block) {
    if (block_bytes == 0 || file_block >= (file_bytes + block_bytes - 1) / block_bytes) {
        return 0;
    }
    uint64_t left = file_bytes - file_block * block_bytes;
    return left < block_bytes ? (uint32_t)left : block_bytes;
}

/* ---- K limit ------------------------------------------------------------------------ */

static size_t klimit_header_bytes(void) {
    return (sizeof(fw_spfs_klimit_t) + 7u) & ~(size_t)7u;
}

size_t fw_spfs_klimit_bytes(uint32_t disks) {
    return disks == 0 ? 0 : klimit_header_bytes() + sizeof(uint32_t) * (size_t)disks;
}

fw_spfs_klimit_t *fw_spfs_klimit_init(void *mem, size_t mem_bytes, uint32_t k, uint32_t disks) {
    size_t need = fw_spfs_klimit_bytes(disks);
    if (mem == NULL || ((uintptr_t)mem & 7u) != 0 || k == 0 || need == 0 || mem_bytes < need) {
        return NULL;
    }
    memset(mem, 0, need);
    fw_spfs_klimit_t *t = (fw_spfs_klimit_t *)mem;
    t->k = k;
    t->disks = disks;
    t->outstanding = (uint32_t *)((uint8_t *)mem + klimit_header_bytes());
    return t;
}

bool fw_spfs_klimit_can_send(const fw_spfs_klimit_t *t, uint32_t disk) {
    return disk < t->disks && t->outstanding[disk] < t->k;
}

bool fw_spfs_klimit_sent(fw_spfs_klimit_t *t, uint32_t disk) {
    if (!fw_spfs_klimit_can_send(t, disk)) {
        return false;
    }
    ++t->outstanding[disk];
    ++t->total;
    return true;
}

bool fw_spfs_klimit_replied(fw_spfs_klimit_t *t, uint32_t disk) {
    if (disk >= t->disks || t->outstanding[disk] == 0) {
        return false;
    }
    --t->outstanding[disk];
    --t->total;
    return true;
}
