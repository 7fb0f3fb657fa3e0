/* The simple parallel file system, SPFS (docs/reference.md §6-§7; Kotz, TOCS 1997, §4): a
 * traditional file system with a Unix-like interface, no collective or strided
 * requests, and a block cache on every IOP. docs/spfs.md.
 *
 * CP side (fw_spfs_client_*): the application asks for each contiguous chunk of its
 * part with one file-system call; the call sends one request per file block the
 * chunk touches to the block's IOP, at most spfs.outstanding (K) outstanding per
 * disk, and waits for every reply at its end. Write data travel in the request
 * (or, with spfs.memget_writes, the IOP fetches them with Memget); read data come
 * back in the reply, which the NI deposits straight into the user buffer. CPs do
 * not cache.
 *
 * IOP side (fw_spfs_iop_init): requests are served by a pool of server threads
 * ("queued requests") or by a thread created per request ("thread requests",
 * spfs.requests). Each looks its block up in the IOP's cache (fw/spfs_cache.h: LRU,
 * WriteFull write-back, installation reads, one-block prefetch on the same disk
 * after each read); misses and write-backs go on the disk's queue
 * (fw/spfs_diskq.h: C-SCAN or FCFS), which one permanent thread per local disk
 * serves, one SCSI command at a time. A SYNC request (fw_spfs_sync_all) returns
 * when the IOP's write-behind and prefetches are all done: the end of a run
 * (docs/reference.md §9).
 */
#ifndef STARFISH_FW_SPFS_H
#define STARFISH_FW_SPFS_H

#include "fw/hal.h"
#include "fw/msg.h"
#include "fw/pattern.h"
#include "fw/scsi.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Request types. READ, WRITE and WRITE_GET carry arg[0] = file block, arg[1] =
 * first byte within the block, arg[2] = bytes. WRITE's body is the data;
 * WRITE_GET's body is the 4-byte offset of the data in the CP's registered buffer
 * (spfs.memget_writes). READ's reply body is the data. SYNC has no arguments. */
#define FW_SPFS_READ_TYPE (FW_MSG_TYPE_USER + 2)
#define FW_SPFS_WRITE_TYPE (FW_MSG_TYPE_USER + 3)
#define FW_SPFS_WRITE_GET_TYPE (FW_MSG_TYPE_USER + 4)
#define FW_SPFS_SYNC_TYPE (FW_MSG_TYPE_USER + 5)

/* The statistics SPFS exports (hal_export, docs/spfs.md): the one list of their names,
 * which the firmware exports under and the simulator reads (sim/workload). */
#define FW_SPFS_STAT_CALLS "spfs.calls" /* CP side */
#define FW_SPFS_STAT_CLIENT_REQUESTS "spfs.client_requests"
#define FW_SPFS_STAT_FLOW_WAITS "spfs.flow_waits"
#define FW_SPFS_STAT_MAX_OUTSTANDING "spfs.max_outstanding"
#define FW_SPFS_STAT_STATUS "spfs.status"
#define FW_SPFS_STAT_REQUESTS "spfs.requests" /* IOP side; not a configuration key */
#define FW_SPFS_STAT_READS "spfs.reads"
#define FW_SPFS_STAT_WRITES "spfs.writes"
#define FW_SPFS_STAT_CACHE_HITS "spfs.cache_hits"
#define FW_SPFS_STAT_CACHE_MISSES "spfs.cache_misses"
#define FW_SPFS_STAT_PREFETCHES_ISSUED "spfs.prefetches_issued"
#define FW_SPFS_STAT_PREFETCHES_USED "spfs.prefetches_used"
#define FW_SPFS_STAT_PREFETCHES_WASTED "spfs.prefetches_wasted"
#define FW_SPFS_STAT_INSTALLATION_READS "spfs.installation_reads"
#define FW_SPFS_STAT_WRITEBACKS "spfs.writebacks"
#define FW_SPFS_STAT_PARTIAL_WRITEBACKS "spfs.partial_writebacks"
#define FW_SPFS_STAT_EVICTIONS "spfs.evictions"
#define FW_SPFS_STAT_BUFFER_WAITS "spfs.buffer_waits"
#define FW_SPFS_STAT_DISK_READS "spfs.disk_reads"
#define FW_SPFS_STAT_DISK_WRITES "spfs.disk_writes"
#define FW_SPFS_STAT_DISKQ_PUSHES "spfs.diskq_pushes"
#define FW_SPFS_STAT_DISKQ_DEPTH_SUM "spfs.diskq_depth_sum"
#define FW_SPFS_STAT_DISKQ_MAX_DEPTH "spfs.diskq_max_depth"

/* ---- CP side ------------------------------------------------------------------------ */

typedef struct fw_spfs_client fw_spfs_client_t;

typedef struct fw_spfs_client_stats {
    uint64_t calls;           /* file-system calls (chunks) */
    uint64_t requests;        /* block requests sent */
    uint64_t flow_waits;      /* sends that waited for a reply because K were outstanding */
    uint32_t max_outstanding; /* most requests outstanding to one disk at once */
} fw_spfs_client_stats_t;

/* thread (boot): reads spfs.outstanding, spfs.memget_writes, the cost.spfs_* of the
 * CP and the file's striping; allocates the flow-control state in node memory. */
fw_spfs_client_t *fw_spfs_client_init(fw_msg_t *m);

/* thread: this CP's part of pattern p, moved between the file and buf (the CP's
 * registered Memput/Memget base: Memget writes fetch from it by offset): one call
 * per chunk (fw/spfs_plan.h). Returns FW_MSG_OK or the first error a reply
 * reported. */
int fw_spfs_client_run(fw_spfs_client_t *c, const fw_pattern_t *p, unsigned cp, uint8_t *buf);

/* thread: one file-system call for one contiguous file range, moved between the
 * file and buf (any node memory: write data always travel in the requests, whatever
 * spfs.memget_writes says). One request per block the range touches, under the same
 * flow control as fw_spfs_client_run; returns when every reply is in. Two-phase
 * I/O's aggregators use it for their collective buffers (fw/twophase.h). */
int fw_spfs_client_range(fw_spfs_client_t *c, uint64_t file_offset, uint64_t length, uint8_t *buf,
                         bool is_write);

const fw_spfs_client_stats_t *fw_spfs_client_stats(const fw_spfs_client_t *c);

/* thread: asks every IOP to complete its write-behind and prefetches and waits
 * for all of them (call once, after every CP has all its replies). */
int fw_spfs_sync_all(fw_msg_t *m);

/* ---- IOP side ------------------------------------------------------------------------ */

typedef struct fw_spfs_iop fw_spfs_iop_t;

typedef struct fw_spfs_iop_stats {
    uint64_t requests; /* READ, WRITE and WRITE_GET requests served */
    uint64_t reads;
    uint64_t writes;
    uint64_t syncs;
    uint64_t disk_reads;   /* demand misses, prefetches and installation reads */
    uint64_t disk_writes;  /* write-backs */
    uint64_t buffer_waits; /* requests that found every buffer busy and waited */
} fw_spfs_iop_stats_t;

/* thread (boot): reads fs.*, spfs.*, the cost.spfs_* of the IOP and the file's
 * layout; allocates the cache, the disk queues and their threads; registers the
 * request services. Fails the run (hal_fail) on a configuration the IOP cannot
 * serve. At each SYNC it exports its statistics ("spfs.*", docs/spfs.md). */
fw_spfs_iop_t *fw_spfs_iop_init(fw_msg_t *m, fw_scsi_t *scsi);
const fw_spfs_iop_stats_t *fw_spfs_iop_stats(const fw_spfs_iop_t *io);

/* Cache buffers of an IOP: per_cp_disk (0 = 2 x k) x CPs x local disks. */
static inline uint64_t fw_spfs_cache_buffers(uint64_t per_cp_disk, uint64_t k, uint64_t cps,
                                             uint64_t local_disks) {
    return (per_cp_disk ? per_cp_disk : 2 * k) * cps * local_disks;
}

/* Server threads of the queued-request pool: one per cache buffer (docs/reference.md §6), but
 * no more than the requests that can be outstanding at the IOP at once (K per CP
 * per local disk, plus a SYNC): threads beyond that could never run. */
static inline uint64_t fw_spfs_server_threads(uint64_t buffers, uint64_t k, uint64_t cps,
                                              uint64_t local_disks) {
    uint64_t most = k * cps * local_disks + 1;
    return buffers < most ? buffers : most;
}

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_SPFS_H */
