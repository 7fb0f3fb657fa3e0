// Transfer verification: a correct machine state passes, any wrong, missing or
// misplaced byte fails with a message that locates it.
#include "fw/transfer.h"
#include "hw/data_pattern.h"
#include "sim/workload/transfer_check.h"

#include <boost/test/unit_test.hpp>

#include <map>

using namespace starfish::sim;

namespace {

struct Fixture {
    fw_pattern_t pattern{};
    fw_layout_t layout{};
    std::vector<std::vector<uint32_t>> tables;
    DiskNumbering numbering{4, 2};

    Fixture(const char *name, uint64_t record, uint64_t file_bytes, uint32_t cps,
            fw_layout_kind_t kind) {
        char msg[200];
        BOOST_REQUIRE(fw_pattern_init(&pattern, name, record, file_bytes, cps, 0, msg,
                                      sizeof msg) == FW_PATTERN_OK);
        fw_layout_params_t lp{};
        lp.kind = kind;
        lp.block_bytes = 8192;
        lp.disk = fw_disk_geometry_t{512, 72, 1962 * 19};
        lp.disk_count = numbering.disk_count();
        lp.file_blocks = (file_bytes + 8191) / 8192;
        lp.seed = 7;
        lp.trial = 3;
        BOOST_REQUIRE(fw_layout_init(&layout, &lp, msg, sizeof msg) == FW_LAYOUT_OK);
        tables.resize(lp.disk_count);
        for (uint32_t d = 0; d < lp.disk_count; ++d) {
            tables[d].resize(fw_layout_table_bytes(&layout, d) / sizeof(uint32_t));
            if (!tables[d].empty()) {
                fw_layout_build_table(&layout, d, tables[d].data());
            }
        }
    }

    TransferCheck check() const { return TransferCheck(pattern, layout, tables, numbering, 99); }

    // Independent reference for a file byte before the transfer: locate its block by
    // striping and the layout, then read the disk contents function.
    uint8_t file_byte(uint64_t offset) const {
        uint64_t block = offset / 8192;
        uint32_t d = static_cast<uint32_t>(block % numbering.disk_count());
        uint32_t lba = fw_layout_lba(&layout, tables[d].empty() ? nullptr : tables[d].data(),
                                     block / numbering.disk_count());
        uint32_t global =
            (d % numbering.iop_count) * numbering.disks_per_iop + d / numbering.iop_count;
        uint64_t in_block = offset % 8192;
        return hw_disk_byte(global, lba + static_cast<uint32_t>(in_block / 512),
                            static_cast<uint32_t>(in_block % 512));
    }

    // CP buffers as a correct read would leave them, built chunk by chunk.
    std::vector<std::vector<uint8_t>> read_buffers() const {
        std::vector<std::vector<uint8_t>> bufs(pattern.cp_count);
        for (uint32_t cp = 0; cp < pattern.cp_count; ++cp) {
            bufs[cp].resize(fw_pattern_cp_bytes(&pattern, cp));
            check().for_each_chunk(cp, [&](uint64_t cpo, uint64_t fo, uint64_t len) {
                for (uint64_t i = 0; i < len; ++i) {
                    bufs[cp][cpo + i] = file_byte(fo + i);
                }
            });
        }
        return bufs;
    }
};

CpBufferReader reader(const std::vector<std::vector<uint8_t>> &bufs) {
    return [&bufs](uint32_t cp, uint64_t off, uint64_t len) -> const uint8_t * {
        if (cp >= bufs.size() || off + len > bufs[cp].size()) {
            return nullptr;
        }
        return bufs[cp].data() + off;
    };
}

} // namespace

BOOST_AUTO_TEST_SUITE(transfer_check)

BOOST_AUTO_TEST_CASE(correct_reads_pass_for_several_patterns_and_layouts) {
    for (fw_layout_kind_t kind : {FW_LAYOUT_CONTIGUOUS, FW_LAYOUT_RANDOM_BLOCKS}) {
        for (const char *name : {"rb", "rbc", "rcc", "ra", "rn"}) {
            Fixture f(name, 8, 20 * 8192, 4, kind);
            auto bufs = f.read_buffers();
            auto r = f.check().check_read(reader(bufs));
            BOOST_TEST(r.verified, name << ": " << r.first_error);
            uint64_t expected = name[1] == 'a' ? 4 * 20 * 8192 : 20 * 8192;
            BOOST_TEST(r.checked_bytes == expected);
        }
    }
}

BOOST_AUTO_TEST_CASE(one_wrong_byte_fails_and_is_located) {
    Fixture f("rbc", 8, 20 * 8192, 4, FW_LAYOUT_RANDOM_BLOCKS);
    auto bufs = f.read_buffers();
    bufs[2][1000] ^= 0x01;
    auto r = f.check().check_read(reader(bufs));
    BOOST_TEST(!r.verified);
    BOOST_TEST(r.bad_bytes == 1u);
    BOOST_TEST(r.first_error.find("CP 2 buffer offset 1000") != std::string::npos, r.first_error);
}

BOOST_AUTO_TEST_CASE(a_short_buffer_fails) {
    Fixture f("rb", 8192, 20 * 8192, 4, FW_LAYOUT_CONTIGUOUS);
    auto bufs = f.read_buffers();
    bufs[3].resize(bufs[3].size() - 8192);
    auto r = f.check().check_read(reader(bufs));
    BOOST_TEST(!r.verified);
    BOOST_TEST(r.first_error.find("CP 3 has no buffer bytes") != std::string::npos, r.first_error);
}

BOOST_AUTO_TEST_CASE(swapped_blocks_fail) {
    // Data in the wrong place is wrong data, even if every byte value occurs.
    Fixture f("rb", 8192, 20 * 8192, 4, FW_LAYOUT_CONTIGUOUS);
    auto bufs = f.read_buffers();
    std::swap_ranges(bufs[0].begin(), bufs[0].begin() + 8192, bufs[0].begin() + 8192);
    BOOST_TEST(!f.check().check_read(reader(bufs)).verified);
}

BOOST_AUTO_TEST_CASE(writes_are_checked_on_the_disks) {
    Fixture f("wcc", 8, 20 * 8192 + 4096, 4, FW_LAYOUT_RANDOM_TRACKS);
    auto chk = f.check();
    // A fake set of disks that received exactly what the CPs wrote.
    std::map<std::pair<uint32_t, uint32_t>, uint8_t> disk; // (disk, byte address)
    std::vector<uint8_t> block;
    for (uint64_t b = 0; b < chk.file_blocks(); ++b) {
        chk.written_block(b, block);
        uint32_t d = static_cast<uint32_t>(b % 8);
        uint32_t lba = fw_layout_lba(&f.layout, f.tables[d].data(), b / 8);
        uint32_t global = (d % 4) * 2 + d / 4;
        for (size_t i = 0; i < block.size(); ++i) {
            disk[{global, lba * 512 + static_cast<uint32_t>(i)}] = block[i];
        }
    }
    auto read_disk = [&](uint32_t id, uint32_t lba, uint32_t count, uint8_t *out) {
        for (uint32_t i = 0; i < count * 512; ++i) {
            auto it = disk.find({id, lba * 512 + i});
            out[i] = it == disk.end() ? hw_disk_byte(id, lba + i / 512, i % 512) : it->second;
        }
    };
    auto r = chk.check_write(read_disk);
    BOOST_TEST(r.verified, r.first_error);
    BOOST_TEST(r.checked_bytes == 20u * 8192 + 4096);
    // The written data is the file's data: hw_file_byte of the offset.
    BOOST_TEST(block[5] == hw_file_byte(99, (chk.file_blocks() - 1) * 8192 + 5));
    // Lose one write.
    uint32_t lba7 = fw_layout_lba(&f.layout, f.tables[7].data(), 0);
    disk.erase({(7 % 4) * 2 + 7 / 4, lba7 * 512 + 17});
    r = chk.check_write(read_disk);
    BOOST_TEST(!r.verified);
    BOOST_TEST(r.bad_bytes == 1u);
    BOOST_TEST(r.first_error.find("file block 7") != std::string::npos, r.first_error);
}

BOOST_AUTO_TEST_CASE(disk_numbering_round_robins_over_iops_first) {
    DiskNumbering n{4, 2};
    BOOST_TEST(n.global_id(0) == 0u); // IOP 0 disk 0
    BOOST_TEST(n.global_id(1) == 2u); // IOP 1 disk 0
    BOOST_TEST(n.global_id(4) == 1u); // IOP 0 disk 1
    BOOST_TEST(n.global_id(7) == 7u); // IOP 3 disk 1
}

BOOST_AUTO_TEST_CASE(disk_numbering_agrees_with_the_firmware) {
    // The check locates blocks the way the IOPs striped them (fw/transfer.h).
    for (uint32_t iops : {1u, 3u, 16u}) {
        for (uint32_t per_iop : {1u, 2u, 4u}) {
            DiskNumbering n{iops, per_iop};
            for (uint32_t fd = 0; fd < n.disk_count(); ++fd) {
                BOOST_TEST_REQUIRE(n.iop_of(fd) == fw_file_disk_iop(fd, iops));
                BOOST_TEST_REQUIRE(n.local_of(fd) == fw_file_disk_local(fd, iops));
                BOOST_TEST_REQUIRE(fw_file_disk(n.iop_of(fd), n.local_of(fd), iops) == fd);
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
