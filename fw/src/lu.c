#include "fw/lu.h"

#include "hw/rng.h"

uint32_t fw_lu_slab_width(const fw_lu_shape_t *s, uint32_t start) {
    if (start >= s->n) {
        return 0;
    }
    uint64_t rest = (uint64_t)s->n - start;
    uint64_t c = fw_lu_cols_in_mem(s);
    return (uint32_t)(rest < c ? rest : c);
}

fw_lu_part_t fw_lu_cp_part(const fw_lu_shape_t *s, uint32_t start, uint32_t cp) {
    fw_lu_part_t part = {0, 0};
    uint64_t end = (uint64_t)start + fw_lu_slab_width(s, start);
    /* The first column at or after start that CP cp owns. */
    uint64_t first = (uint64_t)start + (cp + s->cps - start % s->cps) % s->cps;
    part.first = (uint32_t)(first < end ? first : end);
    if (first < end) {
        part.ncols = (uint32_t)((end - first + s->cps - 1) / s->cps);
    }
    return part;
}

uint32_t fw_lu_outer_iterations(const fw_lu_shape_t *s) {
    uint64_t c = fw_lu_cols_in_mem(s);
    return s->n > c ? (uint32_t)(s->n - c) : 0;
}

uint32_t fw_lu_slabs_of_iteration(const fw_lu_shape_t *s, uint32_t i) {
    if (i >= s->n) {
        return 0;
    }
    uint64_t c = fw_lu_cols_in_mem(s);
    return (uint32_t)(((uint64_t)s->n - i + c - 1) / c);
}

uint32_t fw_lu_final_start(const fw_lu_shape_t *s) {
    return fw_lu_outer_iterations(s);
}

uint64_t fw_lu_total_slab_columns(const fw_lu_shape_t *s) {
    uint64_t total = 0;
    uint32_t outer = fw_lu_outer_iterations(s);
    for (uint32_t i = 0; i < outer; ++i) {
        total += (uint64_t)s->n - i;
    }
    return total + fw_lu_slab_width(s, fw_lu_final_start(s));
}

uint32_t fw_lu_multipliers(float *col, uint32_t n, uint32_t i) {
    float pivot = col[i];
    for (uint32_t j = i + 1; j < n; ++j) {
        col[j] /= pivot;
    }
    return n > i ? n - i - 1 : 0;
}

uint32_t fw_lu_update(float *col, const float *mult, uint32_t n, uint32_t i) {
    float top = col[i];
    for (uint32_t j = i + 1; j < n; ++j) {
        /* Two roundings, as the paper's M(j,k) -= mult(j) * M(i,k): never fused, so the
         * host reference reproduces the bits on any host. */
        float product = mult[j] * top;
        col[j] = col[j] - product;
    }
    return n > i ? n - i - 1 : 0;
}

float fw_lu_matrix_element(uint64_t seed, uint32_t n, uint32_t row, uint32_t col) {
    uint64_t x = seed ^ (((uint64_t)row << 32) | col);
    uint64_t h = hw_splitmix64(&x);
    /* 24 random bits: exactly representable, uniform in [0, 1). */
    float unit = (float)(h >> 40) * (1.0f / 16777216.0f);
    if (row == col) {
        return (float)n + unit;
    }
    return 2.0f * unit - 1.0f;
}
