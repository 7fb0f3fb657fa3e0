// File layouts (fw/layout.h): striping, contiguous identity, random-blocks and
// random-tracks placement (distinct, in range, deterministic per seed and trial,
// different across trials), the LBA presort and the errors.
#include "fw/layout.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace {

const fw_disk_geometry_t kHp97560 = {512, 72, 1962 * 19};

fw_layout_params_t params(fw_layout_kind_t kind, uint64_t file_blocks, uint32_t disks = 16,
                          uint64_t seed = 1, uint64_t trial = 0) {
    fw_layout_params_t p{};
    p.kind = kind;
    p.block_bytes = 8192;
    p.disk = kHp97560;
    p.disk_count = disks;
    p.file_blocks = file_blocks;
    p.start_block = 0;
    p.seed = seed;
    p.trial = trial;
    return p;
}

fw_layout_t make(const fw_layout_params_t &p) {
    fw_layout_t l;
    char msg[256];
    int rc = fw_layout_init(&l, &p, msg, sizeof msg);
    BOOST_TEST_REQUIRE(rc == FW_LAYOUT_OK, msg);
    return l;
}

std::vector<uint32_t> table(const fw_layout_t &l, uint32_t disk) {
    std::vector<uint32_t> t(fw_layout_table_bytes(&l, disk) / sizeof(uint32_t));
    BOOST_TEST_REQUIRE(t.size() == fw_layout_disk_block_count(&l, disk));
    fw_layout_build_table(&l, disk, t.data());
    return t;
}

std::vector<std::vector<uint32_t>> all_tables(const fw_layout_t &l) {
    std::vector<std::vector<uint32_t>> t;
    for (uint32_t d = 0; d < l.params.disk_count; ++d) {
        t.push_back(table(l, d));
    }
    return t;
}

} // namespace

BOOST_AUTO_TEST_SUITE(layout)

BOOST_AUTO_TEST_CASE(hp97560_geometry) {
    fw_layout_t l = make(params(FW_LAYOUT_RANDOM_TRACKS, 1280));
    BOOST_TEST(l.sectors_per_block == 16u);
    BOOST_TEST(l.blocks_per_track == 4u); // 64 of 72 sectors; 8 unused
    BOOST_TEST(l.disk_sectors == 2684016u);
    BOOST_TEST(l.disk_blocks == 167751u);
}

BOOST_AUTO_TEST_CASE(striping) {
    fw_layout_t l = make(params(FW_LAYOUT_CONTIGUOUS, 1283, 16));
    uint64_t total = 0;
    for (uint32_t d = 0; d < 16; ++d) {
        total += fw_layout_disk_block_count(&l, d);
    }
    BOOST_TEST(total == 1283u);
    BOOST_TEST(fw_layout_disk_block_count(&l, 2) == 81u);
    BOOST_TEST(fw_layout_disk_block_count(&l, 3) == 80u);
    BOOST_TEST(fw_layout_disk_block_count(&l, 16) == 0u);
    for (uint64_t b = 0; b < 1283; ++b) {
        BOOST_TEST_REQUIRE(fw_layout_disk_of(&l, b) == b % 16);
        BOOST_TEST_REQUIRE(fw_layout_local_index(&l, b) == b / 16);
        BOOST_TEST_REQUIRE(
            fw_layout_file_block(&l, fw_layout_disk_of(&l, b), fw_layout_local_index(&l, b)) == b);
    }
    // Fewer blocks than disks: the last disks hold nothing.
    l = make(params(FW_LAYOUT_RANDOM_BLOCKS, 3, 16));
    BOOST_TEST(fw_layout_disk_block_count(&l, 2) == 1u);
    BOOST_TEST(fw_layout_disk_block_count(&l, 3) == 0u);
    BOOST_TEST(fw_layout_table_bytes(&l, 3) == 0u);
}

BOOST_AUTO_TEST_CASE(contiguous_is_identity) {
    for (uint64_t start : {0u, 1000u}) {
        fw_layout_params_t p = params(FW_LAYOUT_CONTIGUOUS, 1280);
        p.start_block = start;
        fw_layout_t l = make(p);
        for (uint32_t d = 0; d < 16; ++d) {
            BOOST_TEST(fw_layout_table_bytes(&l, d) == 0u);
        }
        for (uint64_t b = 0; b < 1280; ++b) {
            fw_block_location_t loc = fw_layout_locate(&l, nullptr, b);
            BOOST_TEST_REQUIRE(loc.disk == b % 16);
            BOOST_TEST_REQUIRE(loc.local_index == b / 16);
            BOOST_TEST_REQUIRE(loc.lba == (start + b / 16) * 16);
        }
    }
}

BOOST_AUTO_TEST_CASE(random_blocks_distinct_in_range) {
    fw_layout_t l = make(params(FW_LAYOUT_RANDOM_BLOCKS, 128000)); // 8000 blocks per disk
    for (uint32_t d = 0; d < 16; ++d) {
        auto t = table(l, d);
        std::set<uint32_t> seen;
        double sum = 0;
        for (uint32_t lba : t) {
            BOOST_TEST_REQUIRE(lba % 16 == 0u);           // a physical block
            BOOST_TEST_REQUIRE(lba / 16 < l.disk_blocks); // on the disk
            BOOST_TEST_REQUIRE(seen.insert(lba).second);  // distinct
            sum += lba / 16;
        }
        // Spread over the whole disk, in no particular order.
        BOOST_TEST(*seen.begin() / 16 < l.disk_blocks / 100);
        BOOST_TEST(*seen.rbegin() / 16 > l.disk_blocks * 99 / 100);
        const double mean = sum / t.size();
        BOOST_TEST(mean > 0.45 * l.disk_blocks);
        BOOST_TEST(mean < 0.55 * l.disk_blocks);
        BOOST_TEST(!std::is_sorted(t.begin(), t.end()));
    }
}

BOOST_AUTO_TEST_CASE(random_blocks_filling_the_disk_is_a_permutation) {
    fw_layout_params_t p = params(FW_LAYOUT_RANDOM_BLOCKS, 2 * 40, 2);
    p.disk = fw_disk_geometry_t{512, 8, 10}; // 80 sectors = 40 two-sector blocks
    p.block_bytes = 1024;
    fw_layout_t l = make(p);
    for (uint32_t d = 0; d < 2; ++d) {
        auto t = table(l, d);
        std::vector<uint32_t> sorted = t;
        std::sort(sorted.begin(), sorted.end());
        for (uint32_t i = 0; i < 40; ++i) {
            BOOST_TEST_REQUIRE(sorted[i] == 2 * i);
        }
        BOOST_TEST(t != sorted);
    }
}

BOOST_AUTO_TEST_CASE(random_tracks_consecutive_within_tracks) {
    fw_layout_t l = make(params(FW_LAYOUT_RANDOM_TRACKS, 16 * 1001)); // 1001 per disk
    for (uint32_t d = 0; d < 16; ++d) {
        auto t = table(l, d);
        std::set<uint32_t> tracks;
        for (uint64_t i = 0; i < t.size(); ++i) {
            const uint32_t track = t[i] / 72, sector = t[i] % 72;
            BOOST_TEST_REQUIRE(track < kHp97560.tracks);
            BOOST_TEST_REQUIRE(sector == (i % 4) * 16); // slot i % 4 of the track
            BOOST_TEST_REQUIRE(sector + 16 <= 72u);     // inside the track
            if (i % 4 == 0) {
                BOOST_TEST_REQUIRE(tracks.insert(track).second); // a new, distinct track
            } else {
                BOOST_TEST_REQUIRE(t[i] == t[i - 1] + 16); // consecutive in the track
            }
        }
        BOOST_TEST(tracks.size() == 251u); // ceil(1001 / 4)
        std::vector<uint32_t> order(tracks.begin(), tracks.end());
        std::vector<uint32_t> drawn;
        for (uint64_t i = 0; i < t.size(); i += 4) {
            drawn.push_back(t[i] / 72);
        }
        BOOST_TEST(drawn != order); // tracks in random order, not sorted
    }
}

BOOST_AUTO_TEST_CASE(random_layouts_fixed_per_seed_and_trial) {
    for (fw_layout_kind_t kind : {FW_LAYOUT_RANDOM_BLOCKS, FW_LAYOUT_RANDOM_TRACKS}) {
        std::vector<std::vector<std::vector<uint32_t>>> trials;
        for (uint64_t trial = 0; trial < 5; ++trial) {
            auto a = all_tables(make(params(kind, 1280, 16, 7, trial)));
            auto b = all_tables(make(params(kind, 1280, 16, 7, trial)));
            BOOST_TEST_REQUIRE(a == b); // same (seed, trial): same layout
            trials.push_back(a);
        }
        for (size_t i = 0; i < trials.size(); ++i) {
            for (size_t j = i + 1; j < trials.size(); ++j) {
                for (uint32_t d = 0; d < 16; ++d) {
                    BOOST_TEST(trials[i][d] != trials[j][d], "trials " << i << "," << j);
                }
            }
        }
        // Another seed, another layout; disks differ from each other.
        auto other = all_tables(make(params(kind, 1280, 16, 8, 0)));
        for (uint32_t d = 0; d < 16; ++d) {
            BOOST_TEST(other[d] != trials[0][d]);
        }
        BOOST_TEST(trials[0][0] != trials[0][1]);
        BOOST_TEST(trials[0][0].size() == 80u);
    }
}

BOOST_AUTO_TEST_CASE(locate_uses_the_disk_tables) {
    fw_layout_t l = make(params(FW_LAYOUT_RANDOM_BLOCKS, 1000, 6));
    auto t = all_tables(l);
    std::vector<const uint32_t *> ptrs;
    for (auto &v : t) {
        ptrs.push_back(v.data());
    }
    for (uint64_t b = 0; b < 1000; ++b) {
        fw_block_location_t loc = fw_layout_locate(&l, ptrs.data(), b);
        BOOST_TEST_REQUIRE(loc.disk == b % 6);
        BOOST_TEST_REQUIRE(loc.local_index == b / 6);
        BOOST_TEST_REQUIRE(loc.lba == t[b % 6][b / 6]);
    }
}

BOOST_AUTO_TEST_CASE(logical_lba_is_the_contiguous_address_on_every_layout) {
    // What a file system knows without the physical layout (SPFS's disk queue key):
    // on the contiguous layout it is the LBA itself; on the random ones it keeps
    // the file's order while the LBAs do not.
    fw_layout_params_t p = params(FW_LAYOUT_CONTIGUOUS, 1280);
    p.start_block = 7;
    fw_layout_t c = make(p);
    for (uint64_t i = 0; i < fw_layout_disk_block_count(&c, 0); ++i) {
        BOOST_TEST(fw_layout_logical_lba(&c, i) == fw_layout_lba(&c, nullptr, i));
        BOOST_TEST(fw_layout_logical_lba(&c, i) == (7 + i) * 16);
    }
    fw_layout_t r = make(params(FW_LAYOUT_RANDOM_BLOCKS, 1280));
    std::vector<uint32_t> t = table(r, 3);
    bool lba_in_order = true;
    for (uint64_t i = 1; i < t.size(); ++i) {
        BOOST_TEST(fw_layout_logical_lba(&r, i) == i * 16);
        lba_in_order = lba_in_order && t[i] > t[i - 1];
    }
    BOOST_TEST(!lba_in_order);
}

BOOST_AUTO_TEST_CASE(presort_by_lba) {
    fw_layout_t l = make(params(FW_LAYOUT_RANDOM_BLOCKS, 16 * 500));
    auto t = table(l, 3);
    std::vector<fw_disk_block_t> blocks(fw_layout_disk_block_count(&l, 3));
    fw_layout_list_disk(&l, 3, t.data(), blocks.data());
    for (uint32_t i = 0; i < blocks.size(); ++i) {
        BOOST_TEST_REQUIRE(blocks[i].local_index == i);
        BOOST_TEST_REQUIRE(blocks[i].lba == t[i]);
    }
    fw_layout_sort_by_lba(blocks.data(), blocks.size());
    std::vector<uint32_t> sorted = t;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < blocks.size(); ++i) {
        BOOST_TEST_REQUIRE(blocks[i].lba == sorted[i]);
        BOOST_TEST_REQUIRE(t[blocks[i].local_index] == blocks[i].lba); // pairs kept
    }
    // Ties by local index; tiny inputs.
    std::vector<fw_disk_block_t> v = {{5, 2}, {1, 9}, {5, 1}, {0, 4}, {5, 0}};
    fw_layout_sort_by_lba(v.data(), v.size());
    const std::vector<std::pair<uint32_t, uint32_t>> expect = {
        {0, 4}, {1, 9}, {5, 0}, {5, 1}, {5, 2}};
    for (size_t i = 0; i < v.size(); ++i) {
        BOOST_TEST(v[i].lba == expect[i].first);
        BOOST_TEST(v[i].local_index == expect[i].second);
    }
    fw_layout_sort_by_lba(nullptr, 0);
    fw_disk_block_t one = {3, 3};
    fw_layout_sort_by_lba(&one, 1);
    BOOST_TEST(one.lba == 3u);
}

BOOST_AUTO_TEST_CASE(kind_names) {
    for (fw_layout_kind_t k :
         {FW_LAYOUT_CONTIGUOUS, FW_LAYOUT_RANDOM_BLOCKS, FW_LAYOUT_RANDOM_TRACKS}) {
        fw_layout_kind_t parsed;
        BOOST_TEST(fw_layout_kind_parse(fw_layout_kind_name(k), &parsed));
        BOOST_TEST(parsed == k);
    }
    fw_layout_kind_t parsed;
    BOOST_TEST(!fw_layout_kind_parse("random", &parsed));
    BOOST_TEST(!fw_layout_kind_parse(nullptr, &parsed));
}

BOOST_AUTO_TEST_CASE(errors_have_codes_and_messages) {
    struct Case {
        std::string what;
        fw_layout_params_t p;
        int status;
        std::vector<std::string> words;
    };
    std::vector<Case> cases;
    auto add = [&](std::string what, auto edit, int status, std::vector<std::string> words) {
        fw_layout_params_t p = params(FW_LAYOUT_RANDOM_TRACKS, 1280);
        edit(p);
        cases.push_back({std::move(what), p, status, std::move(words)});
    };
    add("kind", [](auto &p) { p.kind = static_cast<fw_layout_kind_t>(7); }, FW_LAYOUT_ERR_KIND,
        {"unknown file layout", "random-tracks"});
    add("block 0", [](auto &p) { p.block_bytes = 0; }, FW_LAYOUT_ERR_ZERO, {"block size"});
    add("sector 0", [](auto &p) { p.disk.sector_bytes = 0; }, FW_LAYOUT_ERR_ZERO, {"sector size"});
    add("spt 0", [](auto &p) { p.disk.sectors_per_track = 0; }, FW_LAYOUT_ERR_ZERO,
        {"sectors per track"});
    add("tracks 0", [](auto &p) { p.disk.tracks = 0; }, FW_LAYOUT_ERR_ZERO, {"track count"});
    add("disks 0", [](auto &p) { p.disk_count = 0; }, FW_LAYOUT_ERR_ZERO, {"disk count"});
    add("file 0", [](auto &p) { p.file_blocks = 0; }, FW_LAYOUT_ERR_ZERO, {"file size"});
    add("partial sector", [](auto &p) { p.block_bytes = 1000; }, FW_LAYOUT_ERR_BLOCK_SIZE,
        {"1000-byte block", "512-byte sectors"});
    add("block > track", [](auto &p) { p.block_bytes = 73 * 512; }, FW_LAYOUT_ERR_BLOCK_SIZE,
        {"73 sectors", "72-sector track"});
    add("too many tracks", [](auto &p) { p.file_blocks = 16ull * 4 * 37278 + 1; },
        FW_LAYOUT_ERR_DISK_FULL, {"149113 blocks", "37278 tracks"});
    add("random blocks full",
        [](auto &p) {
            p.kind = FW_LAYOUT_RANDOM_BLOCKS;
            p.file_blocks = 167752;
            p.disk_count = 1;
        },
        FW_LAYOUT_ERR_DISK_FULL, {"167752 blocks", "167751 blocks"});
    add("contiguous past the end",
        [](auto &p) {
            p.kind = FW_LAYOUT_CONTIGUOUS;
            p.start_block = 167700;
            p.disk_count = 1;
            p.file_blocks = 52;
        },
        FW_LAYOUT_ERR_DISK_FULL, {"52 blocks", "physical block 167700"});
    add("huge disk", [](auto &p) { p.disk.tracks = 100000000; }, FW_LAYOUT_ERR_GEOMETRY,
        {"32-bit"});
    for (const Case &c : cases) {
        BOOST_TEST_CONTEXT(c.what) {
            fw_layout_t l;
            char msg[256];
            int rc = fw_layout_init(&l, &c.p, msg, sizeof msg);
            BOOST_TEST(rc == c.status, fw_layout_status_name(rc) << ": " << msg);
            for (const std::string &w : c.words) {
                BOOST_TEST(std::string(msg).find(w) != std::string::npos,
                           "'" << w << "' in: " << msg);
            }
        }
    }
    // The limits themselves are accepted.
    fw_layout_params_t p = params(FW_LAYOUT_CONTIGUOUS, 51, 1);
    p.start_block = 167700;
    make(p);
    make(params(FW_LAYOUT_RANDOM_TRACKS, 16ull * 4 * 37278));
}

BOOST_AUTO_TEST_SUITE_END()
