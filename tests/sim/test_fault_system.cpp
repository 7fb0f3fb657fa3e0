// Injected disk faults end to end (docs/faults.md): DDIO, SPFS and 2PIO reading and
// writing a small file. Every injected medium error is either retried by the SCSI
// driver and the data verified byte for byte, or reported as a failed transfer
// naming the disk and the sector; a silent drive is timed out and named. Never
// wrong data: a run that completes is verified.
#include "fw/layout.h"
#include "fw/param_keys.h"
#include "fw/transfer.h"
#include "hw/machine_keys.h"
#include "tests/support/transfer_cells.h"
#include "tlm_models/storage/disk_params.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

// 4 CPs + 4 IOPs (one disk each) on a 3 x 3 torus, a 128 KB contiguous file: 4
// blocks per disk.
const Settings kSmall = {{"machine.cp_count", "4"},
                         {"machine.iop_count", "4"},
                         {"net.width", "3"},
                         {"net.height", "3"},
                         {"workload.file_mb", "0.125"},
                         {"workload.layout", "contiguous"},
                         {"workload.record_bytes", "8192"}};

const char *const kFileSystems[] = {"ddio", "spfs", "2pio"};
const char *const kPatterns[] = {"rb", "wb"};

// The disk (global id) and the sector 3 sectors into file block `block`.
std::pair<uint32_t, uint32_t> sector_of_block(const Settings &settings, uint64_t block) {
    config::Config cfg = make_config(settings);
    fw_disk_geometry_t disk{
        static_cast<uint32_t>(cfg.get_int(keys::disk_sector_bytes)),
        static_cast<uint32_t>(cfg.get_int(keys::disk_sectors_per_track)),
        static_cast<uint32_t>(cfg.get_int(keys::disk_cylinders) * cfg.get_int(keys::disk_heads))};
    uint32_t iops = static_cast<uint32_t>(cfg.get_int(keys::machine_iop_count));
    fw_layout_t l;
    char msg[200];
    BOOST_REQUIRE(fw_transfer_layout_of(
                      &l, "contiguous",
                      static_cast<uint64_t>(cfg.get_real(keys::workload_file_mb) * 1048576.0),
                      static_cast<uint32_t>(cfg.get_int(keys::fs_block_bytes)), disk, iops, 1, 0,
                      msg, sizeof msg) == FW_LAYOUT_OK);
    uint32_t file_disk = fw_layout_disk_of(&l, block);
    uint32_t lba = fw_layout_lba(&l, nullptr, fw_layout_local_index(&l, block)) + 3;
    // One disk per IOP: file disk d is IOP d's disk 0, global id d.
    return {fw_file_disk_iop(file_disk, iops), lba};
}

std::vector<Cell> every_cell(const Settings &faults) {
    std::vector<Cell> cells;
    for (const char *fs : kFileSystems) {
        for (const char *pattern : kPatterns) {
            Settings more = faults;
            more.push_back({"fs.kind", fs});
            more.push_back({"workload.pattern", pattern});
            // rb and wb are 2PIO's conforming requests, which by default go straight
            // to SPFS (twophase.direct); through the collective buffer, the errors
            // must also cross 2PIO's own phases.
            if (std::string(fs) == "2pio") {
                more.push_back({"twophase.direct", "false"});
            }
            cells.push_back(cell(kSmall, more));
        }
    }
    return cells;
}

bool contains(const json &t, const std::string &part) {
    return t.contains("error") && t["error"].get<std::string>().find(part) != std::string::npos;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fault_system)

BOOST_AUTO_TEST_CASE(transient_medium_errors_are_retried_and_the_data_verified) {
    auto cells = every_cell({{"fault.read_error_rate", "0.3"},
                             {"fault.write_error_rate", "0.3"},
                             {"scsi.retries", "10"}});
    auto trials = run_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        BOOST_TEST_CONTEXT(cells[i].label()) {
            BOOST_TEST(!trials[i].contains("error"), trials[i].value("error", ""));
            BOOST_TEST(trials[i].value("verified", false));
            BOOST_TEST(trials[i]["faults"]["medium_errors"].get<uint64_t>() > 0u);
        }
    }
}

BOOST_AUTO_TEST_CASE(without_retries_a_medium_error_fails_the_transfer_naming_the_sector) {
    auto cells = every_cell(
        {{"fault.read_error_rate", "1"}, {"fault.write_error_rate", "1"}, {"scsi.retries", "0"}});
    auto trials = run_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        BOOST_TEST_CONTEXT(cells[i].label() << ": " << trials[i].dump()) {
            BOOST_TEST(contains(trials[i], "medium error"));
            BOOST_TEST(contains(trials[i], "after 0 retries"));
            BOOST_TEST(contains(trials[i], "LBA "));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_bad_sector_fails_the_transfer_naming_disk_and_sector) {
    auto [disk, lba] = sector_of_block(kSmall, 5);
    std::string bad = std::to_string(disk) + ":" + std::to_string(lba);
    auto cells = every_cell({{"fault.bad_sectors", bad}});
    auto trials = run_cells(cells);
    std::string where = "disk " + std::to_string(disk) + " (IOP " + std::to_string(disk) +
                        " target 0) LBA " + std::to_string(lba) + ": medium error";
    for (size_t i = 0; i < cells.size(); ++i) {
        BOOST_TEST_CONTEXT(cells[i].label() << ": " << trials[i].dump()) {
            BOOST_TEST(contains(trials[i], where));
            BOOST_TEST(contains(trials[i], "after 3 retries")); // scsi.retries' default
            BOOST_TEST(contains(trials[i], cells[i].get("workload.pattern", "")[0] == 'r'
                                               ? "unrecovered read error"
                                               : "write error"));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_silent_drive_is_timed_out_and_named) {
    auto cells = every_cell(
        {{"fault.silent_disk", "2"}, {"fault.silent_after", "1"}, {"scsi.timeout_ms", "200"}});
    auto trials = run_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        BOOST_TEST_CONTEXT(cells[i].label() << ": " << trials[i].dump()) {
            BOOST_TEST(contains(trials[i], "disk 2 (IOP 2 target 0): no answer within "
                                           "scsi.timeout_ms"));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_drive_silent_at_the_end_of_a_write_run_fails_the_flush) {
    // Disk 2 takes its four block writes (4 blocks a disk, one WRITE(10) each in
    // every file system) and falls silent before the SYNCHRONIZE CACHE that puts
    // them on the media (fs.flush_drives): the run must not count those writes as
    // done. Reads issue no flush, so only the write cells are run.
    std::vector<Cell> cells;
    for (const Cell &c : every_cell({{"fault.silent_disk", "2"},
                                     {"fault.silent_after", "4"},
                                     {"scsi.timeout_ms", "200"}})) {
        if (c.get("workload.pattern", "") == "wb") {
            cells.push_back(c);
        }
    }
    BOOST_TEST_REQUIRE(cells.size() == 3u);
    auto trials = run_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        BOOST_TEST_CONTEXT(cells[i].label() << ": " << trials[i].dump()) {
            BOOST_TEST(contains(trials[i], "flushing a drive's write-behind failed: disk 2 (IOP "
                                           "2 target 0): no answer within scsi.timeout_ms to "
                                           "SYNCHRONIZE CACHE(10)"));
            BOOST_TEST(
                contains(trials[i], cells[i].get("fs.kind", "") == "ddio" ? "DDIO: " : "SPFS: "));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_silent_drive_without_a_timeout_is_caught_by_the_watchdog) {
    // scsi.timeout_ms = 0 (the default): the driver waits forever, the simulation runs
    // out of activity, and the deadlock report points at the drive.
    auto cells = every_cell({{"fault.silent_disk", "2"}, {"fault.silent_after", "1"}});
    auto trials = run_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        BOOST_TEST_CONTEXT(cells[i].label() << ": " << trials[i].dump()) {
            BOOST_TEST(contains(trials[i], "watchdog: deadlock"));
            BOOST_TEST(contains(trials[i], "waits on \"SCSI command completion\""));
            BOOST_TEST(contains(trials[i], "disk 2 (target 0) has stopped answering"));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
