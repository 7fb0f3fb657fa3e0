/* Two-phase I/O on the CPs (fs.kind = 2pio; docs/reference.md §6 "2PIO";
 * docs/twophase.md): a library layered on the SPFS client, no IOP changes.
 *
 * The plan (fw/twophase_plan.h) gives each aggregator its share of the file in an
 * intermediate distribution, in rounds of at most twophase.buffer_kb. Per round,
 * reads: each aggregator reads its round's I/O ranges into its collective buffer
 * with one SPFS call each; barrier; it Memputs every permutation piece to the CP
 * that asked for it (queued Memput for small records; a piece for its own CP is a
 * memory copy); barrier. Writes: each aggregator fetches its pieces with Memget
 * (queued for small records); barrier; one SPFS call per I/O range; barrier. The
 * caller's barrier before the first round and its SPFS sync after the last close
 * the collective operation. twophase.overlap pipelines round r's permutation with
 * round r + 1's I/O on two collective buffers, one barrier per round.
 * twophase.direct: a request that is the conforming distribution itself (rb, wb;
 * fw_twophase_plan_conforming) skips the permutation: each CP's SPFS call moves its
 * own buffer, then one barrier.
 */
#ifndef STARFISH_FW_TWOPHASE_H
#define STARFISH_FW_TWOPHASE_H

#include "fw/msg.h"
#include "fw/pattern.h"
#include "fw/spfs.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fw_twophase fw_twophase_t;

/* Per CP, over one collective operation. Phase times are this CP's own work in the
 * phase (its SPFS calls, or its Memputs/Memgets and copies until they complete),
 * without the barrier that ends the phase. */
typedef struct fw_twophase_stats {
    uint64_t io_cycles;
    uint64_t permute_cycles;
    uint64_t rounds;
    uint64_t io_ranges;      /* SPFS calls */
    uint64_t bytes_permuted; /* by this CP as aggregator, local and remote */
    uint64_t local_pieces;
    uint64_t remote_pieces;
    uint64_t batches_sent; /* queued Memput/Memget batches */
} fw_twophase_stats_t;

/* thread (boot): reads twophase.*, plans pattern p (copied) and, on an aggregator,
 * allocates its collective buffer in node memory. barrier joins all CPs. Fails the
 * run (hal_fail, naming the key) on a configuration it cannot serve; returns NULL
 * then. */
fw_twophase_t *fw_twophase_init(fw_msg_t *m, fw_spfs_client_t *client, const fw_pattern_t *p,
                                unsigned cp, fw_msg_barrier_t *barrier);

/* thread: this CP's part of the collective operation; buf is the CP's user buffer,
 * registered as its Memput/Memget base. Returns FW_MSG_OK or the first error. */
int fw_twophase_run(fw_twophase_t *t, uint8_t *buf);

const fw_twophase_stats_t *fw_twophase_stats(const fw_twophase_t *t);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_TWOPHASE_H */
