/* Two-phase I/O and collective buffering (docs/reference.md §6 "2PIO", §12): which CPs do the
 * file I/O (the aggregators) and which bytes of the file each one owns (its file
 * domain, or share, in the intermediate distribution). The rounds and the
 * permutation built on these domains are in fw/twophase_plan.h; docs/twophase.md
 * has the rules with examples.
 *
 * Aggregators: A of the P CPs (1 <= A <= P), spread evenly over the CP indices:
 * aggregator a runs on CP floor(a * P / A) (A = P: CP a; A = 4 of 16: CPs 0, 4, 8,
 * 12; A = 1: CP 0).
 *
 * Intermediate distributions (Nitzberg's collective-buffering taxonomy):
 *  block        CB-B, the paper's conforming distribution: HPF BLOCK over the
 *               records, ceil(records / A) records per aggregator, trailing ones
 *               may own fewer or none (the rb convention, so A = P gives exactly
 *               the rb parts).
 *  file-layout  CB-FL / ROMIO file domains aligned to the striping unit s (the
 *               file-system block): ROMIO's ADIOI_Calc_file_domains with its
 *               striping_unit hint. With d = ceil(N / A), domain a ends at
 *               (a + 1) * d rounded to the nearest multiple of s (a remainder of
 *               exactly s / 2 rounds up), clipped to the file; the last domain
 *               ends at the file's end. So every boundary falls between whole
 *               blocks and domains hold whole blocks (some may be empty).
 *  cyclic       CB-C, HPF CYCLIC(u) over bytes: unit k = [k u, (k + 1) u) belongs to
 *               aggregator k mod A (the last unit may be short).
 *
 * An aggregator's share is its domain's bytes in file order, addressed by a share
 * offset from 0 to fw_twophase_share_bytes(); every mapping step is O(1) except
 * fw_twophase_owner() for file-layout (O(log A)).
 *
 * Pure C11: the domains are a caller-owned struct, no allocation, no global state.
 */
#ifndef STARFISH_FW_TWOPHASE_DOMAIN_H
#define STARFISH_FW_TWOPHASE_DOMAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fw_twophase_dist {
    FW_TWOPHASE_BLOCK = 0,
    FW_TWOPHASE_FILE_LAYOUT = 1,
    FW_TWOPHASE_CYCLIC = 2
} fw_twophase_dist_t;

/* Result codes of fw_twophase_domain_init() and fw_twophase_plan_init(). */
typedef enum fw_twophase_status {
    FW_TWOPHASE_OK = 0,
    FW_TWOPHASE_ERR_DIST = 1,        /* unknown intermediate distribution */
    FW_TWOPHASE_ERR_ZERO = 2,        /* file, record size or CP count is zero */
    FW_TWOPHASE_ERR_AGGREGATORS = 3, /* more aggregators than CPs */
    FW_TWOPHASE_ERR_UNIT = 4         /* cyclic unit or file-layout stripe unit is zero */
} fw_twophase_status_t;

/* "No aggregator" (fw_twophase_cp_aggregator) and "all" (iterator selectors). */
#define FW_TWOPHASE_NONE UINT32_MAX
#define FW_TWOPHASE_ALL UINT32_MAX

typedef struct fw_twophase_domain_params {
    fw_twophase_dist_t dist;
    uint32_t cp_count;     /* P */
    uint32_t aggregators;  /* A; 0 = all P */
    uint64_t file_bytes;   /* N */
    uint64_t record_bytes; /* block: the unit of the BLOCK distribution */
    uint64_t stripe_bytes; /* file-layout: striping unit (fs.block_bytes) */
    uint64_t cyclic_bytes; /* cyclic: the unit u (twophase.cyclic_kb x 1024) */
} fw_twophase_domain_params_t;

/* Validated domains. Treat as read-only after fw_twophase_domain_init(). */
typedef struct fw_twophase_domain {
    fw_twophase_domain_params_t params; /* aggregators resolved (never 0) */
    uint64_t block_bytes;               /* block: bytes per aggregator, ceil(records / A) records */
    uint64_t fd_bytes;                  /* file-layout: ROMIO fd_size = ceil(N / A) */
    uint64_t units;                     /* cyclic: ceil(N / u) */
    uint64_t max_share_bytes;           /* the largest share */
} fw_twophase_domain_t;

/* Validates and fills *d. On error returns the fw_twophase_status_t code and writes
 * a one-line message naming the configuration key to msg (if msg_size > 0; always
 * NUL-terminated). */
int fw_twophase_domain_init(fw_twophase_domain_t *d, const fw_twophase_domain_params_t *params,
                            char *msg, size_t msg_size);

/* "block", "file-layout", "cyclic" <-> dist. parse returns false for anything else. */
bool fw_twophase_dist_parse(const char *name, fw_twophase_dist_t *dist);
const char *fw_twophase_dist_name(fw_twophase_dist_t dist);
const char *fw_twophase_status_name(int status);

static inline uint32_t fw_twophase_aggregators(const fw_twophase_domain_t *d) {
    return d->params.aggregators;
}

/* The CP aggregator a runs on, and the aggregator a CP runs (FW_TWOPHASE_NONE if it
 * is not one). */
uint32_t fw_twophase_aggregator_cp(const fw_twophase_domain_t *d, uint32_t aggregator);
uint32_t fw_twophase_cp_aggregator(const fw_twophase_domain_t *d, uint32_t cp);

/* Bytes aggregator a owns (0 for a >= A). */
uint64_t fw_twophase_share_bytes(const fw_twophase_domain_t *d, uint32_t aggregator);

/* block and file-layout: the domain [*start, *end) of aggregator a (empty: start ==
 * end). Returns false for cyclic, whose shares are not contiguous. */
bool fw_twophase_domain_range(const fw_twophase_domain_t *d, uint32_t aggregator, uint64_t *start,
                              uint64_t *end);

/* The file offset of byte share_offset (< share bytes) of aggregator a's share, and
 * in *run how many bytes from there are contiguous both in the file and in the
 * share. */
uint64_t fw_twophase_share_to_file(const fw_twophase_domain_t *d, uint32_t aggregator,
                                   uint64_t share_offset, uint64_t *run);

/* The aggregator owning file byte file_offset (< N), its offset in that share, and
 * in *run (may be NULL) the bytes from there contiguous in file and share. */
uint32_t fw_twophase_owner(const fw_twophase_domain_t *d, uint64_t file_offset,
                           uint64_t *share_offset, uint64_t *run);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_TWOPHASE_DOMAIN_H */
