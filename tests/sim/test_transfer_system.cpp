// Whole-machine DDIO transfers (workload.kind = transfer) on small files: every
// pattern, record size, layout and presort setting, the DDIO switches, uneven
// shapes, byte-exact verification that really fails on wrong data, and
// determinism. Each trial builds its machine in a forked child (run_isolated).
#include "fw/transfer.h"
#include "hw/data_pattern.h"
#include "sim/platform/machine.h"
#include "tests/support/transfer_cells.h"
#include "tests/support/transfer_checks.h"

#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

// 4 CPs + 4 IOPs on a 3 x 3 torus, a 256 KB file (32 blocks, 8 per disk).
const Settings kSmall = {{"machine.cp_count", "4"},
                         {"machine.iop_count", "4"},
                         {"net.width", "3"},
                         {"net.height", "3"},
                         {"workload.file_mb", "0.25"}};

// Every byte verified, every block moved once, throughput consistent with time.
void expect_verified(const Cell &c, const json &t) {
    BOOST_TEST_CONTEXT(c.label()) {
        uint64_t copies = expect_bytes_verified(c, t);
        uint64_t file = t["file_bytes"].get<uint64_t>();
        BOOST_TEST(t["fs"]["blocks"].get<uint64_t>() == (file + 8191) / 8192);
        BOOST_TEST(t["elapsed_s"].get<double>() > 0);
        BOOST_TEST(t["mb_s"].get<double>() ==
                       file * copies / 1048576.0 / t["elapsed_s"].get<double>(),
                   boost::test_tools::tolerance(1e-9));
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(transfer_system)

BOOST_AUTO_TEST_CASE(every_pattern_record_size_layout_and_presort) {
    // 19 patterns x 2 record sizes x 3 layouts x presort on/off = 228 trials on the
    // small machine; trials 0-2 in turn, so each random layout is drawn anew.
    std::vector<Settings> variants;
    for (const char *layout : {"contiguous", "random-blocks", "random-tracks"}) {
        for (const char *presort : {"true", "false"}) {
            variants.push_back({{"workload.layout", layout}, {"fs.presort", presort}});
        }
    }
    std::vector<Cell> cells = every_pattern_cells(kSmall, variants, 3);
    check_each(cells, run_cells(cells), expect_verified);
}

BOOST_AUTO_TEST_CASE(cells_on_the_default_machine) {
    // 16 CPs + 16 IOPs on the 6 x 6 torus, a 1 MB file (8 blocks per disk; 2-D
    // shapes of 512 x 256 records of 8 B and 16 x 8 of 8 KB over the 4 x 4 grid).
    const Settings file = {{"workload.file_mb", "1"}};
    std::vector<Cell> cells = {
        cell(file, {{"workload.pattern", "rbc"}, {"workload.record_bytes", "8"}}),
        cell(file, {{"workload.pattern", "wcc"}, {"workload.record_bytes", "8"}}),
        cell(file,
             {{"workload.pattern", "rcb"},
              {"workload.record_bytes", "8"},
              {"workload.layout", "random-blocks"}},
             1),
        cell(file, {{"workload.pattern", "ra"}, {"workload.record_bytes", "8192"}}),
        cell(file,
             {{"workload.pattern", "rcn"},
              {"workload.record_bytes", "8192"},
              {"workload.layout", "random-tracks"},
              {"fs.presort", "false"}},
             2),
        cell(file, {{"workload.pattern", "wbb"},
                    {"workload.record_bytes", "8192"},
                    {"workload.layout", "random-blocks"}}),
        cell(file, {{"workload.pattern", "wn"}, {"workload.record_bytes", "8192"}}),
    };
    check_each(cells, run_cells(cells), expect_verified);
}

BOOST_AUTO_TEST_CASE(prefetch_on_and_off_with_one_to_three_buffers) {
    // The prefetch rule: after a READ, when no other buffer of the disk is reading,
    // start the drive on the next block. With one buffer per disk that is after
    // every block but each disk's last (32 blocks, 4 disks: 28 prefetches); with
    // more buffers it depends on timing. Writes never prefetch.
    const std::vector<std::pair<const char *, const char *>> shapes = {
        {"rb", "8192"}, {"ra", "8192"}, {"rbc", "8"}, {"wb", "8192"}};
    std::vector<Cell> cells;
    for (const char *buffers : {"1", "2", "3"}) {
        for (const char *prefetch : {"true", "false"}) {
            for (const auto &[pattern, record] : shapes) {
                cells.push_back(cell(kSmall, {{"workload.pattern", pattern},
                                              {"workload.record_bytes", record},
                                              {"workload.layout", "random-blocks"},
                                              {"ddio.buffers_per_disk", buffers},
                                              {"ddio.prefetch", prefetch}}));
            }
        }
    }
    auto r = run_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        expect_verified(cells[i], r[i]);
        size_t shape = i % shapes.size();
        bool on = (i / shapes.size()) % 2 == 0, one_buffer = i < 2 * shapes.size();
        bool write = shapes[shape].first[0] == 'w';
        uint64_t n = r[i]["fs"]["prefetches"].get<uint64_t>();
        BOOST_TEST_CONTEXT(cells[i].label()) {
            if (!on || write) {
                BOOST_TEST(n == 0u);
            } else if (one_buffer) {
                BOOST_TEST(n == 28u);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(yielding_to_a_ready_buffer_keeps_small_record_writes_streaming) {
    // 8-byte cyclic writes are IOP-CPU bound. Without ddio.yield_to_ready a buffer
    // thread whose pieces are in waits for the other thread's whole block of pieces
    // before it can start its WRITE, and the drive idles (docs/calibration.md).
    std::vector<Cell> cells;
    for (const char *yield : {"true", "false"}) {
        cells.push_back(cell(kSmall, {{"workload.pattern", "wc"},
                                      {"workload.record_bytes", "8"},
                                      {"ddio.yield_to_ready", yield}}));
    }
    auto r = run_cells(cells);
    expect_verified(cells[0], r[0]);
    expect_verified(cells[1], r[1]);
    double on = r[0]["mb_s"].get<double>(), off = r[1]["mb_s"].get<double>();
    BOOST_TEST_MESSAGE("wc 8 B, 256 KB: " << on << " MB/s yielding, " << off << " without");
    BOOST_TEST(on > 1.1 * off);
    BOOST_TEST(r[0]["cpu_busy"]["iop"]["mean"].get<double>() >
               r[1]["cpu_busy"]["iop"]["mean"].get<double>());
}

BOOST_AUTO_TEST_CASE(queued_on_off_and_auto) {
    // auto = on for records smaller than a block, off otherwise: the auto trial is
    // identical to the one it stands for. Batching cuts the messages for 8-byte
    // records by a large factor.
    std::vector<Cell> cells;
    const std::vector<std::pair<const char *, const char *>> shapes = {
        {"rcc", "8"}, {"wcc", "8"}, {"rb", "8192"}, {"wbc", "8192"}};
    for (const auto &[pattern, record] : shapes) {
        for (const char *mode : {"on", "off", "auto"}) {
            cells.push_back(cell(kSmall, {{"workload.pattern", pattern},
                                          {"workload.record_bytes", record},
                                          {"ddio.queued", mode}}));
        }
    }
    auto r = run_cells(cells);
    check_each(cells, r, expect_verified);
    for (size_t s = 0; s < shapes.size(); ++s) {
        const json &on = r[3 * s], &off = r[3 * s + 1], &autom = r[3 * s + 2];
        bool small = std::string(shapes[s].second) == "8";
        BOOST_TEST_CONTEXT(shapes[s].first << " " << shapes[s].second) {
            BOOST_TEST(simulated_part(autom) == simulated_part(small ? on : off));
            uint64_t packets_on = on["network"]["packets"].get<uint64_t>();
            uint64_t packets_off = off["network"]["packets"].get<uint64_t>();
            if (small) {
                BOOST_TEST(packets_off > 10 * packets_on);
            }
            BOOST_TEST(on["fs"]["pieces"] == off["fs"]["pieces"]);
        }
    }
}

BOOST_AUTO_TEST_CASE(two_disks_per_iop) {
    const Settings two = {{"machine.disks_per_iop", "2"}};
    std::vector<Cell> cells;
    for (const auto &[pattern, record] : std::vector<std::pair<const char *, const char *>>{
             {"rb", "8192"}, {"ra", "8192"}, {"wcc", "8"}, {"rbc", "8"}, {"wnb", "8192"}}) {
        for (const char *layout : {"contiguous", "random-blocks"}) {
            Cell c = cell(kSmall, {{"workload.pattern", pattern},
                                   {"workload.record_bytes", record},
                                   {"workload.layout", layout}});
            c.settings.insert(c.settings.end(), two.begin(), two.end());
            cells.push_back(c);
        }
    }
    // Every one of the eight disks served its four blocks.
    auto each_disk_used = [](platform::Machine &m) {
        if (m.disk_count() != 8) {
            throw std::runtime_error("expected 8 disks");
        }
        for (int k = 0; k < m.disk_count(); ++k) {
            if (m.disk(k).stats().requests < 4) {
                throw std::runtime_error("disk " + std::to_string(k) + " served " +
                                         std::to_string(m.disk(k).stats().requests) + " commands");
            }
        }
    };
    auto r = run_cells(cells, each_disk_used);
    check_each(cells, r, expect_verified);
}

BOOST_AUTO_TEST_CASE(staggered_block_lists) {
    std::vector<Cell> cells;
    for (const char *stagger : {"1", "0"}) {
        cells.push_back(cell(kSmall, {{"workload.pattern", "rbc"},
                                      {"workload.record_bytes", "8"},
                                      {"ddio.stagger", stagger}}));
        cells.push_back(cell(kSmall, {{"workload.pattern", "wcb"},
                                      {"workload.record_bytes", "8192"},
                                      {"ddio.stagger", stagger}}));
        cells.push_back(cell(kSmall, {{"workload.pattern", "rcc"},
                                      {"workload.record_bytes", "8192"},
                                      {"workload.layout", "random-blocks"},
                                      {"ddio.stagger", stagger}}));
    }
    auto r = run_cells(cells);
    check_each(cells, r, expect_verified);
    // A different block order changes the timing.
    BOOST_TEST(r[0]["elapsed_s"].get<double>() != r[3]["elapsed_s"].get<double>());
}

BOOST_AUTO_TEST_CASE(writes_reach_the_drives_in_list_order) {
    // ddio.write_order: on the paper's machine and file, wbb with 8 KB records has
    // eight IOPs gather their first blocks from the same CP, so a buffer's pieces
    // may arrive before those of the entry before it. In list order the drives
    // still write each disk's blocks in one pass (one movement each: the first
    // positioning); as the pieces arrive they write some out of order and lose
    // revolutions. Reads are not touched.
    std::vector<Cell> cells;
    for (const char *order : {"list", "ready"}) {
        cells.push_back(cell({}, {{"workload.pattern", "wbb"},
                                  {"workload.record_bytes", "8192"},
                                  {"ddio.write_order", order}}));
        cells.push_back(cell({}, {{"workload.pattern", "rbb"},
                                  {"workload.record_bytes", "8192"},
                                  {"ddio.write_order", order}}));
    }
    auto r = run_cells(cells);
    check_each(cells, r, expect_verified);
    const json &list = r[0], &ready = r[2];
    const uint64_t disks = 16; // the default machine: 16 IOPs, one drive each
    BOOST_TEST_MESSAGE("wbb 8 KB: " << list["mb_s"].get<double>() << " MB/s in list order, "
                                    << ready["mb_s"].get<double>() << " as ready");
    BOOST_TEST(list["disk"]["movements"].get<uint64_t>() == disks);
    BOOST_TEST(ready["disk"]["movements"].get<uint64_t>() > disks);
    BOOST_TEST(list["mb_s"].get<double>() > ready["mb_s"].get<double>());
    BOOST_TEST(simulated_part(r[1]).dump() == simulated_part(r[3]).dump());
}

BOOST_AUTO_TEST_CASE(files_that_are_not_whole_blocks) {
    // 100 KB + 8 bytes = 12801 records of 8 B = 12 blocks and 8 bytes (a one-sector
    // last block). 12801 = 17 x 753 is odd, so the 2-D patterns name 17 columns.
    const Settings odd = {{"workload.file_mb", "0.09766387939453125"},
                          {"workload.record_bytes", "8"}};
    std::vector<Cell> cells;
    for (const char *pattern : {"rb", "rc", "ra", "rn", "wb", "wc", "wn"}) {
        cells.push_back(cell(kSmall, {{"workload.pattern", pattern}}));
    }
    for (const char *pattern : {"rbc", "wcc", "rcn", "wnb"}) {
        cells.push_back(cell(kSmall, {{"workload.pattern", pattern}, {"workload.cols", "17"}}));
    }
    for (Cell &c : cells) {
        c.settings.insert(c.settings.end(), odd.begin(), odd.end());
    }
    // 13 records of 8 KB: 13 blocks, unevenly over 4 disks.
    for (const char *pattern : {"rb", "wc", "rcn", "wcn"}) {
        cells.push_back(cell(kSmall, {{"workload.pattern", pattern},
                                      {"workload.record_bytes", "8192"},
                                      {"workload.file_mb", "0.1015625"},
                                      {"workload.layout", "random-tracks"}}));
    }
    check_each(cells, run_cells(cells), expect_verified);
}

BOOST_AUTO_TEST_CASE(cp_counts_that_are_not_squares) {
    // 6 CPs form a 3 x 2 grid, 3 CPs a 3 x 1 grid; 1 CP holds everything.
    std::vector<Cell> cells;
    const Settings six = {{"machine.cp_count", "6"},
                          {"machine.iop_count", "4"},
                          {"net.width", "4"},
                          {"net.height", "3"},
                          {"workload.file_mb", "0.5"}};
    for (const char *pattern : {"rbb", "rcc", "wbc", "rcb", "ra", "wnb", "rcn"}) {
        for (const char *record : {"8", "8192"}) {
            cells.push_back(
                cell(six, {{"workload.pattern", pattern}, {"workload.record_bytes", record}}));
        }
    }
    const Settings three = {{"machine.cp_count", "3"},
                            {"machine.iop_count", "4"},
                            {"net.width", "3"},
                            {"net.height", "3"},
                            {"workload.file_mb", "0.25"}};
    for (const char *pattern : {"rbc", "wcc", "rb"}) {
        cells.push_back(
            cell(three, {{"workload.pattern", pattern}, {"workload.record_bytes", "8"}}));
    }
    // More IOPs than CPs, and a single CP.
    const Settings one = {{"machine.cp_count", "1"},
                          {"machine.iop_count", "6"},
                          {"net.width", "3"},
                          {"net.height", "3"},
                          {"workload.file_mb", "0.25"}};
    for (const char *pattern : {"rcc", "wbb", "ra"}) {
        cells.push_back(cell(one, {{"workload.pattern", pattern}, {"workload.record_bytes", "8"}}));
    }
    check_each(cells, run_cells(cells), expect_verified);
}

BOOST_AUTO_TEST_CASE(a_write_run_ends_when_the_drives_have_written_it) {
    // fs.flush_drives: every IOP sends SYNCHRONIZE CACHE to each drive it wrote to
    // and the run ends when the drives' write-behind is on the media, for every
    // file system. A write run gains one command per drive (4 here) and takes
    // longer; a read run writes nothing and is not touched.
    std::vector<Cell> cells;
    for (const char *kind : {"ddio", "spfs", "2pio"}) {
        for (const char *pattern : {"wb", "rb"}) {
            for (const char *flush : {"true", "false"}) {
                cells.push_back(cell(kSmall, {{"fs.kind", kind},
                                              {"workload.pattern", pattern},
                                              {"workload.record_bytes", "8192"},
                                              {"fs.flush_drives", flush}}));
            }
        }
    }
    auto r = run_cells(cells);
    for (size_t i = 0; i < cells.size(); i += 4) {
        BOOST_TEST_CONTEXT(cells[i].label()) {
            for (size_t j = i; j < i + 4; ++j) {
                BOOST_REQUIRE_MESSAGE(!r[j].contains("error"), r[j].value("error", ""));
                BOOST_TEST(r[j]["verified"].get<bool>());
            }
            const json &on = r[i], &off = r[i + 1];
            BOOST_TEST(on["disk"]["requests"].get<uint64_t>() ==
                       off["disk"]["requests"].get<uint64_t>() + 4u);
            BOOST_TEST(on["elapsed_s"].get<double>() > off["elapsed_s"].get<double>());
            BOOST_TEST(simulated_part(r[i + 2]).dump() == simulated_part(r[i + 3]).dump());
        }
    }
}

BOOST_AUTO_TEST_CASE(same_seed_same_result_other_trials_differ) {
    const Settings rbc = {{"workload.pattern", "rbc"},
                          {"workload.record_bytes", "8"},
                          {"workload.layout", "random-blocks"}};
    const Settings rb = {{"workload.pattern", "rb"}, {"workload.record_bytes", "8192"}};
    std::vector<Cell> cells = {
        cell(kSmall, rbc, 0), cell(kSmall, rbc, 0), cell(kSmall, rbc, 1),
        cell(kSmall, rb, 0),  cell(kSmall, rb, 0),  cell(kSmall, rb, 1),
    };
    Cell other_seed = cell(kSmall, rbc, 0);
    other_seed.settings.push_back({"workload.seed", "2"});
    cells.push_back(other_seed);
    auto r = run_cells(cells);
    check_each(cells, r, expect_verified);
    // Bit-identical trial documents (the host's CPU time aside).
    BOOST_TEST(simulated_part(r[0]).dump() == simulated_part(r[1]).dump());
    BOOST_TEST(simulated_part(r[3]).dump() == simulated_part(r[4]).dump());
    // Another trial: another random layout and other rotational positions.
    BOOST_TEST(r[0]["elapsed_s"].get<double>() != r[2]["elapsed_s"].get<double>());
    BOOST_TEST(r[3]["elapsed_s"].get<double>() != r[5]["elapsed_s"].get<double>());
    // Another seed: another trial too.
    BOOST_TEST(r[0]["elapsed_s"].get<double>() != r[6]["elapsed_s"].get<double>());
}

BOOST_AUTO_TEST_CASE(every_file_system_on_the_modeled_network) {
    // net.model = modeled (Proteus's estimated network, docs/network.md) under DDIO,
    // SPFS and 2PIO on the default machine: every byte verified, other timing than
    // the exact network's, and the same seed gives the same run.
    const Settings file = {{"workload.file_mb", "1"}, {"net.model", "modeled"}};
    std::vector<Cell> cells;
    for (const char *fs : {"ddio", "spfs", "2pio"}) {
        for (auto [pattern, record] : {std::pair{"rbc", "8"}, {"wcc", "8"}, {"ra", "8192"}}) {
            cells.push_back(cell(file, {{"fs.kind", fs},
                                        {"workload.pattern", pattern},
                                        {"workload.record_bytes", record}}));
        }
    }
    cells.push_back(cells.back());
    Cell exact = cells.back();
    exact.settings.push_back({"net.model", "packet"});
    cells.push_back(exact);
    auto r = run_cells(cells);
    check_each(cells, r, [](const Cell &c, const json &t) { expect_bytes_verified(c, t); });
    const size_t n = r.size();
    BOOST_TEST(simulated_part(r[n - 3]).dump() == simulated_part(r[n - 2]).dump());
    BOOST_TEST(r[n - 2]["elapsed_s"].get<double>() != r[n - 1]["elapsed_s"].get<double>());
}

BOOST_AUTO_TEST_CASE(wrong_bytes_in_a_cp_buffer_fail_verification) {
    // After a real read, flip one byte of CP 2's buffer (in the machine's memory).
    Cell c = cell(kSmall, {{"workload.pattern", "rbc"},
                           {"workload.record_bytes", "8"},
                           {"workload.layout", "random-blocks"}});
    auto flip = [](platform::Machine &m) {
        platform::Node &cp = m.cp(2);
        uint32_t base = static_cast<uint32_t>(cp.exports().at("transfer.buffer_addr"));
        *cp.memory().span(base + 1000, 1) ^= 0x10;
    };
    json t = run_cells({c}, flip)[0];
    BOOST_REQUIRE_MESSAGE(!t.contains("error"), t.value("error", ""));
    BOOST_TEST(!t["verified"].get<bool>());
    BOOST_TEST(t["check"]["bad_bytes"].get<uint64_t>() == 1u);
    std::string where = t["check"]["first_error"].get<std::string>();
    BOOST_TEST(where.find("CP 2 buffer offset 1000") != std::string::npos, where);
    // Swapping two different bytes keeps every value but is still wrong.
    auto swap = [](platform::Machine &m) {
        platform::Node &cp = m.cp(1);
        uint32_t base = static_cast<uint32_t>(cp.exports().at("transfer.buffer_addr"));
        uint8_t *b = cp.memory().span(base, 64);
        for (int k = 1; k < 64; ++k) {
            if (b[k] != b[0]) {
                std::swap(b[0], b[k]);
                break;
            }
        }
    };
    t = run_cells({c}, swap)[0];
    BOOST_TEST(!t["verified"].get<bool>());
    BOOST_TEST(t["check"]["bad_bytes"].get<uint64_t>() == 2u);
}

BOOST_AUTO_TEST_CASE(wrong_sectors_on_disk_fail_verification) {
    // After a real write, change file block 5 on its disk: with 4 disks it is file
    // disk 1 = IOP 1's disk 0 (global disk 1), local block 1.
    Cell c = cell(kSmall,
                  {{"workload.pattern", "wcc"},
                   {"workload.record_bytes", "8"},
                   {"workload.layout", "random-tracks"}},
                  1);
    auto block5_lba = [](platform::Machine &m) {
        fw_layout_t l;
        char msg[200];
        fw_disk_geometry_t g{512, 72, 1962 * 19};
        // Runs in the trial's process: report problems by exception, not assertion.
        if (fw_transfer_layout_of(&l, "random-tracks", 256 * 1024, 8192, g, 4, 1,
                                  static_cast<uint64_t>(m.trial()), msg,
                                  sizeof msg) != FW_LAYOUT_OK) {
            throw std::runtime_error(msg);
        }
        std::vector<uint32_t> table(fw_layout_table_bytes(&l, 1) / sizeof(uint32_t));
        fw_layout_build_table(&l, 1, table.data());
        return fw_layout_lba(&l, table.data(), 1);
    };
    // One byte of the block's third sector.
    auto flip = [&](platform::Machine &m) {
        uint32_t lba = block5_lba(m) + 2;
        uint8_t sector[HW_SECTOR_BYTES];
        m.disk(1).read_sectors(lba, 1, sector);
        sector[7] ^= 0x01;
        m.disk(1).write_sectors(lba, 1, sector);
    };
    json t = run_cells({c}, flip)[0];
    BOOST_REQUIRE_MESSAGE(!t.contains("error"), t.value("error", ""));
    BOOST_TEST(!t["verified"].get<bool>());
    BOOST_TEST(t["check"]["bad_bytes"].get<uint64_t>() == 1u);
    std::string where = t["check"]["first_error"].get<std::string>();
    BOOST_TEST(where.find("file offset " + std::to_string(5 * 8192 + 2 * 512 + 7)) !=
                   std::string::npos,
               where);
    BOOST_TEST(where.find("file block 5, disk 1") != std::string::npos, where);
    // A lost write: the sector still holds what the disk held before the run.
    auto lose = [&](platform::Machine &m) {
        uint32_t lba = block5_lba(m);
        uint8_t sector[HW_SECTOR_BYTES];
        hw_disk_fill_sector(1, lba, sector);
        m.disk(1).write_sectors(lba, 1, sector);
    };
    t = run_cells({c}, lose)[0];
    BOOST_TEST(!t["verified"].get<bool>());
    BOOST_TEST(t["check"]["bad_bytes"].get<uint64_t>() > 400u); // nearly all of 512 differ
}

BOOST_AUTO_TEST_SUITE_END()
