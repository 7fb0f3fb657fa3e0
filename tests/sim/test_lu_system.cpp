// Whole-machine out-of-core LU decompositions (workload.kind = lu, docs/lu.md) on
// small matrices: N = 64 on 4 CPs and 4 IOPs for both file systems, every block size
// and both layouts; an N that is not a multiple of P x SLAB_COLS (CPs with no columns
// in the last slabs, columns that straddle blocks and sectors); a matrix that fits in
// memory. Every trial is verified (bit-equal to the sequential reference, L U within
// its error bound, guard blocks untouched); corrupting the file after the run must
// fail the check; the same configuration gives the same numbers.
#include "sim/platform/machine.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/lu_trial.h"
#include "tests/support/transfer_cells.h"

#include "fw/layout.h"
#include "fw/transfer.h"
#include "hw/data_pattern.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

const Settings kSmall = {{"workload.kind", "lu"},    {"machine.cp_count", "4"},
                         {"machine.iop_count", "4"}, {"net.width", "3"},
                         {"net.height", "3"},        {"lu.n", "64"},
                         {"lu.slab_cols", "4"},      {"spfs.cache_buffers_per_cp_disk", "2"},
                         {"spfs.outstanding", "1"}};

std::vector<json> run_lu_cells(const std::vector<Cell> &cells,
                               const std::function<void(platform::Machine &)> &before = {}) {
    std::vector<sim::IsolatedJob> jobs;
    for (const Cell &c : cells) {
        jobs.push_back([c, before]() -> json {
            try {
                return sim::run_lu_trial(make_config(c.settings), c.trial, before);
            } catch (const std::exception &e) {
                return json{{"error", e.what()}};
            }
        });
    }
    return sim::run_isolated_all(jobs, 2);
}

void require_verified(const Cell &c, const json &t) {
    BOOST_TEST_CONTEXT(c.label()) {
        BOOST_TEST_REQUIRE(!t.contains("error"), t.value("error", ""));
        BOOST_TEST(t.at("verified").get<bool>(), t.at("check").dump());
        BOOST_TEST(t.at("check").at("elements_differing").get<uint64_t>() == 0u);
        BOOST_TEST(t.at("check").at("max_bound_ratio").get<double>() <= 1.0);
        BOOST_TEST(t.at("check").at("guard_bytes_checked").get<uint64_t>() > 0u);
        BOOST_TEST(t.at("elapsed_s").get<double>() > 0.0);
        // Every element of the matrix is written back at least once.
        uint64_t n = std::stoull(c.get("lu.n", "0"));
        BOOST_TEST(t.at("disk_io").at("bytes_written").get<uint64_t>() >= n * n * 4u);
        BOOST_TEST(t.at("cp_time").at("compute_s").at("max").get<double>() > 0.0);
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(both_file_systems_every_block_size_and_layout) {
    std::vector<Cell> cells;
    for (const char *fs : {"spfs", "ddio"}) {
        for (const char *block : {"1024", "4096", "8192"}) {
            for (const char *layout : {"contiguous", "random-blocks"}) {
                cells.push_back(cell(
                    kSmall,
                    {{"fs.kind", fs}, {"fs.block_bytes", block}, {"workload.layout", layout}}));
            }
        }
    }
    std::vector<json> results = run_lu_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        require_verified(cells[i], results[i]);
        const json &t = results[i];
        if (t.contains("error")) {
            continue;
        }
        bool spfs = cells[i].get("fs.kind", "") == "spfs";
        BOOST_TEST_CONTEXT(cells[i].label()) {
            if (spfs) {
                // The 16 KB matrix fits in the IOP caches: read once, written behind.
                double rate = t.at("fs").at("cache_hit_rate").get<double>();
                BOOST_TEST(rate > 0.0);
                BOOST_TEST(t.at("disk_io").at("bytes_read").get<uint64_t>() <
                           t.at("file_system_bytes").get<uint64_t>() / 2);
            } else {
                // DDIO has no cache: it moves at least what the program asks for, and
                // a slab that starts or ends inside a block (256-byte columns, slabs of
                // 16 columns starting at every column) reads that block before writing.
                BOOST_TEST(t.at("fs").at("requests").get<uint64_t>() > 0u);
                BOOST_TEST(t.at("traffic_bytes").get<uint64_t>() >=
                           t.at("file_system_bytes").get<uint64_t>());
                BOOST_TEST(t.at("fs").at("installation_reads").get<uint64_t>() > 0u);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(time_breakdown_accounts_for_every_cp) {
    // Every CP's elapsed time is compute, LU_read/LU_write, the broadcast (sending and
    // its barrier) and the final sync; nothing else charges time. Only DDIO's CPs wait
    // at a barrier before I/O; SPFS's multipliers barrier is their only meeting.
    std::vector<Cell> cells;
    for (const char *fs : {"spfs", "ddio"}) {
        cells.push_back(cell(kSmall, {{"fs.kind", fs}, {"fs.block_bytes", "1024"}}));
    }
    std::vector<json> r = run_lu_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        require_verified(cells[i], r[i]);
        if (r[i].contains("error")) {
            continue;
        }
        bool ddio = cells[i].get("fs.kind", "") == "ddio";
        const json &b = r[i].at("cp_time");
        double elapsed = r[i].at("elapsed_s").get<double>();
        BOOST_TEST_CONTEXT(cells[i].label()) {
            BOOST_TEST_REQUIRE(b.at("per_cp").size() == 4u);
            double io_mean = 0;
            for (const json &cp : b.at("per_cp")) {
                double parts =
                    cp.at("compute_s").get<double>() + cp.at("read_s").get<double>() +
                    cp.at("write_s").get<double>() + cp.at("broadcast_send_s").get<double>() +
                    cp.at("broadcast_barrier_s").get<double>() + cp.at("sync_s").get<double>();
                // Each CP's own span; the barriers release the CPs microseconds apart.
                BOOST_TEST(std::abs(parts + cp.at("other_s").get<double>() - elapsed) < 1e-4);
                BOOST_TEST(std::abs(cp.at("other_s").get<double>()) < 1e-9);
                BOOST_TEST(cp.at("compute_s").get<double>() > 0.0);
                BOOST_TEST(cp.at("io_s").get<double>() > 0.0);
                BOOST_TEST(cp.at("io_s").get<double>() <
                           cp.at("read_s").get<double>() + cp.at("write_s").get<double>() + 1e-12);
                BOOST_TEST((cp.at("io_barrier_s").get<double>() > 0.0) == ddio);
                io_mean += cp.at("io_s").get<double>() / 4.0;
            }
            BOOST_TEST(b.at("io_s").at("mean").get<double>() == io_mean,
                       boost::test_tools::tolerance(1e-9));
            BOOST_TEST(b.at("io_s").at("min").get<double>() <= io_mean);
            BOOST_TEST(b.at("io_s").at("max").get<double>() >= io_mean);
        }
    }
}

BOOST_AUTO_TEST_CASE(spfs_installation_reads) {
    // 256 x 256 (1 KB columns) fits in the CPs' memories but not in the IOP caches
    // (16 blocks of 8 KB): by the time the slab is written back its blocks are gone,
    // and each column write to an uncached block reads the block first. DDIO writes
    // whole blocks here (the slab is the whole matrix).
    std::vector<Cell> cells;
    for (const char *fs : {"spfs", "ddio"}) {
        cells.push_back(cell(kSmall, {{"fs.kind", fs},
                                      {"lu.n", "256"},
                                      {"lu.slab_cols", "64"},
                                      {"fs.block_bytes", "8192"},
                                      {"spfs.cache_buffers_per_cp_disk", "1"}}));
    }
    std::vector<json> r = run_lu_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        require_verified(cells[i], r[i]);
    }
    BOOST_TEST(r[0].at("fs").at("installation_reads").get<uint64_t>() > 0u);
    BOOST_TEST(r[1].at("fs").at("installation_reads").get<uint64_t>() == 0u);
    // Installation reads are disk traffic SPFS makes and DDIO does not.
    BOOST_TEST(r[0].at("traffic_bytes").get<uint64_t>() > r[1].at("traffic_bytes").get<uint64_t>());
}

BOOST_AUTO_TEST_CASE(edge_shapes) {
    std::vector<Cell> cells;
    for (const char *fs : {"spfs", "ddio"}) {
        // 70 x 70: columns of 280 bytes straddle sectors and blocks; P x SLAB_COLS = 12
        // does not divide 70, so the last slabs leave CPs without columns.
        cells.push_back(cell(kSmall, {{"fs.kind", fs},
                                      {"lu.n", "70"},
                                      {"lu.slab_cols", "3"},
                                      {"fs.block_bytes", "1024"},
                                      {"workload.layout", "random-blocks"}}));
        // The matrix fits in memory: one read, everything in memory, one write.
        cells.push_back(cell(kSmall, {{"fs.kind", fs}, {"lu.slab_cols", "16"}}));
        // One CP.
        cells.push_back(cell(kSmall, {{"fs.kind", fs}, {"machine.cp_count", "1"}, {"lu.n", "32"}}));
    }
    std::vector<json> results = run_lu_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        require_verified(cells[i], results[i]);
    }
    // In memory: the file system moves the matrix once each way.
    for (size_t i : {1u, 4u}) {
        BOOST_TEST(results[i].at("file_system_bytes").get<uint64_t>() == 2u * 64u * 64u * 4u);
    }
}

BOOST_AUTO_TEST_CASE(deterministic) {
    std::vector<Cell> cells;
    for (const char *fs : {"spfs", "ddio"}) {
        Cell c = cell(kSmall, {{"fs.kind", fs}, {"workload.layout", "random-blocks"}}, 1);
        cells.push_back(c);
        cells.push_back(c);
    }
    std::vector<json> r = run_lu_cells(cells);
    for (size_t i = 0; i < r.size(); i += 2) {
        BOOST_TEST_REQUIRE(!r[i].contains("error"), r[i].value("error", ""));
        for (json *t : {&r[i], &r[i + 1]}) {
            t->erase("host_cpu_s");
        }
        BOOST_TEST(r[i].dump() == r[i + 1].dump());
    }
    // Another trial draws another matrix and layout.
    BOOST_TEST(r[0].at("elapsed_s").get<double>() != 0.0);
}

BOOST_AUTO_TEST_CASE(corruption_is_detected) {
    // Flip one byte of file block 0 (matrix) or of the first guard block after the run.
    auto flip = [](uint64_t file_block) {
        return [file_block](platform::Machine &m) {
            config::Config cfg = make_config(kSmall);
            (void)cfg;
            // Block b of the file sits on file disk b mod D; read it through the layout
            // the IOPs built (contiguous layout: local block b / D from the start block).
            fw_layout_t l;
            char msg[200];
            fw_disk_geometry_t g{512, 72, 1962 * 19};
            uint64_t block = 8192, disks = 4;
            uint64_t file = (64 * 64 * 4 / block + disks) * block;
            if (fw_transfer_layout_of(&l, "contiguous", file, 8192, g, 4, 1, 0, msg, sizeof msg) !=
                FW_LAYOUT_OK) {
                throw std::runtime_error(msg);
            }
            fw_block_location_t loc = fw_layout_locate(&l, nullptr, file_block);
            int disk = static_cast<int>(loc.disk % 4); // one disk per IOP
            uint8_t sector[HW_SECTOR_BYTES];
            m.disk(disk).read_sectors(loc.lba, 1, sector);
            sector[100] ^= 0x40;
            m.disk(disk).write_sectors(loc.lba, 1, sector);
        };
    };
    for (uint64_t block : {0u, 2u}) { // the matrix is blocks 0-1, guards 2-5
        Cell c = cell(kSmall, {{"fs.kind", "ddio"}, {"fs.block_bytes", "8192"}});
        std::vector<json> r = run_lu_cells({c}, flip(block));
        BOOST_TEST_CONTEXT("block " << block) {
            BOOST_TEST_REQUIRE(!r[0].contains("error"), r[0].value("error", ""));
            BOOST_TEST(!r[0].at("verified").get<bool>());
            BOOST_TEST(!r[0].at("check").value("first_error", "").empty());
        }
    }
}

BOOST_AUTO_TEST_CASE(bad_configurations_name_the_problem) {
    auto error_of = [](const Settings &more) { return config_error(kSmall, more); };
    BOOST_TEST(error_of({{"fs.kind", "2pio"}}).find("fs.kind = 2pio") != std::string::npos);
    BOOST_TEST(error_of({{"lu.n", "16384"}, {"lu.slab_cols", "4096"}}).find("lu.slab_cols") !=
               std::string::npos);
    BOOST_TEST(error_of({{"fs.kind", "ddio"}}).empty());
}
