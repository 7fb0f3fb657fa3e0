/* Two-phase I/O plan: rounds, I/O ranges, permutation pieces and counts; see
 * fw/include/fw/twophase_plan.h and docs/twophase.md. */
#include "fw/twophase_plan.h"

#include <string.h>

static inline uint64_t min_u64(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

bool fw_twophase_config_of(fw_twophase_config_t *config, const char *intermediate,
                           uint32_t aggregators, uint64_t buffer_kb, uint64_t cyclic_kb,
                           uint32_t block_bytes) {
    *config = fw_twophase_config_paper();
    if (!fw_twophase_dist_parse(intermediate, &config->intermediate)) {
        return false;
    }
    config->aggregators = aggregators;
    config->buffer_bytes = buffer_kb * 1024u;
    config->cyclic_bytes = cyclic_kb * 1024u;
    config->stripe_bytes = block_bytes;
    return true;
}

int fw_twophase_plan_init(fw_twophase_plan_t *plan, const fw_pattern_t *p,
                          const fw_twophase_config_t *config, char *msg, size_t msg_size) {
    memset(plan, 0, sizeof *plan);
    fw_twophase_domain_params_t dp;
    memset(&dp, 0, sizeof dp);
    dp.dist = config->intermediate;
    dp.cp_count = p->cp_count;
    dp.aggregators = config->aggregators;
    dp.file_bytes = p->file_bytes;
    dp.record_bytes = p->record_bytes;
    dp.stripe_bytes = config->stripe_bytes;
    dp.cyclic_bytes = config->cyclic_bytes;
    int rc = fw_twophase_domain_init(&plan->domain, &dp, msg, msg_size);
    if (rc != FW_TWOPHASE_OK) {
        return rc;
    }
    plan->pattern = *p;
    plan->buffer_bytes = config->buffer_bytes;
    plan->broadcast = p->is_all;
    const uint64_t max_share = plan->domain.max_share_bytes, b = config->buffer_bytes;
    /* Rounds grow with the share, so the largest share sets R. */
    plan->rounds = b == 0 ? (max_share > 0) : (uint32_t)((max_share + b - 1) / b);
    return FW_TWOPHASE_OK;
}

bool fw_twophase_plan_conforming(const fw_twophase_plan_t *plan) {
    const fw_pattern_t *p = &plan->pattern;
    return p->dims == 1 && p->rows.dist == FW_DIST_BLOCK && !plan->broadcast &&
           plan->domain.params.dist == FW_TWOPHASE_BLOCK &&
           plan->domain.params.aggregators == p->cp_count && plan->rounds <= 1;
}

uint64_t fw_twophase_buffer_bytes(const fw_twophase_plan_t *plan) {
    const uint64_t max_share = plan->domain.max_share_bytes;
    return plan->buffer_bytes == 0 ? max_share : min_u64(plan->buffer_bytes, max_share);
}

uint32_t fw_twophase_aggregator_rounds(const fw_twophase_plan_t *plan, uint32_t aggregator) {
    const uint64_t share = fw_twophase_share_bytes(&plan->domain, aggregator),
                   b = plan->buffer_bytes;
    return b == 0 ? (share > 0) : (uint32_t)((share + b - 1) / b);
}

uint64_t fw_twophase_round_bytes(const fw_twophase_plan_t *plan, uint32_t round,
                                 uint32_t aggregator, uint64_t *share_start) {
    const uint64_t share = fw_twophase_share_bytes(&plan->domain, aggregator);
    uint64_t start = share, bytes = 0;
    if (round < fw_twophase_aggregator_rounds(plan, aggregator)) {
        start = plan->buffer_bytes == 0 ? 0 : (uint64_t)round * plan->buffer_bytes;
        bytes = plan->buffer_bytes == 0 ? share : min_u64(plan->buffer_bytes, share - start);
    }
    if (share_start != NULL) {
        *share_start = start;
    }
    return bytes;
}

/* ---- I/O ranges --------------------------------------------------------------------- */

static void io_load_aggregator(fw_twophase_io_iter_t *it) {
    uint64_t start = 0;
    const uint64_t bytes = fw_twophase_round_bytes(it->plan, it->round, it->aggregator, &start);
    it->round_base = start;
    it->pos = start;
    it->end = start + bytes;
}

void fw_twophase_io_begin(fw_twophase_io_iter_t *it, const fw_twophase_plan_t *plan, uint32_t round,
                          uint32_t aggregator) {
    memset(it, 0, sizeof *it);
    it->plan = plan;
    it->round = round;
    const uint32_t a_count = fw_twophase_aggregators(&plan->domain);
    if (aggregator == FW_TWOPHASE_ALL) {
        it->aggregator = 0;
        it->last_aggregator = a_count - 1;
    } else if (aggregator < a_count) {
        it->aggregator = it->last_aggregator = aggregator;
    } else { /* no such aggregator: nothing to produce */
        it->aggregator = 1;
        it->last_aggregator = 0;
        return;
    }
    io_load_aggregator(it);
}

bool fw_twophase_io_next(fw_twophase_io_iter_t *it, fw_twophase_io_t *out) {
    while (it->pos >= it->end) {
        if (it->aggregator >= it->last_aggregator) {
            return false;
        }
        ++it->aggregator;
        io_load_aggregator(it);
    }
    uint64_t run = 0;
    out->aggregator = it->aggregator;
    out->file_offset = fw_twophase_share_to_file(&it->plan->domain, it->aggregator, it->pos, &run);
    out->buf_offset = it->pos - it->round_base;
    out->length = min_u64(run, it->end - it->pos);
    it->pos += out->length;
    return true;
}

/* ---- permutation pieces ---------------------------------------------------------------- */

void fw_twophase_pieces_begin(fw_twophase_piece_iter_t *it, const fw_twophase_plan_t *plan,
                              uint32_t round, uint32_t aggregator) {
    memset(it, 0, sizeof *it);
    fw_twophase_io_begin(&it->io, plan, round, aggregator);
    it->in_range = false;
}

bool fw_twophase_pieces_next(fw_twophase_piece_iter_t *it, fw_twophase_piece_t *out) {
    const fw_twophase_plan_t *plan = it->io.plan;
    fw_pattern_piece_t pc;
    while (!it->in_range || !fw_pattern_pieces_next(&it->pieces, &pc)) {
        if (!fw_twophase_io_next(&it->io, &it->range)) {
            it->in_range = false;
            return false;
        }
        fw_pattern_pieces_begin(&it->pieces, &plan->pattern, it->range.file_offset,
                                it->range.length);
        it->range_cp = fw_twophase_aggregator_cp(&plan->domain, it->range.aggregator);
        it->in_range = true;
    }
    out->aggregator = it->range.aggregator;
    out->aggregator_cp = it->range_cp;
    out->buf_offset = it->range.buf_offset + (pc.file_offset - it->range.file_offset);
    out->cp = pc.cp;
    out->cp_offset = pc.cp_offset;
    out->file_offset = pc.file_offset;
    out->length = pc.length;
    return true;
}

/* ---- counts --------------------------------------------------------------------------- */

size_t fw_twophase_pairs_bytes(const fw_twophase_plan_t *plan, uint32_t aggregator) {
    const size_t per_aggregator = (size_t)plan->pattern.cp_count * sizeof(fw_twophase_pair_t);
    return aggregator == FW_TWOPHASE_ALL
               ? (size_t)fw_twophase_aggregators(&plan->domain) * per_aggregator
               : per_aggregator;
}

static void count_round(const fw_twophase_plan_t *plan, uint32_t round, uint32_t aggregator,
                        fw_twophase_counts_t *c, fw_twophase_pair_t *pairs) {
    fw_twophase_io_iter_t io;
    fw_twophase_io_t range;
    fw_twophase_io_begin(&io, plan, round, aggregator);
    while (fw_twophase_io_next(&io, &range)) {
        ++c->io_ranges;
        c->io_bytes += range.length;
    }
    const uint32_t P = plan->pattern.cp_count;
    fw_twophase_piece_iter_t it;
    fw_twophase_piece_t pc;
    fw_twophase_pieces_begin(&it, plan, round, aggregator);
    while (fw_twophase_pieces_next(&it, &pc)) {
        ++c->pieces;
        c->bytes += pc.length;
        if (fw_twophase_piece_is_local(&pc)) {
            ++c->local_pieces;
            c->local_bytes += pc.length;
        } else {
            ++c->remote_pieces;
            c->remote_bytes += pc.length;
        }
        if (pairs != NULL) {
            const size_t row = aggregator == FW_TWOPHASE_ALL ? (size_t)pc.aggregator * P : 0;
            pairs[row + pc.cp].pieces += 1;
            pairs[row + pc.cp].bytes += pc.length;
        }
    }
}

void fw_twophase_count(const fw_twophase_plan_t *plan, uint32_t round, uint32_t aggregator,
                       fw_twophase_counts_t *counts, fw_twophase_pair_t *pairs) {
    memset(counts, 0, sizeof *counts);
    if (pairs != NULL) {
        memset(pairs, 0, fw_twophase_pairs_bytes(plan, aggregator));
    }
    if (round != FW_TWOPHASE_ALL) {
        count_round(plan, round, aggregator, counts, pairs);
        return;
    }
    for (uint32_t r = 0; r < plan->rounds; ++r) {
        count_round(plan, r, aggregator, counts, pairs);
    }
}
