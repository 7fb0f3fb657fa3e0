/* SPFS per-disk request queue (docs/reference.md §2, §7; Kotz, TOCS 1997, §4): the IOP's
 * request threads push disk requests, the disk's thread pops the next one when the
 * previous request completes. Two disciplines:
 *
 *   FCFS   arrival order.
 *   CSCAN  Cyclical SCAN (Seltzer, Chen and Ousterhout 1990): two queues ordered by
 *          LBA. A request at or ahead of the head position joins "ahead", one behind
 *          it joins "behind" (served on the next pass). The disk takes the lowest LBA
 *          of "ahead"; when "ahead" is empty the queues swap and the head sweeps up
 *          again from the lowest LBA waiting.
 * Requests with equal LBAs leave in arrival order in both disciplines.
 *
 * The head position is the LBA of the request popped last (0 at first). pop_next
 * also takes the caller's idea of the head (e.g. the end of the last transfer): if
 * it is past some "ahead" requests, those move to "behind" first, so the sweep never
 * goes backwards. Pass the last popped LBA (or anything lower) to leave it unchanged.
 *
 * Pure C11: no HAL calls, no allocation, no global state. Capacity is fixed at init
 * and the caller provides fw_spfs_diskq_bytes() bytes of 8-byte-aligned memory; an
 * SPFS disk queue holding one request per cache buffer of the disk never fills.
 * Push and pop cost O(log depth) (binary heaps) for CSCAN, O(1) for FCFS.
 */
#ifndef STARFISH_FW_SPFS_DISKQ_H
#define STARFISH_FW_SPFS_DISKQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fw_spfs_diskq_discipline {
    FW_SPFS_DISKQ_FCFS = 0,
    FW_SPFS_DISKQ_CSCAN = 1
} fw_spfs_diskq_discipline_t;

/* A queued request: its first LBA and an opaque word for the caller (a buffer
 * index, a pointer cast to uintptr_t). */
typedef struct fw_spfs_diskq_req {
    uint32_t lba;
    uint64_t cookie;
} fw_spfs_diskq_req_t;

typedef struct fw_spfs_diskq_entry {
    uint64_t seq; /* arrival number: FIFO among equal LBAs */
    uint64_t cookie;
    uint32_t lba;
} fw_spfs_diskq_entry_t;

typedef struct fw_spfs_diskq_stats {
    uint64_t pushes;
    uint64_t pops;
    uint64_t refused;   /* pushes onto a full queue */
    uint64_t depth_sum; /* sum over pushes of the requests already waiting */
    uint32_t max_depth; /* most requests waiting at once */
    uint64_t sweeps;    /* CSCAN: passes started from the low end (queue swaps) */
} fw_spfs_diskq_stats_t;

/* Read-only for callers. FCFS uses `ahead` as a ring from ring_start; CSCAN keeps
 * `ahead` and `behind` as binary min-heaps on (lba, seq). */
typedef struct fw_spfs_diskq {
    fw_spfs_diskq_discipline_t discipline;
    uint32_t capacity;
    uint32_t depth;
    uint32_t head_lba;
    uint32_t ring_start;
    uint32_t ahead_count, behind_count;
    fw_spfs_diskq_entry_t *ahead, *behind;
    uint64_t next_seq;
    fw_spfs_diskq_stats_t stats;
} fw_spfs_diskq_t;

/* "fcfs" / "cscan" <-> discipline; parse returns false for anything else. */
bool fw_spfs_diskq_discipline_parse(const char *name, fw_spfs_diskq_discipline_t *d);
const char *fw_spfs_diskq_discipline_name(fw_spfs_diskq_discipline_t d);

/* Bytes of memory for a queue of `capacity` requests; 0 for capacity 0 or an
 * unknown discipline. */
size_t fw_spfs_diskq_bytes(uint32_t capacity, fw_spfs_diskq_discipline_t d);

/* Lays an empty queue out in mem (8-byte aligned, mem_bytes >= fw_spfs_diskq_bytes).
 * Returns it (at mem) or NULL for invalid arguments or too little memory. */
fw_spfs_diskq_t *fw_spfs_diskq_init(void *mem, size_t mem_bytes, uint32_t capacity,
                                    fw_spfs_diskq_discipline_t d);

/* Queues a request; false (counted in stats.refused, nothing queued) when full. */
bool fw_spfs_diskq_push(fw_spfs_diskq_t *q, uint32_t lba, uint64_t cookie);

/* The request the disk serves next, removed from the queue; false when empty.
 * head_lba: where the head is now (see above; ignored by FCFS). */
bool fw_spfs_diskq_pop_next(fw_spfs_diskq_t *q, uint32_t head_lba, fw_spfs_diskq_req_t *out);

static inline uint32_t fw_spfs_diskq_depth(const fw_spfs_diskq_t *q) {
    return q->depth;
}
static inline const fw_spfs_diskq_stats_t *fw_spfs_diskq_stats(const fw_spfs_diskq_t *q) {
    return &q->stats;
}
/* Mean number of requests an arriving request found waiting (0 before any push). */
double fw_spfs_diskq_mean_depth(const fw_spfs_diskq_t *q);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_SPFS_DISKQ_H */
