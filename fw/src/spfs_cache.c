/* SPFS IOP block cache bookkeeping: see fw/include/fw/spfs_cache.h. */
#include "fw/spfs_cache.h"

#include <string.h>

/* Every state change goes through here, so the per-state counts stay exact. */
static void set_state(fw_spfs_cache_t *c, fw_spfs_buf_t *b, fw_spfs_buf_state_t state) {
    --c->in_state[b->state];
    ++c->in_state[state];
    b->state = state;
    if (c->observer != NULL) {
        c->observer(c->observer_arg, c);
    }
}

void fw_spfs_cache_observe(fw_spfs_cache_t *c, fw_spfs_cache_observer_t fn, void *arg) {
    c->observer = fn;
    c->observer_arg = arg;
}

static size_t align8(size_t n) {
    return (n + 7u) & ~(size_t)7u;
}

static bool is_power_of_two(uint64_t x) {
    return x != 0 && (x & (x - 1)) == 0;
}

static unsigned popcount64(uint64_t x) {
#if defined(__GNUC__)
    return (unsigned)__builtin_popcountll(x);
#else
    unsigned n = 0;
    for (; x != 0; x &= x - 1) {
        ++n;
    }
    return n;
#endif
}

uint32_t fw_spfs_cache_granule(uint64_t record_bytes, uint32_t block_bytes) {
    uint64_t g = 1;
    while (g < block_bytes && record_bytes % (g * 2) == 0 && block_bytes % (g * 2) == 0) {
        g *= 2;
    }
    return (uint32_t)g;
}

/* ---- layout of the caller's memory ------------------------------------------------ */

typedef struct cache_shape {
    uint32_t granules, words, buckets, shift;
    size_t bufs_at, buckets_at, written_at, total;
} cache_shape_t;

static bool shape_of(const fw_spfs_cache_params_t *p, cache_shape_t *s) {
    if (p == NULL || p->buffers == 0 || p->buffers == FW_SPFS_NONE || p->disks == 0 ||
        p->block_bytes == 0 || !is_power_of_two(p->granule_bytes) ||
        p->block_bytes % p->granule_bytes != 0) {
        return false;
    }
    s->granules = p->block_bytes / p->granule_bytes;
    s->words = (s->granules + 63u) / 64u;
    /* At least as many buckets as buffers keeps chains short. */
    s->buckets = 1;
    s->shift = 64;
    while (s->buckets < p->buffers) {
        s->buckets *= 2;
        --s->shift;
    }
    s->bufs_at = align8(sizeof(fw_spfs_cache_t));
    s->buckets_at = s->bufs_at + align8(sizeof(fw_spfs_buf_t) * p->buffers);
    s->written_at = s->buckets_at + align8(sizeof(uint32_t) * s->buckets);
    s->total = s->written_at + sizeof(uint64_t) * (size_t)s->words * p->buffers;
    return true;
}

size_t fw_spfs_cache_bytes(const fw_spfs_cache_params_t *p) {
    cache_shape_t s;
    return shape_of(p, &s) ? s.total : 0;
}

/* ---- LRU list and hash ------------------------------------------------------------ */

static void lru_unlink(fw_spfs_cache_t *c, uint32_t i) {
    fw_spfs_buf_t *b = &c->bufs[i];
    if (b->lru_prev != FW_SPFS_NONE) {
        c->bufs[b->lru_prev].lru_next = b->lru_next;
    } else {
        c->lru_head = b->lru_next;
    }
    if (b->lru_next != FW_SPFS_NONE) {
        c->bufs[b->lru_next].lru_prev = b->lru_prev;
    } else {
        c->lru_tail = b->lru_prev;
    }
    b->lru_prev = b->lru_next = FW_SPFS_NONE;
}

static void lru_push_mru(fw_spfs_cache_t *c, uint32_t i) {
    fw_spfs_buf_t *b = &c->bufs[i];
    b->lru_prev = c->lru_tail;
    b->lru_next = FW_SPFS_NONE;
    if (c->lru_tail != FW_SPFS_NONE) {
        c->bufs[c->lru_tail].lru_next = i;
    } else {
        c->lru_head = i;
    }
    c->lru_tail = i;
}

static void lru_push_lru(fw_spfs_cache_t *c, uint32_t i) {
    fw_spfs_buf_t *b = &c->bufs[i];
    b->lru_next = c->lru_head;
    b->lru_prev = FW_SPFS_NONE;
    if (c->lru_head != FW_SPFS_NONE) {
        c->bufs[c->lru_head].lru_prev = i;
    } else {
        c->lru_tail = i;
    }
    c->lru_head = i;
}

static uint32_t bucket_of(const fw_spfs_cache_t *c, uint32_t disk, uint64_t block) {
    if (c->bucket_shift >= 64) {
        return 0;
    }
    /* Fibonacci hashing: consecutive blocks of a disk spread over the buckets. */
    uint64_t key = (block + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)disk * 0xC2B2AE3D27D4EB4Full;
    key *= 0x9E3779B97F4A7C15ull;
    return (uint32_t)(key >> c->bucket_shift);
}

static void hash_insert(fw_spfs_cache_t *c, uint32_t i) {
    uint32_t h = bucket_of(c, c->bufs[i].disk, c->bufs[i].block);
    c->bufs[i].hash_next = c->bucket_heads[h];
    c->bucket_heads[h] = i;
}

static void hash_remove(fw_spfs_cache_t *c, uint32_t i) {
    uint32_t *link = &c->bucket_heads[bucket_of(c, c->bufs[i].disk, c->bufs[i].block)];
    while (*link != FW_SPFS_NONE) {
        if (*link == i) {
            *link = c->bufs[i].hash_next;
            break;
        }
        link = &c->bufs[*link].hash_next;
    }
    c->bufs[i].hash_next = FW_SPFS_NONE;
}

static uint64_t *written_words(fw_spfs_cache_t *c, uint32_t i) {
    return c->written + (size_t)i * c->words_per_buffer;
}

static void clear_written(fw_spfs_cache_t *c, uint32_t i) {
    memset(written_words(c, i), 0, sizeof(uint64_t) * c->words_per_buffer);
    c->bufs[i].written_granules = 0;
}

/* ---- init and queries ------------------------------------------------------------- */

fw_spfs_cache_t *fw_spfs_cache_init(void *mem, size_t mem_bytes, const fw_spfs_cache_params_t *p) {
    cache_shape_t s;
    if (mem == NULL || ((uintptr_t)mem & 7u) != 0 || !shape_of(p, &s) || mem_bytes < s.total) {
        return NULL;
    }
    uint8_t *base = (uint8_t *)mem;
    memset(base, 0, s.total);
    fw_spfs_cache_t *c = (fw_spfs_cache_t *)base;
    c->params = *p;
    c->granules_per_block = s.granules;
    c->words_per_buffer = s.words;
    c->buckets = s.buckets;
    c->bucket_shift = s.shift;
    c->bufs = (fw_spfs_buf_t *)(base + s.bufs_at);
    c->bucket_heads = (uint32_t *)(base + s.buckets_at);
    c->written = (uint64_t *)(base + s.written_at);
    for (uint32_t h = 0; h < s.buckets; ++h) {
        c->bucket_heads[h] = FW_SPFS_NONE;
    }
    c->lru_head = c->lru_tail = FW_SPFS_NONE;
    for (uint32_t i = 0; i < p->buffers; ++i) {
        fw_spfs_buf_t *b = &c->bufs[i];
        b->state = FW_SPFS_BUF_FREE;
        b->hash_next = FW_SPFS_NONE;
        ++c->in_state[FW_SPFS_BUF_FREE];
        lru_push_mru(c, i); /* buffer 0 is the first victim */
    }
    return c;
}

const char *fw_spfs_buf_state_name(fw_spfs_buf_state_t s) {
    switch (s) {
    case FW_SPFS_BUF_FREE:
        return "FREE";
    case FW_SPFS_BUF_FILLING:
        return "FILLING";
    case FW_SPFS_BUF_VALID:
        return "VALID";
    case FW_SPFS_BUF_DIRTY:
        return "DIRTY";
    case FW_SPFS_BUF_WRITEBACK:
        return "WRITEBACK";
    }
    return "?";
}

const char *fw_spfs_status_name(int status) {
    switch (status) {
    case FW_SPFS_OK:
        return "FW_SPFS_OK";
    case FW_SPFS_FULL:
        return "FW_SPFS_FULL";
    case FW_SPFS_ENOBUF:
        return "FW_SPFS_ENOBUF";
    case FW_SPFS_EEXIST:
        return "FW_SPFS_EEXIST";
    case FW_SPFS_ERANGE:
        return "FW_SPFS_ERANGE";
    case FW_SPFS_EALIGN:
        return "FW_SPFS_EALIGN";
    case FW_SPFS_ESTATE:
        return "FW_SPFS_ESTATE";
    default:
        return "FW_SPFS_UNKNOWN";
    }
}

uint32_t fw_spfs_cache_lookup(const fw_spfs_cache_t *c, uint32_t disk, uint64_t block) {
    for (uint32_t i = c->bucket_heads[bucket_of(c, disk, block)]; i != FW_SPFS_NONE;
         i = c->bufs[i].hash_next) {
        if (c->bufs[i].disk == disk && c->bufs[i].block == block) {
            return i;
        }
    }
    return FW_SPFS_NONE;
}

void fw_spfs_cache_touch(fw_spfs_cache_t *c, uint32_t buf) {
    if (c->lru_tail != buf) {
        lru_unlink(c, buf);
        lru_push_mru(c, buf);
    }
}

void fw_spfs_cache_hit(fw_spfs_cache_t *c, uint32_t buf, bool is_read) {
    ++c->stats.hits;
    if (is_read && c->bufs[buf].prefetched_unread) {
        c->bufs[buf].prefetched_unread = false;
        ++c->stats.prefetches_used;
    }
    fw_spfs_cache_touch(c, buf);
}

void fw_spfs_cache_pin(fw_spfs_cache_t *c, uint32_t buf) {
    ++c->bufs[buf].pins;
}

int fw_spfs_cache_unpin(fw_spfs_cache_t *c, uint32_t buf) {
    if (c->bufs[buf].pins == 0) {
        return FW_SPFS_ESTATE;
    }
    --c->bufs[buf].pins;
    return FW_SPFS_OK;
}

uint32_t fw_spfs_cache_victim(const fw_spfs_cache_t *c) {
    for (uint32_t i = c->lru_head; i != FW_SPFS_NONE; i = c->bufs[i].lru_next) {
        if (!fw_spfs_cache_busy(c, i)) {
            return i;
        }
    }
    return FW_SPFS_NONE;
}

/* ---- allocation --------------------------------------------------------------------- */

/* Checks the key, finds a victim and rebinds it to (disk, block) in `state`, most
 * recently used, with nothing written. */
static int take_victim(fw_spfs_cache_t *c, uint32_t disk, uint64_t block, uint32_t block_len,
                       fw_spfs_buf_state_t state, uint32_t *buf) {
    if (disk >= c->params.disks || block_len == 0 || block_len > c->params.block_bytes) {
        return FW_SPFS_ERANGE;
    }
    if (fw_spfs_cache_lookup(c, disk, block) != FW_SPFS_NONE) {
        return FW_SPFS_EEXIST;
    }
    uint32_t v = fw_spfs_cache_victim(c);
    if (v == FW_SPFS_NONE) {
        ++c->stats.no_buffer;
        return FW_SPFS_ENOBUF;
    }
    fw_spfs_buf_t *b = &c->bufs[v];
    if (b->state != FW_SPFS_BUF_FREE) {
        ++c->stats.evictions;
        if (b->prefetched_unread) {
            ++c->stats.prefetches_wasted;
        }
        hash_remove(c, v);
    }
    b->disk = disk;
    b->block = block;
    b->block_len = block_len;
    set_state(c, b, state);
    b->prefetched_unread = false;
    b->base_valid = false;
    clear_written(c, v);
    hash_insert(c, v);
    fw_spfs_cache_touch(c, v);
    *buf = v;
    return FW_SPFS_OK;
}

int fw_spfs_cache_alloc_read(fw_spfs_cache_t *c, uint32_t disk, uint64_t block, uint32_t block_len,
                             bool prefetch, uint32_t *buf) {
    int rc = take_victim(c, disk, block, block_len, FW_SPFS_BUF_FILLING, buf);
    if (rc != FW_SPFS_OK) {
        return rc;
    }
    if (prefetch) {
        ++c->stats.prefetches_issued;
        c->bufs[*buf].prefetched_unread = true;
    } else {
        ++c->stats.misses;
    }
    return FW_SPFS_OK;
}

bool fw_spfs_installation_read_needed(uint32_t block_len, uint32_t offset, uint32_t len,
                                      bool block_holds_file_data) {
    bool covers_block = offset == 0 && len >= block_len;
    return block_holds_file_data && !covers_block;
}

int fw_spfs_cache_alloc_write(fw_spfs_cache_t *c, uint32_t disk, uint64_t block, uint32_t block_len,
                              uint32_t offset, uint32_t len, bool block_holds_file_data,
                              uint32_t *buf, bool *installation_read) {
    if (len == 0 || offset > block_len || len > block_len - offset) {
        return FW_SPFS_ERANGE;
    }
    bool install = fw_spfs_installation_read_needed(block_len, offset, len, block_holds_file_data);
    int rc = take_victim(c, disk, block, block_len,
                         install ? FW_SPFS_BUF_FILLING : FW_SPFS_BUF_DIRTY, buf);
    if (rc != FW_SPFS_OK) {
        return rc;
    }
    ++c->stats.misses;
    if (install) {
        ++c->stats.installation_reads;
    }
    /* A block without file data has nothing to preserve: its unwritten bytes are
     * as good as any, so the buffer may be flushed or read before it is full. */
    c->bufs[*buf].base_valid = !block_holds_file_data;
    *installation_read = install;
    return FW_SPFS_OK;
}

int fw_spfs_cache_fill_done(fw_spfs_cache_t *c, uint32_t buf) {
    fw_spfs_buf_t *b = &c->bufs[buf];
    if (b->state != FW_SPFS_BUF_FILLING) {
        return FW_SPFS_ESTATE;
    }
    set_state(c, b, FW_SPFS_BUF_VALID);
    b->base_valid = true;
    return FW_SPFS_OK;
}

/* ---- writes ---------------------------------------------------------------------- */

/* Marks granules [first, end) written; returns how many were not already. */
static uint32_t mark_granules(uint64_t *words, uint32_t first, uint32_t end) {
    uint32_t added = 0;
    while (first < end) {
        uint32_t w = first / 64, bit = first % 64;
        uint32_t n = end - first < 64 - bit ? end - first : 64 - bit;
        uint64_t mask = (n == 64 ? ~0ull : ((1ull << n) - 1)) << bit;
        added += popcount64(mask & ~words[w]);
        words[w] |= mask;
        first += n;
    }
    return added;
}

static uint32_t granules_in(const fw_spfs_cache_t *c, uint32_t bytes) {
    return (bytes + c->params.granule_bytes - 1) / c->params.granule_bytes;
}

bool fw_spfs_cache_full(const fw_spfs_cache_t *c, uint32_t buf) {
    const fw_spfs_buf_t *b = &c->bufs[buf];
    return b->state != FW_SPFS_BUF_FREE && b->written_granules == granules_in(c, b->block_len);
}

int fw_spfs_cache_write(fw_spfs_cache_t *c, uint32_t buf, uint32_t offset, uint32_t len) {
    fw_spfs_buf_t *b = &c->bufs[buf];
    if (b->state != FW_SPFS_BUF_VALID && b->state != FW_SPFS_BUF_DIRTY) {
        return FW_SPFS_ESTATE;
    }
    if (len == 0 || offset > b->block_len || len > b->block_len - offset) {
        return FW_SPFS_ERANGE;
    }
    const uint32_t g = c->params.granule_bytes;
    const uint32_t end = offset + len;
    /* The block's last granule may be partial (a file ending mid-granule). */
    if (offset % g != 0 || (end % g != 0 && end != b->block_len)) {
        return FW_SPFS_EALIGN;
    }
    set_state(c, b, FW_SPFS_BUF_DIRTY);
    b->written_granules += mark_granules(written_words(c, buf), offset / g, granules_in(c, end));
    if (!fw_spfs_cache_full(c, buf)) {
        return FW_SPFS_OK;
    }
    if (b->prefetched_unread) { /* every prefetched byte overwritten unread */
        b->prefetched_unread = false;
        ++c->stats.prefetches_wasted;
    }
    return FW_SPFS_FULL;
}

bool fw_spfs_cache_readable(const fw_spfs_cache_t *c, uint32_t buf) {
    const fw_spfs_buf_t *b = &c->bufs[buf];
    switch (b->state) {
    case FW_SPFS_BUF_VALID:
    case FW_SPFS_BUF_WRITEBACK:
        return true;
    case FW_SPFS_BUF_DIRTY:
        return b->base_valid || fw_spfs_cache_full(c, buf);
    default:
        return false;
    }
}

int fw_spfs_cache_writeback_begin(fw_spfs_cache_t *c, uint32_t buf) {
    fw_spfs_buf_t *b = &c->bufs[buf];
    if (b->state != FW_SPFS_BUF_DIRTY) {
        return FW_SPFS_ESTATE;
    }
    bool full = fw_spfs_cache_full(c, buf);
    if (!full && !b->base_valid) {
        return FW_SPFS_ESTATE;
    }
    set_state(c, b, FW_SPFS_BUF_WRITEBACK);
    ++c->stats.writebacks;
    if (!full) {
        ++c->stats.partial_writebacks;
    }
    return FW_SPFS_OK;
}

int fw_spfs_cache_writeback_done(fw_spfs_cache_t *c, uint32_t buf) {
    fw_spfs_buf_t *b = &c->bufs[buf];
    if (b->state != FW_SPFS_BUF_WRITEBACK) {
        return FW_SPFS_ESTATE;
    }
    set_state(c, b, FW_SPFS_BUF_VALID);
    b->base_valid = true; /* the buffer now equals the block on disk */
    clear_written(c, buf);
    return FW_SPFS_OK;
}

uint32_t fw_spfs_cache_next_dirty(const fw_spfs_cache_t *c, uint32_t from) {
    for (uint32_t i = from; i < c->params.buffers; ++i) {
        if (c->bufs[i].state == FW_SPFS_BUF_DIRTY) {
            return i;
        }
    }
    return FW_SPFS_NONE;
}

uint32_t fw_spfs_cache_lru_flushable(const fw_spfs_cache_t *c) {
    for (uint32_t i = c->lru_head; i != FW_SPFS_NONE; i = c->bufs[i].lru_next) {
        const fw_spfs_buf_t *b = &c->bufs[i];
        if (b->pins == 0 && b->state == FW_SPFS_BUF_DIRTY &&
            (b->base_valid || fw_spfs_cache_full(c, i))) {
            return i;
        }
    }
    return FW_SPFS_NONE;
}

int fw_spfs_cache_drop(fw_spfs_cache_t *c, uint32_t buf) {
    fw_spfs_buf_t *b = &c->bufs[buf];
    if (b->pins != 0) {
        return FW_SPFS_ESTATE;
    }
    if (b->state == FW_SPFS_BUF_FREE) {
        return FW_SPFS_OK;
    }
    if (b->prefetched_unread) {
        ++c->stats.prefetches_wasted;
    }
    hash_remove(c, buf);
    set_state(c, b, FW_SPFS_BUF_FREE);
    b->prefetched_unread = false;
    b->base_valid = false;
    clear_written(c, buf);
    lru_unlink(c, buf);
    lru_push_lru(c, buf);
    return FW_SPFS_OK;
}

/* ---- prefetch ------------------------------------------------------------------- */

bool fw_spfs_cache_prefetch_candidate(const fw_spfs_cache_t *c, uint32_t disk, uint64_t block_read,
                                      uint64_t disk_block_count, uint64_t *next) {
    if (block_read + 1 >= disk_block_count ||
        fw_spfs_cache_lookup(c, disk, block_read + 1) != FW_SPFS_NONE) {
        return false;
    }
    *next = block_read + 1;
    return true;
}

uint64_t fw_spfs_cache_unread_prefetches(const fw_spfs_cache_t *c) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < c->params.buffers; ++i) {
        n += c->bufs[i].prefetched_unread;
    }
    return n;
}
