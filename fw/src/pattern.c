/* HPF access patterns: see fw/include/fw/pattern.h and docs/patterns.md. */
#include "fw/pattern.h"
#include "fw/status_msg.h"

#include <stdio.h>
#include <string.h>

/* ---- one dimension ------------------------------------------------------------ */

/* Does each CP's share of the dimension occupy consecutive indices? */
static inline bool dim_contiguous(const fw_pattern_dim_t *d) {
    return d->dist != FW_DIST_CYCLIC || d->procs == 1;
}

static inline uint64_t dim_owner(const fw_pattern_dim_t *d, uint64_t g) {
    if (d->procs == 1) {
        return 0;
    }
    return d->dist == FW_DIST_CYCLIC ? g % d->procs : g / d->block;
}

static inline uint64_t dim_local(const fw_pattern_dim_t *d, uint64_t g) {
    if (d->procs == 1) {
        return g;
    }
    return d->dist == FW_DIST_CYCLIC ? g / d->procs : g % d->block;
}

static inline uint64_t dim_global(const fw_pattern_dim_t *d, uint64_t k, uint64_t l) {
    if (d->procs == 1) {
        return l;
    }
    return d->dist == FW_DIST_CYCLIC ? l * d->procs + k : k * d->block + l;
}

/* Elements owned by grid coordinate k (HPF: ceil-sized blocks, so trailing CPs may
 * hold fewer, or none). */
static inline uint64_t dim_count(const fw_pattern_dim_t *d, uint64_t k) {
    if (k >= d->procs) {
        return 0;
    }
    if (d->procs == 1) {
        return d->extent;
    }
    if (d->dist == FW_DIST_CYCLIC) {
        return k < d->extent ? (d->extent - k + d->procs - 1) / d->procs : 0;
    }
    uint64_t start = k * d->block;
    if (start >= d->extent) {
        return 0;
    }
    uint64_t left = d->extent - start;
    return left < d->block ? left : d->block;
}

/* Consecutive indices from g that have g's owner and consecutive local indices. */
static inline uint64_t dim_run(const fw_pattern_dim_t *d, uint64_t g) {
    if (!dim_contiguous(d)) {
        return 1;
    }
    uint64_t to_end = d->extent - g;
    if (d->procs == 1) {
        return to_end;
    }
    uint64_t to_block_end = d->block - g % d->block;
    return to_block_end < to_end ? to_block_end : to_end;
}

static void dim_set(fw_pattern_dim_t *d, uint64_t extent, fw_dist_t dist, uint32_t procs) {
    d->extent = extent;
    d->dist = dist;
    d->procs = dist == FW_DIST_NONE ? 1 : procs;
    d->block = dist == FW_DIST_BLOCK ? (extent + d->procs - 1) / d->procs : extent;
}

static const char *dist_name(fw_dist_t d) {
    switch (d) {
    case FW_DIST_NONE:
        return "NONE";
    case FW_DIST_BLOCK:
        return "BLOCK";
    case FW_DIST_CYCLIC:
        return "CYCLIC";
    }
    return "?";
}

/* ---- validation --------------------------------------------------------------- */

static bool parse_dist(char c, fw_dist_t *d) {
    switch (c) {
    case 'n':
        *d = FW_DIST_NONE;
        return true;
    case 'b':
        *d = FW_DIST_BLOCK;
        return true;
    case 'c':
        *d = FW_DIST_CYCLIC;
        return true;
    default:
        return false;
    }
}

#define PATTERN_LIST                                                                               \
    "ra, rn, rb, rc, rnb, rbb, rcb, rbc, rcc, rcn, wn, wb, wc, wnb, wbb, wcb, wbc, wcc, wcn "      \
    "(rnn, rnc, rbn and their w forms are taken as rn, rc, rb)"

/* Parses the name into p->name, is_write, is_all, dims and the two distributions. */
static int parse_name(fw_pattern_t *p, const char *name, fw_dist_t *row, fw_dist_t *col, char *msg,
                      size_t msg_size) {
    if (name == NULL) {
        return fw_status_msg(msg, msg_size, FW_PATTERN_ERR_NAME,
                             "no access pattern given: use " PATTERN_LIST);
    }
    size_t len = 0;
    while (len < 8 && name[len] != '\0') { /* bounded: names are 2-3 characters */
        ++len;
    }
    if ((len != 2 && len != 3) || (name[0] != 'r' && name[0] != 'w')) {
        return fw_status_msg(msg, msg_size, FW_PATTERN_ERR_NAME,
                             "unknown access pattern '%.16s': use " PATTERN_LIST, name);
    }
    p->is_write = name[0] == 'w';
    p->is_all = false;
    *row = *col = FW_DIST_NONE;
    if (len == 2 && name[1] == 'a') {
        if (p->is_write) {
            return fw_status_msg(
                msg, msg_size, FW_PATTERN_ERR_NAME,
                "access pattern 'wa' does not exist: every CP writing the whole file would "
                "overlap; use wn (one CP writes the whole file) or another w pattern");
        }
        p->is_all = true;
        p->dims = 1;
    } else if (len == 2) {
        if (!parse_dist(name[1], row)) {
            return fw_status_msg(msg, msg_size, FW_PATTERN_ERR_NAME,
                                 "unknown access pattern '%s': use " PATTERN_LIST, name);
        }
        p->dims = 1;
    } else {
        if (!parse_dist(name[1], row) || !parse_dist(name[2], col)) {
            return fw_status_msg(msg, msg_size, FW_PATTERN_ERR_NAME,
                                 "unknown access pattern '%s': use " PATTERN_LIST, name);
        }
        p->dims = 2;
        /* Redundant 2-D forms (Kotz, Table II): a NONE column dimension with
         * BLOCK/NONE rows is the 1-D pattern; NONE rows with CYCLIC columns is rc. */
        if (*col == FW_DIST_NONE && *row != FW_DIST_CYCLIC) {
            p->dims = 1;
        } else if (*row == FW_DIST_NONE && *col == FW_DIST_CYCLIC) {
            p->dims = 1;
            *row = FW_DIST_CYCLIC;
            *col = FW_DIST_NONE;
        }
    }
    p->name[0] = name[0];
    if (p->is_all) {
        p->name[1] = 'a';
        p->name[2] = '\0';
    } else if (p->dims == 1) {
        p->name[1] = "nbc"[*row];
        p->name[2] = '\0';
    } else {
        p->name[1] = "nbc"[*row];
        p->name[2] = "nbc"[*col];
    }
    p->name[3] = '\0';
    return FW_PATTERN_OK;
}

/* Columns of the automatic 2-D shape: the largest power of two that is at most
 * sqrt(records) and divides records (1280 x 1024 for 1310720 records, 40 x 32 for
 * 1280: Kotz's Table II). */
static uint64_t auto_cols(uint64_t records) {
    uint64_t c = 1;
    while (c * 2 <= records / (c * 2) && records % (c * 2) == 0) {
        c *= 2;
    }
    return c;
}

/* The most square factorisation rows x cols of P with rows >= cols. */
static void cp_grid(uint32_t cps, uint32_t *rows, uint32_t *cols) {
    uint32_t best = 1;
    for (uint32_t f = 1; (uint64_t)f * f <= cps; ++f) {
        if (cps % f == 0) {
            best = f;
        }
    }
    *cols = best;
    *rows = cps / best;
}

static int check_dim(const fw_pattern_t *p, const fw_pattern_dim_t *d, const char *what, char *msg,
                     size_t msg_size) {
    if (d->dist != FW_DIST_NONE && d->extent < d->procs) {
        return fw_status_msg(
            msg, msg_size, FW_PATTERN_ERR_TOO_MANY_CPS,
            "pattern %s: %llu %s cannot be distributed %s over %u CPs (fewer %s than "
            "CPs); use fewer CPs or a larger file%s",
            p->name, (unsigned long long)d->extent, what, dist_name(d->dist), d->procs, what,
            p->dims == 2 ? ", or choose another column count" : "");
    }
    return FW_PATTERN_OK;
}

int fw_pattern_init(fw_pattern_t *p, const char *name, uint64_t record_bytes, uint64_t file_bytes,
                    uint32_t cp_count, uint64_t cols, char *msg, size_t msg_size) {
    if (msg != NULL && msg_size > 0) {
        msg[0] = '\0';
    }
    memset(p, 0, sizeof *p);
    fw_dist_t row_dist = FW_DIST_NONE, col_dist = FW_DIST_NONE;
    int rc = parse_name(p, name, &row_dist, &col_dist, msg, msg_size);
    if (rc != FW_PATTERN_OK) {
        return rc;
    }
    if (record_bytes == 0) {
        return fw_status_msg(msg, msg_size, FW_PATTERN_ERR_ZERO,
                             "pattern %s: record size is 0 bytes", p->name);
    }
    if (file_bytes == 0) {
        return fw_status_msg(msg, msg_size, FW_PATTERN_ERR_ZERO, "pattern %s: file size is 0 bytes",
                             p->name);
    }
    if (cp_count == 0) {
        return fw_status_msg(msg, msg_size, FW_PATTERN_ERR_ZERO, "pattern %s: CP count is 0",
                             p->name);
    }
    if (file_bytes % record_bytes != 0) {
        return fw_status_msg(
            msg, msg_size, FW_PATTERN_ERR_PARTIAL_RECORD,
            "pattern %s: file of %llu bytes is not a whole number of %llu-byte records "
            "(%llu records and %llu bytes left over)",
            p->name, (unsigned long long)file_bytes, (unsigned long long)record_bytes,
            (unsigned long long)(file_bytes / record_bytes),
            (unsigned long long)(file_bytes % record_bytes));
    }
    p->record_bytes = record_bytes;
    p->file_bytes = file_bytes;
    p->cp_count = cp_count;
    p->records = file_bytes / record_bytes;

    if (p->dims == 1) {
        dim_set(&p->rows, p->records, row_dist, cp_count);
        dim_set(&p->cols, 1, FW_DIST_NONE, 1);
        return check_dim(p, &p->rows, "records", msg, msg_size);
    }

    if (cols == 0) {
        cols = auto_cols(p->records);
    } else if (cols > p->records || p->records % cols != 0) {
        return fw_status_msg(
            msg, msg_size, FW_PATTERN_ERR_COLS,
            "pattern %s: %llu columns do not divide the file's %llu records into whole "
            "rows; use a divisor of %llu, or 0 for the automatic shape",
            p->name, (unsigned long long)cols, (unsigned long long)p->records,
            (unsigned long long)p->records);
    }
    uint32_t row_procs = cp_count, col_procs = cp_count;
    if (row_dist != FW_DIST_NONE && col_dist != FW_DIST_NONE) {
        cp_grid(cp_count, &row_procs, &col_procs);
    }
    dim_set(&p->rows, p->records / cols, row_dist, row_procs);
    dim_set(&p->cols, cols, col_dist, col_procs);
    rc = check_dim(p, &p->rows, "rows", msg, msg_size);
    if (rc != FW_PATTERN_OK) {
        return rc;
    }
    return check_dim(p, &p->cols, "columns", msg, msg_size);
}

const char *fw_pattern_status_name(int status) {
    switch (status) {
    case FW_PATTERN_OK:
        return "FW_PATTERN_OK";
    case FW_PATTERN_ERR_NAME:
        return "FW_PATTERN_ERR_NAME";
    case FW_PATTERN_ERR_ZERO:
        return "FW_PATTERN_ERR_ZERO";
    case FW_PATTERN_ERR_PARTIAL_RECORD:
        return "FW_PATTERN_ERR_PARTIAL_RECORD";
    case FW_PATTERN_ERR_COLS:
        return "FW_PATTERN_ERR_COLS";
    case FW_PATTERN_ERR_TOO_MANY_CPS:
        return "FW_PATTERN_ERR_TOO_MANY_CPS";
    default:
        return "FW_PATTERN_ERR_UNKNOWN";
    }
}

int fw_pattern_describe(const fw_pattern_t *p, char *buf, size_t size) {
    unsigned long long recs = (unsigned long long)p->records;
    unsigned long long rec_bytes = (unsigned long long)p->record_bytes;
    if (p->is_all) {
        return snprintf(buf, size,
                        "%s: %llu records of %llu B; every one of %u CPs gets the whole file",
                        p->name, recs, rec_bytes, p->cp_count);
    }
    if (p->dims == 1) {
        return snprintf(buf, size, "%s: %llu records of %llu B; %s over %u CP%s", p->name, recs,
                        rec_bytes, dist_name(p->rows.dist), p->rows.procs,
                        p->rows.procs == 1 ? "" : "s");
    }
    return snprintf(
        buf, size,
        "%s: %llu x %llu records of %llu B; rows %s over %u CP%s, columns %s over %u CP%s", p->name,
        (unsigned long long)p->rows.extent, (unsigned long long)p->cols.extent, rec_bytes,
        dist_name(p->rows.dist), p->rows.procs, p->rows.procs == 1 ? "" : "s",
        dist_name(p->cols.dist), p->cols.procs, p->cols.procs == 1 ? "" : "s");
}

/* ---- per-CP queries ------------------------------------------------------------- */

void fw_pattern_cp_extent(const fw_pattern_t *p, uint32_t cp, uint64_t *rows, uint64_t *cols) {
    *rows = 0;
    *cols = 0;
    if (cp >= p->cp_count) {
        return;
    }
    if (p->is_all) {
        *rows = p->rows.extent;
        *cols = p->cols.extent;
        return;
    }
    uint64_t r = dim_count(&p->rows, cp / p->cols.procs);
    uint64_t c = dim_count(&p->cols, cp % p->cols.procs);
    if (r != 0 && c != 0) {
        *rows = r;
        *cols = c;
    }
}

uint64_t fw_pattern_cp_bytes(const fw_pattern_t *p, uint32_t cp) {
    uint64_t rows, cols;
    fw_pattern_cp_extent(p, cp, &rows, &cols);
    return rows * cols * p->record_bytes;
}

/* ---- runs ------------------------------------------------------------------------- */

/* Records from (g_row, g_col) on that are contiguous both in the file and in the
 * owner's buffer: the owner's run of columns in this row, continued into following
 * rows while the owner's part of a row ends at the last column, its part of the next
 * row starts at column 0, and the next row is its next local row. That happens for
 * whole rows (one CP across the columns: 1-D patterns, NONE columns) and, one record
 * at a time, for CYCLIC columns whose last column belongs to grid column 0. */
static uint64_t run_records(const fw_pattern_t *p, uint64_t g_row, uint64_t g_col) {
    const uint64_t ncols = p->cols.extent;
    if (p->cols.procs == 1) {
        return (dim_run(&p->rows, g_row) - 1) * ncols + (ncols - g_col);
    }
    uint64_t records = dim_run(&p->cols, g_col);
    if (g_col + records == ncols && dim_owner(&p->cols, ncols - 1) == 0 &&
        dim_run(&p->rows, g_row) >= 2) {
        records += dim_run(&p->cols, 0);
    }
    return records;
}

/* ---- chunks of one CP ------------------------------------------------------------ */

void fw_pattern_chunks_begin(fw_pattern_chunk_iter_t *it, const fw_pattern_t *p, uint32_t cp) {
    memset(it, 0, sizeof *it);
    it->p = p;
    fw_pattern_cp_extent(p, cp, &it->local_rows, &it->local_cols);
    if (!p->is_all && it->local_rows != 0) {
        it->grid_row = cp / p->cols.procs;
        it->grid_col = cp % p->cols.procs;
    }
    it->done = it->local_rows == 0;
}

bool fw_pattern_chunks_next(fw_pattern_chunk_iter_t *it, fw_pattern_chunk_t *out) {
    if (it->done) {
        return false;
    }
    const fw_pattern_t *p = it->p;
    if (p->is_all) {
        out->file_offset = 0;
        out->cp_offset = 0;
        out->length = p->file_bytes;
        it->done = true;
        return true;
    }
    const uint64_t g_row = dim_global(&p->rows, it->grid_row, it->row);
    const uint64_t g_col = dim_global(&p->cols, it->grid_col, it->col);
    const uint64_t local = it->row * it->local_cols + it->col;
    const uint64_t records = run_records(p, g_row, g_col);
    out->file_offset = (g_row * p->cols.extent + g_col) * p->record_bytes;
    out->cp_offset = local * p->record_bytes;
    out->length = records * p->record_bytes;
    const uint64_t next = local + records;
    if (it->col + records < it->local_cols) { /* common case: no division */
        it->col += records;
    } else {
        it->row = next / it->local_cols;
        it->col = next % it->local_cols;
    }
    it->done = it->row >= it->local_rows;
    return true;
}

/* ---- pieces of a file range --------------------------------------------------------- */

void fw_pattern_pieces_begin(fw_pattern_piece_iter_t *it, const fw_pattern_t *p,
                             uint64_t file_offset, uint64_t length) {
    it->p = p;
    it->pos = file_offset < p->file_bytes ? file_offset : p->file_bytes;
    it->end = length < p->file_bytes - it->pos ? it->pos + length : p->file_bytes;
    it->next_cp = 0;
}

bool fw_pattern_pieces_next(fw_pattern_piece_iter_t *it, fw_pattern_piece_t *out) {
    if (it->pos >= it->end) {
        return false;
    }
    const fw_pattern_t *p = it->p;
    if (p->is_all) {
        if (it->next_cp >= p->cp_count) {
            return false;
        }
        out->cp = it->next_cp++;
        out->cp_offset = it->pos;
        out->file_offset = it->pos;
        out->length = it->end - it->pos;
        return true;
    }
    const uint64_t s = p->record_bytes, ncols = p->cols.extent;
    const uint64_t record = it->pos / s, within = it->pos % s;
    const uint64_t g_row = record / ncols, g_col = record % ncols;
    const uint64_t k_row = dim_owner(&p->rows, g_row), k_col = dim_owner(&p->cols, g_col);
    const uint64_t local_cols = dim_count(&p->cols, k_col);
    uint64_t bytes = run_records(p, g_row, g_col) * s - within;
    if (bytes > it->end - it->pos) {
        bytes = it->end - it->pos;
    }
    out->cp = (uint32_t)(k_row * p->cols.procs + k_col);
    out->cp_offset =
        (dim_local(&p->rows, g_row) * local_cols + dim_local(&p->cols, g_col)) * s + within;
    out->file_offset = it->pos;
    out->length = bytes;
    it->pos += bytes;
    return true;
}

/* ---- chunk and stride ------------------------------------------------------------------ */

void fw_pattern_cp_shape(const fw_pattern_t *p, uint32_t cp, fw_pattern_shape_t *out) {
    memset(out, 0, sizeof *out);
    fw_pattern_chunk_iter_t it;
    fw_pattern_chunk_t c;
    uint64_t prev_start = 0;
    fw_pattern_chunks_begin(&it, p, cp);
    while (fw_pattern_chunks_next(&it, &c)) {
        if (c.length > out->max_chunk_bytes) {
            out->max_chunk_bytes = c.length;
        }
        if (out->chunk_count++ == 0) {
            prev_start = c.file_offset;
            continue;
        }
        uint64_t stride = c.file_offset - prev_start;
        prev_start = c.file_offset;
        bool seen = false;
        for (uint32_t i = 0; i < out->stride_count; ++i) {
            seen = seen || out->strides[i] == stride;
        }
        if (!seen) {
            if (out->stride_count < FW_PATTERN_MAX_STRIDES) {
                out->strides[out->stride_count++] = stride;
            } else {
                out->more_strides = true;
            }
        }
    }
}
