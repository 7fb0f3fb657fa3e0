// The pure parts of DDIO and the transfer description (fw/ddio.h, fw/transfer.h):
// each IOP's block list (local order, presort, rotation, always a permutation of
// the disk's blocks), the staggered rotation, the queued-mode rule, the striping of
// file disks over IOPs, and the errors of fw_transfer_pattern/fw_transfer_layout_of.
#include "fw/ddio.h"
#include "fw/transfer.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

const fw_disk_geometry_t kHp97560 = {512, 72, 1962 * 19};

fw_layout_t make_layout(fw_layout_kind_t kind, uint64_t file_blocks, uint32_t disks,
                        uint64_t trial = 0) {
    fw_layout_params_t p{};
    p.kind = kind;
    p.block_bytes = 8192;
    p.disk = kHp97560;
    p.disk_count = disks;
    p.file_blocks = file_blocks;
    p.seed = 11;
    p.trial = trial;
    fw_layout_t l;
    char msg[256];
    int rc = fw_layout_init(&l, &p, msg, sizeof msg);
    BOOST_TEST_REQUIRE(rc == FW_LAYOUT_OK, msg);
    return l;
}

std::vector<uint32_t> table_of(const fw_layout_t &l, uint32_t disk) {
    std::vector<uint32_t> t(fw_layout_table_bytes(&l, disk) / sizeof(uint32_t));
    if (!t.empty()) {
        fw_layout_build_table(&l, disk, t.data());
    }
    return t;
}

const uint32_t *ptr(const std::vector<uint32_t> &t) {
    return t.empty() ? nullptr : t.data();
}

std::vector<fw_disk_block_t> block_list(const fw_layout_t &l, uint32_t disk,
                                        const std::vector<uint32_t> &table, bool presort,
                                        uint64_t rotate) {
    uint64_t n = fw_layout_disk_block_count(&l, disk);
    // One spare entry past the end, to catch writes beyond the list.
    std::vector<fw_disk_block_t> out(n + 1, fw_disk_block_t{0xdeadbeef, 0xdeadbeef});
    fw_ddio_block_list(&l, disk, ptr(table), presort, rotate, out.data());
    BOOST_TEST_REQUIRE(out[n].lba == 0xdeadbeefu);
    out.resize(n);
    return out;
}

bool same(const std::vector<fw_disk_block_t> &a, const std::vector<fw_disk_block_t> &b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].lba != b[i].lba || a[i].local_index != b[i].local_index) {
            return false;
        }
    }
    return true;
}

std::vector<fw_disk_block_t> rotated_left(const std::vector<fw_disk_block_t> &v, uint64_t by) {
    std::vector<fw_disk_block_t> r(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        r[i] = v[(i + by) % v.size()];
    }
    return r;
}

const fw_layout_kind_t kKinds[] = {FW_LAYOUT_CONTIGUOUS, FW_LAYOUT_RANDOM_BLOCKS,
                                   FW_LAYOUT_RANDOM_TRACKS};

fw_transfer_req_t request(const char *pattern, uint64_t record, uint64_t file, uint32_t cps,
                          uint64_t cols = 0) {
    fw_transfer_req_t r;
    std::memset(&r, 0, sizeof r);
    std::strncpy(r.pattern, pattern, sizeof r.pattern);
    r.cp_count = cps;
    r.record_bytes = record;
    r.file_bytes = file;
    r.cols = cols;
    return r;
}

bool contains(const char *text, const std::string &part) {
    return std::string(text).find(part) != std::string::npos;
}

} // namespace

BOOST_AUTO_TEST_SUITE(ddio_plan)

BOOST_AUTO_TEST_CASE(unsorted_list_is_local_block_order) {
    // 83 blocks over 4 disks: disks 0-2 hold 21 blocks, disk 3 holds 20.
    for (fw_layout_kind_t kind : kKinds) {
        fw_layout_t l = make_layout(kind, 83, 4);
        for (uint32_t d = 0; d < 4; ++d) {
            auto t = table_of(l, d);
            auto list = block_list(l, d, t, false, 0);
            BOOST_TEST_REQUIRE(list.size() == (d < 3 ? 21u : 20u));
            for (uint32_t i = 0; i < list.size(); ++i) {
                BOOST_TEST_REQUIRE(list[i].local_index == i);
                BOOST_TEST_REQUIRE(list[i].lba == fw_layout_lba(&l, ptr(t), i));
            }
        }
    }
    // Contiguous: local block i at physical block i, 16 sectors each.
    fw_layout_t l = make_layout(FW_LAYOUT_CONTIGUOUS, 83, 4);
    auto list = block_list(l, 1, {}, false, 0);
    BOOST_TEST(list[5].lba == 5u * 16u);
}

BOOST_AUTO_TEST_CASE(presort_orders_by_lba) {
    for (fw_layout_kind_t kind : {FW_LAYOUT_RANDOM_BLOCKS, FW_LAYOUT_RANDOM_TRACKS}) {
        fw_layout_t l = make_layout(kind, 640, 4);
        auto t = table_of(l, 2);
        auto unsorted = block_list(l, 2, t, false, 0);
        auto sorted = block_list(l, 2, t, true, 0);
        // The random layouts really are out of order, and presort changes that.
        BOOST_TEST(!same(unsorted, sorted));
        for (size_t i = 1; i < sorted.size(); ++i) {
            BOOST_TEST_REQUIRE(sorted[i - 1].lba < sorted[i].lba);
        }
        for (const auto &b : sorted) {
            BOOST_TEST_REQUIRE(b.lba == t[b.local_index]);
        }
    }
    // Contiguous is already in LBA order: presort changes nothing.
    fw_layout_t l = make_layout(FW_LAYOUT_CONTIGUOUS, 640, 4);
    BOOST_TEST(same(block_list(l, 0, {}, true, 0), block_list(l, 0, {}, false, 0)));
}

BOOST_AUTO_TEST_CASE(rotation_by_any_amount) {
    fw_layout_t l = make_layout(FW_LAYOUT_RANDOM_BLOCKS, 7 * 3, 3); // 7 blocks per disk
    auto t = table_of(l, 1);
    for (bool presort : {false, true}) {
        auto base = block_list(l, 1, t, presort, 0);
        BOOST_REQUIRE(base.size() == 7u);
        for (uint64_t by : {0ull, 1ull, 3ull, 6ull, 7ull, 8ull, 14ull, 23ull, ~0ull}) {
            BOOST_TEST_CONTEXT("presort " << presort << ", rotate " << by) {
                auto r = block_list(l, 1, t, presort, by);
                BOOST_TEST(same(r, rotated_left(base, by % 7)));
            }
        }
        // Rotation starts the list at entry `by`: the first block moved is base[by].
        auto r3 = block_list(l, 1, t, presort, 3);
        BOOST_TEST(r3[0].local_index == base[3].local_index);
        BOOST_TEST(r3[6].local_index == base[2].local_index);
    }
    // Rotation of an even-length list (the reversal arithmetic differs).
    l = make_layout(FW_LAYOUT_CONTIGUOUS, 8, 1);
    auto base = block_list(l, 0, {}, false, 0);
    for (uint64_t by = 0; by < 20; ++by) {
        BOOST_TEST_REQUIRE(same(block_list(l, 0, {}, false, by), rotated_left(base, by % 8)));
    }
}

BOOST_AUTO_TEST_CASE(one_block_and_empty_lists) {
    // 5 blocks over 8 disks: disks 0-4 hold one block, 5-7 none.
    fw_layout_t l = make_layout(FW_LAYOUT_RANDOM_BLOCKS, 5, 8);
    for (uint32_t d = 0; d < 8; ++d) {
        auto t = table_of(l, d);
        for (uint64_t by : {0ull, 1ull, 5ull}) {
            auto list = block_list(l, d, t, true, by);
            BOOST_TEST_REQUIRE(list.size() == (d < 5 ? 1u : 0u));
            if (!list.empty()) {
                BOOST_TEST(list[0].local_index == 0u);
                BOOST_TEST(list[0].lba == t[0]);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(every_list_is_a_permutation_of_the_disks_blocks) {
    const uint32_t disks = 5;
    for (fw_layout_kind_t kind : kKinds) {
        fw_layout_t l = make_layout(kind, 1283, disks, 2);
        for (uint32_t d = 0; d < disks; ++d) {
            auto t = table_of(l, d);
            uint64_t n = fw_layout_disk_block_count(&l, d);
            for (bool presort : {false, true}) {
                for (uint64_t by : {uint64_t(0), uint64_t(1), n / 2, n, 3 * n + 1}) {
                    auto list = block_list(l, d, t, presort, by);
                    std::set<uint32_t> locals, lbas;
                    for (const auto &b : list) {
                        BOOST_TEST_REQUIRE(b.local_index < n);
                        BOOST_TEST_REQUIRE(b.lba == fw_layout_lba(&l, ptr(t), b.local_index));
                        locals.insert(b.local_index);
                        lbas.insert(b.lba);
                    }
                    BOOST_TEST_REQUIRE(locals.size() == n);
                    BOOST_TEST_REQUIRE(lbas.size() == n);
                    // ...and the file blocks are exactly those striped onto disk d.
                    for (uint32_t i : locals) {
                        BOOST_TEST_REQUIRE(fw_layout_file_block(&l, d, i) % disks == d);
                    }
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(stagger_rotation_spreads_the_iops_over_the_list) {
    BOOST_TEST(fw_ddio_stagger_rotation(0, 16, 80) == 0u);
    BOOST_TEST(fw_ddio_stagger_rotation(1, 16, 80) == 5u);
    BOOST_TEST(fw_ddio_stagger_rotation(15, 16, 80) == 75u);
    BOOST_TEST(fw_ddio_stagger_rotation(3, 4, 10) == 7u); // floor(3 * 10 / 4)
    BOOST_TEST(fw_ddio_stagger_rotation(5, 0, 10) == 0u); // no IOPs: no rotation
    BOOST_TEST(fw_ddio_stagger_rotation(2, 4, 0) == 0u);  // empty list
    // Always inside the list, and distinct IOPs start at distinct places when the
    // list has at least as many blocks as there are IOPs.
    for (uint32_t n : {1u, 3u, 16u}) {
        for (uint64_t len : {uint64_t(n), uint64_t(n) + 1, uint64_t(80), uint64_t(1) << 40}) {
            std::set<uint64_t> starts;
            for (uint32_t k = 0; k < n; ++k) {
                uint64_t r = fw_ddio_stagger_rotation(k, n, len);
                BOOST_TEST_REQUIRE(r < len);
                starts.insert(r);
            }
            BOOST_TEST_REQUIRE(starts.size() == n);
        }
    }
}

BOOST_AUTO_TEST_CASE(queued_mode) {
    BOOST_TEST(fw_ddio_use_queued("on", 8192, 8192));
    BOOST_TEST(fw_ddio_use_queued("on", 65536, 8192));
    BOOST_TEST(!fw_ddio_use_queued("off", 8, 8192));
    // auto: batch records smaller than a block.
    BOOST_TEST(fw_ddio_use_queued("auto", 8, 8192));
    BOOST_TEST(fw_ddio_use_queued("auto", 8191, 8192));
    BOOST_TEST(!fw_ddio_use_queued("auto", 8192, 8192));
    BOOST_TEST(!fw_ddio_use_queued("auto", 16384, 8192));
    BOOST_TEST(fw_ddio_use_queued("auto", 4096, 8192));
    BOOST_TEST(!fw_ddio_use_queued("auto", 4096, 4096));
}

BOOST_AUTO_TEST_CASE(file_disks_stripe_over_iops_first) {
    BOOST_TEST(fw_file_disk(0, 0, 16) == 0u);
    BOOST_TEST(fw_file_disk(15, 0, 16) == 15u);
    BOOST_TEST(fw_file_disk(0, 1, 16) == 16u); // second disk of IOP 0
    BOOST_TEST(fw_file_disk(3, 2, 4) == 11u);
    for (uint32_t iops : {1u, 3u, 16u}) {
        for (uint32_t per_iop : {1u, 2u, 5u}) {
            std::set<uint32_t> seen;
            for (uint32_t iop = 0; iop < iops; ++iop) {
                for (uint32_t local = 0; local < per_iop; ++local) {
                    uint32_t fd = fw_file_disk(iop, local, iops);
                    BOOST_TEST_REQUIRE(fd < iops * per_iop);
                    BOOST_TEST_REQUIRE(fw_file_disk_iop(fd, iops) == iop);
                    BOOST_TEST_REQUIRE(fw_file_disk_local(fd, iops) == local);
                    seen.insert(fd);
                }
            }
            // A bijection between (IOP, local disk) and the file's disks.
            BOOST_TEST_REQUIRE(seen.size() == iops * per_iop);
        }
    }
}

BOOST_AUTO_TEST_CASE(transfer_pattern_accepts_and_refuses) {
    fw_pattern_t p;
    char msg[256];
    fw_transfer_req_t r = request("rbc", 8, 10u << 20, 16);
    BOOST_TEST_REQUIRE(fw_transfer_pattern(&r, &p, msg, sizeof msg) == FW_PATTERN_OK, msg);
    BOOST_TEST(p.rows.extent == 1280u);
    BOOST_TEST(p.cols.extent == 1024u);
    BOOST_TEST(p.rows.procs == 4u);
    // Explicit columns travel in the request.
    r = request("rcb", 8192, 64 * 8192, 4, 16);
    BOOST_TEST_REQUIRE(fw_transfer_pattern(&r, &p, msg, sizeof msg) == FW_PATTERN_OK, msg);
    BOOST_TEST(p.cols.extent == 16u);
    BOOST_TEST(p.rows.extent == 4u);

    struct Case {
        fw_transfer_req_t req;
        int status;
        std::string text;
    };
    std::vector<Case> cases = {
        {request("zz", 8, 8192, 4), FW_PATTERN_ERR_NAME, "'zz'"},
        {request("wa", 8, 8192, 4), FW_PATTERN_ERR_NAME, "'wa'"},
        {request("rb", 8192, 3 * 8192 + 8, 4), FW_PATTERN_ERR_PARTIAL_RECORD,
         "not a whole number of 8192-byte records"},
        {request("rb", 0, 8192, 4), FW_PATTERN_ERR_ZERO, "record size"},
        {request("rb", 8, 8192, 0), FW_PATTERN_ERR_ZERO, "CP count"},
        // 8 records over 16 CPs.
        {request("rb", 8192, 8 * 8192, 16), FW_PATTERN_ERR_TOO_MANY_CPS, "over 16 CPs"},
        // rbc on 16 CPs is a 4 x 4 grid; one row of 8 records cannot go over 4 CP rows.
        {request("rbc", 8192, 8 * 8192, 16, 8), FW_PATTERN_ERR_TOO_MANY_CPS, "rows"},
        {request("rbb", 8192, 8 * 8192, 4, 3), FW_PATTERN_ERR_COLS, "3 columns"},
    };
    for (const auto &c : cases) {
        BOOST_TEST_CONTEXT(c.text) {
            msg[0] = '\0';
            BOOST_TEST(fw_transfer_pattern(&c.req, &p, msg, sizeof msg) == c.status);
            BOOST_TEST(contains(msg, c.text), msg);
        }
    }
    // The name field is not NUL-terminated when all four bytes are used: the pattern
    // must not read past it.
    r = request("rbc", 8, 8192, 4);
    std::memcpy(r.pattern, "rbcc", 4);
    r.cp_count = 4;
    BOOST_TEST(fw_transfer_pattern(&r, &p, msg, sizeof msg) == FW_PATTERN_ERR_NAME);
    BOOST_TEST(contains(msg, "'rbcc'"), msg);
}

BOOST_AUTO_TEST_CASE(transfer_layout_counts_partial_blocks_and_refuses_bad_shapes) {
    fw_layout_t l;
    char msg[256];
    // 100 KB + 8 bytes: 12 whole blocks and a partial one.
    BOOST_TEST_REQUIRE(fw_transfer_layout_of(&l, "random-tracks", 102408, 8192, kHp97560, 4, 1, 0,
                                             msg, sizeof msg) == FW_LAYOUT_OK,
                       msg);
    BOOST_TEST(l.params.file_blocks == 13u);
    BOOST_TEST(l.params.kind == FW_LAYOUT_RANDOM_TRACKS);
    BOOST_TEST(l.params.disk_count == 4u);
    BOOST_TEST(l.sectors_per_block == 16u);
    // The layout is the trial's: another trial, another placement.
    fw_layout_t l2;
    BOOST_TEST_REQUIRE(fw_transfer_layout_of(&l2, "random-tracks", 102408, 8192, kHp97560, 4, 1, 1,
                                             msg, sizeof msg) == FW_LAYOUT_OK);
    BOOST_TEST(table_of(l, 0) != table_of(l2, 0));

    // The HP 97560 holds 167751 blocks of 8 KB; 16 disks hold 2684016 blocks.
    const uint64_t disk_bytes = 167751ull * 8192;
    BOOST_TEST(fw_transfer_layout_of(&l, "contiguous", 16 * disk_bytes, 8192, kHp97560, 16, 1, 0,
                                     msg, sizeof msg) == FW_LAYOUT_OK);
    struct Case {
        const char *kind;
        uint64_t file_bytes;
        uint32_t block_bytes;
        uint32_t disks;
        int status;
        std::string text;
    };
    std::vector<Case> cases = {
        {"striped", 8192, 8192, 4, FW_LAYOUT_ERR_KIND, "'striped'"},
        {"contiguous", 16 * disk_bytes + 1, 8192, 16, FW_LAYOUT_ERR_DISK_FULL, "do not fit"},
        {"random-blocks", 2 * disk_bytes + 8192, 8192, 2, FW_LAYOUT_ERR_DISK_FULL, "do not fit"},
        {"random-tracks", 20ull << 30, 8192, 4, FW_LAYOUT_ERR_DISK_FULL, "tracks"},
        {"contiguous", 8192, 1000, 4, FW_LAYOUT_ERR_BLOCK_SIZE, "1000-byte block"},
        {"random-tracks", 1 << 20, 65536, 4, FW_LAYOUT_ERR_BLOCK_SIZE, "track"},
        {"contiguous", 0, 8192, 4, FW_LAYOUT_ERR_ZERO, "is 0"},
        {"contiguous", 8192, 8192, 0, FW_LAYOUT_ERR_ZERO, "is 0"},
    };
    for (const auto &c : cases) {
        BOOST_TEST_CONTEXT(c.kind << " " << c.file_bytes << " B, " << c.block_bytes << " B blocks, "
                                  << c.disks << " disks") {
            msg[0] = '\0';
            BOOST_TEST(fw_transfer_layout_of(&l, c.kind, c.file_bytes, c.block_bytes, kHp97560,
                                             c.disks, 1, 0, msg, sizeof msg) == c.status);
            BOOST_TEST(contains(msg, c.text), msg);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
