/* Two-phase I/O aggregators and file domains: see fw/include/fw/twophase_domain.h and
 * docs/twophase.md. */
#include "fw/twophase_domain.h"
#include "fw/status_msg.h"

#include <stdio.h>
#include <string.h>

static inline uint64_t min_u64(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

/* ---- file-layout: ROMIO's stripe-aligned file domains ------------------------- */

/* End of domain a: (a + 1) * fd_bytes to the nearest stripe boundary, as
 * ADIOI_Calc_file_domains aligns fd_end[] (a remainder of exactly half a stripe goes
 * up), clipped to the file; the last domain always ends at the file's end. */
static uint64_t layout_end(const fw_twophase_domain_t *d, uint32_t a) {
    const uint64_t n = d->params.file_bytes;
    if ((uint64_t)a + 1 >= d->params.aggregators) {
        return n;
    }
    const uint64_t s = d->params.stripe_bytes;
    uint64_t end = d->fd_bytes * ((uint64_t)a + 1);
    const uint64_t front = end % s, back = s - front;
    end = front < back ? end - front : end + back;
    return min_u64(end, n);
}

static inline uint64_t layout_start(const fw_twophase_domain_t *d, uint32_t a) {
    return a == 0 ? 0 : layout_end(d, a - 1);
}

/* The first aggregator whose domain ends after x (x < N): boundaries never
 * decrease, so a binary search over them. */
static uint32_t layout_owner(const fw_twophase_domain_t *d, uint64_t x) {
    uint32_t lo = 0, hi = d->params.aggregators - 1;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (layout_end(d, mid) > x) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* ---- setup --------------------------------------------------------------------- */

int fw_twophase_domain_init(fw_twophase_domain_t *d, const fw_twophase_domain_params_t *params,
                            char *msg, size_t msg_size) {
    if (msg != NULL && msg_size > 0) {
        msg[0] = '\0';
    }
    memset(d, 0, sizeof *d);
    const fw_twophase_domain_params_t *p = params;
    if (p->dist != FW_TWOPHASE_BLOCK && p->dist != FW_TWOPHASE_FILE_LAYOUT &&
        p->dist != FW_TWOPHASE_CYCLIC) {
        return fw_status_msg(
            msg, msg_size, FW_TWOPHASE_ERR_DIST,
            "twophase.intermediate: unknown distribution %d; use block, file-layout or "
            "cyclic",
            (int)p->dist);
    }
    if (p->file_bytes == 0 || p->record_bytes == 0 || p->cp_count == 0) {
        return fw_status_msg(
            msg, msg_size, FW_TWOPHASE_ERR_ZERO,
            "two-phase I/O: file size (%llu B), record size (%llu B) and CP count (%u) "
            "must be non-zero",
            (unsigned long long)p->file_bytes, (unsigned long long)p->record_bytes, p->cp_count);
    }
    if (p->aggregators > p->cp_count) {
        return fw_status_msg(
            msg, msg_size, FW_TWOPHASE_ERR_AGGREGATORS,
            "twophase.aggregators = %u: more aggregators than the %u CPs; use 1..%u, or "
            "0 for all",
            p->aggregators, p->cp_count, p->cp_count);
    }
    if (p->dist == FW_TWOPHASE_CYCLIC && p->cyclic_bytes == 0) {
        return fw_status_msg(
            msg, msg_size, FW_TWOPHASE_ERR_UNIT,
            "twophase.cyclic_kb = 0: the cyclic intermediate distribution needs a unit "
            "of at least 1 KB");
    }
    if (p->dist == FW_TWOPHASE_FILE_LAYOUT && p->stripe_bytes == 0) {
        return fw_status_msg(
            msg, msg_size, FW_TWOPHASE_ERR_UNIT,
            "fs.block_bytes = 0: the file-layout intermediate distribution aligns to the "
            "file-system block");
    }
    d->params = *p;
    const uint32_t a_count = p->aggregators == 0 ? p->cp_count : p->aggregators;
    d->params.aggregators = a_count;
    const uint64_t n = p->file_bytes;
    const uint64_t records = (n + p->record_bytes - 1) / p->record_bytes;
    d->block_bytes = (records + a_count - 1) / a_count * p->record_bytes;
    d->fd_bytes = (n + a_count - 1) / a_count;
    d->units = p->dist == FW_TWOPHASE_CYCLIC ? (n + p->cyclic_bytes - 1) / p->cyclic_bytes : 0;
    for (uint32_t a = 0; a < a_count; ++a) {
        const uint64_t share = fw_twophase_share_bytes(d, a);
        if (share > d->max_share_bytes) {
            d->max_share_bytes = share;
        }
    }
    return FW_TWOPHASE_OK;
}

bool fw_twophase_dist_parse(const char *name, fw_twophase_dist_t *dist) {
    if (name == NULL) {
        return false;
    }
    if (strcmp(name, "block") == 0) {
        *dist = FW_TWOPHASE_BLOCK;
    } else if (strcmp(name, "file-layout") == 0) {
        *dist = FW_TWOPHASE_FILE_LAYOUT;
    } else if (strcmp(name, "cyclic") == 0) {
        *dist = FW_TWOPHASE_CYCLIC;
    } else {
        return false;
    }
    return true;
}

const char *fw_twophase_dist_name(fw_twophase_dist_t dist) {
    switch (dist) {
    case FW_TWOPHASE_BLOCK:
        return "block";
    case FW_TWOPHASE_FILE_LAYOUT:
        return "file-layout";
    case FW_TWOPHASE_CYCLIC:
        return "cyclic";
    }
    return "?";
}

const char *fw_twophase_status_name(int status) {
    switch (status) {
    case FW_TWOPHASE_OK:
        return "FW_TWOPHASE_OK";
    case FW_TWOPHASE_ERR_DIST:
        return "FW_TWOPHASE_ERR_DIST";
    case FW_TWOPHASE_ERR_ZERO:
        return "FW_TWOPHASE_ERR_ZERO";
    case FW_TWOPHASE_ERR_AGGREGATORS:
        return "FW_TWOPHASE_ERR_AGGREGATORS";
    case FW_TWOPHASE_ERR_UNIT:
        return "FW_TWOPHASE_ERR_UNIT";
    default:
        return "FW_TWOPHASE_ERR_UNKNOWN";
    }
}

/* ---- aggregators ----------------------------------------------------------------- */

uint32_t fw_twophase_aggregator_cp(const fw_twophase_domain_t *d, uint32_t aggregator) {
    return (uint32_t)((uint64_t)aggregator * d->params.cp_count / d->params.aggregators);
}

uint32_t fw_twophase_cp_aggregator(const fw_twophase_domain_t *d, uint32_t cp) {
    /* floor(a P / A) == cp exactly for the smallest a >= cp A / P, if any. */
    const uint64_t P = d->params.cp_count, A = d->params.aggregators;
    const uint64_t a = ((uint64_t)cp * A + P - 1) / P;
    if (cp >= P || a >= A || a * P / A != cp) {
        return FW_TWOPHASE_NONE;
    }
    return (uint32_t)a;
}

/* ---- shares --------------------------------------------------------------------- */

bool fw_twophase_domain_range(const fw_twophase_domain_t *d, uint32_t aggregator, uint64_t *start,
                              uint64_t *end) {
    const uint64_t n = d->params.file_bytes;
    *start = *end = n;
    if (aggregator >= d->params.aggregators) {
        return d->params.dist != FW_TWOPHASE_CYCLIC;
    }
    switch (d->params.dist) {
    case FW_TWOPHASE_BLOCK:
        *start = min_u64((uint64_t)aggregator * d->block_bytes, n);
        *end = min_u64(*start + d->block_bytes, n);
        return true;
    case FW_TWOPHASE_FILE_LAYOUT:
        *start = layout_start(d, aggregator);
        *end = layout_end(d, aggregator);
        return true;
    case FW_TWOPHASE_CYCLIC:
        break;
    }
    return false;
}

uint64_t fw_twophase_share_bytes(const fw_twophase_domain_t *d, uint32_t aggregator) {
    if (aggregator >= d->params.aggregators) {
        return 0;
    }
    if (d->params.dist != FW_TWOPHASE_CYCLIC) {
        uint64_t start, end;
        fw_twophase_domain_range(d, aggregator, &start, &end);
        return end - start;
    }
    const uint64_t A = d->params.aggregators, u = d->params.cyclic_bytes, units = d->units;
    if (aggregator >= units) {
        return 0;
    }
    const uint64_t mine = (units - 1 - aggregator) / A + 1;
    uint64_t bytes = mine * u;
    if ((units - 1) % A == aggregator) { /* it owns the last, possibly short, unit */
        bytes -= units * u - d->params.file_bytes;
    }
    return bytes;
}

uint64_t fw_twophase_share_to_file(const fw_twophase_domain_t *d, uint32_t aggregator,
                                   uint64_t share_offset, uint64_t *run) {
    const uint64_t n = d->params.file_bytes;
    if (d->params.dist != FW_TWOPHASE_CYCLIC) {
        uint64_t start, end;
        fw_twophase_domain_range(d, aggregator, &start, &end);
        *run = end - start - share_offset;
        return start + share_offset;
    }
    const uint64_t A = d->params.aggregators, u = d->params.cyclic_bytes;
    if (A == 1) { /* one aggregator: its units follow each other in the file */
        *run = n - share_offset;
        return share_offset;
    }
    const uint64_t within = share_offset % u;
    const uint64_t file = ((share_offset / u) * A + aggregator) * u + within;
    *run = min_u64(u - within, n - file);
    return file;
}

uint32_t fw_twophase_owner(const fw_twophase_domain_t *d, uint64_t file_offset,
                           uint64_t *share_offset, uint64_t *run) {
    const uint64_t n = d->params.file_bytes, x = file_offset;
    uint32_t a = 0;
    uint64_t share = 0, left = 0;
    switch (d->params.dist) {
    case FW_TWOPHASE_BLOCK:
        a = (uint32_t)(x / d->block_bytes);
        share = x % d->block_bytes;
        left = min_u64(d->block_bytes - share, n - x);
        break;
    case FW_TWOPHASE_FILE_LAYOUT: {
        a = layout_owner(d, x);
        const uint64_t start = layout_start(d, a);
        share = x - start;
        left = layout_end(d, a) - x;
        break;
    }
    case FW_TWOPHASE_CYCLIC: {
        const uint64_t A = d->params.aggregators, u = d->params.cyclic_bytes;
        const uint64_t unit = x / u, within = x % u;
        a = (uint32_t)(unit % A);
        share = unit / A * u + within;
        left = A == 1 ? n - x : min_u64(u - within, n - x);
        break;
    }
    }
    if (share_offset != NULL) {
        *share_offset = share;
    }
    if (run != NULL) {
        *run = left;
    }
    return a;
}
