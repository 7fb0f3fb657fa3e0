/* SPFS per-disk request queue: see fw/include/fw/spfs_diskq.h. */
#include "fw/spfs_diskq.h"

#include <string.h>

bool fw_spfs_diskq_discipline_parse(const char *name, fw_spfs_diskq_discipline_t *d) {
    if (name == NULL) {
        return false;
    }
    if (strcmp(name, "fcfs") == 0) {
        *d = FW_SPFS_DISKQ_FCFS;
    } else if (strcmp(name, "cscan") == 0) {
        *d = FW_SPFS_DISKQ_CSCAN;
    } else {
        return false;
    }
    return true;
}

const char *fw_spfs_diskq_discipline_name(fw_spfs_diskq_discipline_t d) {
    switch (d) {
    case FW_SPFS_DISKQ_FCFS:
        return "fcfs";
    case FW_SPFS_DISKQ_CSCAN:
        return "cscan";
    }
    return "?";
}

static size_t header_bytes(void) {
    return (sizeof(fw_spfs_diskq_t) + 7u) & ~(size_t)7u;
}

size_t fw_spfs_diskq_bytes(uint32_t capacity, fw_spfs_diskq_discipline_t d) {
    if (capacity == 0 || (d != FW_SPFS_DISKQ_FCFS && d != FW_SPFS_DISKQ_CSCAN)) {
        return 0;
    }
    /* CSCAN: either queue may hold every request. */
    size_t queues = d == FW_SPFS_DISKQ_CSCAN ? 2 : 1;
    return header_bytes() + queues * capacity * sizeof(fw_spfs_diskq_entry_t);
}

fw_spfs_diskq_t *fw_spfs_diskq_init(void *mem, size_t mem_bytes, uint32_t capacity,
                                    fw_spfs_diskq_discipline_t d) {
    size_t need = fw_spfs_diskq_bytes(capacity, d);
    if (mem == NULL || ((uintptr_t)mem & 7u) != 0 || need == 0 || mem_bytes < need) {
        return NULL;
    }
    memset(mem, 0, need);
    fw_spfs_diskq_t *q = (fw_spfs_diskq_t *)mem;
    q->discipline = d;
    q->capacity = capacity;
    q->ahead = (fw_spfs_diskq_entry_t *)((uint8_t *)mem + header_bytes());
    q->behind = d == FW_SPFS_DISKQ_CSCAN ? q->ahead + capacity : NULL;
    return q;
}

/* ---- binary min-heap on (lba, seq) ------------------------------------------------ */

static bool entry_less(const fw_spfs_diskq_entry_t *a, const fw_spfs_diskq_entry_t *b) {
    return a->lba < b->lba || (a->lba == b->lba && a->seq < b->seq);
}

static void heap_push(fw_spfs_diskq_entry_t *h, uint32_t *n, fw_spfs_diskq_entry_t e) {
    uint32_t i = (*n)++;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (!entry_less(&e, &h[parent])) {
            break;
        }
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

static fw_spfs_diskq_entry_t heap_pop(fw_spfs_diskq_entry_t *h, uint32_t *n) {
    fw_spfs_diskq_entry_t top = h[0];
    fw_spfs_diskq_entry_t last = h[--(*n)];
    uint32_t i = 0;
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= *n) {
            break;
        }
        if (child + 1 < *n && entry_less(&h[child + 1], &h[child])) {
            ++child;
        }
        if (!entry_less(&h[child], &last)) {
            break;
        }
        h[i] = h[child];
        i = child;
    }
    if (*n > 0) {
        h[i] = last;
    }
    return top;
}

/* ---- push and pop --------------------------------------------------------------- */

bool fw_spfs_diskq_push(fw_spfs_diskq_t *q, uint32_t lba, uint64_t cookie) {
    if (q->depth >= q->capacity) {
        ++q->stats.refused;
        return false;
    }
    fw_spfs_diskq_entry_t e;
    e.seq = q->next_seq++;
    e.cookie = cookie;
    e.lba = lba;
    ++q->stats.pushes;
    q->stats.depth_sum += q->depth;
    if (q->discipline == FW_SPFS_DISKQ_FCFS) {
        q->ahead[(q->ring_start + q->depth) % q->capacity] = e;
    } else if (lba >= q->head_lba) {
        heap_push(q->ahead, &q->ahead_count, e);
    } else {
        heap_push(q->behind, &q->behind_count, e);
    }
    ++q->depth;
    if (q->depth > q->stats.max_depth) {
        q->stats.max_depth = q->depth;
    }
    return true;
}

bool fw_spfs_diskq_pop_next(fw_spfs_diskq_t *q, uint32_t head_lba, fw_spfs_diskq_req_t *out) {
    if (q->depth == 0) {
        return false;
    }
    fw_spfs_diskq_entry_t e;
    if (q->discipline == FW_SPFS_DISKQ_FCFS) {
        e = q->ahead[q->ring_start];
        q->ring_start = (q->ring_start + 1) % q->capacity;
    } else {
        /* The head moved past these while they waited: next pass. */
        while (q->ahead_count > 0 && q->ahead[0].lba < head_lba) {
            heap_push(q->behind, &q->behind_count, heap_pop(q->ahead, &q->ahead_count));
        }
        if (q->ahead_count == 0) {
            fw_spfs_diskq_entry_t *t = q->ahead;
            q->ahead = q->behind;
            q->behind = t;
            q->ahead_count = q->behind_count;
            q->behind_count = 0;
            ++q->stats.sweeps;
        }
        e = heap_pop(q->ahead, &q->ahead_count);
    }
    --q->depth;
    ++q->stats.pops;
    q->head_lba = e.lba;
    out->lba = e.lba;
    out->cookie = e.cookie;
    return true;
}

double fw_spfs_diskq_mean_depth(const fw_spfs_diskq_t *q) {
    return q->stats.pushes == 0 ? 0.0 : (double)q->stats.depth_sum / (double)q->stats.pushes;
}
