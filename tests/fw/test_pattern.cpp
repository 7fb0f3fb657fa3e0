// The HPF access-pattern library (fw/pattern.h): Kotz's Table II shapes (docs/reference.md §5),
// bijection between file and CP buffers through both iterators, agreement with a
// naive reference distribution, the grid/shape/BLOCK conventions and the errors.
#include "fw/pattern.h"

#include <boost/test/unit_test.hpp>

#include "tests/support/study_patterns.h"

#include <cstdint>
#include <string>
#include <vector>

using starfish::testing::kAllPatterns;

namespace {

constexpr uint64_t kMB = 1024 * 1024;

struct Init {
    int status;
    fw_pattern_t p;
    std::string msg;
};

Init try_init(const char *name, uint64_t record, uint64_t file, uint32_t cps, uint64_t cols = 0) {
    Init r{};
    char msg[512];
    r.status = fw_pattern_init(&r.p, name, record, file, cps, cols, msg, sizeof msg);
    r.msg = msg;
    return r;
}

fw_pattern_t make(const char *name, uint64_t record, uint64_t file, uint32_t cps,
                  uint64_t cols = 0) {
    Init r = try_init(name, record, file, cps, cols);
    REQUIRE(r.status == FW_PATTERN_OK, name << ": " << r.msg);
    return r.p;
}

bool same(const fw_pattern_chunk_t &a, const fw_pattern_chunk_t &b) {
    return a.file_offset == b.file_offset && a.cp_offset == b.cp_offset && a.length == b.length;
}

std::string show(const fw_pattern_chunk_t &c) {
    return "(file " + std::to_string(c.file_offset) + ", cp " + std::to_string(c.cp_offset) +
           ", len " + std::to_string(c.length) + ")";
}

// Every CP's chunks tile its buffer [0, cp_bytes) in memory order, with file offsets
// increasing (memory order is file order) and whole records. Returns bytes of all CPs.
uint64_t check_chunks_tile_buffers(const fw_pattern_t &p) {
    uint64_t total = 0;
    for (uint32_t cp = 0; cp < p.cp_count; ++cp) {
        fw_pattern_chunk_iter_t it;
        fw_pattern_chunk_t c;
        fw_pattern_chunks_begin(&it, &p, cp);
        uint64_t next_cp = 0, last_file_end = 0;
        bool first = true;
        while (fw_pattern_chunks_next(&it, &c)) {
            REQUIRE(c.length > 0, "");
            REQUIRE(c.length % p.record_bytes == 0, "");
            REQUIRE(c.file_offset % p.record_bytes == 0, "");
            REQUIRE(c.cp_offset == next_cp, p.name << " cp " << cp << " " << show(c));
            REQUIRE(c.file_offset + c.length <= p.file_bytes, "");
            if (!first) {
                // Strictly after the previous chunk and not adjacent to it (maximal).
                REQUIRE(c.file_offset > last_file_end, p.name << " cp " << cp << " " << show(c));
            }
            first = false;
            next_cp += c.length;
            last_file_end = c.file_offset + c.length;
        }
        REQUIRE(next_cp == fw_pattern_cp_bytes(&p, cp), p.name << " cp " << cp);
        total += next_cp;
    }
    return total;
}

// Walks the file range by range (range_bytes at a time, or the whole file when 0)
// and checks that the pieces tile each range in file order and that, merged per CP
// where they continue each other, they are exactly each CP's chunks in order. Since
// the chunks tile each CP buffer, this proves the map is a bijection (ra: a copy of
// the whole file per CP) and that both iterators agree.
void check_pieces_match_chunks(const fw_pattern_t &p, uint64_t range_bytes) {
    const uint32_t P = p.cp_count;
    std::vector<fw_pattern_chunk_iter_t> chunks(P);
    std::vector<fw_pattern_chunk_t> pending(P);
    std::vector<bool> has_pending(P, false);
    for (uint32_t cp = 0; cp < P; ++cp) {
        fw_pattern_chunks_begin(&chunks[cp], &p, cp);
    }
    auto flush = [&](uint32_t cp) {
        fw_pattern_chunk_t expect;
        const bool more = fw_pattern_chunks_next(&chunks[cp], &expect);
        REQUIRE(more, p.name << " cp " << cp << ": piece beyond its chunks " << show(pending[cp]));
        REQUIRE(same(pending[cp], expect), p.name << " cp " << cp << " range " << range_bytes
                                                  << ": pieces " << show(pending[cp])
                                                  << " vs chunk " << show(expect));
    };
    const uint64_t step = range_bytes == 0 ? p.file_bytes : range_bytes;
    uint64_t pieces_total = 0;
    for (uint64_t start = 0; start < p.file_bytes; start += step) {
        const uint64_t len = std::min(step, p.file_bytes - start);
        fw_pattern_piece_iter_t it;
        fw_pattern_piece_t pc;
        fw_pattern_pieces_begin(&it, &p, start, step); // may run past the end: clipped
        uint64_t pos = start;
        uint32_t all_next_cp = 0;
        while (fw_pattern_pieces_next(&it, &pc)) {
            ++pieces_total;
            REQUIRE(pc.cp < P, "");
            REQUIRE(pc.length > 0, "");
            if (p.is_all) {
                REQUIRE(pc.cp == all_next_cp, "ra pieces go to CP 0, 1, ...");
                ++all_next_cp;
                REQUIRE(pc.file_offset == start, "");
                REQUIRE(pc.cp_offset == start, "");
                REQUIRE(pc.length == len, "");
            } else {
                REQUIRE(pc.file_offset == pos, p.name << " range at " << start);
                pos += pc.length;
                REQUIRE(pos <= start + len, "");
            }
            REQUIRE(pc.cp_offset + pc.length <= fw_pattern_cp_bytes(&p, pc.cp), "");
            fw_pattern_chunk_t &m = pending[pc.cp];
            if (has_pending[pc.cp] && m.file_offset + m.length == pc.file_offset &&
                m.cp_offset + m.length == pc.cp_offset) {
                m.length += pc.length;
                continue;
            }
            if (has_pending[pc.cp]) {
                flush(pc.cp);
            }
            m = fw_pattern_chunk_t{pc.file_offset, pc.cp_offset, pc.length};
            has_pending[pc.cp] = true;
        }
        if (p.is_all) {
            REQUIRE(all_next_cp == P, "");
        } else {
            REQUIRE(pos == start + len, p.name << ": range at " << start << " not covered");
        }
    }
    for (uint32_t cp = 0; cp < P; ++cp) {
        if (has_pending[cp]) {
            flush(cp);
        }
        fw_pattern_chunk_t extra;
        const bool more = fw_pattern_chunks_next(&chunks[cp], &extra);
        REQUIRE(!more, p.name << " cp " << cp << ": chunk " << show(extra)
                              << " not produced by any piece");
    }
    REQUIRE(pieces_total > 0, "");
}

// ---- a naive reference for the distribution (independent of the library) ------

uint64_t ref_auto_cols(uint64_t records) {
    uint64_t best = 1;
    for (uint64_t c = 1; c * c <= records; c *= 2) {
        if (records % c == 0) {
            best = c;
        }
    }
    return best;
}

// Indices of a dimension that grid coordinate k owns, in increasing order.
std::vector<uint64_t> ref_owned(char dist, uint64_t n, uint64_t procs, uint64_t k) {
    std::vector<uint64_t> out;
    if (dist == 'n') {
        if (k == 0) {
            for (uint64_t i = 0; i < n; ++i) {
                out.push_back(i);
            }
        }
    } else if (dist == 'b') {
        const uint64_t b = (n + procs - 1) / procs;
        for (uint64_t i = k * b; i < n && i < (k + 1) * b; ++i) {
            out.push_back(i);
        }
    } else {
        for (uint64_t i = k; i < n; i += procs) {
            out.push_back(i);
        }
    }
    return out;
}

struct RefOwner {
    uint32_t cp = UINT32_MAX;
    uint64_t cp_offset = 0;
};

// Owner and buffer offset of every record, built CP by CP from the HPF definitions.
std::vector<RefOwner> ref_map(const char *canonical, uint64_t records, uint64_t record_bytes,
                              uint32_t P, uint64_t cols) {
    char rd = canonical[1], cd = canonical[2] == '\0' ? 'n' : canonical[2];
    uint64_t ncols = canonical[2] == '\0' ? 1 : cols;
    uint64_t nrows = records / ncols;
    uint64_t pr = rd == 'n' ? 1 : P, pc = cd == 'n' ? 1 : P;
    if (rd != 'n' && cd != 'n') { // most square, rows get the larger factor
        pr = P;
        pc = 1;
        for (uint64_t f = 1; f <= P; ++f) {
            if (P % f == 0 && f <= P / f) {
                pc = f;
                pr = P / f;
            }
        }
    }
    std::vector<RefOwner> map(records);
    for (uint64_t kr = 0; kr < pr; ++kr) {
        for (uint64_t kc = 0; kc < pc; ++kc) {
            auto rows = ref_owned(rd, nrows, pr, kr);
            auto cs = ref_owned(cd, ncols, pc, kc);
            for (uint64_t li = 0; li < rows.size(); ++li) {
                for (uint64_t lj = 0; lj < cs.size(); ++lj) {
                    RefOwner &o = map[rows[li] * ncols + cs[lj]];
                    REQUIRE(o.cp == UINT32_MAX, ""); // owned once
                    o.cp = static_cast<uint32_t>(kr * pc + kc);
                    o.cp_offset = (li * cs.size() + lj) * record_bytes;
                }
            }
        }
    }
    for (const RefOwner &o : map) {
        REQUIRE(o.cp != UINT32_MAX, ""); // owned at all
    }
    return map;
}

// Every record (and a byte inside it) maps where the reference says.
void check_against_reference(const fw_pattern_t &p) {
    if (p.is_all) {
        return;
    }
    if (p.dims == 2) {
        REQUIRE(p.cols.extent * p.rows.extent == p.records, "");
    }
    const auto map = ref_map(p.name, p.records, p.record_bytes, p.cp_count, p.cols.extent);
    const uint64_t s = p.record_bytes, inner = s > 1 ? s / 2 + 1 : 0;
    for (uint64_t r = 0; r < p.records; ++r) {
        fw_pattern_piece_iter_t it;
        fw_pattern_piece_t pc;
        fw_pattern_pieces_begin(&it, &p, r * s + inner, 1);
        const bool got = fw_pattern_pieces_next(&it, &pc);
        REQUIRE(got, p.name << " record " << r);
        REQUIRE(pc.cp == map[r].cp, p.name << " record " << r);
        REQUIRE(pc.cp_offset == map[r].cp_offset + inner, p.name << " record " << r);
        REQUIRE(pc.length == 1u, "");
        const bool more = fw_pattern_pieces_next(&it, &pc);
        REQUIRE(!more, p.name << " record " << r);
    }
}

bool needs_more_elements(const fw_pattern_t &p) {
    auto short_dim = [](const fw_pattern_dim_t &d) {
        return d.dist != FW_DIST_NONE && d.extent < d.procs;
    };
    return short_dim(p.rows) || short_dim(p.cols);
}

} // namespace

BOOST_AUTO_TEST_SUITE(pattern)

// docs/reference.md §5 / Kotz Table II: 10 MB over 16 CPs, chunk and stride in records.
BOOST_AUTO_TEST_CASE(spec_table_chunk_and_stride) {
    struct Row {
        const char *name;
        uint64_t record, rows, cols, chunk;
        std::vector<uint64_t> strides;
    };
    const std::vector<Row> table = {
        {"rb", 8, 1310720, 0, 80 * 1024, {}},
        {"rc", 8, 1310720, 0, 1, {16}},
        {"rnb", 8, 1280, 1024, 64, {1024}},
        {"rbb", 8, 1280, 1024, 256, {1024}},
        {"rbc", 8, 1280, 1024, 1, {4}},
        {"rcn", 8, 1280, 1024, 1024, {16 * 1024}},
        {"rcb", 8, 1280, 1024, 256, {4 * 1024}},
        {"rcc", 8, 1280, 1024, 1, {4, 3 * 1024 + 4}},
        {"rb", 8192, 1280, 0, 80, {}},
        {"rc", 8192, 1280, 0, 1, {16}},
        {"rnb", 8192, 40, 32, 2, {32}},
        {"rbb", 8192, 40, 32, 8, {32}},
        {"rbc", 8192, 40, 32, 1, {4}},
        {"rcn", 8192, 40, 32, 32, {512}},
        {"rcb", 8192, 40, 32, 8, {128}},
        {"rcc", 8192, 40, 32, 1, {4, 100}},
        // The rest of Table II: the redundant forms and the whole-file patterns.
        {"rnn", 8, 1310720, 0, 1280 * 1024, {}},
        {"rnc", 8, 1310720, 0, 1, {16}},
        {"rbn", 8, 1310720, 0, 80 * 1024, {}},
        {"rnn", 8192, 1280, 0, 1280, {}},
        {"rnc", 8192, 1280, 0, 1, {16}},
        {"rbn", 8192, 1280, 0, 80, {}},
    };
    for (const Row &row : table) {
        for (const char prefix : {'r', 'w'}) {
            std::string name = std::string(1, prefix) + (row.name + 1);
            BOOST_TEST_CONTEXT(name << " record " << row.record) {
                fw_pattern_t p = make(name.c_str(), row.record, 10 * kMB, 16);
                BOOST_TEST(p.is_write == (prefix == 'w'));
                BOOST_TEST(p.rows.extent == row.rows);
                BOOST_TEST(p.cols.extent == (row.cols == 0 ? 1 : row.cols));
                BOOST_TEST(p.dims == (row.cols == 0 ? 1 : 2));
                const uint32_t owners =
                    p.rows.dist == FW_DIST_NONE && p.cols.dist == FW_DIST_NONE ? 1 : 16;
                for (uint32_t cp = 0; cp < owners; ++cp) { // every CP has the same shape
                    fw_pattern_shape_t s;
                    fw_pattern_cp_shape(&p, cp, &s);
                    BOOST_TEST(s.max_chunk_bytes == row.chunk * row.record, "cp " << cp);
                    BOOST_TEST_REQUIRE(s.stride_count == row.strides.size(), "cp " << cp);
                    BOOST_TEST(!s.more_strides);
                    for (size_t i = 0; i < row.strides.size(); ++i) {
                        BOOST_TEST(s.strides[i] == row.strides[i] * row.record, "cp " << cp);
                    }
                }
            }
        }
    }
    // ra and rn: the whole file (1280 blocks) is one chunk.
    for (const char *name : {"ra", "rn", "wn"}) {
        fw_pattern_t p = make(name, 8, 10 * kMB, 16);
        fw_pattern_shape_t s;
        fw_pattern_cp_shape(&p, 0, &s);
        BOOST_TEST(s.max_chunk_bytes == 1280u * 8192u, name);
        BOOST_TEST(s.stride_count == 0u, name);
        fw_pattern_cp_shape(&p, 15, &s);
        BOOST_TEST(s.max_chunk_bytes == (p.is_all ? 1280u * 8192u : 0u), name);
    }
}

// Bijection between the file and the CP buffers for every pattern, through both
// iterators, on the paper's configuration (10 MB, 16 CPs, both record sizes).
BOOST_AUTO_TEST_CASE(bijection_paper_configuration) {
    for (const char *name : kAllPatterns) {
        for (uint64_t record : {8u, 8192u}) {
            BOOST_TEST_CONTEXT(name << " record " << record) {
                fw_pattern_t p = make(name, record, 10 * kMB, 16);
                const uint64_t total = check_chunks_tile_buffers(p);
                BOOST_TEST(total == (p.is_all ? 16 : 1) * p.file_bytes);
                check_pieces_match_chunks(p, 0);
                check_pieces_match_chunks(p, 8192);
            }
        }
    }
}

// The same on many smaller shapes: P = 1, 4, 16, 64 and non-square 6, 12, 7; record
// counts that are square, uneven (rows not a multiple of the CPs, cols not a power
// of two), one-column; ranges of a block and of an odd size cutting records; and
// every record checked against the naive reference distribution.
BOOST_AUTO_TEST_CASE(bijection_many_shapes) {
    struct Shape {
        uint64_t records, cols; // cols 0 = automatic
    };
    const std::vector<Shape> shapes = {
        {4096, 0},  // 64 x 64
        {6000, 0},  // 375 x 16
        {1280, 0},  // 40 x 32
        {4100, 0},  // 1025 x 4
        {5003, 0},  // prime: 5003 x 1
        {3000, 40}, // 75 x 40, explicit columns
        {130, 13},  // 10 x 13, explicit columns
        {100, 0},   // 25 x 4
    };
    unsigned valid = 0, rejected = 0;
    for (const char *name : kAllPatterns) {
        for (uint32_t P : {1u, 4u, 16u, 64u, 6u, 12u, 7u}) {
            for (uint64_t record : {8u, 8192u}) {
                for (const Shape &shape : shapes) {
                    BOOST_TEST_CONTEXT(name << " P=" << P << " record " << record << " records "
                                            << shape.records << " cols " << shape.cols) {
                        Init r = try_init(name, record, shape.records * record, P, shape.cols);
                        if (r.status != FW_PATTERN_OK) {
                            // The only acceptable refusal: a distributed dimension
                            // shorter than its CPs.
                            REQUIRE(r.status == FW_PATTERN_ERR_TOO_MANY_CPS, r.msg);
                            ++rejected;
                            continue;
                        }
                        ++valid;
                        const fw_pattern_t &p = r.p;
                        BOOST_TEST_REQUIRE(!needs_more_elements(p));
                        if (p.dims == 2 && shape.cols == 0) {
                            BOOST_TEST_REQUIRE(p.cols.extent == ref_auto_cols(shape.records));
                        }
                        const uint64_t total = check_chunks_tile_buffers(p);
                        BOOST_TEST_REQUIRE(total == (p.is_all ? P : 1) * p.file_bytes);
                        check_pieces_match_chunks(p, 0);
                        check_pieces_match_chunks(p, 8192);
                        check_pieces_match_chunks(p, 3 * record + 5);
                        if (shape.records <= 6000) {
                            check_against_reference(p);
                        }
                    }
                }
            }
        }
    }
    BOOST_TEST_MESSAGE(valid << " shapes checked, " << rejected << " refused");
    BOOST_TEST(valid > 1000u);
    BOOST_TEST(rejected > 0u);
}

// Each pattern is valid with P = 64 on some file (so the sweep above is not
// vacuous for large CP counts).
BOOST_AUTO_TEST_CASE(every_pattern_accepts_64_cps) {
    for (const char *name : kAllPatterns) {
        for (uint64_t record : {8u, 8192u}) {
            Init r = try_init(name, record, 4096 * record, 64);
            BOOST_TEST(r.status == FW_PATTERN_OK, name << " " << record << ": " << r.msg);
        }
    }
}

BOOST_AUTO_TEST_CASE(automatic_shape_rule) {
    // cols = largest power of two <= sqrt(records) that divides records.
    const std::vector<std::pair<uint64_t, uint64_t>> cases = {
        {1310720, 1024}, {1280, 32}, {4096, 64}, {8192, 64}, {1000, 8},
        {999, 1},        {2, 1},     {4, 2},     {6000, 16}, {4100, 4},
    };
    for (auto [records, cols] : cases) {
        fw_pattern_t p = make("rcn", 8, records * 8, 1);
        BOOST_TEST(p.cols.extent == cols, records << " records");
        BOOST_TEST(p.rows.extent == records / cols, records << " records");
        BOOST_TEST(ref_auto_cols(records) == cols);
    }
    // An explicit column count overrides; 1-D patterns ignore it.
    fw_pattern_t p = make("rbb", 8, 1310720 * 8, 16, 2048);
    BOOST_TEST(p.cols.extent == 2048u);
    BOOST_TEST(p.rows.extent == 640u);
    p = make("rb", 8, 1310720 * 8, 16, 7);
    BOOST_TEST(p.dims == 1);
    BOOST_TEST(p.cols.extent == 1u);
}

BOOST_AUTO_TEST_CASE(cp_grid_rule) {
    // Most square factorisation, the larger factor on the rows.
    const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> cases = {
        {1, 1, 1}, {2, 2, 1},  {4, 2, 2},  {6, 3, 2},  {7, 7, 1},
        {8, 4, 2}, {12, 4, 3}, {16, 4, 4}, {18, 6, 3}, {64, 8, 8},
    };
    for (auto [P, pr, pc] : cases) {
        for (const char *name : {"rbb", "rbc", "rcb", "rcc"}) {
            fw_pattern_t p = make(name, 8, 4096 * 8, P);
            BOOST_TEST(p.rows.procs == pr, name << " P=" << P);
            BOOST_TEST(p.cols.procs == pc, name << " P=" << P);
        }
    }
    // One dimension NONE: the other uses all P.
    fw_pattern_t p = make("rnb", 8, 4096 * 8, 12);
    BOOST_TEST(p.rows.procs == 1u);
    BOOST_TEST(p.cols.procs == 12u);
    p = make("rcn", 8, 4096 * 8, 12);
    BOOST_TEST(p.rows.procs == 12u);
    BOOST_TEST(p.cols.procs == 1u);
    // CP numbering is row-major over the grid: CP 5 of a 3 x 2 grid is (2, 1).
    p = make("rbb", 8, 6 * 4 * 8, 6, 4); // 6 x 4 records
    uint64_t rows, cols;
    fw_pattern_cp_extent(&p, 5, &rows, &cols);
    BOOST_TEST(rows == 2u);
    BOOST_TEST(cols == 2u);
    fw_pattern_chunk_iter_t it;
    fw_pattern_chunk_t c;
    fw_pattern_chunks_begin(&it, &p, 5);
    BOOST_TEST_REQUIRE(fw_pattern_chunks_next(&it, &c));
    BOOST_TEST(c.file_offset == (4u * 4 + 2) * 8); // row 4, column 2
}

BOOST_AUTO_TEST_CASE(block_rule_ceil_sized) {
    // 10 rows BLOCK over 4 CPs: 3, 3, 3, 1.  9 over 4: 3, 3, 3, 0 (HPF allows an
    // empty CP; only fewer elements than CPs is refused).
    fw_pattern_t p = make("rb", 8, 10 * 8, 4);
    BOOST_TEST(p.rows.block == 3u);
    const uint64_t ten[] = {24, 24, 24, 8};
    for (uint32_t cp = 0; cp < 4; ++cp) {
        BOOST_TEST(fw_pattern_cp_bytes(&p, cp) == ten[cp]);
    }
    p = make("rb", 8, 9 * 8, 4);
    BOOST_TEST(fw_pattern_cp_bytes(&p, 3) == 0u);
    fw_pattern_chunk_iter_t it;
    fw_pattern_chunk_t c;
    fw_pattern_chunks_begin(&it, &p, 3);
    BOOST_TEST(!fw_pattern_chunks_next(&it, &c));
    check_pieces_match_chunks(p, 0);
    // CYCLIC: 10 over 4 gives 3, 3, 2, 2.
    p = make("rc", 8, 10 * 8, 4);
    const uint64_t cyc[] = {24, 24, 16, 16};
    for (uint32_t cp = 0; cp < 4; ++cp) {
        BOOST_TEST(fw_pattern_cp_bytes(&p, cp) == cyc[cp]);
    }
    // Out-of-range CP owns nothing.
    BOOST_TEST(fw_pattern_cp_bytes(&p, 4) == 0u);
}

// Chunks are maximal: with CYCLIC columns whose last column belongs to grid column
// 0, that CP's last record of a row and first of its next row are contiguous in the
// file and in its buffer, so they form one 2-record chunk.
BOOST_AUTO_TEST_CASE(cyclic_columns_join_across_rows) {
    fw_pattern_t p = make("rbc", 8, 10 * 13 * 8, 4, 13); // 10 x 13, grid 2 x 2
    fw_pattern_shape_t s;
    fw_pattern_cp_shape(&p, 0, &s);
    BOOST_TEST(s.max_chunk_bytes == 16u);
    fw_pattern_chunk_iter_t it;
    fw_pattern_chunk_t c;
    fw_pattern_chunks_begin(&it, &p, 0);
    for (int i = 0; i < 7; ++i) { // columns 0, 2, ..., 12 of row 0: the 7th joins row 1
        BOOST_TEST_REQUIRE(fw_pattern_chunks_next(&it, &c));
    }
    BOOST_TEST(c.file_offset == 12u * 8);
    BOOST_TEST(c.cp_offset == 6u * 8);
    BOOST_TEST(c.length == 16u);
    BOOST_TEST_REQUIRE(fw_pattern_chunks_next(&it, &c)); // row 1, column 2
    BOOST_TEST(c.file_offset == 15u * 8);
    BOOST_TEST(c.cp_offset == 8u * 8);
    fw_pattern_cp_shape(&p, 1, &s); // grid column 1 has single records only
    BOOST_TEST(s.max_chunk_bytes == 8u);
    check_pieces_match_chunks(p, 0);
    check_pieces_match_chunks(p, 8);
}

BOOST_AUTO_TEST_CASE(names_and_aliases) {
    const std::vector<std::pair<const char *, const char *>> aliases = {
        {"rnn", "rn"}, {"rnc", "rc"},  {"rbn", "rb"},  {"wnn", "wn"}, {"wnc", "wc"},
        {"wbn", "wb"}, {"rcn", "rcn"}, {"rnb", "rnb"}, {"ra", "ra"},
    };
    for (auto [given, canonical] : aliases) {
        fw_pattern_t p = make(given, 8, 4096 * 8, 4);
        BOOST_TEST(std::string(p.name) == canonical);
    }
    fw_pattern_t p = make("wcc", 8, 4096 * 8, 4);
    BOOST_TEST(fw_pattern_is_write(&p));
    p = make("ra", 8, 4096 * 8, 4);
    BOOST_TEST(!fw_pattern_is_write(&p));
    BOOST_TEST(p.is_all);
    char buf[200];
    p = make("rbc", 8, 10 * kMB, 16);
    fw_pattern_describe(&p, buf, sizeof buf);
    BOOST_TEST(std::string(buf) ==
               "rbc: 1280 x 1024 records of 8 B; rows BLOCK over 4 CPs, columns CYCLIC over 4 CPs");
}

BOOST_AUTO_TEST_CASE(range_clipping_and_ra) {
    fw_pattern_t p = make("ra", 8, 100 * 8, 3);
    fw_pattern_piece_iter_t it;
    fw_pattern_piece_t pc;
    fw_pattern_pieces_begin(&it, &p, 792, 8192); // clipped to the last record
    for (uint32_t cp = 0; cp < 3; ++cp) {
        BOOST_TEST_REQUIRE(fw_pattern_pieces_next(&it, &pc));
        BOOST_TEST(pc.cp == cp);
        BOOST_TEST(pc.file_offset == 792u);
        BOOST_TEST(pc.cp_offset == 792u);
        BOOST_TEST(pc.length == 8u);
    }
    BOOST_TEST(!fw_pattern_pieces_next(&it, &pc));
    fw_pattern_pieces_begin(&it, &p, 800, 10); // entirely past the end
    BOOST_TEST(!fw_pattern_pieces_next(&it, &pc));
    p = make("rb", 8, 100 * 8, 3);
    fw_pattern_pieces_begin(&it, &p, 0, UINT64_MAX); // no overflow
    uint64_t bytes = 0;
    while (fw_pattern_pieces_next(&it, &pc)) {
        bytes += pc.length;
    }
    BOOST_TEST(bytes == 800u);
}

BOOST_AUTO_TEST_CASE(errors_have_codes_and_messages) {
    struct Case {
        const char *name;
        uint64_t record, file;
        uint32_t cps;
        uint64_t cols;
        int status;
        std::vector<std::string> words; // the message names the problem
    };
    const std::vector<Case> cases = {
        {"rxx", 8, 4096, 4, 0, FW_PATTERN_ERR_NAME, {"unknown access pattern", "'rxx'", "rbc"}},
        {"rab", 8, 4096, 4, 0, FW_PATTERN_ERR_NAME, {"'rab'"}},
        {"qbb", 8, 4096, 4, 0, FW_PATTERN_ERR_NAME, {"'qbb'"}},
        {"r", 8, 4096, 4, 0, FW_PATTERN_ERR_NAME, {"'r'"}},
        {"", 8, 4096, 4, 0, FW_PATTERN_ERR_NAME, {"''"}},
        {"rbbb", 8, 4096, 4, 0, FW_PATTERN_ERR_NAME, {"'rbbb'"}},
        {"RBB", 8, 4096, 4, 0, FW_PATTERN_ERR_NAME, {"'RBB'"}},
        {"wa", 8, 4096, 4, 0, FW_PATTERN_ERR_NAME, {"'wa'", "wn"}},
        {"rbb", 0, 4096, 4, 0, FW_PATTERN_ERR_ZERO, {"record size"}},
        {"rbb", 8, 0, 4, 0, FW_PATTERN_ERR_ZERO, {"file size"}},
        {"rbb", 8, 4096, 0, 0, FW_PATTERN_ERR_ZERO, {"CP count"}},
        {"rb", 8192, 1000, 1, 0, FW_PATTERN_ERR_PARTIAL_RECORD, {"1000 bytes", "8192-byte"}},
        {"rbb", 8192, 10 * kMB, 16, 33, FW_PATTERN_ERR_COLS, {"33 columns", "1280 records"}},
        {"rbb", 8, 64, 1, 16, FW_PATTERN_ERR_COLS, {"16 columns", "8 records"}},
        {"rcn",
         8192,
         10 * kMB,
         64,
         0,
         FW_PATTERN_ERR_TOO_MANY_CPS,
         {"40 rows", "CYCLIC", "64 CPs"}},
        {"wnb",
         8192,
         10 * kMB,
         64,
         0,
         FW_PATTERN_ERR_TOO_MANY_CPS,
         {"32 columns", "BLOCK", "64 CPs"}},
        {"rb", 8192, 10 * 8192, 16, 0, FW_PATTERN_ERR_TOO_MANY_CPS, {"10 records", "16 CPs"}},
        {"rbb", 8192, 64 * 8192, 100, 0, FW_PATTERN_ERR_TOO_MANY_CPS, {"8 rows", "10 CPs"}},
        {"rcc", 8, 999 * 8, 4, 0, FW_PATTERN_ERR_TOO_MANY_CPS, {"1 columns", "column count"}},
    };
    for (const Case &c : cases) {
        BOOST_TEST_CONTEXT("'" << c.name << "' record " << c.record << " file " << c.file
                               << " P=" << c.cps << " cols " << c.cols) {
            Init r = try_init(c.name, c.record, c.file, c.cps, c.cols);
            BOOST_TEST(r.status == c.status, fw_pattern_status_name(r.status) << ": " << r.msg);
            for (const std::string &w : c.words) {
                BOOST_TEST(r.msg.find(w) != std::string::npos, "'" << w << "' in: " << r.msg);
            }
        }
    }
    // NULL name, NULL or tiny message buffers.
    fw_pattern_t p;
    char tiny[8];
    BOOST_TEST(fw_pattern_init(&p, nullptr, 8, 64, 1, 0, tiny, sizeof tiny) == FW_PATTERN_ERR_NAME);
    BOOST_TEST(std::string(tiny).size() == 7u);
    BOOST_TEST(fw_pattern_init(&p, "rzz", 8, 64, 1, 0, nullptr, 0) == FW_PATTERN_ERR_NAME);
    BOOST_TEST(std::string(fw_pattern_status_name(FW_PATTERN_ERR_COLS)) == "FW_PATTERN_ERR_COLS");
    char msg[64] = "stale";
    BOOST_TEST(fw_pattern_init(&p, "rbb", 8, 4096 * 8, 4, 0, msg, sizeof msg) == FW_PATTERN_OK);
    BOOST_TEST(msg[0] == '\0');
}

BOOST_AUTO_TEST_SUITE_END()
