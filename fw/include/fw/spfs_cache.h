/* SPFS IOP block cache, bookkeeping only (docs/reference.md §2, §6; Kotz, TOCS 1997, §4):
 * which block each of N one-block buffers holds, in what state, in LRU order, and
 * which of its bytes have been written. The data bytes themselves live wherever the
 * caller keeps buffer i (e.g. base + i * block_bytes); waiting for a fill or a
 * write-back, disk queues and messages are the caller's (the IOP threads).
 *
 * Policy (the paper's): LRU replacement; one-block prefetch on the same disk after
 * each read (fw_spfs_cache_prefetch_candidate); WriteFull write-back: a buffer is
 * written to disk once every byte of it has been written, in whatever order.
 *
 * Buffer states:
 *   FREE       holds nothing;
 *   FILLING    a disk read (miss, prefetch or installation read) is in progress:
 *              readers and writers wait for fw_spfs_cache_fill_done();
 *   VALID      holds the block's contents, clean;
 *   DIRTY      written in part (or in full, awaiting write-back);
 *   WRITEBACK  queued for or in write-back to disk.
 * A buffer is busy (never chosen as a victim) when pinned, FILLING, DIRTY or in
 * WRITEBACK: only FREE and unpinned VALID buffers can be reused.
 *
 * Written bytes are tracked in a bitmap per buffer with one bit per granule of
 * granule_bytes (a power of two dividing block_bytes, chosen by the caller, usually
 * fw_spfs_cache_granule(record_bytes, block_bytes): 8 for 8-byte records, a whole
 * block for 8 KB records). Writes must start on a granule and end on one or at the
 * block's end; a byte written twice is counted once, so WriteFull detection is exact
 * for overlapping and out-of-order writes. With granule 1 any write is accepted.
 *
 * Lookup by (local disk, disk block) is an open hash with chaining through the
 * buffers (O(1) expected); LRU is a doubly linked list through the buffers; victim
 * search walks it from the LRU end past busy buffers.
 *
 * Pure C11: no HAL calls, no allocation, no global state. The caller provides
 * fw_spfs_cache_bytes() bytes of 8-byte-aligned memory (node memory on the IOP).
 */
#ifndef STARFISH_FW_SPFS_CACHE_H
#define STARFISH_FW_SPFS_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FW_SPFS_NONE UINT32_MAX /* "no buffer" */

typedef enum fw_spfs_status {
    FW_SPFS_OK = 0,
    FW_SPFS_FULL = 1,   /* fw_spfs_cache_write: the buffer is now full; queue its write-back */
    FW_SPFS_ENOBUF = 2, /* every buffer is busy */
    FW_SPFS_EEXIST = 3, /* the block already has a buffer */
    FW_SPFS_ERANGE = 4, /* disk, block length or byte range out of range */
    FW_SPFS_EALIGN = 5, /* write not aligned to the granule */
    FW_SPFS_ESTATE = 6  /* operation not allowed in the buffer's state */
} fw_spfs_status_t;

typedef enum fw_spfs_buf_state {
    FW_SPFS_BUF_FREE = 0,
    FW_SPFS_BUF_FILLING = 1,
    FW_SPFS_BUF_VALID = 2,
    FW_SPFS_BUF_DIRTY = 3,
    FW_SPFS_BUF_WRITEBACK = 4
} fw_spfs_buf_state_t;

typedef struct fw_spfs_cache_params {
    uint32_t buffers;       /* N one-block buffers (>= 1) */
    uint32_t disks;         /* local disks: valid disk numbers are 0 … disks-1 */
    uint32_t block_bytes;   /* file-system block */
    uint32_t granule_bytes; /* written-byte tracking unit: power of two dividing block_bytes */
} fw_spfs_cache_params_t;

/* Counters. Every prefetch issued ends up used (a read request found it), wasted
 * (evicted, dropped or entirely overwritten before any read) or still unread
 * (fw_spfs_cache_unread_prefetches). hits/misses count read and write requests. */
typedef struct fw_spfs_cache_stats {
    uint64_t hits;   /* request found its block (possibly still FILLING) */
    uint64_t misses; /* request allocated a buffer for its block */
    uint64_t prefetches_issued;
    uint64_t prefetches_used;
    uint64_t prefetches_wasted;
    uint64_t installation_reads; /* partial writes to uncached blocks holding file data */
    uint64_t evictions;          /* a VALID buffer reused for another block */
    uint64_t writebacks;         /* write-backs begun */
    uint64_t partial_writebacks; /* of which the buffer was not full (forced flushes) */
    uint64_t no_buffer;          /* allocations refused because every buffer was busy */
} fw_spfs_cache_stats_t;

/* One buffer's bookkeeping. Read-only for callers (use fw_spfs_cache_buf). */
typedef struct fw_spfs_buf {
    uint64_t block;            /* disk block (local block index on the disk) */
    uint32_t disk;             /* local disk */
    uint32_t state;            /* fw_spfs_buf_state_t */
    uint32_t block_len;        /* bytes of the block that belong to the file */
    uint32_t written_granules; /* distinct granules written since the last write-back */
    uint32_t pins;
    uint32_t lru_prev, lru_next; /* toward LRU / toward MRU; FW_SPFS_NONE at the ends */
    uint32_t hash_next;
    bool prefetched_unread; /* filled by a prefetch and no read has used it yet */
    bool base_valid;        /* the bytes not written hold the block's contents (read from
                               disk, or the block held no file data), so it may be read
                               or written back before it is full */
} fw_spfs_buf_t;

struct fw_spfs_cache;
/* Called after every buffer state change (tracing: the counts of the states). It
 * must not call back into the cache. */
typedef void (*fw_spfs_cache_observer_t)(void *arg, const struct fw_spfs_cache *c);

typedef struct fw_spfs_cache {
    fw_spfs_cache_params_t params;
    uint32_t granules_per_block;
    uint32_t words_per_buffer; /* 64-bit bitmap words */
    uint32_t bucket_shift;     /* 64 - log2(buckets) */
    uint32_t buckets;
    uint32_t lru_head, lru_tail; /* least and most recently used */
    fw_spfs_buf_t *bufs;
    uint32_t *bucket_heads;
    uint64_t *written; /* words_per_buffer words per buffer */
    fw_spfs_cache_stats_t stats;
    uint32_t in_state[5]; /* buffers in each fw_spfs_buf_state_t */
    fw_spfs_cache_observer_t observer;
    void *observer_arg;
} fw_spfs_cache_t;

/* The usual granule: the largest power of two dividing both the record size and the
 * block (every write in the paper's patterns is whole records), at most the block. */
uint32_t fw_spfs_cache_granule(uint64_t record_bytes, uint32_t block_bytes);

/* Bytes of memory fw_spfs_cache_init needs; 0 for invalid parameters. */
size_t fw_spfs_cache_bytes(const fw_spfs_cache_params_t *p);

/* Lays the cache out in mem (8-byte aligned, mem_bytes >= fw_spfs_cache_bytes(p)),
 * every buffer FREE. Returns the cache (at mem) or NULL for invalid parameters or
 * too little memory. */
fw_spfs_cache_t *fw_spfs_cache_init(void *mem, size_t mem_bytes, const fw_spfs_cache_params_t *p);

static inline const fw_spfs_buf_t *fw_spfs_cache_buf(const fw_spfs_cache_t *c, uint32_t buf) {
    return &c->bufs[buf];
}
static inline fw_spfs_buf_state_t fw_spfs_cache_state(const fw_spfs_cache_t *c, uint32_t buf) {
    return (fw_spfs_buf_state_t)c->bufs[buf].state;
}
/* Sets (or clears, with NULL) the function told of every state change. */
void fw_spfs_cache_observe(fw_spfs_cache_t *c, fw_spfs_cache_observer_t fn, void *arg);

/* Buffers in state s (kept as states change: O(1)). */
static inline uint32_t fw_spfs_cache_count(const fw_spfs_cache_t *c, fw_spfs_buf_state_t s) {
    return c->in_state[s];
}
static inline const fw_spfs_cache_stats_t *fw_spfs_cache_stats(const fw_spfs_cache_t *c) {
    return &c->stats;
}
const char *fw_spfs_buf_state_name(fw_spfs_buf_state_t s);
const char *fw_spfs_status_name(int status);

/* Buffer holding (disk, block) in any state but FREE, or FW_SPFS_NONE. No side
 * effects (no statistics, no LRU change). */
uint32_t fw_spfs_cache_lookup(const fw_spfs_cache_t *c, uint32_t disk, uint64_t block);

/* A request found its block in buf: counts a hit and makes buf most recently used;
 * a read of a prefetched buffer counts the prefetch as used. */
void fw_spfs_cache_hit(fw_spfs_cache_t *c, uint32_t buf, bool is_read);

/* Moves buf to the most recently used end. */
void fw_spfs_cache_touch(fw_spfs_cache_t *c, uint32_t buf);

/* Pins keep a buffer from being reused while a thread waits on it or copies from or
 * into it (a reply's DMA, say). unpin returns FW_SPFS_ESTATE if not pinned. */
void fw_spfs_cache_pin(fw_spfs_cache_t *c, uint32_t buf);
int fw_spfs_cache_unpin(fw_spfs_cache_t *c, uint32_t buf);

static inline bool fw_spfs_cache_busy(const fw_spfs_cache_t *c, uint32_t buf) {
    const fw_spfs_buf_t *b = &c->bufs[buf];
    return b->pins != 0 || (b->state != FW_SPFS_BUF_FREE && b->state != FW_SPFS_BUF_VALID);
}

/* The least recently used buffer that is not busy, or FW_SPFS_NONE. No side effects. */
uint32_t fw_spfs_cache_victim(const fw_spfs_cache_t *c);

/* A read miss (prefetch false) or a prefetch (true) of (disk, block), block_len of
 * whose bytes belong to the file: takes the LRU victim, leaves it FILLING and most
 * recently used, and sets *buf. The caller queues the disk read and calls
 * fw_spfs_cache_fill_done when it completes. Returns FW_SPFS_OK, FW_SPFS_ENOBUF
 * (counted in no_buffer; nothing else changes), FW_SPFS_EEXIST or FW_SPFS_ERANGE. */
int fw_spfs_cache_alloc_read(fw_spfs_cache_t *c, uint32_t disk, uint64_t block, uint32_t block_len,
                             bool prefetch, uint32_t *buf);

/* Does a write of [offset, offset+len) to a block with block_len file bytes, not in
 * the cache, need the block read first? Yes when the write leaves some of the
 * block's bytes unwritten and those bytes hold file data (false for a block of a
 * file being newly written): they must survive the block's write-back. */
bool fw_spfs_installation_read_needed(uint32_t block_len, uint32_t offset, uint32_t len,
                                      bool block_holds_file_data);

/* A write miss: takes the LRU victim for (disk, block). If the write
 * [offset, offset+len) needs an installation read (see above), the buffer is left
 * FILLING and *installation_read is set: queue the read, wait for fill_done, then
 * fw_spfs_cache_write. Otherwise the buffer is left DIRTY with nothing written yet:
 * write at once. Returns as fw_spfs_cache_alloc_read. */
int fw_spfs_cache_alloc_write(fw_spfs_cache_t *c, uint32_t disk, uint64_t block, uint32_t block_len,
                              uint32_t offset, uint32_t len, bool block_holds_file_data,
                              uint32_t *buf, bool *installation_read);

/* The disk read into buf finished: FILLING -> VALID. FW_SPFS_ESTATE otherwise. */
int fw_spfs_cache_fill_done(fw_spfs_cache_t *c, uint32_t buf);

/* Records a write of [offset, offset+len) into buf (VALID or DIRTY; it becomes
 * DIRTY). Returns FW_SPFS_FULL when every byte of the block has now been written
 * (queue the write-back: fw_spfs_cache_writeback_begin), FW_SPFS_OK when not yet,
 * or FW_SPFS_ERANGE / FW_SPFS_EALIGN / FW_SPFS_ESTATE with nothing changed. A FULL
 * buffer whose prefetched data no read used counts a wasted prefetch. */
int fw_spfs_cache_write(fw_spfs_cache_t *c, uint32_t buf, uint32_t offset, uint32_t len);

/* Has every byte of buf's block been written since its last write-back? */
bool fw_spfs_cache_full(const fw_spfs_cache_t *c, uint32_t buf);

/* Can buf's data be sent to a reader? (VALID, WRITEBACK, or DIRTY and either full or
 * with its unwritten bytes valid.) */
bool fw_spfs_cache_readable(const fw_spfs_cache_t *c, uint32_t buf);

/* DIRTY -> WRITEBACK. Allowed when the buffer is full, or (a forced flush, e.g. at
 * the end of a run or when no clean buffer is left) when its unwritten bytes are
 * valid; FW_SPFS_ESTATE otherwise. */
int fw_spfs_cache_writeback_begin(fw_spfs_cache_t *c, uint32_t buf);

/* The write-back finished: WRITEBACK -> VALID (clean, nothing written). */
int fw_spfs_cache_writeback_done(fw_spfs_cache_t *c, uint32_t buf);

/* The first DIRTY buffer at index >= from (for flushing at the end of a run), or
 * FW_SPFS_NONE. */
uint32_t fw_spfs_cache_next_dirty(const fw_spfs_cache_t *c, uint32_t from);

/* The least recently used unpinned DIRTY buffer that may be written back now, or
 * FW_SPFS_NONE: the buffer to flush when fw_spfs_cache_victim finds none. */
uint32_t fw_spfs_cache_lru_flushable(const fw_spfs_cache_t *c);

/* Forgets buf's block (e.g. after a failed disk read): -> FREE, least recently used.
 * An unread prefetch counts as wasted. FW_SPFS_ESTATE if pinned. */
int fw_spfs_cache_drop(fw_spfs_cache_t *c, uint32_t buf);

/* Prefetch rule: after a read of disk block `block_read` of a local disk that holds
 * disk_block_count blocks of the file, the next block of the same disk is
 * prefetched if it exists and is not cached. Returns true and sets *next if so. */
bool fw_spfs_cache_prefetch_candidate(const fw_spfs_cache_t *c, uint32_t disk, uint64_t block_read,
                                      uint64_t disk_block_count, uint64_t *next);

/* Buffers still holding a prefetch that no read has used. */
uint64_t fw_spfs_cache_unread_prefetches(const fw_spfs_cache_t *c);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_SPFS_CACHE_H */
