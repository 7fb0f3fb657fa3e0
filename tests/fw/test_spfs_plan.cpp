// SPFS CP client planning (fw/spfs_plan.h): for every pattern and record size, a
// CP's requests are its chunks (as fw_pattern gives them, never single records of a
// larger chunk) split only at block boundaries; together the CPs' requests cover the
// file exactly once (ra: each CP covers it all); buffer offsets agree with the
// pattern's own file-to-CP mapping. Also where blocks live, short last blocks and
// the K-outstanding tracker.
#include "fw/spfs_plan.h"
#include "fw/transfer.h"

#include <boost/test/unit_test.hpp>

#include "tests/support/study_patterns.h"

#include <cstdint>
#include <string>
#include <vector>

using starfish::testing::kAllPatterns;

namespace {

constexpr uint64_t kKB = 1024;

fw_pattern_t make_pattern(const char *name, uint64_t record, uint64_t file, uint32_t cps) {
    fw_pattern_t p;
    char msg[256];
    int rc = fw_pattern_init(&p, name, record, file, cps, 0, msg, sizeof msg);
    BOOST_TEST_REQUIRE(rc == FW_PATTERN_OK, name << ": " << msg);
    return p;
}

std::vector<fw_spfs_piece_t> plan_of(const fw_pattern_t &p, uint32_t cp, uint32_t block) {
    std::vector<fw_spfs_piece_t> out;
    fw_spfs_plan_iter_t it;
    fw_spfs_piece_t piece;
    fw_spfs_plan_begin(&it, &p, cp, block);
    while (fw_spfs_plan_next(&it, &piece)) {
        out.push_back(piece);
    }
    return out;
}

struct Totals {
    uint64_t pieces = 0, chunks = 0;
};

// Checks every CP's plan for one configuration against the pattern library.
Totals check_plans(const char *name, uint64_t record, uint64_t file, uint32_t cps, uint32_t block) {
    const fw_pattern_t p = make_pattern(name, record, file, cps);
    const std::string what = std::string(name) + " record " + std::to_string(record) + " file " +
                             std::to_string(file) + " block " + std::to_string(block);
    std::vector<uint32_t> times_covered(file, 0);
    Totals totals;
    for (uint32_t cp = 0; cp < cps; ++cp) {
        const auto plan = plan_of(p, cp, block);
        fw_pattern_chunk_iter_t chunks;
        fw_pattern_chunk_t chunk{};
        fw_pattern_chunks_begin(&chunks, &p, cp);
        uint64_t buf_next = 0, chunk_index = 0, chunk_done = 0, chunk_pieces = 0;
        bool in_chunk = false;
        std::vector<uint8_t> covered_by_cp(p.is_all ? file : 0, 0);
        for (const fw_spfs_piece_t &pc : plan) {
            const uint64_t at = pc.file_block * block + pc.block_offset;
            // Inside one block and inside the file.
            REQUIRE(pc.length > 0, what);
            REQUIRE(pc.block_offset + uint64_t{pc.length} <= block, what);
            REQUIRE(at + pc.length <= file, what);
            // The CP's pieces tile its buffer in order.
            REQUIRE(pc.buf_offset == buf_next, what << " cp " << cp);
            buf_next += pc.length;
            // They are the pattern's chunks, split only where a block ends.
            REQUIRE(pc.first_of_chunk == !in_chunk, what);
            if (pc.first_of_chunk) {
                REQUIRE(fw_pattern_chunks_next(&chunks, &chunk),
                        what << ": more pieces than chunks");
                REQUIRE(at == chunk.file_offset && pc.buf_offset == chunk.cp_offset, what);
                in_chunk = true;
                chunk_done = chunk_pieces = 0;
            } else {
                REQUIRE(pc.block_offset == 0, what << ": split inside a block");
                REQUIRE(at == chunk.file_offset + chunk_done, what);
            }
            REQUIRE(pc.chunk == chunk_index, what);
            chunk_done += pc.length;
            ++chunk_pieces;
            REQUIRE(pc.last_of_chunk == (chunk_done == chunk.length), what);
            if (pc.last_of_chunk) {
                const uint64_t blocks_spanned =
                    (chunk.file_offset + chunk.length - 1) / block - chunk.file_offset / block + 1;
                REQUIRE(chunk_pieces == blocks_spanned, what << ": chunk split more than needed");
                in_chunk = false;
                ++chunk_index;
            }
            // The pattern maps these file bytes to this CP at this buffer offset.
            fw_pattern_piece_iter_t pieces;
            fw_pattern_piece_t mine{};
            bool found = false;
            uint32_t seen = 0;
            fw_pattern_pieces_begin(&pieces, &p, at, pc.length);
            while (fw_pattern_pieces_next(&pieces, &mine)) {
                ++seen;
                if (mine.cp == cp) {
                    found = true;
                    break;
                }
            }
            REQUIRE(found && mine.cp_offset == pc.buf_offset && mine.length == pc.length,
                    what << " cp " << cp << " file offset " << at);
            REQUIRE(p.is_all || seen == 1, what);
            for (uint64_t b = at; b < at + pc.length; ++b) {
                ++times_covered[b];
                if (p.is_all) {
                    REQUIRE(covered_by_cp[b]++ == 0, what << ": ra CP " << cp << " twice");
                }
            }
        }
        REQUIRE(!in_chunk, what);
        REQUIRE(!fw_pattern_chunks_next(&chunks, &chunk), what << ": chunks left over");
        REQUIRE(buf_next == fw_pattern_cp_bytes(&p, cp), what << " cp " << cp);
        totals.pieces += plan.size();
        totals.chunks += chunk_index;
    }
    const uint32_t expected = p.is_all ? cps : 1;
    for (uint64_t b = 0; b < file; ++b) {
        REQUIRE(times_covered[b] == expected,
                what << ": byte " << b << " covered " << times_covered[b] << " times");
    }
    return totals;
}

fw_layout_t make_layout(uint32_t disks, uint64_t file_blocks) {
    fw_layout_params_t lp{};
    lp.kind = FW_LAYOUT_CONTIGUOUS;
    lp.block_bytes = 8192;
    lp.disk = {512, 72, 1962 * 19};
    lp.disk_count = disks;
    lp.file_blocks = file_blocks;
    fw_layout_t l;
    char msg[256];
    BOOST_TEST_REQUIRE(fw_layout_init(&l, &lp, msg, sizeof msg) == FW_LAYOUT_OK, msg);
    return l;
}

} // namespace

BOOST_AUTO_TEST_SUITE(spfs_plan)

// 4 CPs, 8 KB blocks, a 256 KB file, 8-byte and 8 KB records, every pattern.
BOOST_AUTO_TEST_CASE(every_pattern_covers_the_file_once_in_whole_chunks) {
    for (uint64_t record : {uint64_t{8}, uint64_t{8192}}) {
        for (const char *name : kAllPatterns) {
            BOOST_TEST_CONTEXT(name << " record " << record) {
                check_plans(name, record, 256 * kKB, 4, 8192);
            }
        }
    }
}

// Shapes off the power-of-two grid: a short last block, blocks that are not a
// multiple of the record (pieces then split records at block ends), 3 CPs.
BOOST_AUTO_TEST_CASE(every_pattern_on_odd_shapes) {
    for (const char *name : kAllPatterns) {
        BOOST_TEST_CONTEXT(name) {
            check_plans(name, 8, 100000, 4, 8192);
            check_plans(name, 24, 24 * 4000, 3, 1000);
            check_plans(name, 8192, 40 * 8192, 4, 8192);
        }
    }
}

// Anchors for the numbers above (8-byte records, 256 KB, 4 CPs, 8 KB blocks: a
// 256 x 128 array for two-dimensional patterns).
BOOST_AUTO_TEST_CASE(requests_per_pattern) {
    // rb: one 64 KB chunk per CP, one request per block.
    Totals rb = check_plans("rb", 8, 256 * kKB, 4, 8192);
    BOOST_TEST(rb.chunks == 4u);
    BOOST_TEST(rb.pieces == 32u);
    auto cp1 = plan_of(make_pattern("rb", 8, 256 * kKB, 4), 1, 8192);
    BOOST_TEST_REQUIRE(cp1.size() == 8u);
    for (size_t i = 0; i < cp1.size(); ++i) {
        BOOST_TEST(cp1[i].file_block == 8 + i);
        BOOST_TEST(cp1[i].block_offset == 0u);
        BOOST_TEST(cp1[i].length == 8192u);
        BOOST_TEST(cp1[i].buf_offset == i * 8192);
        BOOST_TEST(cp1[i].chunk == 0u);
    }
    BOOST_TEST(cp1.front().first_of_chunk);
    BOOST_TEST(cp1.back().last_of_chunk);
    // rc: every record is its own chunk and request.
    Totals rc = check_plans("rc", 8, 256 * kKB, 4, 8192);
    BOOST_TEST(rc.pieces == 256 * kKB / 8);
    // rcn: one row (128 records, 1 KB) per request; rnb: a quarter row (256 B).
    BOOST_TEST(check_plans("rcn", 8, 256 * kKB, 4, 8192).pieces == 256u);
    BOOST_TEST(check_plans("rnb", 8, 256 * kKB, 4, 8192).pieces == 1024u);
    // rn: one CP, one chunk of the whole file, 32 requests; the others none.
    BOOST_TEST(plan_of(make_pattern("rn", 8, 256 * kKB, 4), 0, 8192).size() == 32u);
    BOOST_TEST(plan_of(make_pattern("rn", 8, 256 * kKB, 4), 1, 8192).empty());
    // ra: every CP reads all 32 blocks as one call.
    Totals ra = check_plans("ra", 8, 256 * kKB, 4, 8192);
    BOOST_TEST(ra.chunks == 4u);
    BOOST_TEST(ra.pieces == 4u * 32u);
}

BOOST_AUTO_TEST_CASE(chunk_straddling_blocks_is_split_at_the_boundaries) {
    // 3 KB records, 1-D BLOCK over 2 CPs, 4 KB blocks: CP 1 owns records 4-7 =
    // bytes [12 KB, 24 KB): blocks 3 (all), 4 (all), 5 (all).
    fw_pattern_t p = make_pattern("rb", 3 * kKB, 24 * kKB, 2);
    auto plan = plan_of(p, 1, 4096);
    BOOST_TEST_REQUIRE(plan.size() == 3u);
    // A chunk starting and ending inside blocks: 10 records of 3 KB over 2 CPs; CP 1
    // owns bytes [15 KB, 30 KB) = the last 1 KB of block 3, blocks 4-6, and the first
    // 2 KB of block 7, which is also where the file ends.
    p = make_pattern("rb", 3 * kKB, 30 * kKB, 2);
    plan = plan_of(p, 1, 4096);
    BOOST_TEST_REQUIRE(plan.size() == 5u);
    BOOST_TEST(plan[0].file_block == 3u);
    BOOST_TEST(plan[0].block_offset == 3072u);
    BOOST_TEST(plan[0].length == 1024u);
    BOOST_TEST(plan[0].buf_offset == 0u);
    BOOST_TEST(plan[1].file_block == 4u);
    BOOST_TEST(plan[1].buf_offset == 1024u);
    BOOST_TEST(plan[4].file_block == 7u);
    BOOST_TEST(plan[4].block_offset == 0u);
    BOOST_TEST(plan[4].length == 2048u); // the file's short last block
}

BOOST_AUTO_TEST_CASE(block_homes_follow_the_striping) {
    // 8 file disks on 4 IOPs (2 disks each), 100 blocks.
    fw_layout_t l = make_layout(8, 100);
    for (uint64_t b = 0; b < 100; ++b) {
        fw_spfs_block_home_t h = fw_spfs_block_home(&l, 4, b);
        BOOST_TEST_REQUIRE(h.file_disk == b % 8);
        BOOST_TEST_REQUIRE(h.iop == h.file_disk % 4);
        BOOST_TEST_REQUIRE(h.local_disk == h.file_disk / 4);
        BOOST_TEST_REQUIRE(h.disk_block == b / 8);
        BOOST_TEST_REQUIRE(fw_file_disk(h.iop, h.local_disk, 4) == h.file_disk);
        fw_block_location_t loc = fw_layout_locate(&l, nullptr, b);
        BOOST_TEST_REQUIRE(loc.disk == h.file_disk);
        BOOST_TEST_REQUIRE(loc.local_index == h.disk_block);
        BOOST_TEST_REQUIRE(h.disk_block < fw_layout_disk_block_count(&l, h.file_disk));
    }
    // The default machine: 16 disks, one per IOP.
    fw_layout_t def = make_layout(16, 1280);
    fw_spfs_block_home_t h = fw_spfs_block_home(&def, 16, 1279);
    BOOST_TEST(h.file_disk == 15u);
    BOOST_TEST(h.iop == 15u);
    BOOST_TEST(h.local_disk == 0u);
    BOOST_TEST(h.disk_block == 79u);
}

BOOST_AUTO_TEST_CASE(block_length_in_the_file) {
    BOOST_TEST(fw_spfs_block_len(256 * kKB, 8192, 0) == 8192u);
    BOOST_TEST(fw_spfs_block_len(256 * kKB, 8192, 31) == 8192u);
    BOOST_TEST(fw_spfs_block_len(256 * kKB, 8192, 32) == 0u);
    BOOST_TEST(fw_spfs_block_len(100000, 8192, 12) == 100000u - 12u * 8192u);
    BOOST_TEST(fw_spfs_block_len(100000, 8192, 13) == 0u);
    BOOST_TEST(fw_spfs_block_len(100000, 0, 0) == 0u);
}

BOOST_AUTO_TEST_CASE(k_limit_per_disk) {
    BOOST_TEST(fw_spfs_klimit_bytes(0) == 0u);
    size_t bytes = fw_spfs_klimit_bytes(3);
    std::vector<uint64_t> mem(bytes / 8 + 1, ~0ull);
    BOOST_TEST(fw_spfs_klimit_init(mem.data(), bytes, 0, 3) == nullptr);
    BOOST_TEST(fw_spfs_klimit_init(mem.data(), bytes - 1, 2, 3) == nullptr);
    fw_spfs_klimit_t *t = fw_spfs_klimit_init(mem.data(), bytes, 2, 3);
    BOOST_TEST_REQUIRE(t != nullptr);
    for (uint32_t d = 0; d < 3; ++d) {
        BOOST_TEST(fw_spfs_klimit_can_send(t, d));
        BOOST_TEST(fw_spfs_klimit_outstanding(t, d) == 0u);
    }
    BOOST_TEST(fw_spfs_klimit_sent(t, 1));
    BOOST_TEST(fw_spfs_klimit_can_send(t, 1));
    BOOST_TEST(fw_spfs_klimit_sent(t, 1));
    BOOST_TEST(!fw_spfs_klimit_can_send(t, 1)); // K = 2 reached on disk 1 only
    BOOST_TEST(fw_spfs_klimit_can_send(t, 0));
    BOOST_TEST(!fw_spfs_klimit_sent(t, 1)); // refused, not counted
    BOOST_TEST(fw_spfs_klimit_outstanding(t, 1) == 2u);
    BOOST_TEST(fw_spfs_klimit_sent(t, 2));
    BOOST_TEST(fw_spfs_klimit_total(t) == 3u);
    BOOST_TEST(fw_spfs_klimit_replied(t, 1));
    BOOST_TEST(fw_spfs_klimit_can_send(t, 1));
    BOOST_TEST(!fw_spfs_klimit_replied(t, 0)); // nothing outstanding there
    BOOST_TEST(fw_spfs_klimit_total(t) == 2u);
    // Out-of-range disks are refused.
    BOOST_TEST(!fw_spfs_klimit_can_send(t, 3));
    BOOST_TEST(!fw_spfs_klimit_sent(t, 3));
    BOOST_TEST(!fw_spfs_klimit_replied(t, 3));
    BOOST_TEST(fw_spfs_klimit_outstanding(t, 3) == 0u);
    BOOST_TEST(fw_spfs_klimit_replied(t, 1));
    BOOST_TEST(fw_spfs_klimit_replied(t, 2));
    BOOST_TEST(fw_spfs_klimit_total(t) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
