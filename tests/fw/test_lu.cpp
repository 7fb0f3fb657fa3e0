// The pure parts of the out-of-core LU program (fw/lu.h) and of DDIO's range
// requests (fw/ddio.h): the column-to-CP mapping, the slab bookkeeping at the edges
// (N not a multiple of P x SLAB_COLS, CPs with no columns in the last slabs), the
// float kernels against a host reference, the input matrix, and the pieces of a
// range of cyclically dealt records.
#include "fw/ddio.h"
#include "fw/lu.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

namespace {

// Every column of the slab starting at `start`, by CP, from the definitions (column c
// to CP c mod P; the slab is [start, start + P x SLAB_COLS) clipped to N).
std::vector<std::vector<uint32_t>> columns_by_cp(const fw_lu_shape_t &s, uint32_t start) {
    std::vector<std::vector<uint32_t>> out(s.cps);
    uint64_t end = std::min<uint64_t>(s.n, start + uint64_t(s.cps) * s.slab_cols);
    for (uint64_t c = start; c < end; ++c) {
        out[c % s.cps].push_back(static_cast<uint32_t>(c));
    }
    return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(owner_is_column_cyclic) {
    fw_lu_shape_t s{1024, 8, 16};
    BOOST_TEST(fw_lu_owner(&s, 0) == 0u);
    BOOST_TEST(fw_lu_owner(&s, 7) == 7u);
    BOOST_TEST(fw_lu_owner(&s, 8) == 0u);
    BOOST_TEST(fw_lu_owner(&s, 1023) == 7u);
    BOOST_TEST(fw_lu_cols_in_mem(&s) == 128u);
    BOOST_TEST(fw_lu_col_bytes(&s) == 4096u);
}

BOOST_AUTO_TEST_CASE(cp_parts_match_the_definition_at_every_start) {
    // N = 70 is not a multiple of P x SLAB_COLS = 12; the last slabs leave CPs empty.
    for (fw_lu_shape_t s :
         {fw_lu_shape_t{70, 4, 3}, fw_lu_shape_t{64, 4, 16}, fw_lu_shape_t{10, 4, 1},
          fw_lu_shape_t{5, 8, 2}, fw_lu_shape_t{64, 1, 8}}) {
        for (uint32_t start = 0; start <= s.n; ++start) {
            auto want = columns_by_cp(s, start);
            uint32_t total = 0;
            for (uint32_t cp = 0; cp < s.cps; ++cp) {
                fw_lu_part_t p = fw_lu_cp_part(&s, start, cp);
                BOOST_TEST_CONTEXT("N " << s.n << " P " << s.cps << " S " << s.slab_cols
                                        << " start " << start << " CP " << cp) {
                    BOOST_TEST(p.ncols == want[cp].size());
                    BOOST_TEST(p.ncols <= s.slab_cols);
                    for (uint32_t l = 0; l < p.ncols; ++l) {
                        BOOST_TEST(p.first + l * s.cps == want[cp][l]);
                    }
                }
                total += p.ncols;
            }
            BOOST_TEST(total == fw_lu_slab_width(&s, start));
        }
    }
}

BOOST_AUTO_TEST_CASE(cps_with_zero_columns_in_the_last_slab) {
    fw_lu_shape_t s{70, 4, 3}; // cols_in_mem 12
    // Pivot 0's slabs start at 0, 12, …, 60; the last holds columns 60..69.
    BOOST_TEST(fw_lu_slabs_of_iteration(&s, 0) == 6u);
    // Start 68: columns 68 (CP 0) and 69 (CP 1); CPs 2 and 3 hold nothing.
    BOOST_TEST(fw_lu_cp_part(&s, 68, 0).ncols == 1u);
    BOOST_TEST(fw_lu_cp_part(&s, 68, 1).ncols == 1u);
    BOOST_TEST(fw_lu_cp_part(&s, 68, 2).ncols == 0u);
    BOOST_TEST(fw_lu_cp_part(&s, 68, 3).ncols == 0u);
    BOOST_TEST(fw_lu_slab_width(&s, 70) == 0u);
    BOOST_TEST(fw_lu_cp_part(&s, 70, 0).ncols == 0u);
}

BOOST_AUTO_TEST_CASE(loop_structure_of_figure_2) {
    fw_lu_shape_t s{1024, 8, 16};
    BOOST_TEST(fw_lu_outer_iterations(&s) == 1024u - 128u);
    BOOST_TEST(fw_lu_final_start(&s) == 896u);
    BOOST_TEST(fw_lu_slabs_of_iteration(&s, 0) == 8u);
    BOOST_TEST(fw_lu_slabs_of_iteration(&s, 895) == 2u); // columns 895..1023: 129
    // The whole matrix fits in memory: no out-of-core loop, one slab of everything.
    fw_lu_shape_t fits{1024, 8, 128};
    BOOST_TEST(fw_lu_outer_iterations(&fits) == 0u);
    BOOST_TEST(fw_lu_final_start(&fits) == 0u);
    BOOST_TEST(fw_lu_total_slab_columns(&fits) == 1024u);
    // More memory than matrix.
    fw_lu_shape_t roomy{64, 4, 32};
    BOOST_TEST(fw_lu_outer_iterations(&roomy) == 0u);
    BOOST_TEST(fw_lu_slab_width(&roomy, 0) == 64u);
    // Traffic: sum over the pivots of the columns from the pivot on, plus the final slab.
    uint64_t want = 128;
    for (uint32_t i = 0; i < 896; ++i) {
        want += 1024 - i;
    }
    BOOST_TEST(fw_lu_total_slab_columns(&s) == want);
    // 2 x 4 KB x that is the paper's "nearly 4 GB" (3.94 GiB) with 16-column slabs.
    double gb = 2.0 * 4096.0 * static_cast<double>(want) / 1073741824.0;
    BOOST_TEST(gb > 3.0);
    BOOST_TEST(gb < 4.0);
}

BOOST_AUTO_TEST_CASE(input_matrix_is_strictly_diagonally_dominant_and_seeded) {
    const uint32_t n = 64;
    for (uint32_t r = 0; r < n; ++r) {
        double row = 0, col = 0;
        for (uint32_t c = 0; c < n; ++c) {
            if (c != r) {
                row += std::fabs(fw_lu_matrix_element(7, n, r, c));
                col += std::fabs(fw_lu_matrix_element(7, n, c, r));
                BOOST_TEST(std::fabs(fw_lu_matrix_element(7, n, r, c)) <= 1.0f);
            }
        }
        BOOST_TEST(fw_lu_matrix_element(7, n, r, r) > row);
        BOOST_TEST(fw_lu_matrix_element(7, n, r, r) > col);
    }
    BOOST_TEST(fw_lu_matrix_element(7, n, 3, 5) == fw_lu_matrix_element(7, n, 3, 5));
    BOOST_TEST(fw_lu_matrix_element(7, n, 3, 5) != fw_lu_matrix_element(8, n, 3, 5));
}

BOOST_AUTO_TEST_CASE(float_kernels_against_a_host_reference) {
    // The firmware's kernels applied column by column (right-looking) against a
    // Doolittle decomposition in double written from the textbook definition: the
    // float result agrees to float precision, and L U gives A back.
    const uint32_t n = 24;
    std::vector<float> a(n * n);
    std::vector<double> ref(n * n);
    for (uint32_t c = 0; c < n; ++c) {
        for (uint32_t r = 0; r < n; ++r) {
            a[c * n + r] = fw_lu_matrix_element(11, n, r, c);
            ref[c * n + r] = a[c * n + r];
        }
    }
    std::vector<float> m = a;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        BOOST_TEST(fw_lu_multipliers(&m[i * n], n, i) == n - i - 1);
        for (uint32_t k = i + 1; k < n; ++k) {
            BOOST_TEST(fw_lu_update(&m[k * n], &m[i * n], n, i) == n - i - 1);
        }
    }
    // Doolittle: U(r, c) = A(r, c) - sum_{k<r} L(r,k) U(k,c); L(r, c) = (A(r,c) - sum) / U(c,c).
    std::vector<double> L(n * n, 0.0), U(n * n, 0.0);
    for (uint32_t r = 0; r < n; ++r) {
        for (uint32_t c = r; c < n; ++c) {
            double s = ref[c * n + r];
            for (uint32_t k = 0; k < r; ++k) {
                s -= L[k * n + r] * U[c * n + k];
            }
            U[c * n + r] = s;
        }
        L[r * n + r] = 1.0;
        for (uint32_t below = r + 1; below < n; ++below) {
            double s = ref[r * n + below];
            for (uint32_t k = 0; k < r; ++k) {
                s -= L[k * n + below] * U[r * n + k];
            }
            L[r * n + below] = s / U[r * n + r];
        }
    }
    for (uint32_t c = 0; c < n; ++c) {
        for (uint32_t r = 0; r < n; ++r) {
            double want = r <= c ? U[c * n + r] : L[c * n + r];
            BOOST_TEST_CONTEXT("element (" << r << ", " << c << ")") {
                BOOST_TEST(std::fabs(m[c * n + r] - want) <= 1e-5 * std::max(1.0, std::fabs(want)));
            }
        }
    }
    // The kernels leave everything at or above row i alone.
    std::vector<float> col(a.begin(), a.begin() + n);
    std::vector<float> mult(n, 0.5f);
    fw_lu_update(col.data(), mult.data(), n, 10);
    for (uint32_t j = 0; j <= 10; ++j) {
        BOOST_TEST(col[j] == a[j]);
    }
    BOOST_TEST(col[11] == a[11] - 0.5f * a[10]);
}

BOOST_AUTO_TEST_CASE(range_pieces_deal_records_cyclically_from_first_cp) {
    // Columns 5..14 of 256-byte columns over 4 CPs: column 5 is CP 1's, at its offset 0.
    fw_ddio_range_req_t q{};
    q.file_offset = 5 * 256;
    q.length = 10 * 256;
    q.record_bytes = 256;
    q.cp_count = 4;
    q.first_cp = 1;
    // A 1 KB block from file offset 1024: bytes 1024..1279 lie before the range.
    fw_ddio_range_iter_t it;
    fw_pattern_piece_t p;
    fw_ddio_range_pieces_begin(&it, &q, 1024, 1024);
    std::vector<fw_pattern_piece_t> got;
    while (fw_ddio_range_pieces_next(&it, &p)) {
        got.push_back(p);
    }
    BOOST_TEST_REQUIRE(got.size() == 3u); // columns 5, 6, 7
    for (uint32_t k = 0; k < 3; ++k) {
        uint32_t column = 5 + k;
        BOOST_TEST(got[k].cp == column % 4);
        BOOST_TEST(got[k].file_offset == column * 256u);
        BOOST_TEST(got[k].length == 256u);
        BOOST_TEST(got[k].cp_offset == 0u); // each CP's first column of the slab
    }
    // Every byte of the range exactly once, each CP's columns packed in order.
    fw_ddio_range_pieces_begin(&it, &q, 0, 1 << 20);
    std::vector<uint64_t> next_offset(4, 0);
    uint64_t bytes = 0;
    while (fw_ddio_range_pieces_next(&it, &p)) {
        BOOST_TEST(p.cp_offset == next_offset[p.cp]);
        next_offset[p.cp] += p.length;
        bytes += p.length;
        BOOST_TEST(p.cp == (p.file_offset / 256) % 4);
    }
    BOOST_TEST(bytes == q.length);
    // Records split by a block boundary come in two pieces.
    q.record_bytes = 768;
    q.file_offset = 0;
    q.length = 4 * 768;
    q.first_cp = 0;
    fw_ddio_range_pieces_begin(&it, &q, 512, 512);
    BOOST_TEST_REQUIRE(fw_ddio_range_pieces_next(&it, &p));
    BOOST_TEST(p.cp == 0u);
    BOOST_TEST(p.cp_offset == 512u);
    BOOST_TEST(p.length == 256u);
    BOOST_TEST_REQUIRE(fw_ddio_range_pieces_next(&it, &p));
    BOOST_TEST(p.cp == 1u);
    BOOST_TEST(p.cp_offset == 0u);
    BOOST_TEST(p.length == 256u);
    BOOST_TEST(!fw_ddio_range_pieces_next(&it, &p));
}
