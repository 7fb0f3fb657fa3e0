/* The out-of-core LU decomposition (workload.kind = lu, docs/lu.md): the program of
 * Kotz's HPDC 1995 paper, Figure 2, on real float data in node memory. Every CP
 * reads its part of each slab, takes the multipliers of the pivot column from the
 * CP that owns it, updates, and writes the slab back; the last cols_in_mem columns
 * are finished in memory. LU_read/LU_write are a seek+read (write) per column through
 * SPFS, or a barrier and one collective DDIO range request for the combined slab.
 * The clock runs from the first barrier to the barrier after the final sync. */
#include "fw/apps.h"
#include "fw/ddio.h"
#include "fw/lu.h"
#include "fw/msg.h"
#include "fw/param_keys.h"
#include "fw/scsi.h"
#include "fw/spfs.h"

#include <stdio.h>
#include <string.h>

enum { LU_BARRIER_ALL_NODES = 1, LU_BARRIER_CPS = 2 };

typedef struct lu_cp {
    hal_t *h;
    fw_msg_t *m;
    fw_lu_shape_t shape;
    unsigned cp;
    bool ddio;
    fw_spfs_client_t *spfs;
    fw_msg_barrier_t *barrier; /* all CPs */
    fw_group_t broadcast;      /* the Memputs of one pivot's multipliers */
    unsigned *cp_nodes;
    /* Node memory registered as the Memput/Memget base: the slab (SLAB_COLS columns)
     * then two multiplier buffers, used by pivots of alternate parity. */
    float *slab;
    float *mult[2];
    uint32_t mult_offset[2]; /* byte offsets of the multiplier buffers in the base */
    uint32_t flop_cycles;
    uint32_t element_cycles;
    int status;
    /* Where the CP's time goes (docs/lu.md, "Time breakdown"), in cycles: the charged
     * arithmetic; LU_read and LU_write in all (DDIO: of which io_barrier at the
     * barrier before the collective, the rest waiting for the collective); the owner's
     * copying and Memputting of multipliers and every CP's broadcast barrier; the
     * final sync with its barriers. */
    uint64_t compute_cycles, read_cycles, write_cycles, io_barrier_cycles;
    uint64_t broadcast_send_cycles, broadcast_barrier_cycles, sync_cycles;
    uint64_t flops;
} lu_cp_t;

static bool fs_is_ddio(hal_t *h) {
    return strcmp(hal_config_string(h, FW_KEY_FS_KIND), "ddio") == 0;
}

static void lu_barrier_all_nodes(fw_msg_t *m, hal_t *h) {
    unsigned n = hal_cp_count(h) + hal_iop_count(h);
    unsigned *nodes = (unsigned *)hal_mem_alloc(h, (uint32_t)(sizeof(unsigned) * n), 8);
    if (!nodes) {
        hal_fail(h, "lu: node memory exhausted (barrier members)");
    }
    for (unsigned i = 0; i < n; ++i) {
        nodes[i] = i;
    }
    fw_msg_barrier_wait(m, fw_msg_barrier_create(m, LU_BARRIER_ALL_NODES, nodes, n));
    hal_mem_free(h, nodes);
}

static void note_status(lu_cp_t *c, int st) {
    if (c->status == FW_MSG_OK) {
        c->status = st;
    }
}

/* LU_read / LU_write of the slab starting at column `start`. */
static void slab_io(lu_cp_t *c, uint32_t start, bool write) {
    uint64_t t0 = hal_now_cycles(c->h);
    uint64_t col_bytes = fw_lu_col_bytes(&c->shape);
    if (c->ddio) {
        /* Collective: everybody meets, CP 0 asks the IOPs for the combined slab, and
         * everybody meets again once it is in memory (or on disk). */
        fw_msg_barrier_wait(c->m, c->barrier);
        c->io_barrier_cycles += hal_now_cycles(c->h) - t0;
        if (c->cp == 0) {
            fw_ddio_range_req_t q;
            memset(&q, 0, sizeof q);
            q.file_offset = start * col_bytes;
            q.length = fw_lu_slab_width(&c->shape, start) * col_bytes;
            q.record_bytes = col_bytes;
            q.cp_count = c->shape.cps;
            q.first_cp = fw_lu_owner(&c->shape, start);
            q.is_write = write;
            note_status(c, fw_ddio_collective_range(c->m, &q));
        }
        fw_msg_barrier_wait(c->m, c->barrier);
    } else {
        /* Traditional: a seek and a read (write) per column, no synchronisation. */
        fw_lu_part_t part = fw_lu_cp_part(&c->shape, start, c->cp);
        for (uint32_t l = 0; l < part.ncols; ++l) {
            uint64_t col = part.first + (uint64_t)l * c->shape.cps;
            note_status(c, fw_spfs_client_range(c->spfs, col * col_bytes, col_bytes,
                                                (uint8_t *)(c->slab + (uint64_t)l * c->shape.n),
                                                write));
        }
    }
    *(write ? &c->write_cycles : &c->read_cycles) += hal_now_cycles(c->h) - t0;
}

/* The multipliers of pivot i reach every CP in mult[i % 2]: its owner computes them
 * in its slab column, copies them out and Memputs them to the others, then all meet
 * at a barrier (the paper's broadcast "involves a barrier synchronization"). Two
 * buffers, because a CP may still update with pivot i - 1's multipliers when pivot
 * i's arrive; pivot i + 1's cannot come before it has passed pivot i's barrier. */
static const float *broadcast_multipliers(lu_cp_t *c, uint32_t slab_start, uint32_t i) {
    hal_t *h = c->h;
    uint32_t n = c->shape.n;
    uint32_t parity = i % 2;
    float *mult = c->mult[parity];
    if (fw_lu_owner(&c->shape, i) == c->cp) {
        fw_lu_part_t part = fw_lu_cp_part(&c->shape, slab_start, c->cp);
        float *col = c->slab + (uint64_t)((i - part.first) / c->shape.cps) * n;
        uint32_t count = fw_lu_multipliers(col, n, i);
        c->flops += count;
        uint64_t work = (uint64_t)count * (c->flop_cycles + 2u * c->element_cycles);
        hal_cycles(h, (uint32_t)work);
        c->compute_cycles += work;
        uint64_t t_send = hal_now_cycles(h);
        memcpy(mult + i + 1, col + i + 1, sizeof(float) * count);
        hal_cycles(h, count * c->element_cycles);
        fw_group_t *g = &c->broadcast;
        fw_group_init(c->m, g);
        hal_sem_name(h, &g->sem, "lu: multipliers delivered to every CP", 0);
        for (unsigned k = 0; k < c->shape.cps && count > 0; ++k) {
            if (k != c->cp) {
                fw_memput_async(c->m, c->cp_nodes[k],
                                c->mult_offset[parity] + (uint32_t)(sizeof(float) * (i + 1)),
                                mult + i + 1, (uint32_t)(sizeof(float) * count), g);
            }
        }
        note_status(c, fw_group_wait(c->m, g));
        c->broadcast_send_cycles += hal_now_cycles(h) - t_send;
    }
    uint64_t t_barrier = hal_now_cycles(h);
    fw_msg_barrier_wait(c->m, c->barrier);
    c->broadcast_barrier_cycles += hal_now_cycles(h) - t_barrier;
    return mult;
}

/* Updates this CP's columns of the slab to the right of pivot i. */
static void update_slab(lu_cp_t *c, uint32_t slab_start, uint32_t i, const float *mult) {
    fw_lu_part_t part = fw_lu_cp_part(&c->shape, slab_start, c->cp);
    uint32_t n = c->shape.n;
    for (uint32_t l = 0; l < part.ncols; ++l) {
        uint64_t col = part.first + (uint64_t)l * c->shape.cps;
        if (col <= i) {
            continue;
        }
        uint32_t count = fw_lu_update(c->slab + (uint64_t)l * n, mult, n, i);
        c->flops += 2u * (uint64_t)count;
        /* Per element: a multiply and a subtract, two loads and a store. */
        uint64_t work = (uint64_t)count * (2u * c->flop_cycles + 3u * c->element_cycles);
        hal_cycles(c->h, (uint32_t)work);
        c->compute_cycles += work;
    }
}

/* Figure 2. */
static void lu_program(lu_cp_t *c) {
    const fw_lu_shape_t *s = &c->shape;
    uint64_t in_mem = fw_lu_cols_in_mem(s);
    uint32_t outer = fw_lu_outer_iterations(s);
    for (uint32_t i = 0; i < outer; ++i) {
        slab_io(c, i, false);
        const float *mult = broadcast_multipliers(c, i, i);
        update_slab(c, i, i, mult);
        slab_io(c, i, true);
        /* Every CP makes the same number of passes, some with no columns. */
        for (uint64_t start = i + in_mem; start < s->n; start += in_mem) {
            slab_io(c, (uint32_t)start, false);
            update_slab(c, (uint32_t)start, i, mult);
            slab_io(c, (uint32_t)start, true);
        }
    }
    uint32_t start = fw_lu_final_start(s);
    slab_io(c, start, false);
    for (uint32_t i = start; i + 1 < s->n; ++i) {
        const float *mult = broadcast_multipliers(c, start, i);
        update_slab(c, start, i, mult);
    }
    slab_io(c, start, true);
}

void fw_lu_cp_main(hal_t *h) {
    lu_cp_t *c = (lu_cp_t *)hal_mem_alloc(h, sizeof *c, 8);
    if (!c) {
        hal_fail(h, "lu: node memory exhausted");
    }
    memset(c, 0, sizeof *c);
    c->h = h;
    c->m = fw_msg_init(h);
    c->cp = hal_role_index(h);
    c->shape.n = (uint32_t)hal_config_int(h, FW_KEY_LU_N);
    c->shape.cps = hal_cp_count(h);
    c->shape.slab_cols = (uint32_t)hal_config_int(h, FW_KEY_LU_SLAB_COLS);
    c->flop_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_FLOP);
    c->element_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_LU_ELEMENT);
    c->ddio = fs_is_ddio(h);

    uint64_t col_bytes = fw_lu_col_bytes(&c->shape);
    uint64_t slab_bytes = col_bytes * c->shape.slab_cols;
    uint64_t base_bytes = slab_bytes + 2 * col_bytes;
    uint8_t *base =
        base_bytes <= 0xffffffffu ? (uint8_t *)hal_mem_alloc(h, (uint32_t)base_bytes, 64) : NULL;
    if (!base) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "lu: CP %u's slab of %llu bytes does not fit in node memory "
                 "(raise machine.node_memory_kb or lower lu.slab_cols)",
                 c->cp, (unsigned long long)base_bytes);
        hal_fail(h, msg);
    }
    memset(base, 0, (size_t)base_bytes);
    c->slab = (float *)base;
    for (int k = 0; k < 2; ++k) {
        c->mult_offset[k] = (uint32_t)(slab_bytes + (uint64_t)k * col_bytes);
        c->mult[k] = (float *)(base + c->mult_offset[k]);
    }
    fw_msg_set_base(c->m, base, (uint32_t)base_bytes);

    c->cp_nodes = (unsigned *)hal_mem_alloc(h, (uint32_t)(sizeof(unsigned) * c->shape.cps), 8);
    if (!c->cp_nodes) {
        hal_fail(h, "lu: node memory exhausted (CP list)");
    }
    for (unsigned k = 0; k < c->shape.cps; ++k) {
        c->cp_nodes[k] = hal_cp_node(h, k);
    }
    c->barrier = fw_msg_barrier_create(c->m, LU_BARRIER_CPS, c->cp_nodes, c->shape.cps);
    if (!c->ddio) {
        c->spfs = fw_spfs_client_init(c->m);
        if (!c->spfs) {
            return;
        }
    }
    lu_barrier_all_nodes(c->m, h);

    fw_msg_barrier_wait(c->m, c->barrier);
    uint64_t t_start = hal_now_cycles(h);
    lu_program(c);
    /* sync(): every CP has all its replies; the IOPs finish their write-behind, the
     * drives theirs (fs.flush_drives). */
    uint64_t t_sync = hal_now_cycles(h);
    fw_msg_barrier_wait(c->m, c->barrier);
    if (c->cp == 0) {
        note_status(c, c->ddio ? fw_ddio_sync_all(c->m) : fw_spfs_sync_all(c->m));
    }
    fw_msg_barrier_wait(c->m, c->barrier);
    uint64_t t_end = hal_now_cycles(h);
    c->sync_cycles = t_end - t_sync;

    const struct {
        const char *key;
        uint64_t value;
    } exports[] = {{FW_LU_STAT_SPAN_CYCLES, t_end - t_start}, /* this CP's own clock */
                   {FW_LU_STAT_COMPUTE_CYCLES, c->compute_cycles},
                   {FW_LU_STAT_READ_CYCLES, c->read_cycles},
                   {FW_LU_STAT_WRITE_CYCLES, c->write_cycles},
                   {FW_LU_STAT_IO_BARRIER_CYCLES, c->io_barrier_cycles},
                   {FW_LU_STAT_BROADCAST_SEND_CYCLES, c->broadcast_send_cycles},
                   {FW_LU_STAT_BROADCAST_BARRIER_CYCLES, c->broadcast_barrier_cycles},
                   {FW_LU_STAT_SYNC_CYCLES, c->sync_cycles},
                   {FW_LU_STAT_FLOPS, c->flops},
                   {FW_LU_STAT_STATUS, (uint64_t)(int64_t)c->status}};
    for (size_t k = 0; k < sizeof exports / sizeof exports[0]; ++k) {
        hal_export(h, exports[k].key, exports[k].value);
    }
    if (c->spfs) {
        hal_export(h, FW_SPFS_STAT_CALLS, fw_spfs_client_stats(c->spfs)->calls);
    }
    if (c->cp == 0) {
        hal_export(h, FW_LU_STAT_T_START_CYCLES, t_start);
        hal_export(h, FW_LU_STAT_T_END_CYCLES, t_end);
    }
}

void fw_lu_iop_main(hal_t *h) {
    fw_msg_t *m = fw_msg_init(h);
    fw_scsi_t *scsi = (fw_scsi_t *)hal_mem_alloc(h, sizeof(fw_scsi_t), 8);
    if (!scsi || fw_scsi_init(scsi, h, 0) != 0) {
        hal_fail(h, "lu: SCSI host adapter 0 unusable");
    }
    if (fs_is_ddio(h)) {
        if (!fw_ddio_iop_init(m, scsi)) {
            return;
        }
    } else if (!fw_spfs_iop_init(m, scsi)) {
        return;
    }
    lu_barrier_all_nodes(m, h);
}
