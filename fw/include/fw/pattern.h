/* HPF access patterns (docs/reference.md §5): which bytes of a file belong to which CP, and
 * where they sit in that CP's memory.
 *
 * A file of records is a one- or two-dimensional array stored row-major; each
 * dimension is NONE, BLOCK or CYCLIC over the CPs, and each CP keeps its part
 * contiguous and row-major in its own memory. Pattern names are r/w followed by the
 * row then the column distribution (rbc = rows BLOCK, columns CYCLIC); ra gives
 * every CP the whole file. The shape, CP-grid and BLOCK conventions are in
 * docs/patterns.md.
 *
 * Pure C11, no allocation, no global state: a pattern is a caller-owned struct
 * filled by fw_pattern_init(), and the iterators are caller-owned structs too.
 * Every mapping step is O(1) (a few integer divisions), so iterating a byte range
 * costs O(pieces produced), independent of the file size.
 */
#ifndef STARFISH_FW_PATTERN_H
#define STARFISH_FW_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes of fw_pattern_init(). */
typedef enum fw_pattern_status {
    FW_PATTERN_OK = 0,
    FW_PATTERN_ERR_NAME = 1,           /* unknown or malformed pattern name */
    FW_PATTERN_ERR_ZERO = 2,           /* record size, file size or CP count is zero */
    FW_PATTERN_ERR_PARTIAL_RECORD = 3, /* file size is not a whole number of records */
    FW_PATTERN_ERR_COLS = 4,           /* explicit column count does not divide the records */
    FW_PATTERN_ERR_TOO_MANY_CPS = 5    /* a distributed dimension has fewer elements than CPs */
} fw_pattern_status_t;

typedef enum fw_dist { FW_DIST_NONE = 0, FW_DIST_BLOCK = 1, FW_DIST_CYCLIC = 2 } fw_dist_t;

/* One dimension of the record array and how it is spread over the CPs. */
typedef struct fw_pattern_dim {
    uint64_t extent; /* rows or columns */
    uint64_t block;  /* BLOCK: ceil(extent / procs) elements per CP; else extent */
    uint32_t procs;  /* CPs along this dimension (1 for NONE) */
    fw_dist_t dist;
} fw_pattern_dim_t;

/* A validated pattern. Treat as read-only after fw_pattern_init(). */
typedef struct fw_pattern {
    char name[4];      /* canonical name ("rbc"); aliases rnn/rnc/rbn become rn/rc/rb */
    bool is_write;     /* w… patterns: CPs send, the file receives */
    bool is_all;       /* ra: every CP receives the whole file */
    uint8_t dims;      /* 1 or 2 */
    uint32_t cp_count; /* P */
    uint64_t record_bytes;
    uint64_t file_bytes;
    uint64_t records;
    fw_pattern_dim_t rows; /* 1-D patterns: rows = records, one column */
    fw_pattern_dim_t cols; /* CP c sits at grid (c / cols.procs, c % cols.procs) */
} fw_pattern_t;

/* Validates and fills *p. name: ra, rn, rb, rc, rnb, rbb, rcb, rbc, rcc, rcn, wn, wb,
 * wc, wnb, wbb, wcb, wbc, wcc, wcn, and the redundant rnn/rnc/rbn (wnn/wnc/wbn), taken
 * as rn/rc/rb. cols: columns of a 2-D array, 0 = automatic (largest power of two
 * <= sqrt(records) that divides records); ignored by 1-D patterns. On error returns
 * the fw_pattern_status_t code and writes a one-line message naming the problem to
 * msg (if msg_size > 0; always NUL-terminated). */
int fw_pattern_init(fw_pattern_t *p, const char *name, uint64_t record_bytes, uint64_t file_bytes,
                    uint32_t cp_count, uint64_t cols, char *msg, size_t msg_size);

/* Symbolic name of a status code ("FW_PATTERN_ERR_COLS"). */
const char *fw_pattern_status_name(int status);

/* One-line human description ("rbc: 1280 x 1024 records of 8 B; rows BLOCK over 4
 * CPs, columns CYCLIC over 4 CPs"). Returns what snprintf returns. */
int fw_pattern_describe(const fw_pattern_t *p, char *buf, size_t size);

static inline bool fw_pattern_is_write(const fw_pattern_t *p) {
    return p->is_write;
}

/* The rows and columns of CP cp's local array (0 x 0 for a CP that owns nothing;
 * ra: the whole array). */
void fw_pattern_cp_extent(const fw_pattern_t *p, uint32_t cp, uint64_t *rows, uint64_t *cols);

/* Bytes of CP cp's buffer (0 for cp >= cp_count or a CP that owns nothing). */
uint64_t fw_pattern_cp_bytes(const fw_pattern_t *p, uint32_t cp);

/* ---- a CP's chunks, in its memory order (which is also file order) ------------
 * A chunk is a maximal run that is contiguous both in the file and in the CP's
 * buffer. */
typedef struct fw_pattern_chunk {
    uint64_t file_offset;
    uint64_t cp_offset;
    uint64_t length;
} fw_pattern_chunk_t;

typedef struct fw_pattern_chunk_iter {
    const fw_pattern_t *p;
    uint64_t grid_row, grid_col; /* the CP's grid position */
    uint64_t local_rows, local_cols;
    uint64_t row, col; /* next local element */
    bool done;
} fw_pattern_chunk_iter_t;

void fw_pattern_chunks_begin(fw_pattern_chunk_iter_t *it, const fw_pattern_t *p, uint32_t cp);
/* Writes the next chunk and returns true, or returns false at the end. */
bool fw_pattern_chunks_next(fw_pattern_chunk_iter_t *it, fw_pattern_chunk_t *out);

/* ---- the pieces of a file byte range, in file order ---------------------------
 * A piece is a maximal run of the range that goes to one CP and is contiguous in
 * its buffer. The range is clipped to the file. ra yields one piece per CP for the
 * whole range (CP 0 first), since every CP receives every byte. */
typedef struct fw_pattern_piece {
    uint32_t cp;
    uint64_t cp_offset;
    uint64_t file_offset;
    uint64_t length;
} fw_pattern_piece_t;

typedef struct fw_pattern_piece_iter {
    const fw_pattern_t *p;
    uint64_t pos, end; /* next file byte, end of range */
    uint32_t next_cp;  /* ra only */
} fw_pattern_piece_iter_t;

void fw_pattern_pieces_begin(fw_pattern_piece_iter_t *it, const fw_pattern_t *p,
                             uint64_t file_offset, uint64_t length);
bool fw_pattern_pieces_next(fw_pattern_piece_iter_t *it, fw_pattern_piece_t *out);

/* ---- chunk size and stride (Kotz's Table II / docs/reference.md §5) ----------------------
 * max_chunk_bytes: the largest chunk of the CP; strides: the distinct file
 * distances between the starts of consecutive chunks of the CP, in order of first
 * appearance (rcc has two). Costs O(chunks of the CP). */
#define FW_PATTERN_MAX_STRIDES 4
typedef struct fw_pattern_shape {
    uint64_t chunk_count;
    uint64_t max_chunk_bytes;
    uint32_t stride_count; /* distinct strides kept in strides[] */
    bool more_strides;     /* more than FW_PATTERN_MAX_STRIDES distinct strides */
    uint64_t strides[FW_PATTERN_MAX_STRIDES]; /* bytes */
} fw_pattern_shape_t;

void fw_pattern_cp_shape(const fw_pattern_t *p, uint32_t cp, fw_pattern_shape_t *out);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_PATTERN_H */
