/* Out-of-core LU decomposition (Kotz, HPDC 1995; docs/lu.md): the bookkeeping of the
 * program of the paper's Figure 2 and its floating-point kernels, pure C11 so the
 * firmware application (fw/apps.h, fw_lu_cp_main) and the host verification share
 * them.
 *
 * The matrix: N x N single-precision floats stored column-major in the file, column
 * c at file offset c * 4N. Column c belongs to CP c mod P (column-cyclic). A slab is
 * the run of cols_in_mem = P x SLAB_COLS consecutive columns [start, start +
 * cols_in_mem) clipped to N: every CP holds its columns of it (at most SLAB_COLS, as
 * few as 0 at the right edge) in its slab buffer, local column l being global column
 * first + l x P. The combined slab is contiguous in the file.
 *
 * The algorithm is right-looking, without pivoting, 0-based: pivot column i (0 … N-2)
 * gives the multipliers m_j = A(j,i) / A(i,i) (j > i), stored in place of A(j,i) (the
 * L part), and every column k > i is updated A(j,k) -= m_j x A(i,k) for j > i.
 * Element (j,k) sees its updates in pivot order whatever the slab schedule, so any
 * correct schedule produces the same bits as the sequential algorithm.
 */
#ifndef STARFISH_FW_LU_H
#define STARFISH_FW_LU_H

#include <stdbool.h>
#include <stdint.h>

/* The values each CP exports when the program ends (hal_export; docs/lu.md,
 * "Time breakdown"): the one list of their names, which the firmware exports under
 * and the simulator reads. Cycles unless named otherwise; T_START and T_END by CP 0
 * only. */
#define FW_LU_STAT_SPAN_CYCLES "lu.span_cycles"
#define FW_LU_STAT_COMPUTE_CYCLES "lu.compute_cycles"
#define FW_LU_STAT_READ_CYCLES "lu.read_cycles"
#define FW_LU_STAT_WRITE_CYCLES "lu.write_cycles"
#define FW_LU_STAT_IO_BARRIER_CYCLES "lu.io_barrier_cycles"
#define FW_LU_STAT_BROADCAST_SEND_CYCLES "lu.broadcast_send_cycles"
#define FW_LU_STAT_BROADCAST_BARRIER_CYCLES "lu.broadcast_barrier_cycles"
#define FW_LU_STAT_SYNC_CYCLES "lu.sync_cycles"
#define FW_LU_STAT_FLOPS "lu.flops"
#define FW_LU_STAT_STATUS "lu.status"
#define FW_LU_STAT_T_START_CYCLES "lu.t_start_cycles"
#define FW_LU_STAT_T_END_CYCLES "lu.t_end_cycles"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fw_lu_shape {
    uint32_t n;         /* matrix order N */
    uint32_t cps;       /* P */
    uint32_t slab_cols; /* SLAB_COLS: columns per CP per slab */
} fw_lu_shape_t;

/* A CP's part of one slab: ncols columns starting at global column first, every
 * P-th column. ncols = 0 means the CP holds nothing of this slab. */
typedef struct fw_lu_part {
    uint32_t first;
    uint32_t ncols;
} fw_lu_part_t;

/* P x SLAB_COLS. */
static inline uint64_t fw_lu_cols_in_mem(const fw_lu_shape_t *s) {
    return (uint64_t)s->cps * s->slab_cols;
}

/* The CP responsible for column c. */
static inline uint32_t fw_lu_owner(const fw_lu_shape_t *s, uint32_t col) {
    return col % s->cps;
}

/* Bytes of one column in the file and in memory (4N). */
static inline uint64_t fw_lu_col_bytes(const fw_lu_shape_t *s) {
    return 4u * (uint64_t)s->n;
}

/* Columns of the slab starting at `start` (cols_in_mem clipped to N). */
uint32_t fw_lu_slab_width(const fw_lu_shape_t *s, uint32_t start);

/* CP cp's part of the slab starting at column `start`. */
fw_lu_part_t fw_lu_cp_part(const fw_lu_shape_t *s, uint32_t start, uint32_t cp);

/* Iterations of the out-of-core loop: N - cols_in_mem pivots (0 when the matrix fits in
 * the CPs' memories); pivot i of that loop reads the slabs starting at i, i +
 * cols_in_mem, … while the start is below N. */
uint32_t fw_lu_outer_iterations(const fw_lu_shape_t *s);
/* Slabs pivot i of the out-of-core loop reads and writes. */
uint32_t fw_lu_slabs_of_iteration(const fw_lu_shape_t *s, uint32_t i);
/* The in-memory phase: one slab starting here holds the last columns; its pivots run
 * from this column to N - 2. */
uint32_t fw_lu_final_start(const fw_lu_shape_t *s);

/* Columns moved from the file (and as many back) by the whole program, summed over
 * all CPs: what the file-system traffic is, before blocks and caches. */
uint64_t fw_lu_total_slab_columns(const fw_lu_shape_t *s);

/* ---- the kernels: column-major float columns of n elements ---------------------- */

/* Pivot i: col (column i) gets its multipliers below the diagonal, col[j] /= col[i]
 * for j > i. Returns the multipliers computed (n - i - 1). */
uint32_t fw_lu_multipliers(float *col, uint32_t n, uint32_t i);

/* Column update by pivot i: col[j] -= mult[j] * col[i] for j > i. mult holds the
 * multipliers at their row index (mult[j], j > i). Returns the elements updated. */
uint32_t fw_lu_update(float *col, const float *mult, uint32_t n, uint32_t i);

/* The input matrix: strictly diagonally dominant by rows and columns (docs/lu.md),
 * so no pivoting is needed. Off-diagonal elements in [-1, 1), diagonal N + [0, 1),
 * all depending only on (seed, row, col). */
float fw_lu_matrix_element(uint64_t seed, uint32_t n, uint32_t row, uint32_t col);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_LU_H */
