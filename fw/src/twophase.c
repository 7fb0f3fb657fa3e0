/* Two-phase I/O on the CPs: see fw/include/fw/twophase.h and docs/twophase.md. */
#include "fw/twophase.h"

#include "fw/ddio.h"
#include "fw/param_keys.h"
#include "fw/twophase_plan.h"

#include <stdio.h>
#include <string.h>

/* Permutation pieces between two yields of the aggregator's thread. */
#define YIELD_PIECES 16u

struct fw_twophase {
    fw_msg_t *m;
    hal_t *h;
    fw_spfs_client_t *client;
    fw_msg_barrier_t *barrier;
    fw_twophase_plan_t plan;
    uint32_t aggregator; /* this CP's, or FW_TWOPHASE_NONE */
    uint8_t *cbuf[2];    /* collective buffers (aggregators; the second with overlap) */
    bool queued;
    bool overlap;
    bool direct;          /* twophase.direct and a conforming request: no permutation */
    uint32_t outstanding; /* twophase.outstanding: plain messages in flight, 0 = any */
    uint32_t block_bytes; /* the largest plain message under a limit */
    uint32_t copy_word_cycles;
    uint32_t piece_cycles;
    fw_group_t group;
    uint64_t batches0; /* batches_sent when the permutation in progress started */
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
    fw_twophase_config_t cfg;
    if (!fw_twophase_config_of(&cfg, hal_config_string(h, FW_KEY_TWOPHASE_INTERMEDIATE),
                               (uint32_t)hal_config_int(h, FW_KEY_TWOPHASE_AGGREGATORS),
                               (uint64_t)hal_config_int(h, FW_KEY_TWOPHASE_BUFFER_KB),
                               (uint64_t)hal_config_int(h, FW_KEY_TWOPHASE_CYCLIC_KB),
                               block_bytes)) {
        hal_fail(h, "twophase.intermediate: unknown distribution");
        return NULL;
    }
    if (fw_twophase_plan_init(&t->plan, p, &cfg, msg, sizeof msg) != FW_TWOPHASE_OK) {
        hal_fail(h, msg);
        return NULL;
    }
    t->aggregator = fw_twophase_cp_aggregator(&t->plan.domain, cp);
    t->overlap =
        hal_config_int(h, FW_KEY_TWOPHASE_OVERLAP) != 0 && fw_twophase_rounds(&t->plan) > 1;
    t->direct =
        hal_config_int(h, FW_KEY_TWOPHASE_DIRECT) != 0 && fw_twophase_plan_conforming(&t->plan);
    unsigned buffers = t->direct ? 0u : t->overlap ? 2u : 1u;
    for (unsigned i = 0; i < buffers && t->aggregator != FW_TWOPHASE_NONE; ++i) {
        uint64_t bytes = fw_twophase_buffer_bytes(&t->plan);
        t->cbuf[i] = bytes <= 0xffffffffu
                         ? (uint8_t *)hal_mem_alloc(h, (uint32_t)(bytes ? bytes : 4), 64)
                         : NULL;
        if (!t->cbuf[i]) {
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
    t->outstanding = (uint32_t)hal_config_int(h, FW_KEY_TWOPHASE_OUTSTANDING);
    t->block_bytes = block_bytes;
    t->copy_word_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_COPY_WORD);
    t->piece_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_TWOPHASE_PIECE);
    fw_group_init(m, &t->group);
    hal_sem_name(h, &t->group.sem, "2PIO: permutation pieces delivered", 0);
    return t;
}

const fw_twophase_stats_t *fw_twophase_stats(const fw_twophase_t *t) {
    return &t->stats;
}

/* The aggregator's SPFS calls of one round, one per I/O range. */
static int io_phase(fw_twophase_t *t, uint32_t round, bool is_write, uint8_t *cbuf) {
    uint64_t t0 = hal_now_cycles(t->h);
    int status = FW_MSG_OK;
    fw_twophase_io_iter_t it;
    fw_twophase_io_t r;
    fw_twophase_io_begin(&it, &t->plan, round, t->aggregator);
    while (fw_twophase_io_next(&it, &r)) {
        int st =
            fw_spfs_client_range(t->client, r.file_offset, r.length, cbuf + r.buf_offset, is_write);
        status = status != FW_MSG_OK ? status : st;
        ++t->stats.io_ranges;
    }
    t->stats.io_cycles += hal_now_cycles(t->h) - t0;
    return status;
}

/* Starts the aggregator's permutation of one round: reads scatter the collective
 * buffer to the CPs, writes gather it from them; local pieces are copied at once.
 * Queued pieces may wait for a batch in flight to their CP. */
static void permute_issue(fw_twophase_t *t, uint32_t round, uint8_t *buf, bool is_write,
                          uint8_t *cbuf) {
    hal_t *h = t->h;
    uint64_t t0 = hal_now_cycles(h);
    t->batches0 = fw_msg_stats(t->m)->batches_sent;
    fw_twophase_piece_iter_t it;
    fw_twophase_piece_t pc;
    uint32_t since_yield = 0;
    fw_twophase_pieces_begin(&it, &t->plan, round, t->aggregator);
    while (fw_twophase_pieces_next(&it, &pc)) {
        uint8_t *at = cbuf + pc.buf_offset;
        uint32_t off = (uint32_t)pc.cp_offset;
        uint32_t len = (uint32_t)pc.length;
        t->stats.bytes_permuted += pc.length;
        /* Threads are not preempted and the CPU takes interrupts only where it
         * synchronises: without a yield now and then, a CP busy permuting would hold
         * back the batches and acknowledgements other CPs send it for the whole loop
         * (milliseconds with small records), stalling their permutations. */
        if (++since_yield == YIELD_PIECES) {
            since_yield = 0;
            hal_yield(h);
        }
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
        hal_cycles(h, t->piece_cycles);
        unsigned node = hal_cp_node(h, pc.cp);
        if (t->queued || t->outstanding == 0) {
            fw_move_piece(t->m, is_write, t->queued, node, off, at, len, &t->group);
            continue;
        }
        /* One block per message, at most `outstanding` in flight. */
        for (uint32_t done = 0; done < len;) {
            uint32_t n = len - done < t->block_bytes ? len - done : t->block_bytes;
            fw_group_wait_at_most(t->m, &t->group, t->outstanding - 1);
            fw_move_piece(t->m, is_write, false, node, off + done, at + done, n, &t->group);
            done += n;
        }
    }
    if (t->queued) {
        fw_q_flush(t->m);
    }
    t->stats.permute_cycles += hal_now_cycles(h) - t0;
}

/* Waits until the permutation started last has completed. */
static int permute_wait(fw_twophase_t *t) {
    uint64_t t0 = hal_now_cycles(t->h);
    int status = fw_group_wait(t->m, &t->group);
    if (t->queued) {
        int st = fw_q_wait_all(t->m);
        status = status != FW_MSG_OK ? status : st;
    }
    t->stats.batches_sent += fw_msg_stats(t->m)->batches_sent - t->batches0;
    t->stats.permute_cycles += hal_now_cycles(t->h) - t0;
    return status;
}

static int first_error(int a, int b) {
    return a != FW_MSG_OK ? a : b;
}

/* twophase.overlap: round r's permutation runs while round r + 1's SPFS calls do,
 * each on its own collective buffer; one barrier per round. Reads: I/O r; wait
 * for permutation r - 1; barrier; start permutation r. Writes: gather round 0;
 * barrier; then start gathering r + 1, write r, wait for the gather; barrier. */
static int run_overlapped(fw_twophase_t *t, uint8_t *buf) {
    bool is_write = t->plan.pattern.is_write;
    bool active = t->aggregator != FW_TWOPHASE_NONE;
    uint32_t rounds = fw_twophase_rounds(&t->plan);
    int status = FW_MSG_OK;
    if (!is_write) {
        for (uint32_t r = 0; r < rounds; ++r) {
            ++t->stats.rounds;
            if (active) {
                status = first_error(status, io_phase(t, r, false, t->cbuf[r % 2]));
                if (r > 0) {
                    status = first_error(status, permute_wait(t));
                }
            }
            fw_msg_barrier_wait(t->m, t->barrier);
            if (active) {
                permute_issue(t, r, buf, false, t->cbuf[r % 2]);
            }
        }
        if (active) {
            status = first_error(status, permute_wait(t));
        }
        fw_msg_barrier_wait(t->m, t->barrier);
        return status;
    }
    if (active) {
        permute_issue(t, 0, buf, true, t->cbuf[0]);
        status = first_error(status, permute_wait(t));
    }
    fw_msg_barrier_wait(t->m, t->barrier);
    for (uint32_t r = 0; r < rounds; ++r) {
        ++t->stats.rounds;
        bool next = r + 1 < rounds;
        if (active) {
            if (next) {
                permute_issue(t, r + 1, buf, true, t->cbuf[(r + 1) % 2]);
            }
            status = first_error(status, io_phase(t, r, true, t->cbuf[r % 2]));
            if (next) {
                status = first_error(status, permute_wait(t));
            }
        }
        fw_msg_barrier_wait(t->m, t->barrier);
    }
    return status;
}

/* twophase.direct: the request is the conforming distribution itself (rb, wb), so
 * the CP's own SPFS call moves its user buffer, whose offsets are its share's: no
 * collective buffer, no copy and no barrier between phases, as SPFS would do it. */
static int run_direct(fw_twophase_t *t, uint8_t *buf) {
    int status = FW_MSG_OK;
    ++t->stats.rounds;
    if (t->aggregator != FW_TWOPHASE_NONE) {
        status = io_phase(t, 0, t->plan.pattern.is_write, buf);
    }
    fw_msg_barrier_wait(t->m, t->barrier);
    return status;
}

int fw_twophase_run(fw_twophase_t *t, uint8_t *buf) {
    if (t->direct) {
        return run_direct(t, buf);
    }
    if (t->overlap) {
        return run_overlapped(t, buf);
    }
    bool is_write = t->plan.pattern.is_write;
    bool active = t->aggregator != FW_TWOPHASE_NONE;
    int status = FW_MSG_OK;
    uint32_t rounds = fw_twophase_rounds(&t->plan);
    for (uint32_t r = 0; r < rounds; ++r) {
        ++t->stats.rounds;
        int st = FW_MSG_OK;
        if (!is_write) {
            if (active) {
                st = io_phase(t, r, false, t->cbuf[0]);
            }
            fw_msg_barrier_wait(t->m, t->barrier);
            if (active) {
                permute_issue(t, r, buf, false, t->cbuf[0]);
                st = first_error(st, permute_wait(t));
            }
        } else {
            if (active) {
                permute_issue(t, r, buf, true, t->cbuf[0]);
                st = permute_wait(t);
            }
            fw_msg_barrier_wait(t->m, t->barrier);
            if (active) {
                st = first_error(st, io_phase(t, r, true, t->cbuf[0]));
            }
        }
        fw_msg_barrier_wait(t->m, t->barrier);
        status = status != FW_MSG_OK ? status : st;
    }
    return status;
}
