// Two-phase I/O and collective buffering planning (fw/twophase_domain.h,
// fw/twophase_plan.h): the aggregator placement and the three intermediate
// distributions, rounds, I/O ranges and the permutation, checked by moving every
// byte of small files through the plan (read and write directions) for every pattern,
// P = 1, 4, 16, both record sizes, aggregators 1, 4 and all, and buffers of 64 KB and
// unlimited; the paper's 2PIO (A = P, block, one round) reproduces the rb distribution.
#include "fw/twophase_plan.h"

#include <boost/test/unit_test.hpp>

#include "tests/support/study_patterns.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using starfish::testing::kAllPatterns;

namespace {

constexpr uint64_t kKB = 1024;
constexpr uint32_t kUnset = UINT32_MAX;

fw_pattern_t make_pattern(const char *name, uint64_t record, uint64_t file, uint32_t cps) {
    fw_pattern_t p;
    char msg[256];
    const int rc = fw_pattern_init(&p, name, record, file, cps, 0, msg, sizeof msg);
    REQUIRE(rc == FW_PATTERN_OK, name << ": " << msg);
    return p;
}

fw_twophase_config_t config(fw_twophase_dist_t dist, uint32_t aggregators, uint64_t buffer,
                            uint64_t cyclic = 0, uint64_t stripe = 8192) {
    fw_twophase_config_t c = fw_twophase_config_paper();
    c.intermediate = dist;
    c.aggregators = aggregators;
    c.buffer_bytes = buffer;
    c.cyclic_bytes = cyclic;
    c.stripe_bytes = stripe;
    return c;
}

fw_twophase_plan_t make_plan(const fw_pattern_t &p, const fw_twophase_config_t &c) {
    fw_twophase_plan_t plan;
    char msg[256];
    const int rc = fw_twophase_plan_init(&plan, &p, &c, msg, sizeof msg);
    REQUIRE(rc == FW_TWOPHASE_OK, msg);
    return plan;
}

std::vector<fw_twophase_io_t> io_ranges(const fw_twophase_plan_t &plan, uint32_t round,
                                        uint32_t aggregator) {
    std::vector<fw_twophase_io_t> out;
    fw_twophase_io_iter_t it;
    fw_twophase_io_t r;
    fw_twophase_io_begin(&it, &plan, round, aggregator);
    while (fw_twophase_io_next(&it, &r)) {
        out.push_back(r);
    }
    return out;
}

std::vector<fw_twophase_piece_t> pieces(const fw_twophase_plan_t &plan, uint32_t round,
                                        uint32_t aggregator) {
    std::vector<fw_twophase_piece_t> out;
    fw_twophase_piece_iter_t it;
    fw_twophase_piece_t pc;
    fw_twophase_pieces_begin(&it, &plan, round, aggregator);
    while (fw_twophase_pieces_next(&it, &pc)) {
        out.push_back(pc);
    }
    return out;
}

bool same(const fw_twophase_io_t &a, const fw_twophase_io_t &b) {
    return a.aggregator == b.aggregator && a.file_offset == b.file_offset &&
           a.buf_offset == b.buf_offset && a.length == b.length;
}

using Interval = std::pair<uint64_t, uint64_t>; // start, length

// The intervals, sorted, tile [0, total) exactly once.
void require_tiling(std::vector<Interval> &v, uint64_t total, const char *what) {
    if (!std::is_sorted(v.begin(), v.end())) {
        std::sort(v.begin(), v.end());
    }
    uint64_t next = 0;
    for (const Interval &i : v) {
        REQUIRE(i.first == next,
                what << ": byte " << next << " covered " << (i.first < next ? "twice" : "never"));
        next += i.second;
    }
    REQUIRE(next == total, what << ": bytes from " << next << " to " << total << " never covered");
}

// The aggregators' shares tile the file exactly once, and the share <-> file maps
// (fw_twophase_share_to_file, fw_twophase_owner) agree.
void check_domains(const fw_twophase_domain_t &d) {
    const uint64_t n = d.params.file_bytes;
    const uint32_t A = fw_twophase_aggregators(&d);
    std::vector<Interval> cover;
    uint64_t total = 0, largest = 0, prev_end = 0;
    for (uint32_t a = 0; a < A; ++a) {
        const uint64_t share = fw_twophase_share_bytes(&d, a);
        total += share;
        largest = std::max(largest, share);
        uint64_t start = 0, end = 0;
        if (fw_twophase_domain_range(&d, a, &start, &end)) {
            REQUIRE(start == prev_end, "domains follow each other, aggregator " << a);
            REQUIRE(end - start == share, "");
            prev_end = end;
            if (d.params.dist == FW_TWOPHASE_FILE_LAYOUT && a + 1 < A) {
                REQUIRE(end % d.params.stripe_bytes == 0 || end == n, "stripe-aligned end");
            }
        } else {
            REQUIRE(d.params.dist == FW_TWOPHASE_CYCLIC, "");
        }
        for (uint64_t s = 0; s < share;) {
            uint64_t run = 0, owner_share = 0, owner_run = 0;
            const uint64_t f = fw_twophase_share_to_file(&d, a, s, &run);
            REQUIRE(run > 0 && s + run <= share && f + run <= n, "aggregator " << a << " s " << s);
            REQUIRE(fw_twophase_owner(&d, f, &owner_share, &owner_run) == a, "file " << f);
            REQUIRE(owner_share == s && owner_run == run, "file " << f);
            cover.push_back({f, run});
            s += run;
        }
    }
    REQUIRE(prev_end == n || d.params.dist == FW_TWOPHASE_CYCLIC, "");
    REQUIRE(total == n, "shares sum to the file");
    REQUIRE(largest == d.max_share_bytes, "");
    require_tiling(cover, n, "aggregator domains");
}

// What the permutation delivered, for comparison with fw_twophase_count().
struct Tally {
    fw_twophase_counts_t c{};
    std::vector<fw_twophase_pair_t> pairs;
};

void tally(Tally &t, const fw_twophase_piece_t &pc, uint32_t P) {
    ++t.c.pieces;
    t.c.bytes += pc.length;
    if (fw_twophase_piece_is_local(&pc)) {
        ++t.c.local_pieces;
        t.c.local_bytes += pc.length;
    } else {
        ++t.c.remote_pieces;
        t.c.remote_bytes += pc.length;
    }
    fw_twophase_pair_t &pair = t.pairs[size_t(pc.aggregator) * P + pc.cp];
    ++pair.pieces;
    pair.bytes += pc.length;
}

bool same(const fw_twophase_counts_t &a, const fw_twophase_counts_t &b) {
    return a.io_ranges == b.io_ranges && a.io_bytes == b.io_bytes && a.pieces == b.pieces &&
           a.bytes == b.bytes && a.local_pieces == b.local_pieces &&
           a.local_bytes == b.local_bytes && a.remote_pieces == b.remote_pieces &&
           a.remote_bytes == b.remote_bytes;
}

// The piece's file range maps, by the pattern alone, to the piece's CP and CP offset.
void check_piece_against_pattern(const fw_pattern_t &p, const fw_twophase_piece_t &pc) {
    fw_pattern_piece_iter_t it;
    fw_pattern_piece_t ref;
    fw_pattern_pieces_begin(&it, &p, pc.file_offset, pc.length);
    if (p.is_all) {
        REQUIRE(pc.cp_offset == pc.file_offset, "ra keeps file offsets");
        return;
    }
    const bool got = fw_pattern_pieces_next(&it, &ref);
    REQUIRE(got && ref.cp == pc.cp && ref.cp_offset == pc.cp_offset && ref.length == pc.length,
            p.name << " piece at file " << pc.file_offset << " len " << pc.length << " cp " << pc.cp
                   << " cp_offset " << pc.cp_offset << " vs pattern cp " << ref.cp << " cp_offset "
                   << ref.cp_offset << " len " << ref.length);
}

// The plan's structure, with intervals (cheap enough for the full sweep):
//  * rounds: every aggregator's round fits the buffer, rounds 0..R-1 all carry data;
//  * I/O ranges: inside the aggregator's domain at the right share offset, filling
//    its round's buffer in order, and over all rounds tiling the file exactly once
//    (ra too);
//  * pieces: tiling each I/O range in order at the matching buffer offsets (ra: the
//    whole range once per CP, CP 0 first), each mapping its file range to its CP
//    and CP offset exactly as the pattern does, and together tiling every CP's
//    buffer exactly once (ra: the whole file per CP);
//  * fw_twophase_count() agrees with the pieces.
// So every byte of every CP's part is moved exactly once, between the right file
// offset (through the collective buffer) and the right CP offset.
void check_plan(const fw_twophase_plan_t &plan) {
    const fw_pattern_t &p = plan.pattern;
    const fw_twophase_domain_t &d = plan.domain;
    const uint64_t n = p.file_bytes;
    const uint32_t P = p.cp_count, A = fw_twophase_aggregators(&d);
    const uint64_t buffer = fw_twophase_buffer_bytes(&plan);
    REQUIRE(plan.broadcast == p.is_all, "");
    if (plan.buffer_bytes != 0) {
        REQUIRE(buffer <= plan.buffer_bytes, "");
    }
    check_domains(d);

    std::vector<Interval> io_cover;
    std::vector<std::vector<Interval>> cp_cover(P);
    Tally t;
    t.pairs.assign(size_t(A) * P, fw_twophase_pair_t{0, 0});
    uint32_t rounds_with_data = 0;
    for (uint32_t r = 0; r < fw_twophase_rounds(&plan); ++r) {
        std::vector<fw_twophase_io_t> all_ranges;
        bool any = false;
        for (uint32_t a = 0; a < A; ++a) {
            uint64_t share_start = 0;
            const uint64_t round_bytes = fw_twophase_round_bytes(&plan, r, a, &share_start);
            REQUIRE(round_bytes <= buffer, "round " << r << " aggregator " << a);
            REQUIRE((round_bytes > 0) == (r < fw_twophase_aggregator_rounds(&plan, a)), "");
            any = any || round_bytes > 0;
            const std::vector<fw_twophase_io_t> ranges = io_ranges(plan, r, a);
            all_ranges.insert(all_ranges.end(), ranges.begin(), ranges.end());
            uint64_t next_buf = 0;
            for (const fw_twophase_io_t &io : ranges) {
                REQUIRE(io.aggregator == a && io.length > 0, "");
                REQUIRE(io.buf_offset == next_buf, "ranges fill the buffer in order");
                next_buf += io.length;
                uint64_t owner_share = 0, owner_run = 0;
                REQUIRE(fw_twophase_owner(&d, io.file_offset, &owner_share, &owner_run) == a,
                        "I/O range inside the aggregator's domain");
                REQUIRE(owner_share == share_start + io.buf_offset && owner_run >= io.length, "");
                io_cover.push_back({io.file_offset, io.length});
            }
            REQUIRE(next_buf == round_bytes, "round " << r << " aggregator " << a);

            size_t ri = 0;    // the range the next piece belongs to
            uint64_t pos = 0; // bytes of it already in pieces
            uint32_t next_cp = 0;
            fw_twophase_piece_iter_t it;
            fw_twophase_piece_t pc;
            fw_twophase_pieces_begin(&it, &plan, r, a);
            while (fw_twophase_pieces_next(&it, &pc)) {
                REQUIRE(ri < ranges.size(), "piece beyond the round's ranges");
                const fw_twophase_io_t &io = ranges[ri];
                REQUIRE(pc.aggregator == a && pc.aggregator_cp == fw_twophase_aggregator_cp(&d, a),
                        "");
                if (p.is_all) {
                    REQUIRE(pc.cp == next_cp && pc.file_offset == io.file_offset &&
                                pc.buf_offset == io.buf_offset && pc.length == io.length,
                            "ra: the whole range to CP " << next_cp);
                    if (++next_cp == P) {
                        next_cp = 0;
                        ++ri;
                    }
                } else {
                    REQUIRE(pc.length > 0 && pc.file_offset == io.file_offset + pos &&
                                pc.buf_offset == io.buf_offset + pos &&
                                pc.length <= io.length - pos,
                            "piece at file " << pc.file_offset << " buf " << pc.buf_offset
                                             << " in range at file " << io.file_offset + pos
                                             << " buf " << io.buf_offset + pos);
                    pos += pc.length;
                    if (pos == io.length) {
                        pos = 0;
                        ++ri;
                    }
                }
                REQUIRE(pc.cp < P && pc.cp_offset + pc.length <= fw_pattern_cp_bytes(&p, pc.cp),
                        "");
                check_piece_against_pattern(p, pc);
                tally(t, pc, P);
                cp_cover[pc.cp].push_back({pc.cp_offset, pc.length});
            }
            REQUIRE(ri == ranges.size() && pos == 0 && next_cp == 0, "pieces cover the ranges");
        }
        rounds_with_data += any ? 1 : 0;
        const std::vector<fw_twophase_io_t> together = io_ranges(plan, r, FW_TWOPHASE_ALL);
        REQUIRE(together.size() == all_ranges.size(), "");
        for (size_t i = 0; i < together.size(); ++i) {
            REQUIRE(same(together[i], all_ranges[i]), "");
        }
        t.c.io_ranges += all_ranges.size();
    }
    REQUIRE(rounds_with_data == fw_twophase_rounds(&plan), "no empty rounds");
    if (plan.buffer_bytes == 0) {
        REQUIRE(fw_twophase_rounds(&plan) == 1u, "unlimited buffer: one round");
    }
    REQUIRE(io_ranges(plan, fw_twophase_rounds(&plan), FW_TWOPHASE_ALL).empty(),
            "nothing beyond the last round");
    require_tiling(io_cover, n, "I/O ranges over the file");
    uint64_t delivered = 0;
    for (uint32_t cp = 0; cp < P; ++cp) {
        require_tiling(cp_cover[cp], fw_pattern_cp_bytes(&p, cp), "pieces over a CP buffer");
        delivered += fw_pattern_cp_bytes(&p, cp);
    }
    REQUIRE(delivered == (p.is_all ? P : 1) * n, "");

    t.c.io_bytes = n;
    REQUIRE(t.c.bytes == delivered, "bytes permuted");
    fw_twophase_counts_t counts;
    std::vector<fw_twophase_pair_t> pairs(fw_twophase_pairs_bytes(&plan, FW_TWOPHASE_ALL) /
                                          sizeof(fw_twophase_pair_t));
    REQUIRE(pairs.size() == t.pairs.size(), "");
    fw_twophase_count(&plan, FW_TWOPHASE_ALL, FW_TWOPHASE_ALL, &counts, pairs.data());
    REQUIRE(same(counts, t.c), "fw_twophase_count agrees with the pieces");
    for (size_t i = 0; i < pairs.size(); ++i) {
        REQUIRE(pairs[i].pieces == t.pairs[i].pieces && pairs[i].bytes == t.pairs[i].bytes,
                "pair " << i);
    }
    // One aggregator, all rounds: its row of the table.
    const uint32_t last = A - 1;
    std::vector<fw_twophase_pair_t> row(fw_twophase_pairs_bytes(&plan, last) /
                                        sizeof(fw_twophase_pair_t));
    REQUIRE(row.size() == P, "");
    fw_twophase_count(&plan, FW_TWOPHASE_ALL, last, &counts, row.data());
    uint64_t row_bytes = 0;
    for (uint32_t cp = 0; cp < P; ++cp) {
        const fw_twophase_pair_t &want = t.pairs[size_t(last) * P + cp];
        REQUIRE(row[cp].pieces == want.pieces && row[cp].bytes == want.bytes, "cp " << cp);
        row_bytes += row[cp].bytes;
    }
    REQUIRE(counts.bytes == row_bytes, "");
    REQUIRE(counts.io_bytes == fw_twophase_share_bytes(&d, last), "");
}

// End to end, byte by byte, independent of the reasoning above: every byte's value
// is its file offset, moved as the firmware will move it. Reads: file -> collective
// buffer (I/O ranges) -> CP buffers (pieces, Memput). Writes: CP buffers ->
// collective buffer (pieces, Memget) -> file (I/O ranges). Every CP byte is moved
// exactly once, every write-buffer byte is filled exactly once before its I/O, and
// everything ends where the pattern's chunks say.
void move_every_byte(const fw_twophase_plan_t &plan) {
    const fw_pattern_t &p = plan.pattern;
    const uint64_t n = p.file_bytes;
    const uint32_t P = p.cp_count, A = fw_twophase_aggregators(&plan.domain);
    std::vector<std::vector<uint32_t>> expect(P), got(P);
    std::vector<std::vector<uint8_t>> used(P);
    for (uint32_t cp = 0; cp < P; ++cp) {
        const uint64_t bytes = fw_pattern_cp_bytes(&p, cp);
        expect[cp].assign(bytes, kUnset);
        used[cp].assign(bytes, 0);
        fw_pattern_chunk_iter_t it;
        fw_pattern_chunk_t c;
        fw_pattern_chunks_begin(&it, &p, cp);
        while (fw_pattern_chunks_next(&it, &c)) {
            for (uint64_t i = 0; i < c.length; ++i) {
                expect[cp][c.cp_offset + i] = uint32_t(c.file_offset + i);
            }
        }
        if (!p.is_write) {
            got[cp].assign(bytes, kUnset);
        }
    }
    std::vector<uint32_t> file_out(p.is_write ? n : 0, kUnset);
    const uint64_t buffer = fw_twophase_buffer_bytes(&plan);
    std::vector<uint32_t> colbuf(buffer);
    std::vector<uint8_t> filled(buffer);
    for (uint32_t r = 0; r < fw_twophase_rounds(&plan); ++r) {
        for (uint32_t a = 0; a < A; ++a) {
            const std::vector<fw_twophase_io_t> ranges = io_ranges(plan, r, a);
            if (!p.is_write) { // I/O phase of a read: file -> collective buffer
                for (const fw_twophase_io_t &io : ranges) {
                    for (uint64_t i = 0; i < io.length; ++i) {
                        colbuf[io.buf_offset + i] = uint32_t(io.file_offset + i);
                    }
                }
            }
            std::fill(filled.begin(), filled.end(), 0);
            for (const fw_twophase_piece_t &pc : pieces(plan, r, a)) {
                std::vector<uint8_t> &u = used[pc.cp];
                if (!p.is_write) { // Memput: collective buffer -> CP
                    for (uint64_t i = 0; i < pc.length; ++i) {
                        got[pc.cp][pc.cp_offset + i] = colbuf[pc.buf_offset + i];
                        ++u[pc.cp_offset + i];
                    }
                } else { // Memget: CP -> collective buffer
                    for (uint64_t i = 0; i < pc.length; ++i) {
                        colbuf[pc.buf_offset + i] = expect[pc.cp][pc.cp_offset + i];
                        ++filled[pc.buf_offset + i];
                        ++u[pc.cp_offset + i];
                    }
                }
            }
            if (p.is_write) { // I/O phase of a write: collective buffer -> file
                for (const fw_twophase_io_t &io : ranges) {
                    for (uint64_t i = 0; i < io.length; ++i) {
                        REQUIRE(filled[io.buf_offset + i] == 1,
                                "write buffer byte " << io.buf_offset + i << " filled "
                                                     << int(filled[io.buf_offset + i]) << " times");
                        file_out[io.file_offset + i] = colbuf[io.buf_offset + i];
                    }
                }
            }
        }
    }
    for (uint64_t i = 0; i < file_out.size(); ++i) {
        REQUIRE(file_out[i] == i, p.name << ": file byte " << i << " got " << file_out[i]);
    }
    for (uint32_t cp = 0; cp < P; ++cp) {
        for (uint64_t i = 0; i < expect[cp].size(); ++i) {
            REQUIRE(used[cp][i] == 1, p.name << " cp " << cp << " byte " << i << " moved "
                                             << int(used[cp][i]) << " times");
            if (!p.is_write) {
                REQUIRE(got[cp][i] == expect[cp][i], p.name << " cp " << cp << " byte " << i
                                                            << " holds file byte " << got[cp][i]
                                                            << ", expected " << expect[cp][i]);
            }
        }
    }
}

std::string describe(const fw_twophase_plan_t &plan) {
    const fw_twophase_domain_t &d = plan.domain;
    return std::string(plan.pattern.name) + " record " + std::to_string(plan.pattern.record_bytes) +
           " file " + std::to_string(plan.pattern.file_bytes) +
           " P=" + std::to_string(plan.pattern.cp_count) + " " +
           fw_twophase_dist_name(d.params.dist) +
           (d.params.dist == FW_TWOPHASE_CYCLIC ? "(" + std::to_string(d.params.cyclic_bytes) + ")"
                                                : std::string()) +
           " A=" + std::to_string(fw_twophase_aggregators(&d)) +
           " buffer=" + std::to_string(plan.buffer_bytes);
}

} // namespace

BOOST_AUTO_TEST_SUITE(twophase_plan)

// The full sweep of the issue: every pattern x 8/8192-byte records x P = 1, 4, 16 x
// block, file-layout, cyclic(4 KB), cyclic(32 KB) x aggregators 1, 4, all (<= P) x
// buffer 64 KB and unlimited, on a 512 KB file of 8-byte records and a 2 MB file
// of 8 KB records (16 x 16, so that every 2-D pattern fits 16 CPs).
BOOST_AUTO_TEST_CASE(every_pattern_moves_every_byte_once) {
    struct Dist {
        fw_twophase_dist_t dist;
        uint64_t cyclic;
    };
    const Dist dists[] = {{FW_TWOPHASE_BLOCK, 0},
                          {FW_TWOPHASE_FILE_LAYOUT, 0},
                          {FW_TWOPHASE_CYCLIC, 4 * kKB},
                          {FW_TWOPHASE_CYCLIC, 32 * kKB}};
    unsigned plans = 0, moved = 0;
    uint64_t max_rounds = 0;
    for (const char *name : kAllPatterns) {
        for (uint64_t record : {8u, 8192u}) {
            const uint64_t file = record == 8 ? 512 * kKB : 2048 * kKB;
            for (uint32_t P : {1u, 4u, 16u}) {
                const fw_pattern_t p = make_pattern(name, record, file, P);
                for (const Dist &dist : dists) {
                    for (uint32_t A : {1u, 4u, 0u}) {
                        if (A > P || (A == P && P != 1) || (A == 0 && P == 1)) {
                            continue; // each aggregator count once
                        }
                        for (uint64_t buffer : {64 * kKB, uint64_t(0)}) {
                            const fw_twophase_plan_t plan =
                                make_plan(p, config(dist.dist, A, buffer, dist.cyclic));
                            BOOST_TEST_CONTEXT(describe(plan)) {
                                check_plan(plan);
                                // Byte by byte on a subset; the interval checks
                                // cover the rest.
                                if (record == 8 && buffer != 0 && P == 4 && A == 0) {
                                    move_every_byte(plan);
                                    ++moved;
                                }
                            }
                            ++plans;
                            max_rounds = std::max<uint64_t>(max_rounds, plan.rounds);
                        }
                    }
                }
            }
        }
    }
    BOOST_TEST_MESSAGE(plans << " plans checked, " << moved << " of them byte by byte");
    BOOST_TEST(plans == 19u * 2 * 4 * 2 * (1 + 2 + 3));
    BOOST_TEST(max_rounds == 32u); // one aggregator, 2 MB in 64 KB rounds
}

// Shapes that do not divide evenly: P = 6 and 7, aggregator counts that do not
// divide P or the file, a partial last file-system block, cyclic units and buffers
// that cut records (4 KB units, 20 KB and 3000-byte rounds with 8 KB records), and
// buffers smaller than a record.
BOOST_AUTO_TEST_CASE(uneven_shapes_and_cut_records) {
    struct Case {
        uint64_t record, records;
        uint32_t P;
    };
    const Case cases[] = {{8192, 21, 6}, {8192, 13, 7}, {8, 5003, 6}, {8, 1000, 7}, {1000, 90, 6}};
    struct Dist {
        fw_twophase_dist_t dist;
        uint64_t cyclic;
    };
    const Dist dists[] = {{FW_TWOPHASE_BLOCK, 0},
                          {FW_TWOPHASE_FILE_LAYOUT, 0},
                          {FW_TWOPHASE_CYCLIC, 4 * kKB},
                          {FW_TWOPHASE_CYCLIC, 3000}};
    unsigned plans = 0;
    for (const Case &c : cases) {
        for (const char *name : {"ra", "rb", "rcc", "wbc", "wnb"}) {
            fw_pattern_t p;
            char msg[256];
            if (fw_pattern_init(&p, name, c.record, c.record * c.records, c.P, 0, msg,
                                sizeof msg) != FW_PATTERN_OK) {
                continue; // a dimension shorter than its CPs
            }
            for (const Dist &dist : dists) {
                for (uint32_t A : {1u, 4u, c.P}) {
                    for (uint64_t buffer : {uint64_t(0), 20 * kKB, uint64_t(3000), uint64_t(100)}) {
                        if (buffer == 100 && c.record * c.records > 100 * kKB) {
                            continue; // thousands of rounds: enough on the small files
                        }
                        const fw_twophase_plan_t plan =
                            make_plan(p, config(dist.dist, A, buffer, dist.cyclic));
                        BOOST_TEST_CONTEXT(describe(plan)) {
                            check_plan(plan);
                            move_every_byte(plan);
                        }
                        ++plans;
                    }
                }
            }
        }
    }
    BOOST_TEST_MESSAGE(plans << " uneven plans checked");
    BOOST_TEST(plans > 500u);
}

// The paper's 2PIO (aggregators = P, block, unlimited buffer): each CP's I/O is one
// range equal to its rb part, and the permutation for rb/wb is all local.
BOOST_AUTO_TEST_CASE(paper_2pio_reads_the_rb_distribution) {
    for (uint64_t record : {8u, 8192u}) {
        for (uint32_t P : {1u, 4u, 16u, 6u}) {
            for (uint64_t file : {512 * kKB, 2048 * kKB, uint64_t(8192 * 100)}) {
                const fw_pattern_t rb = make_pattern("rb", record, file, P);
                for (const char *name : kAllPatterns) {
                    fw_pattern_t p;
                    if (fw_pattern_init(&p, name, record, file, P, 0, nullptr, 0) !=
                        FW_PATTERN_OK) {
                        continue; // a dimension shorter than its CPs
                    }
                    const fw_twophase_plan_t plan = make_plan(p, fw_twophase_config_paper());
                    BOOST_TEST_CONTEXT(describe(plan)) {
                        BOOST_TEST_REQUIRE(fw_twophase_aggregators(&plan.domain) == P);
                        BOOST_TEST_REQUIRE(fw_twophase_rounds(&plan) == 1u);
                        for (uint32_t cp = 0; cp < P; ++cp) {
                            BOOST_TEST(fw_twophase_aggregator_cp(&plan.domain, cp) == cp);
                            BOOST_TEST(fw_twophase_cp_aggregator(&plan.domain, cp) == cp);
                            const auto ranges = io_ranges(plan, 0, cp);
                            fw_pattern_chunk_iter_t it;
                            fw_pattern_chunk_t c;
                            fw_pattern_chunks_begin(&it, &rb, cp);
                            if (!fw_pattern_chunks_next(&it, &c)) {
                                BOOST_TEST(ranges.empty());
                                continue;
                            }
                            BOOST_TEST_REQUIRE(ranges.size() == 1u);
                            BOOST_TEST(ranges[0].file_offset == c.file_offset);
                            BOOST_TEST(ranges[0].length == c.length);
                            BOOST_TEST(ranges[0].buf_offset == 0u);
                            BOOST_TEST(!fw_pattern_chunks_next(&it, &c));
                        }
                        BOOST_TEST(fw_twophase_buffer_bytes(&plan) == fw_pattern_cp_bytes(&rb, 0));
                        if (std::string(p.name + 1) == "b") {
                            uint32_t owners = 0;
                            for (uint32_t cp = 0; cp < P; ++cp) {
                                owners += fw_pattern_cp_bytes(&rb, cp) > 0 ? 1 : 0;
                            }
                            fw_twophase_counts_t counts;
                            fw_twophase_count(&plan, 0, FW_TWOPHASE_ALL, &counts, nullptr);
                            BOOST_TEST(counts.remote_pieces == 0u);
                            BOOST_TEST(counts.local_bytes == file);
                            BOOST_TEST(counts.io_ranges == owners);
                        }
                    }
                }
            }
        }
    }
    // And on the paper's own file: 10 MB over 16 CPs, 640 KB each.
    const fw_pattern_t p = make_pattern("rcc", 8, 10 * kKB * kKB, 16);
    const fw_twophase_plan_t plan = make_plan(p, fw_twophase_config_paper());
    const auto ranges = io_ranges(plan, 0, FW_TWOPHASE_ALL);
    BOOST_TEST_REQUIRE(ranges.size() == 16u);
    for (uint32_t a = 0; a < 16; ++a) {
        BOOST_TEST(ranges[a].file_offset == a * 640 * kKB);
        BOOST_TEST(ranges[a].length == 640 * kKB);
    }
}

// fw_twophase_plan_conforming (twophase.direct): true exactly for 1-D BLOCK requests
// (rb, wb, and the rbn alias) under the paper's plan, and then every piece is local
// at the same offset in the collective buffer and the CP's buffer, so the CP may
// move its user buffer directly. With one CP rc and rn are identity maps too, but
// they are not conforming requests (TOCS §6 has 2PIO permute them).
BOOST_AUTO_TEST_CASE(conforming_requests_are_identity_maps) {
    for (uint64_t record : {8u, 8192u}) {
        for (uint32_t P : {1u, 3u, 16u}) {
            const uint64_t file = 2048 * kKB;
            for (const char *name : kAllPatterns) {
                fw_pattern_t p;
                if (fw_pattern_init(&p, name, record, file, P, 0, nullptr, 0) != FW_PATTERN_OK) {
                    continue;
                }
                const std::string canonical = p.name;
                const bool expect = canonical == "rb" || canonical == "wb";
                const fw_twophase_plan_t paper = make_plan(p, fw_twophase_config_paper());
                BOOST_TEST_CONTEXT(describe(paper)) {
                    BOOST_TEST(fw_twophase_plan_conforming(&paper) == expect);
                    if (!expect) {
                        continue;
                    }
                    fw_twophase_piece_iter_t it;
                    fw_twophase_piece_t pc;
                    fw_twophase_pieces_begin(&it, &paper, 0, FW_TWOPHASE_ALL);
                    uint64_t bytes = 0;
                    while (fw_twophase_pieces_next(&it, &pc)) {
                        BOOST_TEST(fw_twophase_piece_is_local(&pc));
                        BOOST_TEST(pc.buf_offset == pc.cp_offset);
                        bytes += pc.length;
                    }
                    BOOST_TEST(bytes == file);
                    // Any other plan of the same request is not conforming.
                    auto conforming = [&p](const fw_twophase_config_t &c) {
                        const fw_twophase_plan_t plan = make_plan(p, c);
                        return fw_twophase_plan_conforming(&plan);
                    };
                    if (P > 1) {
                        BOOST_TEST(!conforming(config(FW_TWOPHASE_BLOCK, P - 1, 0)));
                    }
                    BOOST_TEST(!conforming(config(FW_TWOPHASE_BLOCK, 0, 16 * kKB)));
                    BOOST_TEST(!conforming(config(FW_TWOPHASE_FILE_LAYOUT, 0, 0)));
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(aggregators_spread_evenly) {
    struct Case {
        uint32_t P, A;
        std::vector<uint32_t> cps;
    };
    const std::vector<Case> cases = {
        {16, 4, {0, 4, 8, 12}}, {16, 3, {0, 5, 10}},           {6, 4, {0, 1, 3, 4}},
        {16, 1, {0}},           {7, 7, {0, 1, 2, 3, 4, 5, 6}},
    };
    for (const Case &c : cases) {
        const fw_pattern_t p = make_pattern("rb", 8, 64 * kKB, c.P);
        const fw_twophase_plan_t plan = make_plan(p, config(FW_TWOPHASE_BLOCK, c.A, 0));
        BOOST_TEST_CONTEXT("P=" << c.P << " A=" << c.A) {
            std::vector<uint32_t> got;
            for (uint32_t a = 0; a < c.A; ++a) {
                got.push_back(fw_twophase_aggregator_cp(&plan.domain, a));
            }
            BOOST_TEST(got == c.cps, boost::test_tools::per_element());
            for (uint32_t cp = 0; cp < c.P; ++cp) {
                const auto at = std::find(c.cps.begin(), c.cps.end(), cp);
                const uint32_t want =
                    at == c.cps.end() ? FW_TWOPHASE_NONE : uint32_t(at - c.cps.begin());
                BOOST_TEST(fw_twophase_cp_aggregator(&plan.domain, cp) == want, "cp " << cp);
            }
            BOOST_TEST(fw_twophase_cp_aggregator(&plan.domain, c.P) == FW_TWOPHASE_NONE);
        }
    }
    // 0 means all CPs.
    const fw_pattern_t p = make_pattern("rb", 8, 64 * kKB, 5);
    const fw_twophase_plan_t all = make_plan(p, config(FW_TWOPHASE_BLOCK, 0, 0));
    BOOST_TEST(fw_twophase_aggregators(&all.domain) == 5u);
}

BOOST_AUTO_TEST_CASE(block_rule_is_rb_over_records) {
    // 10 records of 8 bytes over 4 aggregators: ceil(10 / 4) = 3 -> 3, 3, 3, 1.
    const fw_pattern_t p = make_pattern("rc", 8, 80, 4);
    const fw_twophase_plan_t plan = make_plan(p, config(FW_TWOPHASE_BLOCK, 4, 0));
    const uint64_t want[] = {24, 24, 24, 8};
    for (uint32_t a = 0; a < 4; ++a) {
        BOOST_TEST(fw_twophase_share_bytes(&plan.domain, a) == want[a]);
    }
    // Whole records even when the bytes would divide: 3 records of 8192 over 2.
    const fw_pattern_t q = make_pattern("rb", 8192, 3 * 8192, 2);
    const fw_twophase_plan_t qplan = make_plan(q, config(FW_TWOPHASE_BLOCK, 2, 0));
    BOOST_TEST(fw_twophase_share_bytes(&qplan.domain, 0) == 2u * 8192);
    BOOST_TEST(fw_twophase_share_bytes(&qplan.domain, 1) == 8192u);
}

// file-layout = ROMIO's ADIOI_Calc_file_domains with striping_unit = the block.
BOOST_AUTO_TEST_CASE(file_layout_rule_is_romio_stripe_aligned) {
    struct Case {
        uint64_t file, stripe;
        uint32_t A;
        std::vector<uint64_t> ends;
    };
    const std::vector<Case> cases = {
        // 64 blocks over 3: fd = 174763 -> 21.33 blocks (down), 42.67 (up): 21, 22, 21.
        {64 * 8192, 8192, 3, {21 * 8192, 43 * 8192, 64 * 8192}},
        // 3 blocks over 2: fd = 1.5 blocks, exactly half a block rounds up: 2, 1.
        {3 * 8192, 8192, 2, {2 * 8192, 3 * 8192}},
        // A partial last block: 10000 bytes over 2, fd = 5000 rounds up to 8192.
        {10000, 8192, 2, {8192, 10000}},
        // Stripes larger than the domains: some domains are empty.
        {512 * kKB, 64 * kKB, 16, {64 * kKB, 64 * kKB, 128 * kKB, 128 * kKB}},
        // The paper's file: 10 MB over 16, 640 KB each, as block.
        {10 * kKB * kKB, 8192, 16, {640 * kKB, 1280 * kKB}},
    };
    for (const Case &c : cases) {
        BOOST_TEST_CONTEXT("file " << c.file << " stripe " << c.stripe << " A=" << c.A) {
            fw_twophase_domain_params_t dp{};
            dp.dist = FW_TWOPHASE_FILE_LAYOUT;
            dp.cp_count = c.A;
            dp.aggregators = c.A;
            dp.file_bytes = c.file;
            dp.record_bytes = 1;
            dp.stripe_bytes = c.stripe;
            fw_twophase_domain_t d;
            char msg[200];
            BOOST_TEST_REQUIRE(fw_twophase_domain_init(&d, &dp, msg, sizeof msg) == FW_TWOPHASE_OK);
            for (size_t a = 0; a < c.ends.size(); ++a) {
                uint64_t start = 0, end = 0;
                BOOST_TEST(fw_twophase_domain_range(&d, uint32_t(a), &start, &end));
                BOOST_TEST(end == c.ends[a], "aggregator " << a);
                BOOST_TEST(start == (a == 0 ? 0 : c.ends[a - 1]), "aggregator " << a);
            }
            check_domains(d);
        }
    }
}

BOOST_AUTO_TEST_CASE(cyclic_rule_deals_units_round_robin) {
    // 10 units of 4 KB and a 100-byte eleventh over 3 aggregators: units 0 3 6 9 /
    // 1 4 7 10 / 2 5 8.
    fw_twophase_domain_params_t dp{};
    dp.dist = FW_TWOPHASE_CYCLIC;
    dp.cp_count = 3;
    dp.file_bytes = 10 * 4096 + 100;
    dp.record_bytes = 4;
    dp.cyclic_bytes = 4096;
    fw_twophase_domain_t d;
    BOOST_TEST_REQUIRE(fw_twophase_domain_init(&d, &dp, nullptr, 0) == FW_TWOPHASE_OK);
    BOOST_TEST(fw_twophase_aggregators(&d) == 3u);
    BOOST_TEST(fw_twophase_share_bytes(&d, 0) == 4u * 4096);
    BOOST_TEST(fw_twophase_share_bytes(&d, 1) == 3u * 4096 + 100);
    BOOST_TEST(fw_twophase_share_bytes(&d, 2) == 3u * 4096);
    uint64_t run = 0;
    BOOST_TEST(fw_twophase_share_to_file(&d, 1, 3 * 4096 + 50, &run) == 10u * 4096 + 50);
    BOOST_TEST(run == 50u);
    BOOST_TEST(fw_twophase_share_to_file(&d, 2, 4096 + 1, &run) == 5u * 4096 + 1);
    BOOST_TEST(run == 4095u);
    uint64_t start, end;
    BOOST_TEST(!fw_twophase_domain_range(&d, 0, &start, &end));
    check_domains(d);
    // With one aggregator the units join into one range per round.
    const fw_pattern_t p = make_pattern("rc", 8, 64 * kKB, 4);
    const fw_twophase_plan_t plan = make_plan(p, config(FW_TWOPHASE_CYCLIC, 1, 16 * kKB, 4 * kKB));
    BOOST_TEST(fw_twophase_rounds(&plan) == 4u);
    for (uint32_t r = 0; r < 4; ++r) {
        const auto ranges = io_ranges(plan, r, FW_TWOPHASE_ALL);
        BOOST_TEST_REQUIRE(ranges.size() == 1u);
        BOOST_TEST(ranges[0].file_offset == r * 16 * kKB);
        BOOST_TEST(ranges[0].length == 16 * kKB);
    }
    // With 4 aggregators, round r of aggregator a covers its units 4r.. of the share:
    // as in Nitzberg's CB-C, round r spans the file range [r A B, (r + 1) A B).
    const fw_twophase_plan_t plan4 = make_plan(p, config(FW_TWOPHASE_CYCLIC, 4, 8 * kKB, 4 * kKB));
    BOOST_TEST(fw_twophase_rounds(&plan4) == 2u);
    const auto r1 = io_ranges(plan4, 1, 2);
    BOOST_TEST_REQUIRE(r1.size() == 2u);
    BOOST_TEST(r1[0].file_offset == (2 * 4 + 2) * 4 * kKB); // unit 10
    BOOST_TEST(r1[0].buf_offset == 0u);
    BOOST_TEST(r1[1].file_offset == (3 * 4 + 2) * 4 * kKB); // unit 14
    BOOST_TEST(r1[1].buf_offset == 4 * kKB);
}

// A round boundary inside a record makes two pieces with the right offsets.
BOOST_AUTO_TEST_CASE(round_boundary_splits_a_record_into_two_correct_pieces) {
    // rb, 4 records of 8 KB over 2 CPs; one aggregator with a 3000-byte buffer.
    const fw_pattern_t rb = make_pattern("rb", 8192, 4 * 8192, 2);
    const fw_twophase_plan_t plan = make_plan(rb, config(FW_TWOPHASE_BLOCK, 1, 3000));
    BOOST_TEST(fw_twophase_rounds(&plan) == 11u); // ceil(32768 / 3000)
    auto pcs = pieces(plan, 2, 0);                // share [6000, 9000): record 0 then 1, both CP 0
    BOOST_TEST_REQUIRE(pcs.size() == 1u);
    BOOST_TEST(pcs[0].cp == 0u);
    BOOST_TEST(pcs[0].cp_offset == 6000u);
    BOOST_TEST(pcs[0].buf_offset == 0u);
    BOOST_TEST(pcs[0].length == 3000u);
    pcs = pieces(plan, 5, 0); // [15000, 18000): the end of CP 0's part, the start of CP 1's
    BOOST_TEST_REQUIRE(pcs.size() == 2u);
    BOOST_TEST(pcs[0].cp == 0u);
    BOOST_TEST(pcs[0].cp_offset == 15000u);
    BOOST_TEST(pcs[0].length == 1384u);
    BOOST_TEST(pcs[1].cp == 1u);
    BOOST_TEST(pcs[1].cp_offset == 0u);
    BOOST_TEST(pcs[1].file_offset == 16384u);
    BOOST_TEST(pcs[1].buf_offset == 1384u);
    BOOST_TEST(pcs[1].length == 1616u);
    // rc: record 0 on CP 0, record 1 on CP 1; round 2 cuts record 1 at 9000.
    const fw_pattern_t rc = make_pattern("rc", 8192, 4 * 8192, 2);
    const fw_twophase_plan_t rplan = make_plan(rc, config(FW_TWOPHASE_BLOCK, 1, 3000));
    pcs = pieces(rplan, 2, 0);
    BOOST_TEST_REQUIRE(pcs.size() == 2u);
    BOOST_TEST(pcs[0].cp == 0u);
    BOOST_TEST(pcs[0].cp_offset == 6000u);
    BOOST_TEST(pcs[0].length == 2192u);
    BOOST_TEST(pcs[1].cp == 1u);
    BOOST_TEST(pcs[1].cp_offset == 0u);
    BOOST_TEST(pcs[1].buf_offset == 2192u);
    BOOST_TEST(pcs[1].length == 808u);
    pcs = pieces(rplan, 3, 0); // [9000, 12000): the rest of record 1 continues at 808
    BOOST_TEST_REQUIRE(pcs.size() == 1u);
    BOOST_TEST(pcs[0].cp == 1u);
    BOOST_TEST(pcs[0].cp_offset == 808u);
    BOOST_TEST(pcs[0].file_offset == 9000u);
    check_plan(plan);
    check_plan(rplan);
    move_every_byte(plan);
    move_every_byte(rplan);
}

// ra: the aggregators read 1/A each and every range goes to every CP.
BOOST_AUTO_TEST_CASE(ra_broadcasts_every_range) {
    const uint64_t file = 64 * kKB;
    const fw_pattern_t p = make_pattern("ra", 8192, file, 4);
    const fw_twophase_plan_t plan = make_plan(p, config(FW_TWOPHASE_BLOCK, 2, 0));
    BOOST_TEST(plan.broadcast);
    const auto pcs = pieces(plan, 0, 1); // aggregator 1 on CP 2: the second half
    BOOST_TEST_REQUIRE(pcs.size() == 4u);
    for (uint32_t cp = 0; cp < 4; ++cp) {
        BOOST_TEST(pcs[cp].cp == cp);
        BOOST_TEST(pcs[cp].aggregator_cp == 2u);
        BOOST_TEST(pcs[cp].file_offset == file / 2);
        BOOST_TEST(pcs[cp].cp_offset == file / 2);
        BOOST_TEST(pcs[cp].buf_offset == 0u);
        BOOST_TEST(pcs[cp].length == file / 2);
        BOOST_TEST(fw_twophase_piece_is_local(&pcs[cp]) == (cp == 2));
    }
    fw_twophase_counts_t c;
    std::vector<fw_twophase_pair_t> pairs(2 * 4);
    fw_twophase_count(&plan, FW_TWOPHASE_ALL, FW_TWOPHASE_ALL, &c, pairs.data());
    BOOST_TEST(c.io_ranges == 2u);
    BOOST_TEST(c.io_bytes == file);
    BOOST_TEST(c.bytes == 4 * file); // the file reaches every CP
    BOOST_TEST(c.local_bytes == file);
    BOOST_TEST(c.remote_bytes == 3 * file);
    BOOST_TEST(c.pieces == 8u);
    for (const fw_twophase_pair_t &pair : pairs) {
        BOOST_TEST(pair.pieces == 1u);
        BOOST_TEST(pair.bytes == file / 2);
    }
}

// Per-round, per-(aggregator, CP) counts for batching: rc over 4 CPs, 8-byte records,
// block over 4 aggregators, 16 KB rounds: every record is its own piece and each
// aggregator sends each CP a quarter of its round.
BOOST_AUTO_TEST_CASE(pair_counts_per_round) {
    const fw_pattern_t p = make_pattern("rc", 8, 128 * kKB, 4);
    const fw_twophase_plan_t plan = make_plan(p, config(FW_TWOPHASE_BLOCK, 4, 16 * kKB));
    BOOST_TEST(fw_twophase_rounds(&plan) == 2u);
    BOOST_TEST(fw_twophase_buffer_bytes(&plan) == 16 * kKB);
    for (uint32_t r = 0; r < 2; ++r) {
        for (uint32_t a = 0; a < 4; ++a) {
            fw_twophase_counts_t c;
            std::vector<fw_twophase_pair_t> pairs(4);
            BOOST_TEST(fw_twophase_pairs_bytes(&plan, a) == 4 * sizeof(fw_twophase_pair_t));
            fw_twophase_count(&plan, r, a, &c, pairs.data());
            BOOST_TEST(c.io_ranges == 1u);
            BOOST_TEST(c.io_bytes == 16 * kKB);
            BOOST_TEST(c.pieces == 2048u);
            BOOST_TEST(c.local_pieces == 512u);
            BOOST_TEST(c.remote_pieces == 1536u);
            for (uint32_t cp = 0; cp < 4; ++cp) {
                BOOST_TEST(pairs[cp].pieces == 512u);
                BOOST_TEST(pairs[cp].bytes == 4 * kKB);
            }
        }
    }
    // Out of range: nothing.
    fw_twophase_counts_t c;
    fw_twophase_count(&plan, 2, FW_TWOPHASE_ALL, &c, nullptr);
    BOOST_TEST(c.pieces == 0u);
    BOOST_TEST(c.io_ranges == 0u);
    BOOST_TEST(io_ranges(plan, 0, 4).empty());
    BOOST_TEST(fw_twophase_round_bytes(&plan, 2, 0, nullptr) == 0u);
}

BOOST_AUTO_TEST_CASE(errors_name_the_key) {
    const fw_pattern_t p = make_pattern("rb", 8, 64 * kKB, 4);
    struct Case {
        fw_twophase_config_t c;
        int status;
        std::string word;
    };
    fw_twophase_config_t bad_dist = config(FW_TWOPHASE_BLOCK, 0, 0);
    bad_dist.intermediate = static_cast<fw_twophase_dist_t>(7);
    const std::vector<Case> cases = {
        {config(FW_TWOPHASE_BLOCK, 5, 0), FW_TWOPHASE_ERR_AGGREGATORS, "twophase.aggregators"},
        {config(FW_TWOPHASE_CYCLIC, 0, 0, 0), FW_TWOPHASE_ERR_UNIT, "twophase.cyclic_kb"},
        {config(FW_TWOPHASE_FILE_LAYOUT, 0, 0, 0, 0), FW_TWOPHASE_ERR_UNIT, "fs.block_bytes"},
        {bad_dist, FW_TWOPHASE_ERR_DIST, "twophase.intermediate"},
    };
    for (const Case &c : cases) {
        fw_twophase_plan_t plan;
        char msg[256] = "stale";
        const int rc = fw_twophase_plan_init(&plan, &p, &c.c, msg, sizeof msg);
        BOOST_TEST(rc == c.status, fw_twophase_status_name(rc) << ": " << msg);
        BOOST_TEST(std::string(msg).find(c.word) != std::string::npos, msg);
    }
    fw_twophase_domain_params_t dp{};
    dp.dist = FW_TWOPHASE_BLOCK;
    dp.cp_count = 4;
    dp.record_bytes = 8;
    fw_twophase_domain_t d;
    char msg[256];
    BOOST_TEST(fw_twophase_domain_init(&d, &dp, msg, sizeof msg) == FW_TWOPHASE_ERR_ZERO);
    BOOST_TEST(std::string(fw_twophase_status_name(FW_TWOPHASE_ERR_UNIT)) ==
               "FW_TWOPHASE_ERR_UNIT");
    // A good plan clears the message.
    fw_twophase_plan_t plan;
    const fw_twophase_config_t ok = config(FW_TWOPHASE_CYCLIC, 2, 0, 8192);
    BOOST_TEST(fw_twophase_plan_init(&plan, &p, &ok, msg, sizeof msg) == FW_TWOPHASE_OK);
    BOOST_TEST(msg[0] == '\0');
}

BOOST_AUTO_TEST_CASE(distribution_names) {
    for (fw_twophase_dist_t dist :
         {FW_TWOPHASE_BLOCK, FW_TWOPHASE_FILE_LAYOUT, FW_TWOPHASE_CYCLIC}) {
        fw_twophase_dist_t back;
        BOOST_TEST(fw_twophase_dist_parse(fw_twophase_dist_name(dist), &back));
        BOOST_TEST(back == dist);
    }
    fw_twophase_dist_t back;
    BOOST_TEST(!fw_twophase_dist_parse("Block", &back));
    BOOST_TEST(!fw_twophase_dist_parse("file_layout", &back));
    BOOST_TEST(!fw_twophase_dist_parse(nullptr, &back));
    BOOST_TEST(std::string(fw_twophase_dist_name(FW_TWOPHASE_FILE_LAYOUT)) == "file-layout");
}

BOOST_AUTO_TEST_CASE(config_of_the_keys_values) {
    fw_twophase_config_t c;
    BOOST_TEST(fw_twophase_config_of(&c, "cyclic", 3, 256, 64, 8192));
    BOOST_TEST(c.intermediate == FW_TWOPHASE_CYCLIC);
    BOOST_TEST(c.aggregators == 3u);
    BOOST_TEST(c.buffer_bytes == 256u * 1024u);
    BOOST_TEST(c.cyclic_bytes == 64u * 1024u);
    BOOST_TEST(c.stripe_bytes == 8192u);
    BOOST_TEST(!fw_twophase_config_of(&c, "rows", 0, 0, 64, 8192));
}

BOOST_AUTO_TEST_SUITE_END()
