/* SPFS IOP server: request service, block cache, disk queues and disk threads.
 * See fw/include/fw/spfs.h and docs/spfs.md. */
#include "fw/param_keys.h"
#include "fw/spfs.h"

#include "fw/drive_sync.h"
#include "fw/layout.h"
#include "fw/spfs_cache.h"
#include "fw/spfs_diskq.h"
#include "fw/spfs_plan.h"
#include "fw/transfer.h"
#include "hw/data_pattern.h"

#include <stdio.h>
#include <string.h>

/* Disk-queue cookies: buffer index << 1 | is_write. */
#define COOKIE_WRITE 1u

typedef struct spfs_disk {
    struct fw_spfs_iop *io;
    uint32_t target;    /* SCSI target = local disk index */
    uint32_t file_disk; /* index in the file's striping */
    uint32_t *table;    /* layout table (NULL for contiguous) */
    uint64_t count;     /* blocks of the file on this disk */
    uint8_t *has_data;  /* per local block: the disk holds file data there */
    fw_spfs_diskq_t *q;
    hal_sem_t work; /* one unit per queued request */
    fw_scsi_cmd_t *cmd;
    /* End of the last command issued, in the disk queue's key: where the head is
     * once it completes, which is when the next request is chosen. */
    uint32_t head_lba;
    bool busy;
    /* spfs.pick_next = completion: the request the completion interrupt took off
     * the queue for the disk thread to issue next. */
    bool has_next;
    fw_spfs_diskq_req_t next;
} spfs_disk_t;

/* Threads waiting for one buffer to leave FILLING or WRITEBACK. */
typedef struct buf_wait {
    hal_sem_t sem;
    uint32_t waiters;
} buf_wait_t;

struct fw_spfs_iop {
    fw_msg_t *m;
    fw_scsi_t *scsi;
    hal_t *h;
    fw_layout_t layout;
    uint64_t file_bytes;
    uint32_t block_bytes;
    uint32_t disks;
    spfs_disk_t *disk;
    fw_spfs_cache_t *cache;
    fw_drive_sync_t *drives; /* the drives' write-behind at the end of the run */
    uint8_t *data;           /* buffer i at data + i * block_bytes */
    buf_wait_t *waits;
    hal_sem_t buffer_freed; /* threads that found every buffer busy */
    uint32_t buffer_waiters;
    hal_sem_t idle; /* SYNC waiting for the disks to go quiet */
    uint32_t idle_waiters;
    /* options */
    bool prefetch;
    bool prefetch_after_reply; /* spfs.prefetch_when = reply */
    bool queue_by_physical;    /* spfs.disk_queue_key = physical */
    bool file_exists;          /* before the run the file holds data (read patterns) */
    /* costs */
    uint32_t request_cycles;
    uint32_t lookup_cycles;
    uint32_t lru_cycles;
    uint32_t write_mark_cycles;
    uint32_t diskq_insert_cycles;
    uint32_t disk_request_cycles;
    uint32_t copy_word_cycles;
    fw_spfs_iop_stats_t stats;
};

static uint8_t *buf_data(const fw_spfs_iop_t *io, uint32_t b) {
    return io->data + (size_t)b * io->block_bytes;
}

static void wake_all(hal_t *h, hal_sem_t *s, uint32_t *waiters) {
    while (*waiters > 0) {
        --*waiters;
        hal_sem_post(h, s);
    }
}

/* A buffer may have become reusable. */
static void buffers_changed(fw_spfs_iop_t *io) {
    wake_all(io->h, &io->buffer_freed, &io->buffer_waiters);
}

static void unpin(fw_spfs_iop_t *io, uint32_t b) {
    fw_spfs_cache_unpin(io->cache, b);
    if (!fw_spfs_cache_busy(io->cache, b)) {
        buffers_changed(io);
    }
}

/* Waits until buffer b leaves FILLING / WRITEBACK (the disk thread wakes us). */
static void wait_buffer(fw_spfs_iop_t *io, uint32_t b) {
    ++io->waits[b].waiters;
    hal_sem_wait(io->h, &io->waits[b].sem);
}

static void queue_disk(fw_spfs_iop_t *io, uint32_t local_disk, uint32_t b, bool write) {
    spfs_disk_t *d = &io->disk[local_disk];
    const fw_spfs_buf_t *bb = fw_spfs_cache_buf(io->cache, b);
    hal_cycles(io->h, io->diskq_insert_cycles);
    uint32_t key = io->queue_by_physical ? fw_layout_lba(&io->layout, d->table, bb->block)
                                         : fw_layout_logical_lba(&io->layout, bb->block);
    if (!fw_spfs_diskq_push(d->q, key, ((uint64_t)b << 1) | (write ? COOKIE_WRITE : 0))) {
        hal_fail(io->h, "SPFS: disk queue full (sized for every cache buffer)");
        return;
    }
    hal_sem_post(io->h, &d->work);
}

/* Every buffer is busy: flush the least recently used full-enough dirty buffer if
 * there is one, then wait until some buffer can be reused. */
static void make_room(fw_spfs_iop_t *io) {
    ++io->stats.buffer_waits;
    uint32_t f = fw_spfs_cache_lru_flushable(io->cache);
    if (f != FW_SPFS_NONE && fw_spfs_cache_writeback_begin(io->cache, f) == FW_SPFS_OK) {
        queue_disk(io, fw_spfs_cache_buf(io->cache, f)->disk, f, true);
    }
    ++io->buffer_waiters;
    hal_sem_wait(io->h, &io->buffer_freed);
}

static uint32_t disk_block_len(const fw_spfs_iop_t *io, const spfs_disk_t *d, uint64_t block) {
    uint64_t fb = fw_layout_file_block(&io->layout, d->file_disk, block);
    return fw_spfs_block_len(io->file_bytes, io->block_bytes, fb);
}

/* After a read of `block`: one block ahead on the same disk, if not cached. */
static void maybe_prefetch(fw_spfs_iop_t *io, uint32_t local_disk, uint64_t block) {
    if (!io->prefetch) {
        return;
    }
    spfs_disk_t *d = &io->disk[local_disk];
    uint64_t next;
    hal_cycles(io->h, io->lookup_cycles);
    if (!fw_spfs_cache_prefetch_candidate(io->cache, local_disk, block, d->count, &next)) {
        return;
    }
    uint32_t b;
    if (fw_spfs_cache_alloc_read(io->cache, local_disk, next, disk_block_len(io, d, next), true,
                                 &b) != FW_SPFS_OK) {
        return; /* no free buffer: no prefetch */
    }
    hal_cycles(io->h, io->lru_cycles);
    queue_disk(io, local_disk, b, false);
}

/* The cache's occupancy in a traced run's waveform (hal_probe). */
static void show_cache(void *arg, const fw_spfs_cache_t *c) {
    hal_t *h = (hal_t *)arg;
    uint32_t free_bufs = fw_spfs_cache_count(c, FW_SPFS_BUF_FREE);
    hal_probe(h, HAL_PROBE_CACHE_USED, 0, (int64_t)(c->params.buffers - free_bufs));
    hal_probe(h, HAL_PROBE_CACHE_DIRTY, 0,
              (int64_t)(fw_spfs_cache_count(c, FW_SPFS_BUF_DIRTY) +
                        fw_spfs_cache_count(c, FW_SPFS_BUF_WRITEBACK)));
    hal_probe(h, HAL_PROBE_CACHE_FILLING, 0, (int64_t)fw_spfs_cache_count(c, FW_SPFS_BUF_FILLING));
}

typedef struct req_args {
    uint64_t file_block;
    uint32_t offset, length;
    uint32_t local_disk;
    uint64_t block; /* on the local disk */
    uint32_t block_len;
} req_args_t;

static bool decode(fw_spfs_iop_t *io, const fw_request_t *req, req_args_t *a) {
    hal_t *h = io->h;
    a->file_block = req->hdr.arg[0];
    a->offset = req->hdr.arg[1];
    a->length = req->hdr.arg[2];
    fw_spfs_block_home_t home = fw_spfs_block_home(&io->layout, hal_iop_count(h), a->file_block);
    a->local_disk = home.local_disk;
    a->block = home.disk_block;
    a->block_len = fw_spfs_block_len(io->file_bytes, io->block_bytes, a->file_block);
    if (home.iop != hal_role_index(h) || a->local_disk >= io->disks || a->length == 0 ||
        a->offset > a->block_len || a->length > a->block_len - a->offset) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "SPFS: request from node %u for %u bytes at %u of file block %llu, which this "
                 "IOP does not hold",
                 req->src, a->length, a->offset, (unsigned long long)a->file_block);
        hal_fail(h, msg);
        return false;
    }
    return true;
}

static void serve_read(fw_msg_t *m, const fw_request_t *req, void *arg) {
    fw_spfs_iop_t *io = (fw_spfs_iop_t *)arg;
    fw_spfs_cache_t *c = io->cache;
    req_args_t a;
    hal_cycles(io->h, io->request_cycles);
    if (!decode(io, req, &a)) {
        return;
    }
    ++io->stats.requests;
    ++io->stats.reads;
    bool prefetched = false;
    uint32_t b;
    hal_cycles(io->h, io->lookup_cycles);
    for (;;) {
        b = fw_spfs_cache_lookup(c, a.local_disk, a.block);
        if (b == FW_SPFS_NONE) {
            int rc = fw_spfs_cache_alloc_read(c, a.local_disk, a.block, a.block_len, false, &b);
            if (rc == FW_SPFS_ENOBUF) {
                make_room(io);
                continue;
            }
            hal_cycles(io->h, io->lru_cycles);
            queue_disk(io, a.local_disk, b, false);
        } else {
            fw_spfs_cache_hit(c, b, true);
            hal_cycles(io->h, io->lru_cycles);
        }
        fw_spfs_cache_pin(c, b);
        /* The prefetch decision is made as the read is seen, before any waiting:
         * the next block then joins the disk queue while the head is still short
         * of it (behind a demand read or a prefetch being filled). */
        if (!prefetched && !io->prefetch_after_reply) {
            maybe_prefetch(io, a.local_disk, a.block);
            prefetched = true;
        }
        if (fw_spfs_cache_readable(c, b)) {
            break;
        }
        /* Being filled (a miss, a prefetch or an installation read): wait for it. */
        wait_buffer(io, b);
        if (fw_spfs_cache_readable(c, b)) {
            break;
        }
        unpin(io, b);
    }
    fw_msg_reply(m, req, FW_MSG_OK, NULL, buf_data(io, b) + a.offset, a.length);
    unpin(io, b);
    if (io->prefetch_after_reply) {
        maybe_prefetch(io, a.local_disk, a.block);
    }
}

static void serve_write(fw_msg_t *m, const fw_request_t *req, void *arg, bool memget) {
    fw_spfs_iop_t *io = (fw_spfs_iop_t *)arg;
    fw_spfs_cache_t *c = io->cache;
    hal_t *h = io->h;
    req_args_t a;
    hal_cycles(h, io->request_cycles);
    if (!decode(io, req, &a)) {
        return;
    }
    uint32_t want = memget ? (uint32_t)sizeof(uint32_t) : a.length;
    if (req->body == NULL || req->body_bytes != want) {
        hal_fail(h, "SPFS: write request without its data");
        return;
    }
    ++io->stats.requests;
    ++io->stats.writes;
    spfs_disk_t *d = &io->disk[a.local_disk];
    uint32_t b;
    hal_cycles(h, io->lookup_cycles);
    for (;;) {
        b = fw_spfs_cache_lookup(c, a.local_disk, a.block);
        if (b == FW_SPFS_NONE) {
            bool install = false;
            int rc = fw_spfs_cache_alloc_write(c, a.local_disk, a.block, a.block_len, a.offset,
                                               a.length, d->has_data[a.block] != 0, &b, &install);
            if (rc == FW_SPFS_ENOBUF) {
                make_room(io);
                continue;
            }
            hal_cycles(h, io->lru_cycles);
            fw_spfs_cache_pin(c, b);
            if (install) {
                /* The block's other bytes hold file data that must survive. */
                queue_disk(io, a.local_disk, b, false);
                wait_buffer(io, b);
            }
        } else {
            fw_spfs_cache_hit(c, b, false);
            hal_cycles(h, io->lru_cycles);
            fw_spfs_cache_pin(c, b);
        }
        fw_spfs_buf_state_t st = fw_spfs_cache_state(c, b);
        if (st == FW_SPFS_BUF_VALID || st == FW_SPFS_BUF_DIRTY) {
            break;
        }
        /* Being filled or written back: wait, then look again. */
        wait_buffer(io, b);
        unpin(io, b);
    }
    uint8_t *dst = buf_data(io, b) + a.offset;
    if (memget) {
        uint32_t cp_offset;
        memcpy(&cp_offset, req->body, sizeof cp_offset);
        if (fw_memget(m, req->src, cp_offset, dst, a.length) != FW_MSG_OK) {
            hal_fail(h, "SPFS: fetching write data from the CP (Memget) failed");
            return;
        }
    } else {
        /* From the request buffer (the thread's stack) into the cache buffer. */
        memcpy(dst, req->body, a.length);
        hal_cycles(h, io->copy_word_cycles * ((a.length + 3) / 4));
    }
    hal_cycles(h, io->write_mark_cycles);
    int rc = fw_spfs_cache_write(c, b, a.offset, a.length);
    if (rc == FW_SPFS_FULL) {
        if (fw_spfs_cache_writeback_begin(c, b) == FW_SPFS_OK) {
            queue_disk(io, a.local_disk, b, true);
        }
    } else if (rc != FW_SPFS_OK) {
        char msg[160];
        snprintf(msg, sizeof msg, "SPFS: cache write of file block %llu refused (%s)",
                 (unsigned long long)a.file_block, fw_spfs_status_name(rc));
        hal_fail(h, msg);
        return;
    }
    unpin(io, b);
    fw_msg_reply(m, req, FW_MSG_OK, NULL, NULL, 0);
}

static void serve_write_data(fw_msg_t *m, const fw_request_t *req, void *arg) {
    serve_write(m, req, arg, false);
}

static void serve_write_get(fw_msg_t *m, const fw_request_t *req, void *arg) {
    serve_write(m, req, arg, true);
}

static bool disks_idle(const fw_spfs_iop_t *io) {
    for (uint32_t k = 0; k < io->disks; ++k) {
        const spfs_disk_t *d = &io->disk[k];
        if (d->busy || d->has_next || fw_spfs_diskq_depth(d->q) > 0) {
            return false;
        }
    }
    return true;
}

static void export_stats(fw_spfs_iop_t *io) {
    hal_t *h = io->h;
    const fw_spfs_cache_stats_t *cs = fw_spfs_cache_stats(io->cache);
    uint64_t pushes = 0, depth_sum = 0, max_depth = 0;
    for (uint32_t k = 0; k < io->disks; ++k) {
        const fw_spfs_diskq_stats_t *qs = fw_spfs_diskq_stats(io->disk[k].q);
        pushes += qs->pushes;
        depth_sum += qs->depth_sum;
        if (qs->max_depth > max_depth) {
            max_depth = qs->max_depth;
        }
    }
    hal_export(h, FW_SPFS_STAT_REQUESTS, io->stats.requests);
    hal_export(h, FW_SPFS_STAT_READS, io->stats.reads);
    hal_export(h, FW_SPFS_STAT_WRITES, io->stats.writes);
    hal_export(h, FW_SPFS_STAT_CACHE_HITS, cs->hits);
    hal_export(h, FW_SPFS_STAT_CACHE_MISSES, cs->misses);
    hal_export(h, FW_SPFS_STAT_PREFETCHES_ISSUED, cs->prefetches_issued);
    hal_export(h, FW_SPFS_STAT_PREFETCHES_USED, cs->prefetches_used);
    /* A prefetch nobody read by the end of the run was wasted too. */
    hal_export(h, FW_SPFS_STAT_PREFETCHES_WASTED,
               cs->prefetches_wasted + fw_spfs_cache_unread_prefetches(io->cache));
    hal_export(h, FW_SPFS_STAT_INSTALLATION_READS, cs->installation_reads);
    hal_export(h, FW_SPFS_STAT_WRITEBACKS, cs->writebacks);
    hal_export(h, FW_SPFS_STAT_PARTIAL_WRITEBACKS, cs->partial_writebacks);
    hal_export(h, FW_SPFS_STAT_EVICTIONS, cs->evictions);
    hal_export(h, FW_SPFS_STAT_BUFFER_WAITS, io->stats.buffer_waits);
    hal_export(h, FW_SPFS_STAT_DISK_READS, io->stats.disk_reads);
    hal_export(h, FW_SPFS_STAT_DISK_WRITES, io->stats.disk_writes);
    hal_export(h, FW_SPFS_STAT_DISKQ_PUSHES, pushes);
    hal_export(h, FW_SPFS_STAT_DISKQ_DEPTH_SUM, depth_sum);
    hal_export(h, FW_SPFS_STAT_DISKQ_MAX_DEPTH, max_depth);
}

/* An error the SCSI driver could not recover from ends the transfer, naming the
 * disk and the sector (docs/faults.md). */
static void fail_status(fw_spfs_iop_t *io, const char *what, uint32_t lba, const fw_scsi_cmd_t *cmd,
                        uint32_t status) {
    char where[200], msg[300];
    fw_scsi_describe(io->scsi, cmd, status, where, sizeof where);
    snprintf(msg, sizeof msg, "SPFS: %s at LBA %u failed: %s", what, lba, where);
    hal_fail(io->h, msg);
}

/* SYNC: write back whatever is still dirty, wait until every disk is quiet and (with
 * fs.flush_drives) the drives' write-behind is on the media. */
static void serve_sync(fw_msg_t *m, const fw_request_t *req, void *arg) {
    fw_spfs_iop_t *io = (fw_spfs_iop_t *)arg;
    hal_cycles(io->h, io->request_cycles);
    ++io->stats.syncs;
    for (uint32_t b = fw_spfs_cache_next_dirty(io->cache, 0); b != FW_SPFS_NONE;
         b = fw_spfs_cache_next_dirty(io->cache, b + 1)) {
        if (fw_spfs_cache_buf(io->cache, b)->pins == 0 &&
            fw_spfs_cache_writeback_begin(io->cache, b) == FW_SPFS_OK) {
            queue_disk(io, fw_spfs_cache_buf(io->cache, b)->disk, b, true);
        }
    }
    while (!disks_idle(io)) {
        ++io->idle_waiters;
        hal_sem_wait(io->h, &io->idle);
    }
    if (!fw_drive_sync_flush_or_fail(io->drives, io->h, "SPFS")) {
        return;
    }
    export_stats(io);
    fw_msg_reply(m, req, FW_MSG_OK, NULL, NULL, 0);
}

/* spfs.pick_next = completion: the SCSI completion interrupt of the disk's command
 * withdraws the next request (C-SCAN from the end of the finished transfer), so the
 * choice sees the queue as it is at completion, not as it is once the disk thread
 * gets the CPU behind the ready server threads. The disk thread's
 * cost.spfs_disk_request_cycles still covers taking it. Interrupts are taken only
 * at HAL synchronisation points (docs/node.md), and queue_disk and the disk thread
 * make none inside a queue operation, so the queue needs no masking here. */
static void pick_next_at_completion(hal_t *h, void *arg) {
    (void)h;
    spfs_disk_t *d = (spfs_disk_t *)arg;
    if (!d->has_next && fw_spfs_diskq_pop_next(d->q, d->head_lba, &d->next)) {
        d->has_next = true;
    }
}

/* One per local disk, for the whole run: serves the disk's queue one command at a
 * time. Each queued request posted `work` once, whichever path withdraws it. */
static void disk_thread(hal_t *h, void *arg) {
    spfs_disk_t *d = (spfs_disk_t *)arg;
    fw_spfs_iop_t *io = d->io;
    fw_spfs_cache_t *c = io->cache;
    for (;;) {
        hal_sem_wait(h, &d->work);
        fw_spfs_diskq_req_t r;
        if (d->has_next) {
            r = d->next;
            d->has_next = false;
        } else if (!fw_spfs_diskq_pop_next(d->q, d->head_lba, &r)) {
            continue;
        }
        hal_cycles(h, io->disk_request_cycles);
        d->busy = true;
        uint32_t b = (uint32_t)(r.cookie >> 1);
        bool write = (r.cookie & COOKIE_WRITE) != 0;
        const fw_spfs_buf_t *bb = fw_spfs_cache_buf(c, b);
        uint64_t block = bb->block;
        uint16_t sectors = (uint16_t)((bb->block_len + HW_SECTOR_BYTES - 1) / HW_SECTOR_BYTES);
        uint32_t addr = hal_mem_addr(h, buf_data(io, b));
        uint32_t lba = fw_layout_lba(&io->layout, d->table, block);
        d->head_lba = r.lba + sectors;
        if (write) {
            ++io->stats.disk_writes;
            uint32_t st = fw_scsi_do10(io->scsi, d->cmd, d->target, HW_SCSI_OP_WRITE10, 0, lba,
                                       sectors, addr);
            if (st != HW_SCSI_STATUS_GOOD) {
                fail_status(io, "disk write", lba, d->cmd, st);
                return;
            }
            d->has_data[block] = 1;
            fw_drive_sync_note_write(io->drives, d->target);
            fw_spfs_cache_writeback_done(c, b);
        } else {
            ++io->stats.disk_reads;
            uint32_t st =
                fw_scsi_do10(io->scsi, d->cmd, d->target, HW_SCSI_OP_READ10, 0, lba, sectors, addr);
            if (st != HW_SCSI_STATUS_GOOD) {
                fail_status(io, "disk read", lba, d->cmd, st);
                return;
            }
            fw_spfs_cache_fill_done(c, b);
        }
        d->busy = false;
        wake_all(h, &io->waits[b].sem, &io->waits[b].waiters);
        if (!fw_spfs_cache_busy(c, b)) {
            buffers_changed(io);
        }
        if (io->idle_waiters > 0 && disks_idle(io)) {
            wake_all(h, &io->idle, &io->idle_waiters);
        }
    }
}

static uint32_t cost(hal_t *h, const char *key) {
    return (uint32_t)hal_config_int(h, key);
}

fw_spfs_iop_t *fw_spfs_iop_init(fw_msg_t *m, fw_scsi_t *scsi) {
    hal_t *h = fw_msg_hal(m);
    char msg[200];
    fw_spfs_iop_t *io = (fw_spfs_iop_t *)hal_mem_alloc(h, sizeof *io, 8);
    if (!io) {
        hal_fail(h, "SPFS: node memory exhausted");
        return NULL;
    }
    memset(io, 0, sizeof *io);
    io->m = m;
    io->scsi = scsi;
    io->h = h;
    if (fw_transfer_layout(h, &io->layout, msg, sizeof msg) != FW_LAYOUT_OK) {
        hal_fail(h, msg);
        return NULL;
    }
    fw_transfer_req_t tr;
    fw_transfer_req_from_config(h, &tr);
    fw_pattern_t pattern;
    if (fw_transfer_pattern(&tr, &pattern, msg, sizeof msg) != FW_PATTERN_OK) {
        hal_fail(h, msg);
        return NULL;
    }
    /* The file's metadata: a read pattern reads an existing file, a write pattern
     * creates it anew (so whole-file writes need no installation reads). */
    io->file_exists = !pattern.is_write;
    io->file_bytes = tr.file_bytes;
    io->block_bytes = io->layout.params.block_bytes;
    io->disks = hal_disks_per_iop(h);
    io->prefetch = hal_config_int(h, FW_KEY_SPFS_PREFETCH) != 0;
    io->prefetch_after_reply =
        strcmp(hal_config_string(h, FW_KEY_SPFS_PREFETCH_WHEN), "reply") == 0;
    io->queue_by_physical =
        strcmp(hal_config_string(h, FW_KEY_SPFS_DISK_QUEUE_KEY), "physical") == 0;
    io->request_cycles = cost(h, FW_KEY_COST_SPFS_REQUEST);
    io->lookup_cycles = cost(h, FW_KEY_COST_SPFS_CACHE_LOOKUP);
    io->lru_cycles = cost(h, FW_KEY_COST_SPFS_LRU_UPDATE);
    io->write_mark_cycles = cost(h, FW_KEY_COST_SPFS_WRITE_MARK);
    io->diskq_insert_cycles = cost(h, FW_KEY_COST_SPFS_DISKQ_INSERT);
    io->disk_request_cycles = cost(h, FW_KEY_COST_SPFS_DISK_REQUEST);
    io->copy_word_cycles = cost(h, FW_KEY_COST_COPY_WORD);
    uint32_t k = (uint32_t)hal_config_int(h, FW_KEY_SPFS_OUTSTANDING);
    uint32_t cps = hal_cp_count(h);
    bool thread_requests = strcmp(hal_config_string(h, FW_KEY_SPFS_REQUESTS), "thread") == 0;
    bool pick_at_completion =
        strcmp(hal_config_string(h, FW_KEY_SPFS_PICK_NEXT), "completion") == 0;
    fw_spfs_diskq_discipline_t discipline;
    if (!fw_spfs_diskq_discipline_parse(hal_config_string(h, FW_KEY_SPFS_DISK_QUEUE),
                                        &discipline)) {
        hal_fail(h, "SPFS: spfs.disk_queue is neither cscan nor fcfs");
        return NULL;
    }
    if (scsi->targets < io->disks) {
        hal_fail(h, "SPFS: fewer SCSI targets than machine.disks_per_iop");
        return NULL;
    }
    uint64_t nbuf = fw_spfs_cache_buffers(
        (uint64_t)hal_config_int(h, FW_KEY_SPFS_CACHE_BUFFERS_PER_CP_DISK), k, cps, io->disks);

    /* The cache: bookkeeping and the buffers themselves, in node memory. */
    fw_spfs_cache_params_t cp;
    cp.buffers = (uint32_t)nbuf;
    cp.disks = io->disks;
    cp.block_bytes = io->block_bytes;
    cp.granule_bytes = fw_spfs_cache_granule(tr.record_bytes, io->block_bytes);
    size_t cache_bytes = fw_spfs_cache_bytes(&cp);
    void *cache_mem = cache_bytes ? hal_mem_alloc(h, (uint32_t)cache_bytes, 8) : NULL;
    io->data = nbuf * io->block_bytes <= 0xffffffffu
                   ? (uint8_t *)hal_mem_alloc(h, (uint32_t)(nbuf * io->block_bytes), 64)
                   : NULL;
    io->waits = (buf_wait_t *)hal_mem_alloc(h, (uint32_t)(sizeof(buf_wait_t) * nbuf), 8);
    if (!cache_mem || !io->data || !io->waits) {
        snprintf(msg, sizeof msg,
                 "SPFS: node memory exhausted allocating %llu cache buffers "
                 "(spfs.cache_buffers_per_cp_disk, machine.node_memory_kb)",
                 (unsigned long long)nbuf);
        hal_fail(h, msg);
        return NULL;
    }
    io->cache = fw_spfs_cache_init(cache_mem, cache_bytes, &cp);
    io->drives = fw_drive_sync_init(h, scsi, io->disks);
    if (!io->drives) {
        return NULL;
    }
    if (hal_observed(h)) {
        fw_spfs_cache_observe(io->cache, show_cache, h);
    }
    for (uint64_t i = 0; i < nbuf; ++i) {
        hal_sem_init(h, &io->waits[i].sem, 0);
        hal_sem_name(h, &io->waits[i].sem, "SPFS cache buffer: its disk I/O", 0);
        io->waits[i].waiters = 0;
    }
    hal_sem_init(h, &io->buffer_freed, 0);
    hal_sem_name(h, &io->buffer_freed, "SPFS cache: a buffer to free up", 0);
    hal_sem_init(h, &io->idle, 0);
    hal_sem_name(h, &io->idle, "SPFS sync: the disks to go idle", 0);

    /* Per local disk: layout table, data bitmap, queue, command, thread. */
    io->disk = (spfs_disk_t *)hal_mem_alloc(h, (uint32_t)(sizeof *io->disk * io->disks), 8);
    if (!io->disk) {
        hal_fail(h, "SPFS: node memory exhausted");
        return NULL;
    }
    memset(io->disk, 0, sizeof *io->disk * io->disks);
    unsigned iop = hal_role_index(h);
    size_t q_bytes = fw_spfs_diskq_bytes((uint32_t)nbuf, discipline);
    for (uint32_t i = 0; i < io->disks; ++i) {
        spfs_disk_t *d = &io->disk[i];
        d->io = io;
        d->target = i;
        d->file_disk = fw_file_disk(iop, i, hal_iop_count(h));
        d->count = fw_layout_disk_block_count(&io->layout, d->file_disk);
        size_t table_bytes = fw_layout_table_bytes(&io->layout, d->file_disk);
        if (table_bytes) {
            d->table = (uint32_t *)hal_mem_alloc(h, (uint32_t)table_bytes, 8);
            if (!d->table) {
                hal_fail(h, "SPFS: node memory exhausted (layout table)");
                return NULL;
            }
            fw_layout_build_table(&io->layout, d->file_disk, d->table);
        }
        d->has_data = (uint8_t *)hal_mem_alloc(h, (uint32_t)(d->count ? d->count : 1), 8);
        void *q_mem = hal_mem_alloc(h, (uint32_t)q_bytes, 8);
        d->cmd = fw_scsi_cmd_alloc(scsi);
        if (!d->has_data || !q_mem || !d->cmd) {
            hal_fail(h, "SPFS: node memory exhausted (disk state)");
            return NULL;
        }
        if (pick_at_completion) {
            d->cmd->on_done = pick_next_at_completion;
            d->cmd->on_done_arg = d;
        }
        memset(d->has_data, io->file_exists ? 1 : 0, d->count ? d->count : 1);
        d->q = fw_spfs_diskq_init(q_mem, q_bytes, (uint32_t)nbuf, discipline);
        hal_sem_init(h, &d->work, 0);
        hal_sem_name(h, &d->work, "SPFS disk queue: requests", 1);
        if (hal_thread_spawn(h, disk_thread, d, "spfs-disk") != 0) {
            hal_fail(h, "SPFS: cannot create a disk thread (machine.node_thread_limit)");
            return NULL;
        }
    }

    if (thread_requests) {
        fw_msg_register_thread_service(m, FW_SPFS_READ_TYPE, serve_read, io);
        fw_msg_register_thread_service(m, FW_SPFS_WRITE_TYPE, serve_write_data, io);
        fw_msg_register_thread_service(m, FW_SPFS_WRITE_GET_TYPE, serve_write_get, io);
        fw_msg_register_thread_service(m, FW_SPFS_SYNC_TYPE, serve_sync, io);
    } else {
        fw_msg_set_server_threads(m, (uint32_t)fw_spfs_server_threads(nbuf, k, cps, io->disks));
        fw_msg_register_service(m, FW_SPFS_READ_TYPE, serve_read, io);
        fw_msg_register_service(m, FW_SPFS_WRITE_TYPE, serve_write_data, io);
        fw_msg_register_service(m, FW_SPFS_WRITE_GET_TYPE, serve_write_get, io);
        fw_msg_register_service(m, FW_SPFS_SYNC_TYPE, serve_sync, io);
    }
    return io;
}

const fw_spfs_iop_stats_t *fw_spfs_iop_stats(const fw_spfs_iop_t *io) {
    return &io->stats;
}
