/* The transfer application (workload.kind = transfer, docs/reference.md §9): every CP holds its
 * part of a matrix in a buffer and all CPs read or write the file collectively
 * through the configured file system (fs.kind). Throughput is measured on CP 0 from
 * the end of the first barrier until every IOP has reported its I/O complete: DDIO's
 * collective request, or SPFS's SYNC after the last CP has all its replies. */
#include "fw/apps.h"
#include "fw/ddio.h"
#include "fw/msg.h"
#include "fw/param_keys.h"
#include "fw/scsi.h"
#include "fw/spfs.h"
#include "fw/transfer.h"
#include "fw/twophase.h"
#include "hw/data_pattern.h"

#include <stdio.h>
#include <string.h>

enum { BARRIER_ALL_NODES = 1, BARRIER_CPS = 2, BARRIER_GROUP_BASE = 16 };

static bool fs_is_spfs(hal_t *h) {
    return strcmp(hal_config_string(h, FW_KEY_FS_KIND), "spfs") == 0;
}

static bool fs_is_2pio(hal_t *h) {
    return strcmp(hal_config_string(h, FW_KEY_FS_KIND), "2pio") == 0;
}

/* SPFS's CP counters and the status, for the harness (docs/spfs.md). */
static void export_spfs_client(hal_t *h, const fw_spfs_client_t *client, int status) {
    const fw_spfs_client_stats_t *cs = fw_spfs_client_stats(client);
    hal_export(h, FW_SPFS_STAT_CALLS, cs->calls);
    hal_export(h, FW_SPFS_STAT_CLIENT_REQUESTS, cs->requests);
    hal_export(h, FW_SPFS_STAT_FLOW_WAITS, cs->flow_waits);
    hal_export(h, FW_SPFS_STAT_MAX_OUTSTANDING, cs->max_outstanding);
    hal_export(h, FW_SPFS_STAT_STATUS, (uint64_t)(int64_t)status);
}

static void export_twophase(hal_t *h, const fw_twophase_t *t) {
    const fw_twophase_stats_t *s = fw_twophase_stats(t);
    hal_export(h, "twophase.io_cycles", s->io_cycles);
    hal_export(h, "twophase.permute_cycles", s->permute_cycles);
    hal_export(h, "twophase.rounds", s->rounds);
    hal_export(h, "twophase.io_ranges", s->io_ranges);
    hal_export(h, "twophase.bytes_permuted", s->bytes_permuted);
    hal_export(h, "twophase.local_pieces", s->local_pieces);
    hal_export(h, "twophase.remote_pieces", s->remote_pieces);
    hal_export(h, "twophase.batches_sent", s->batches_sent);
}

/* All nodes meet once before timing starts, so every IOP's services exist before a
 * request can arrive. */
static void start_barrier(fw_msg_t *m, hal_t *h) {
    unsigned n = hal_cp_count(h) + hal_iop_count(h);
    unsigned *nodes = (unsigned *)hal_mem_alloc(h, (uint32_t)(sizeof(unsigned) * n), 8);
    for (unsigned i = 0; i < n; ++i) {
        nodes[i] = i;
    }
    fw_msg_barrier_wait(m, fw_msg_barrier_create(m, BARRIER_ALL_NODES, nodes, n));
    hal_mem_free(h, nodes);
}

/* Puts the file's contents for this CP's chunks into its buffer (the application's
 * data; not timed). */
static void fill_for_write(hal_t *h, const fw_pattern_t *p, unsigned cp, uint8_t *buf) {
    uint64_t seed = fw_transfer_data_seed(h);
    fw_pattern_chunk_iter_t it;
    fw_pattern_chunk_t c;
    fw_pattern_chunks_begin(&it, p, cp);
    while (fw_pattern_chunks_next(&it, &c)) {
        for (uint64_t i = 0; i < c.length; ++i) {
            buf[c.cp_offset + i] = hw_file_byte(seed, c.file_offset + i);
        }
    }
}

/* Node grouping (spfs.groups = G): CPs take turns in groups of G consecutive CPs.
 * Group j starts when every CP of group j-1 has all its replies: both groups meet
 * in one barrier, which group j-1 enters when done and group j before it starts. */
static void spfs_group_barriers(fw_msg_t *m, hal_t *h, unsigned cp, fw_msg_barrier_t **start,
                                fw_msg_barrier_t **end) {
    unsigned g = (unsigned)hal_config_int(h, FW_KEY_SPFS_GROUPS);
    unsigned cps = hal_cp_count(h);
    if (g == 0 || g >= cps) {
        return;
    }
    unsigned groups = (cps + g - 1) / g;
    unsigned mine = cp / g;
    unsigned *nodes = (unsigned *)hal_mem_alloc(h, (uint32_t)(sizeof(unsigned) * 2 * g), 8);
    /* The barrier between groups j-1 and j has id BARRIER_GROUP_BASE + j. */
    for (unsigned side = 0; side < 2; ++side) {
        unsigned j = mine + side; /* side 0: with the group before; 1: with the one after */
        if (j == 0 || j >= groups) {
            continue;
        }
        unsigned n = 0;
        for (unsigned k = (j - 1) * g; k < cps && k < (j + 1) * g; ++k) {
            nodes[n++] = hal_cp_node(h, k);
        }
        fw_msg_barrier_t *b = fw_msg_barrier_create(m, BARRIER_GROUP_BASE + j, nodes, n);
        if (side == 0) {
            *start = b;
        } else {
            *end = b;
        }
    }
    hal_mem_free(h, nodes);
}

void fw_transfer_cp_main(hal_t *h) {
    fw_msg_t *m = fw_msg_init(h);
    fw_transfer_req_t req;
    fw_transfer_req_from_config(h, &req);
    fw_pattern_t p;
    char msg[200];
    if (fw_transfer_pattern(&req, &p, msg, sizeof msg) != FW_PATTERN_OK) {
        hal_fail(h, msg);
    }
    unsigned cp = hal_role_index(h);
    uint64_t bytes = fw_pattern_cp_bytes(&p, cp);
    uint8_t *buf = bytes <= 0xffffffffu
                       ? (uint8_t *)hal_mem_alloc(h, (uint32_t)(bytes ? bytes : 4), 64)
                       : NULL;
    if (!buf) {
        snprintf(msg, sizeof msg,
                 "transfer: CP %u's buffer of %llu bytes does not fit in node memory "
                 "(raise machine.node_memory_kb)",
                 cp, (unsigned long long)bytes);
        hal_fail(h, msg);
    }
    if (p.is_write) {
        fill_for_write(h, &p, cp, buf);
    }
    fw_msg_set_base(m, buf, (uint32_t)bytes);
    hal_export(h, "transfer.buffer_addr", hal_mem_addr(h, buf));
    hal_export(h, "transfer.buffer_bytes", bytes);

    unsigned cps = hal_cp_count(h);
    unsigned *cp_nodes = (unsigned *)hal_mem_alloc(h, (uint32_t)(sizeof(unsigned) * cps), 8);
    for (unsigned k = 0; k < cps; ++k) {
        cp_nodes[k] = hal_cp_node(h, k);
    }
    fw_msg_barrier_t *barrier = fw_msg_barrier_create(m, BARRIER_CPS, cp_nodes, cps);
    bool spfs = fs_is_spfs(h);
    bool twophase = fs_is_2pio(h);
    fw_spfs_client_t *client = NULL;
    fw_twophase_t *tp = NULL;
    fw_msg_barrier_t *group_start = NULL, *group_end = NULL;
    if (spfs || twophase) {
        client = fw_spfs_client_init(m);
        if (!client) {
            return;
        }
    }
    if (spfs) {
        spfs_group_barriers(m, h, cp, &group_start, &group_end);
    }
    if (twophase) {
        tp = fw_twophase_init(m, client, &p, cp, barrier);
        if (!tp) {
            return;
        }
    }
    start_barrier(m, h);

    fw_msg_barrier_wait(m, barrier);
    uint64_t t_start = hal_now_cycles(h);
    int status = FW_MSG_OK;
    if (spfs) {
        if (group_start) {
            fw_msg_barrier_wait(m, group_start);
        }
        status = fw_spfs_client_run(client, &p, cp, buf);
        if (group_end) {
            fw_msg_barrier_wait(m, group_end);
        }
        fw_msg_barrier_wait(m, barrier);
        /* Every reply is in; the IOPs finish their write-behind and prefetches. */
        if (cp == 0) {
            int st = fw_spfs_sync_all(m);
            status = status != FW_MSG_OK ? status : st;
        }
        export_spfs_client(h, client, status);
    } else if (twophase) {
        /* The rounds end in a barrier of all CPs: every SPFS reply is in; the IOPs
         * finish their write-behind and prefetches (docs/reference.md §9), as for SPFS. */
        status = fw_twophase_run(tp, buf);
        if (cp == 0) {
            int st = fw_spfs_sync_all(m);
            status = status != FW_MSG_OK ? status : st;
        }
        export_spfs_client(h, client, status);
        export_twophase(h, tp);
    } else {
        if (cp == 0) {
            status = fw_ddio_collective(m, &req);
            /* A write run ends when the drives have written it (fs.flush_drives). */
            if (p.is_write && status == FW_MSG_OK) {
                status = fw_ddio_sync_all(m);
            }
        }
        fw_msg_barrier_wait(m, barrier);
    }
    uint64_t t_end = hal_now_cycles(h);
    if (cp == 0) {
        hal_export(h, "transfer.t_start_cycles", t_start);
        hal_export(h, "transfer.t_end_cycles", t_end);
        hal_export(h, "transfer.status", (uint64_t)(int64_t)status);
    }
}

void fw_transfer_iop_main(hal_t *h) {
    fw_msg_t *m = fw_msg_init(h);
    fw_scsi_t *scsi = (fw_scsi_t *)hal_mem_alloc(h, sizeof(fw_scsi_t), 8);
    if (!scsi || fw_scsi_init(scsi, h, 0) != 0) {
        hal_fail(h, "transfer: SCSI host adapter 0 unusable");
    }
    if (fs_is_spfs(h) || fs_is_2pio(h)) {
        if (!fw_spfs_iop_init(m, scsi)) {
            return;
        }
    } else if (!fw_ddio_iop_init(m, scsi)) {
        return;
    }
    start_barrier(m, h);
}
