/* Two-phase I/O and collective buffering: the plan (docs/reference.md §6 "2PIO", §12;
 * docs/twophase.md). Pure planning: what each aggregator reads or writes with SPFS in
 * each round, and the permutation between the aggregators' collective buffers and
 * the CPs' user buffers. The CP threads, SPFS requests, Memputs and barriers that
 * carry it out are the caller's.
 *
 * Rounds: each aggregator works through its share (fw/twophase_domain.h) in rounds
 * of at most buffer_bytes bytes of the share, in share order: round r holds share
 * bytes [r B, min((r + 1) B, share)), with B = buffer_bytes, or the whole share in
 * one round when buffer_bytes is 0 (the paper). Every aggregator takes part in all
 * R = max over aggregators of ceil(share / B) rounds; one whose share is shorter
 * sits the last ones out. In a round, share byte s sits at collective-buffer offset
 * s - r B.
 *
 * Round boundaries are NOT rounded to records: a round is exactly B bytes of the
 * share, as a ROMIO round is cb_buffer_size bytes of the file domain. So a round's
 * I/O keeps the share's block alignment (file-layout domains and KB-sized buffers
 * stay on whole file-system blocks), and a record cut by a round boundary simply
 * becomes two pieces, each with its own correct file, buffer and CP offsets. With
 * the study's power-of-two records no record is cut when B >= record size.
 *
 * I/O ranges: the maximal runs of a round's share bytes that are contiguous in the
 * file (block and file-layout: one per round; cyclic: one per unit or part of a
 * unit, or one per round with a single aggregator).
 *
 * Permutation pieces: each I/O range split by the access pattern
 * (fw_pattern_pieces) into maximal runs for one CP: (aggregator, collective-buffer
 * offset) <-> (CP, offset in the CP's user buffer, length), with the file offset.
 * Reads: the aggregator Memputs the piece from its buffer to the CP. Writes: it
 * Memgets the piece from the CP into its buffer before the round's I/O. It is the
 * same map. ra (reads only): every range goes to every CP, so each range yields P
 * pieces (CP 0 first) with CP offset = file offset: the permutation is a broadcast,
 * and the bytes permuted are P times the file. A piece whose CP is the aggregator's
 * own is local (a memory copy), the others are remote.
 *
 * Iterators cost O(ranges or pieces produced) independent of the file size. The
 * plan is a fixed-size caller-owned struct holding a copy of the pattern; the only
 * variable-sized memory is the optional per-(aggregator, CP) counts table of
 * fw_twophase_count(), sized by fw_twophase_pairs_bytes(). No allocation, no global
 * state.
 */
#ifndef STARFISH_FW_TWOPHASE_PLAN_H
#define STARFISH_FW_TWOPHASE_PLAN_H

#include "fw/pattern.h"
#include "fw/twophase_domain.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The twophase.* configuration in bytes. */
typedef struct fw_twophase_config {
    fw_twophase_dist_t intermediate; /* twophase.intermediate */
    uint32_t aggregators;            /* twophase.aggregators; 0 = all P */
    uint64_t buffer_bytes;           /* twophase.buffer_kb x 1024; 0 = whole share */
    uint64_t cyclic_bytes;           /* twophase.cyclic_kb x 1024 (cyclic only) */
    uint64_t stripe_bytes;           /* fs.block_bytes (file-layout only) */
} fw_twophase_config_t;

/* The defaults reproduce the paper's 2PIO: block, all CPs, one round. */
static inline fw_twophase_config_t fw_twophase_config_paper(void) {
    fw_twophase_config_t c = {FW_TWOPHASE_BLOCK, 0, 0, 0, 0};
    return c;
}

/* *config from the configuration's values (twophase.intermediate, .aggregators,
 * .buffer_kb, .cyclic_kb, fs.block_bytes), so that the CPs and the host's
 * configuration checks plan alike. False for an unknown intermediate name. */
bool fw_twophase_config_of(fw_twophase_config_t *config, const char *intermediate,
                           uint32_t aggregators, uint64_t buffer_kb, uint64_t cyclic_kb,
                           uint32_t block_bytes);

typedef struct fw_twophase_plan {
    fw_pattern_t pattern; /* a copy of the requested pattern */
    fw_twophase_domain_t domain;
    uint64_t buffer_bytes; /* B; 0 = whole share */
    uint32_t rounds;       /* R */
    bool broadcast;        /* ra: every range goes to every CP */
} fw_twophase_plan_t;

/* Validates and fills *plan for pattern p. On error returns the
 * fw_twophase_status_t code and writes a one-line message naming the configuration
 * key to msg (if msg_size > 0; always NUL-terminated). */
int fw_twophase_plan_init(fw_twophase_plan_t *plan, const fw_pattern_t *p,
                          const fw_twophase_config_t *config, char *msg, size_t msg_size);

static inline uint32_t fw_twophase_rounds(const fw_twophase_plan_t *plan) {
    return plan->rounds;
}

/* True when the requested pattern is the conforming distribution itself: a 1-D
 * BLOCK pattern (rb, wb; not ra) planned with the block intermediate over all P CPs
 * in one round. Each CP's I/O range is then its own part of the file at the same
 * offsets, so it can move its user buffer directly (twophase.direct). The test is
 * on the pattern, as STARFISH's was: with one CP every pattern's map is the
 * identity, but TOCS §6 says its 2PIO still permuted them (Figure 9). */
bool fw_twophase_plan_conforming(const fw_twophase_plan_t *plan);

/* Collective buffer each aggregator needs: the largest round of any aggregator. */
uint64_t fw_twophase_buffer_bytes(const fw_twophase_plan_t *plan);

/* Rounds in which aggregator a has data (<= R). */
uint32_t fw_twophase_aggregator_rounds(const fw_twophase_plan_t *plan, uint32_t aggregator);

/* Bytes of aggregator a's share in round r (0 if it has none then), and in
 * *share_start (may be NULL) the share offset the round starts at. */
uint64_t fw_twophase_round_bytes(const fw_twophase_plan_t *plan, uint32_t round,
                                 uint32_t aggregator, uint64_t *share_start);

/* ---- I/O phase: the contiguous file ranges of a round ------------------------- */
typedef struct fw_twophase_io {
    uint32_t aggregator;
    uint64_t file_offset;
    uint64_t buf_offset; /* in the aggregator's collective buffer */
    uint64_t length;
} fw_twophase_io_t;

typedef struct fw_twophase_io_iter {
    const fw_twophase_plan_t *plan;
    uint32_t round;
    uint32_t aggregator, last_aggregator;
    uint64_t pos, end;   /* share offsets still to produce in this aggregator's round */
    uint64_t round_base; /* share offset at buffer offset 0 */
} fw_twophase_io_iter_t;

/* Ranges of round `round` for one aggregator, or for every aggregator in turn
 * (aggregator = FW_TWOPHASE_ALL), each in file order. */
void fw_twophase_io_begin(fw_twophase_io_iter_t *it, const fw_twophase_plan_t *plan, uint32_t round,
                          uint32_t aggregator);
/* Writes the next range and returns true, or returns false at the end. */
bool fw_twophase_io_next(fw_twophase_io_iter_t *it, fw_twophase_io_t *out);

/* ---- permutation phase: who sends what to whom -------------------------------- */
typedef struct fw_twophase_piece {
    uint32_t aggregator;
    uint32_t aggregator_cp; /* the CP the aggregator runs on */
    uint64_t buf_offset;    /* in the aggregator's collective buffer */
    uint32_t cp;            /* destination (reads) or source (writes) */
    uint64_t cp_offset;     /* in that CP's user buffer */
    uint64_t file_offset;
    uint64_t length;
} fw_twophase_piece_t;

static inline bool fw_twophase_piece_is_local(const fw_twophase_piece_t *piece) {
    return piece->cp == piece->aggregator_cp;
}

typedef struct fw_twophase_piece_iter {
    fw_twophase_io_iter_t io;
    fw_twophase_io_t range; /* the range being split */
    uint32_t range_cp;      /* the CP its aggregator runs on */
    fw_pattern_piece_iter_t pieces;
    bool in_range;
} fw_twophase_piece_iter_t;

/* Pieces of round `round` for one aggregator or all (FW_TWOPHASE_ALL): range by
 * range in the order of fw_twophase_io_next, each range's pieces in file order
 * (ra: CP 0, 1, ... for each range). */
void fw_twophase_pieces_begin(fw_twophase_piece_iter_t *it, const fw_twophase_plan_t *plan,
                              uint32_t round, uint32_t aggregator);
bool fw_twophase_pieces_next(fw_twophase_piece_iter_t *it, fw_twophase_piece_t *out);

/* ---- counts ------------------------------------------------------------------- */
typedef struct fw_twophase_counts {
    uint64_t io_ranges, io_bytes;         /* SPFS requests and their bytes */
    uint64_t pieces, bytes;               /* permutation: everything moved */
    uint64_t local_pieces, local_bytes;   /* aggregator's own CP: memory copies */
    uint64_t remote_pieces, remote_bytes; /* Memput/Memget to other CPs */
} fw_twophase_counts_t;

/* Pieces and bytes between one aggregator and one CP. */
typedef struct fw_twophase_pair {
    uint64_t pieces;
    uint64_t bytes;
} fw_twophase_pair_t;

/* Bytes of the pairs table fw_twophase_count() fills for this aggregator selection:
 * P entries for one aggregator, A x P for FW_TWOPHASE_ALL. */
size_t fw_twophase_pairs_bytes(const fw_twophase_plan_t *plan, uint32_t aggregator);

/* Counts of round `round` (or of all rounds: FW_TWOPHASE_ALL) for one aggregator or
 * all (FW_TWOPHASE_ALL). pairs (may be NULL) receives the per-(aggregator, CP)
 * counts: pairs[cp] for one aggregator, pairs[a * P + cp] for all; it is zeroed
 * first. Costs O(pieces counted). */
void fw_twophase_count(const fw_twophase_plan_t *plan, uint32_t round, uint32_t aggregator,
                       fw_twophase_counts_t *counts, fw_twophase_pair_t *pairs);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_TWOPHASE_PLAN_H */
