/* Two-phase I/O on the CPs: see fw/include/fw/twophase.h and docs/twophase.md. */
#include "fw/twophase.h"

#include "fw/ddio.h"
#include "fw/param_keys.h"
#include "fw/twophase_plan.h"

#include <stdio.h>
#include <string.h>

struct fw_twophase {
    fw_msg_t *m;
    hal_t *h;
    fw_spfs_client_t *client;
    fw_msg_barrier_t *barrier;
    fw_twophase_plan_t plan;
    uint32_t aggregator; /* this CP's, or FW_TWOPHASE_NONE */
    uint8_t *cbuf;       /* collective buffer (aggregators only) */
    bool queued;
    uint32_t copy_word_cycles;
    fw_group_t group;
    fw_twophase_stats_t stats;
};

fw_twophase_t *fw_twophase_init(fw_msg_t *m, fw_spfs_client_t *client, const fw_pattern_t *p,
                                unsigned cp, fw_msg_barrier_t *barrier) {
    hal_t *h = fw_msg_hal(m);
    char msg[200];
    fw_twophase_t *t = (fw_twophase_t *)hal_mem_alloc(h, sizeof *t, 8);
    if (!t) {
        hal_fail(h, "2PIO: node memory exhausted");
        return NULL;
    }
    memset(t, 0, sizeof *t);
    t->m = m;
    t->h = h;
    t->client = client;
    t->barrier = barrier;
    uint32_t block_bytes = (uint32_t)hal_config_int(h, FW_KEY_FS_BLOCK_BYTES);
    fw_twophase_config_t cfg = fw_twophase_config_paper();
    if (!fw_twophase_dist_parse(hal_config_string(h, FW_KEY_TWOPHASE_INTERMEDIATE),
                                &cfg.intermediate)) {
        hal_fail(h, "twophase.intermediate: unknown distribution");
        return NULL;
    }
    cfg.aggregators = (uint32_t)hal_config_int(h, FW_KEY_TWOPHASE_AGGREGATORS);
    cfg.buffer_bytes = (uint64_t)hal_config_int(h, FW_KEY_TWOPHASE_BUFFER_KB) * 1024u;
    cfg.cyclic_bytes = (uint64_t)hal_config_int(h, FW_KEY_TWOPHASE_CYCLIC_KB) * 1024u;
    cfg.stripe_bytes = block_bytes;
    if (fw_twophase_plan_init(&t->plan, p, &cfg, msg, sizeof msg) != FW_TWOPHASE_OK) {
        hal_fail(h, msg);
        return NULL;
    }
    t->aggregator = fw_twophase_cp_aggregator(&t->plan.domain, cp);
    if (t->aggregator != FW_TWOPHASE_NONE) {
        uint64_t bytes = fw_twophase_buffer_bytes(&t->plan);
        t->cbuf = bytes <= 0xffffffffu
                      ? (uint8_t *)hal_mem_alloc(h, (uint32_t)(bytes ? bytes : 4), 64)
                      : NULL;
        if (!t->cbuf) {
            snprintf(msg, sizeof msg,
                     "2PIO: CP %u's collective buffer of %llu bytes does not fit in node memory "
                     "(lower twophase.buffer_kb or raise machine.node_memory_kb)",
                     cp, (unsigned long long)bytes);
            hal_fail(h, msg);
            return NULL;
        }
    }
    t->queued = fw_ddio_use_queued(hal_config_string(h, FW_KEY_TWOPHASE_QUEUED), p->record_bytes,
                                   block_bytes);
    t->copy_word_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_COPY_WORD);
    fw_group_init(m, &t->group);
    return t;
}

const fw_twophase_stats_t *fw_twophase_stats(const fw_twophase_t *t) {
    return &t->stats;
}

/* The aggregator's SPFS calls of one round, one per I/O range. */
static int io_phase(fw_twophase_t *t, uint32_t round, bool is_write) {
    uint64_t t0 = hal_now_cycles(t->h);
    int status = FW_MSG_OK;
    fw_twophase_io_iter_t it;
    fw_twophase_io_t r;
    fw_twophase_io_begin(&it, &t->plan, round, t->aggregator);
    while (fw_twophase_io_next(&it, &r)) {
        int st = fw_spfs_client_range(t->client, r.file_offset, r.length, t->cbuf + r.buf_offset,
                                      is_write);
        status = status != FW_MSG_OK ? status : st;
        ++t->stats.io_ranges;
    }
    t->stats.io_cycles += hal_now_cycles(t->h) - t0;
    return status;
}

/* The aggregator's permutation of one round: reads scatter the collective buffer
 * to the CPs, writes gather it from them. */
static int permute_phase(fw_twophase_t *t, uint32_t round, uint8_t *buf, bool is_write) {
    hal_t *h = t->h;
    uint64_t t0 = hal_now_cycles(h);
    uint64_t batches0 = fw_msg_stats(t->m)->batches_sent;
    fw_twophase_piece_iter_t it;
    fw_twophase_piece_t pc;
    fw_twophase_pieces_begin(&it, &t->plan, round, t->aggregator);
    while (fw_twophase_pieces_next(&it, &pc)) {
        uint8_t *at = t->cbuf + pc.buf_offset;
        uint32_t off = (uint32_t)pc.cp_offset;
        uint32_t len = (uint32_t)pc.length;
        t->stats.bytes_permuted += pc.length;
        if (fw_twophase_piece_is_local(&pc)) {
            ++t->stats.local_pieces;
            hal_cycles(h, t->copy_word_cycles * ((len + 3u) / 4u));
            if (is_write) {
                memcpy(at, buf + off, len);
            } else {
                memcpy(buf + off, at, len);
            }
            continue;
        }
        ++t->stats.remote_pieces;
        unsigned node = hal_cp_node(h, pc.cp);
        if (is_write) {
            if (t->queued) {
                fw_qget(t->m, node, off, at, len, &t->group);
            } else {
                fw_memget_async(t->m, node, off, at, len, &t->group);
            }
        } else if (t->queued) {
            fw_qput(t->m, node, off, at, len, &t->group);
        } else {
            fw_memput_async(t->m, node, off, at, len, &t->group);
        }
    }
    int status = fw_group_wait(t->m, &t->group);
    if (t->queued) {
        int st = fw_q_wait_all(t->m);
        status = status != FW_MSG_OK ? status : st;
    }
    t->stats.batches_sent += fw_msg_stats(t->m)->batches_sent - batches0;
    t->stats.permute_cycles += hal_now_cycles(h) - t0;
    return status;
}

int fw_twophase_run(fw_twophase_t *t, uint8_t *buf) {
    bool is_write = t->plan.pattern.is_write;
    bool active = t->aggregator != FW_TWOPHASE_NONE;
    int status = FW_MSG_OK;
    uint32_t rounds = fw_twophase_rounds(&t->plan);
    for (uint32_t r = 0; r < rounds; ++r) {
        ++t->stats.rounds;
        int st = FW_MSG_OK;
        if (!is_write) {
            if (active) {
                st = io_phase(t, r, false);
            }
            fw_msg_barrier_wait(t->m, t->barrier);
            if (active) {
                int s2 = permute_phase(t, r, buf, false);
                st = st != FW_MSG_OK ? st : s2;
            }
        } else {
            if (active) {
                st = permute_phase(t, r, buf, true);
            }
            fw_msg_barrier_wait(t->m, t->barrier);
            if (active) {
                int s2 = io_phase(t, r, true);
                st = st != FW_MSG_OK ? st : s2;
            }
        }
        fw_msg_barrier_wait(t->m, t->barrier);
        status = status != FW_MSG_OK ? status : st;
    }
    return status;
}
