#include "fw/ddio.h"
#include "fw/drive_sync.h"

#include "fw/param_keys.h"
#include "hw/data_pattern.h"

#include <stdio.h>
#include <string.h>

/* ---- planning ------------------------------------------------------------------ */

void fw_ddio_block_list(const fw_layout_t *l, uint32_t file_disk, const uint32_t *table,
                        bool presort, uint64_t rotate, fw_disk_block_t *out) {
    uint64_t n = fw_layout_disk_block_count(l, file_disk);
    fw_layout_list_disk(l, file_disk, table, out);
    if (presort) {
        fw_layout_sort_by_lba(out, (size_t)n);
    }
    fw_ddio_rotate(out, n, rotate);
}

void fw_ddio_rotate(fw_disk_block_t *out, uint64_t n, uint64_t rotate) {
    if (n == 0 || rotate % n == 0) {
        return;
    }
    rotate %= n;
    /* Rotate left in place by three reversals. */
    uint64_t spans[3][2] = {{0, rotate}, {rotate, n}, {0, n}};
    for (int s = 0; s < 3; ++s) {
        for (uint64_t i = spans[s][0], j = spans[s][1]; i + 1 < j; ++i, --j) {
            fw_disk_block_t t = out[i];
            out[i] = out[j - 1];
            out[j - 1] = t;
        }
    }
}

bool fw_ddio_use_queued(const char *mode, uint64_t record_bytes, uint32_t block_bytes) {
    if (strcmp(mode, "on") == 0) {
        return true;
    }
    if (strcmp(mode, "off") == 0) {
        return false;
    }
    return record_bytes < block_bytes;
}

/* ---- CP side ------------------------------------------------------------------ */

int fw_ddio_collective(fw_msg_t *m, const fw_transfer_req_t *req) {
    return fw_msg_request_every_iop(m, FW_DDIO_REQUEST_TYPE, req, sizeof *req,
                                    "DDIO collective request");
}

int fw_ddio_collective_range(fw_msg_t *m, const fw_ddio_range_req_t *req) {
    return fw_msg_request_every_iop(m, FW_DDIO_RANGE_REQUEST_TYPE, req, sizeof *req,
                                    "DDIO collective request");
}

int fw_ddio_sync_all(fw_msg_t *m) {
    if (hal_config_int(fw_msg_hal(m), FW_KEY_FS_FLUSH_DRIVES) == 0) {
        return FW_MSG_OK;
    }
    return fw_msg_request_every_iop(m, FW_DDIO_SYNC_TYPE, NULL, 0, "DDIO sync");
}

/* ---- range requests (pure) ---------------------------------------------------------- */

void fw_ddio_range_pieces_begin(fw_ddio_range_iter_t *it, const fw_ddio_range_req_t *req,
                                uint64_t file_offset, uint64_t length) {
    uint64_t lo = req->file_offset, hi = req->file_offset + req->length;
    uint64_t end = file_offset + length;
    it->req = req;
    it->pos = file_offset > lo ? file_offset : lo;
    it->end = end < hi ? end : hi;
}

bool fw_ddio_range_pieces_next(fw_ddio_range_iter_t *it, fw_pattern_piece_t *out) {
    const fw_ddio_range_req_t *q = it->req;
    if (it->pos >= it->end || q->record_bytes == 0 || q->cp_count == 0) {
        return false;
    }
    uint64_t rel = it->pos - q->file_offset;
    uint64_t record = rel / q->record_bytes;
    uint64_t within = rel % q->record_bytes;
    uint64_t len = q->record_bytes - within;
    if (len > it->end - it->pos) {
        len = it->end - it->pos;
    }
    out->cp = (uint32_t)((q->first_cp + record) % q->cp_count);
    out->cp_offset = (record / q->cp_count) * q->record_bytes + within;
    out->file_offset = it->pos;
    out->length = len;
    it->pos += len;
    return true;
}

/* ---- IOP side ------------------------------------------------------------------ */

typedef struct ddio_disk {
    struct fw_ddio_iop *iop;
    uint32_t target;       /* SCSI target = local disk index */
    uint32_t file_disk;    /* index in the file's striping */
    uint32_t *table;       /* layout table (NULL for contiguous) */
    uint64_t count;        /* blocks of the file on this disk */
    fw_disk_block_t *list; /* this request's order */
    uint64_t len;          /* entries of list this request moves */
    uint64_t next;         /* next unclaimed entry of list */
    uint64_t write_next;   /* ddio.write_order = list: the entry whose WRITE goes next */
    fw_scsi_cmd_t *prefetch;
    uint32_t reads_in_flight; /* buffers waiting for a READ of this disk */
    bool prefetch_issued;     /* submitted and not yet waited for */
    bool prefetch_submitting; /* a buffer thread is (re)issuing it */
} ddio_disk_t;

typedef struct ddio_buffer {
    ddio_disk_t *disk;
    uint8_t *data;
    fw_scsi_cmd_t *cmd;
    fw_group_t group;
    bool awaiting_pieces; /* its thread waits in fw_group_wait for the block's pieces */
    uint64_t entry;       /* the list entry it holds */
    bool awaiting_turn;   /* its thread waits on `turn` for the entries before its own */
    hal_sem_t turn;
} ddio_buffer_t;

struct fw_ddio_iop {
    fw_msg_t *m;
    fw_scsi_t *scsi;
    fw_drive_sync_t *drives; /* the drives' write-behind at the end of the run */
    hal_t *h;
    fw_layout_t layout;
    uint32_t block_bytes;
    uint32_t sectors_per_block;
    uint32_t disks;
    ddio_disk_t *disk;
    /* options */
    bool presort;
    bool prefetch;
    bool stagger;
    uint32_t buffers_per_disk;
    bool yield_to_ready;
    bool writes_in_list_order; /* ddio.write_order = list */
    ddio_buffer_t *bufs;       /* the request's buffers (NULL between requests) */
    uint32_t nbufs;
    char queued_mode[8];
    uint32_t plan_block_cycles;
    uint32_t block_cycles;
    uint32_t piece_cycles;
    uint32_t piece_2d_cycles;
    uint64_t file_bytes; /* workload.file_mb */
    /* the request being served: a pattern, or a range (fw_ddio_range_req_t) */
    fw_pattern_t pattern;
    bool range;
    bool is_write;
    fw_ddio_range_req_t range_req;
    bool queued;
    fw_group_t put_group; /* queued Memputs of the whole request */
    hal_sem_t finished;
    fw_ddio_stats_t stats;
};

/* An error the SCSI driver could not recover from ends the transfer, naming the
 * disk and the sector (docs/faults.md). */
_Noreturn static void fail_status(fw_ddio_iop_t *io, const char *what, uint64_t block,
                                  const fw_scsi_cmd_t *cmd, uint32_t status) {
    char where[200], msg[300];
    fw_scsi_describe(io->scsi, cmd, status, where, sizeof where);
    snprintf(msg, sizeof msg, "DDIO: %s of file block %llu failed: %s", what,
             (unsigned long long)block, where);
    hal_fail(io->h, msg);
}

/* Claims the next block of the disk's list for the buffer; false when none is left. */
static bool claim(ddio_disk_t *d, ddio_buffer_t *b, fw_disk_block_t *out) {
    if (d->next >= d->len) {
        return false;
    }
    b->entry = d->next;
    *out = d->list[d->next++];
    return true;
}

/* ddio.write_order = list: a buffer whose pieces are in waits until the WRITEs of
 * every earlier entry of its disk's list have been issued, so the drive sees the
 * list's (presorted) order whichever CPs answer first; then it passes the turn on.
 * Entries are claimed in list order, so the next entry to write is always held by
 * a buffer (or not yet claimed, and then the claimer's turn is already there).
 * The turn passes before the WRITE is submitted: the woken thread runs only once
 * this one blocks in the SCSI wait, after its submission (threads are not
 * preempted, docs/node.md). */
static void take_turn(fw_ddio_iop_t *io, ddio_buffer_t *b) {
    ddio_disk_t *d = b->disk;
    if (d->write_next != b->entry) {
        b->awaiting_turn = true;
        hal_sem_wait(io->h, &b->turn);
    }
    if (d->write_next != b->entry) {
        hal_fail(io->h, "DDIO: a buffer was given the turn of another list entry");
    }
    ++d->write_next;
    /* The disk's own buffers: serve() gives disk k buffers k * per_disk onwards. */
    ddio_buffer_t *own = io->bufs + (uint32_t)(d - io->disk) * io->buffers_per_disk;
    for (uint32_t i = 0; i < io->buffers_per_disk; ++i) {
        ddio_buffer_t *o = &own[i];
        if (o->awaiting_turn && o->entry == d->write_next) {
            o->awaiting_turn = false;
            hal_sem_post(io->h, &o->turn);
            break;
        }
    }
}

/* Is another buffer thread of this IOP woken with all its pieces in, but not yet
 * running (it then only needs the CPU briefly, to start its disk command)? */
static bool other_block_ready(const fw_ddio_iop_t *io, const ddio_buffer_t *self) {
    for (uint32_t i = 0; i < io->nbufs; ++i) {
        const ddio_buffer_t *o = &io->bufs[i];
        if (o != self && o->awaiting_pieces && o->group.outstanding == 0) {
            return true;
        }
    }
    return false;
}

/* Moves one block's pieces between the buffer and the CPs (Memput for reads,
 * Memget for writes) and waits until the buffer may be reused: until every piece
 * has arrived, except for queued Memputs, which copy the pieces into per-CP batches
 * at once (the request waits for those at its end, so batches fill across blocks). */
static void move_pieces(fw_ddio_iop_t *io, ddio_buffer_t *b, uint64_t file_block, uint64_t bytes) {
    hal_t *h = io->h;
    uint64_t start = file_block * io->block_bytes;
    bool write = io->is_write;
    fw_pattern_piece_iter_t it;
    fw_ddio_range_iter_t range_it = {0}; /* only used when io->range; GCC 12 -O3 cannot tell */
    fw_pattern_piece_t piece;
    uint32_t piece_cycles = io->piece_cycles;
    if (io->range) {
        fw_ddio_range_pieces_begin(&range_it, &io->range_req, start, bytes);
    } else {
        piece_cycles += io->pattern.dims == 2 ? io->piece_2d_cycles : 0;
        fw_pattern_pieces_begin(&it, &io->pattern, start, bytes);
    }
    while (io->range ? fw_ddio_range_pieces_next(&range_it, &piece)
                     : fw_pattern_pieces_next(&it, &piece)) {
        /* Threads are not preempted: without this, a buffer thread whose pieces are
         * all in could not start its disk write until this long loop ends. */
        if (io->yield_to_ready && other_block_ready(io, b)) {
            hal_yield(h);
        }
        hal_cycles(h, piece_cycles);
        ++io->stats.pieces;
        unsigned node = hal_cp_node(h, piece.cp);
        uint8_t *at = b->data + (piece.file_offset - start);
        uint32_t off = (uint32_t)piece.cp_offset;
        uint32_t len = (uint32_t)piece.length;
        /* Queued Memputs are waited for at the request's end (io->put_group). */
        fw_move_piece(io->m, write, io->queued, node, off, at, len,
                      !write && io->queued ? &io->put_group : &b->group);
    }
    if (!write && io->queued) {
        return;
    }
    b->awaiting_pieces = true;
    int st = fw_group_wait(io->m, &b->group);
    b->awaiting_pieces = false;
    if (st != FW_MSG_OK) {
        char msg[120];
        snprintf(msg, sizeof msg, "DDIO: moving file block %llu to or from the CPs failed (%d)",
                 (unsigned long long)file_block, st);
        hal_fail(h, msg);
    }
}

/* Bytes of a file block the request moves: the request's file (a pattern) or the
 * whole file (a range; pieces outside the range are not moved). */
static uint64_t block_extent(const fw_ddio_iop_t *io, uint64_t file_block) {
    uint64_t file = io->range ? io->file_bytes : io->pattern.file_bytes;
    uint64_t bytes = file - file_block * io->block_bytes;
    return bytes > io->block_bytes ? io->block_bytes : bytes;
}

/* A range request covers the block only partly: its other bytes must be read first. */
static bool needs_partial_read(const fw_ddio_iop_t *io, uint64_t file_block, uint64_t bytes) {
    if (!io->range) {
        return false;
    }
    uint64_t start = file_block * io->block_bytes;
    const fw_ddio_range_req_t *q = &io->range_req;
    return start < q->file_offset || start + bytes > q->file_offset + q->length;
}

/* The buffer's state in a traced run's waveform (hal_probe). */
static void show_buffer(hal_t *h, const ddio_buffer_t *b, hal_ddio_buffer_state_t state) {
    hal_probe(h, HAL_PROBE_DDIO_BUFFER, (uint32_t)(b - b->disk->iop->bufs), state);
}

static void buffer_thread(hal_t *h, void *arg) {
    ddio_buffer_t *b = (ddio_buffer_t *)arg;
    ddio_disk_t *d = b->disk;
    fw_ddio_iop_t *io = d->iop;
    fw_disk_block_t blk;
    while (claim(d, b, &blk)) {
        show_buffer(h, b, HAL_DDIO_BUFFER_DISK);
        hal_cycles(h, io->block_cycles);
        uint64_t file_block = fw_layout_file_block(&io->layout, d->file_disk, blk.local_index);
        uint64_t bytes = block_extent(io, file_block);
        uint16_t sectors = (uint16_t)((bytes + HW_SECTOR_BYTES - 1) / HW_SECTOR_BYTES);
        uint32_t addr = hal_mem_addr(h, b->data);
        if (io->is_write) {
            if (needs_partial_read(io, file_block, bytes)) {
                uint32_t st = fw_scsi_do10(io->scsi, b->cmd, d->target, HW_SCSI_OP_READ10, 0,
                                           blk.lba, sectors, addr);
                if (st != HW_SCSI_STATUS_GOOD) {
                    fail_status(io, "disk read before a partial write", file_block, b->cmd, st);
                }
                ++io->stats.partial_reads;
            }
            show_buffer(h, b, HAL_DDIO_BUFFER_PIECES);
            move_pieces(io, b, file_block, bytes);
            show_buffer(h, b, HAL_DDIO_BUFFER_DISK);
            if (io->writes_in_list_order) {
                take_turn(io, b);
            }
            uint32_t st = fw_scsi_do10(io->scsi, b->cmd, d->target, HW_SCSI_OP_WRITE10, 0, blk.lba,
                                       sectors, addr);
            if (st != HW_SCSI_STATUS_GOOD) {
                fail_status(io, "disk write", file_block, b->cmd, st);
            }
            fw_drive_sync_note_write(io->drives, d->target);
        } else {
            ++d->reads_in_flight;
            uint32_t st = fw_scsi_do10(io->scsi, b->cmd, d->target, HW_SCSI_OP_READ10, 0, blk.lba,
                                       sectors, addr);
            if (st != HW_SCSI_STATUS_GOOD) {
                fail_status(io, "disk read", file_block, b->cmd, st);
            }
            --d->reads_in_flight;
            /* No other buffer is reading from the drive, so every buffer is busy with
             * the CPs and the drive would go idle: start it on the next block now, so
             * the block is in the drive's cache when a buffer frees up. */
            if (io->prefetch && d->reads_in_flight == 0 && d->next < d->len && !d->prefetch->busy &&
                !d->prefetch_submitting) {
                d->prefetch_submitting = true; /* the other buffer threads keep out */
                if (d->prefetch_issued) {
                    fw_scsi_wait(io->scsi, d->prefetch); /* already complete: consume it */
                }
                fw_disk_block_t ahead = d->list[d->next];
                fw_scsi_submit10(io->scsi, d->prefetch, d->target, HW_SCSI_OP_PREFETCH10,
                                 HW_SCSI_CDB1_IMMED, ahead.lba, (uint16_t)io->sectors_per_block, 0);
                d->prefetch_issued = true;
                d->prefetch_submitting = false;
                ++io->stats.prefetches;
            }
            show_buffer(h, b, HAL_DDIO_BUFFER_PIECES);
            move_pieces(io, b, file_block, bytes);
        }
        show_buffer(h, b, HAL_DDIO_BUFFER_IDLE);
        ++io->stats.blocks;
        io->stats.bytes += bytes;
    }
    hal_sem_post(h, &io->finished);
}

/* Each local disk's list of the blocks the request moves: all of the disk's file
 * blocks for a pattern, those that overlap the range for a range request (in the
 * same order, so presorting applies to them alike). */
static void plan_lists(fw_ddio_iop_t *io) {
    hal_t *h = io->h;
    unsigned iop = hal_role_index(h);
    for (uint32_t k = 0; k < io->disks; ++k) {
        ddio_disk_t *d = &io->disk[k];
        d->next = 0;
        d->write_next = 0;
        if (!io->range) {
            hal_cycles(h, (uint32_t)(io->plan_block_cycles * d->count));
            uint64_t rotate =
                io->stagger ? fw_ddio_stagger_rotation(iop, hal_iop_count(h), d->count) : 0;
            fw_ddio_block_list(&io->layout, d->file_disk, d->table, io->presort, rotate, d->list);
            d->len = d->count;
            continue;
        }
        fw_ddio_block_list(&io->layout, d->file_disk, d->table, io->presort, 0, d->list);
        uint64_t first = io->range_req.file_offset / io->block_bytes;
        uint64_t end = (io->range_req.file_offset + io->range_req.length + io->block_bytes - 1) /
                       io->block_bytes;
        uint64_t kept = 0;
        for (uint64_t e = 0; e < d->count; ++e) {
            uint64_t b = fw_layout_file_block(&io->layout, d->file_disk, d->list[e].local_index);
            if (b >= first && b < end) {
                d->list[kept++] = d->list[e];
            }
        }
        d->len = kept;
        hal_cycles(h, (uint32_t)(io->plan_block_cycles * kept));
        if (io->stagger) {
            fw_ddio_rotate(d->list, kept, fw_ddio_stagger_rotation(iop, hal_iop_count(h), kept));
        }
    }
}

/* Plans, runs the buffer threads, waits and replies. */
static void serve(fw_msg_t *m, const fw_request_t *req, fw_ddio_iop_t *io) {
    hal_t *h = io->h;
    ++io->stats.requests;
    uint32_t nbuf = io->disks * io->buffers_per_disk;
    ddio_buffer_t *bufs = (ddio_buffer_t *)hal_mem_alloc(h, (uint32_t)(sizeof *bufs * nbuf), 8);
    if (!bufs) {
        hal_fail(h, "DDIO: node memory exhausted (buffer table)");
    }
    plan_lists(io);
    hal_sem_init(h, &io->finished, 0);
    hal_sem_name(h, &io->finished, "DDIO: buffer threads finished", 0);
    fw_group_init(m, &io->put_group);
    hal_sem_name(h, &io->put_group.sem, "DDIO: queued Memputs delivered", 0);
    for (uint32_t i = 0; i < nbuf; ++i) {
        ddio_buffer_t *b = &bufs[i];
        b->disk = &io->disk[i / io->buffers_per_disk];
        b->data = (uint8_t *)hal_mem_alloc(h, io->block_bytes, 64);
        b->cmd = fw_scsi_cmd_alloc(io->scsi);
        if (!b->data || !b->cmd) {
            hal_fail(h, "DDIO: node memory exhausted (block buffers)");
        }
        fw_group_init(m, &b->group);
        hal_sem_name(h, &b->group.sem, "DDIO buffer: its pieces moved to or from the CPs", 0);
        b->awaiting_pieces = false;
        b->awaiting_turn = false;
        hal_sem_init(h, &b->turn, 0);
        hal_sem_name(h, &b->turn, "DDIO buffer: the list's earlier WRITEs issued", 0);
    }
    io->bufs = bufs;
    io->nbufs = nbuf;
    for (uint32_t i = 0; i < nbuf; ++i) {
        if (hal_thread_spawn(h, buffer_thread, &bufs[i], "ddio-buffer") != 0) {
            hal_fail(h, "DDIO: cannot create a buffer thread (machine.node_thread_limit)");
        }
    }
    for (uint32_t i = 0; i < nbuf; ++i) {
        hal_sem_wait(h, &io->finished);
    }
    if (fw_group_wait(m, &io->put_group) != FW_MSG_OK) {
        hal_fail(h, "DDIO: delivering queued Memputs to the CPs failed");
    }
    for (uint32_t k = 0; k < io->disks; ++k) {
        /* The last prefetch must be complete before the request is. */
        if (io->disk[k].prefetch_issued) {
            fw_scsi_wait(io->scsi, io->disk[k].prefetch);
            io->disk[k].prefetch_issued = false;
        }
    }
    io->bufs = NULL;
    io->nbufs = 0;
    for (uint32_t i = 0; i < nbuf; ++i) {
        hal_mem_free(h, bufs[i].cmd);
        hal_mem_free(h, bufs[i].data);
    }
    hal_mem_free(h, bufs);
    hal_export(h, FW_DDIO_STAT_REQUESTS, io->stats.requests);
    hal_export(h, FW_DDIO_STAT_BLOCKS, io->stats.blocks);
    hal_export(h, FW_DDIO_STAT_PIECES, io->stats.pieces);
    hal_export(h, FW_DDIO_STAT_PREFETCHES, io->stats.prefetches);
    hal_export(h, FW_DDIO_STAT_BYTES, io->stats.bytes);
    if (io->range) {
        hal_export(h, FW_DDIO_STAT_PARTIAL_READS, io->stats.partial_reads);
    }
    fw_msg_reply(m, req, FW_MSG_OK, NULL, NULL, 0);
}

/* The collective request of a pattern. */
static void ddio_service(fw_msg_t *m, const fw_request_t *req, void *arg) {
    fw_ddio_iop_t *io = (fw_ddio_iop_t *)arg;
    hal_t *h = io->h;
    fw_transfer_req_t tr;
    char msg[200];
    if (!req->body || req->body_bytes != sizeof tr) {
        hal_fail(h, "DDIO: malformed collective request");
    }
    memcpy(&tr, req->body, sizeof tr);
    if (fw_transfer_pattern(&tr, &io->pattern, msg, sizeof msg) != FW_PATTERN_OK) {
        hal_fail(h, msg);
    }
    if (io->pattern.file_bytes > (uint64_t)io->layout.params.file_blocks * io->block_bytes) {
        hal_fail(h, "DDIO: the request is larger than the file");
    }
    io->range = false;
    io->is_write = io->pattern.is_write;
    io->queued = fw_ddio_use_queued(io->queued_mode, io->pattern.record_bytes, io->block_bytes);
    serve(m, req, io);
}

/* The collective request of a range of cyclically dealt records. */
static void ddio_range_service(fw_msg_t *m, const fw_request_t *req, void *arg) {
    fw_ddio_iop_t *io = (fw_ddio_iop_t *)arg;
    hal_t *h = io->h;
    fw_ddio_range_req_t *q = &io->range_req;
    if (!req->body || req->body_bytes != sizeof *q) {
        hal_fail(h, "DDIO: malformed range request");
    }
    memcpy(q, req->body, sizeof *q);
    if (q->record_bytes == 0 || q->cp_count == 0 || q->cp_count > hal_cp_count(h) ||
        q->file_offset + q->length > io->file_bytes) {
        hal_fail(h, "DDIO: a range request outside the file or with no records or CPs");
    }
    io->range = true;
    io->is_write = q->is_write != 0;
    io->queued = fw_ddio_use_queued(io->queued_mode, q->record_bytes, io->block_bytes);
    serve(m, req, io);
}

/* The end of a run (fw_ddio_sync_all): the drives' write-behind on the media. */
static void ddio_sync_service(fw_msg_t *m, const fw_request_t *req, void *arg) {
    fw_ddio_iop_t *io = (fw_ddio_iop_t *)arg;
    if (!fw_drive_sync_flush_or_fail(io->drives, io->h, "DDIO")) {
        return;
    }
    fw_msg_reply(m, req, FW_MSG_OK, NULL, NULL, 0);
}

fw_ddio_iop_t *fw_ddio_iop_init(fw_msg_t *m, fw_scsi_t *scsi) {
    hal_t *h = fw_msg_hal(m);
    fw_ddio_iop_t *io = (fw_ddio_iop_t *)hal_mem_alloc(h, sizeof *io, 8);
    char msg[200];
    if (!io) {
        hal_fail(h, "DDIO: node memory exhausted");
    }
    memset(io, 0, sizeof *io);
    io->m = m;
    io->scsi = scsi;
    io->h = h;
    if (fw_transfer_layout(h, &io->layout, msg, sizeof msg) != FW_LAYOUT_OK) {
        hal_fail(h, msg);
    }
    io->block_bytes = io->layout.params.block_bytes;
    io->sectors_per_block = io->layout.sectors_per_block;
    io->presort = hal_config_int(h, FW_KEY_FS_PRESORT) != 0;
    io->prefetch = hal_config_int(h, FW_KEY_DDIO_PREFETCH) != 0;
    io->stagger = hal_config_int(h, FW_KEY_DDIO_STAGGER) != 0;
    io->buffers_per_disk = (uint32_t)hal_config_int(h, FW_KEY_DDIO_BUFFERS_PER_DISK);
    io->yield_to_ready = hal_config_int(h, FW_KEY_DDIO_YIELD_TO_READY) != 0;
    io->writes_in_list_order = strcmp(hal_config_string(h, FW_KEY_DDIO_WRITE_ORDER), "list") == 0;
    strncpy(io->queued_mode, hal_config_string(h, FW_KEY_DDIO_QUEUED), sizeof io->queued_mode - 1);
    io->plan_block_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_DDIO_PLAN_BLOCK);
    io->block_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_DDIO_BLOCK);
    io->piece_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_DDIO_PIECE);
    io->piece_2d_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_DDIO_PIECE_2D);
    io->disks = hal_disks_per_iop(h);
    if (scsi->targets < io->disks) {
        hal_fail(h, "DDIO: fewer SCSI targets than machine.disks_per_iop");
    }
    io->disk = (ddio_disk_t *)hal_mem_alloc(h, (uint32_t)(sizeof *io->disk * io->disks), 8);
    if (!io->disk) {
        hal_fail(h, "DDIO: node memory exhausted");
    }
    unsigned iop = hal_role_index(h);
    for (uint32_t k = 0; k < io->disks; ++k) {
        ddio_disk_t *d = &io->disk[k];
        d->iop = io;
        d->target = k;
        d->file_disk = fw_file_disk(iop, k, hal_iop_count(h));
        d->count = fw_layout_disk_block_count(&io->layout, d->file_disk);
        size_t table_bytes = fw_layout_table_bytes(&io->layout, d->file_disk);
        d->table = NULL;
        if (table_bytes) {
            d->table = (uint32_t *)hal_mem_alloc(h, (uint32_t)table_bytes, 8);
            if (!d->table) {
                hal_fail(h, "DDIO: node memory exhausted (layout table)");
            }
            fw_layout_build_table(&io->layout, d->file_disk, d->table);
        }
        d->list = (fw_disk_block_t *)hal_mem_alloc(
            h, (uint32_t)(sizeof(fw_disk_block_t) * (d->count ? d->count : 1)), 8);
        d->prefetch = fw_scsi_cmd_alloc(scsi);
        if (!d->list || !d->prefetch) {
            hal_fail(h, "DDIO: node memory exhausted (block list)");
        }
    }
    io->file_bytes = (uint64_t)(hal_config_real(h, FW_KEY_WORKLOAD_FILE_MB) * 1048576.0 + 0.5);
    io->drives = fw_drive_sync_init(h, scsi, io->disks);
    fw_msg_register_service(m, FW_DDIO_REQUEST_TYPE, ddio_service, io);
    fw_msg_register_service(m, FW_DDIO_RANGE_REQUEST_TYPE, ddio_range_service, io);
    fw_msg_register_service(m, FW_DDIO_SYNC_TYPE, ddio_sync_service, io);
    return io;
}

const fw_ddio_stats_t *fw_ddio_iop_stats(const fw_ddio_iop_t *d) {
    return &d->stats;
}
