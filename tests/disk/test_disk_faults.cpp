// Injected disk faults at the drive (fault.*, docs/faults.md): a bad sector fails
// every READ(10) and WRITE(10) covering it with MEDIUM ERROR sense data naming the
// sector, and the data from that sector on is garbage, never the right bytes; the
// rate-driven errors come from the drive's own seeded stream; a silent drive takes
// commands and never answers; without fault.* nothing changes.
#include "hw/config/config_error.h"
#include "hw/data_pattern.h"
#include "sim/runner/isolated_run.h"
#include "tests/disk/disk_rig.h"

#include <boost/test/unit_test.hpp>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

config::Config faulty(const std::vector<std::pair<std::string, std::string>> &sets) {
    config::Config cfg = default_config();
    for (const auto &[k, v] : sets) {
        cfg.set_from_text(k, v, "test");
    }
    cfg.validate();
    return cfg;
}

json desc_json(const Completion &c) {
    return json{{"status", c.desc.status},
                {"key", c.desc.sense_key},
                {"asc", c.desc.asc},
                {"info", c.desc.sense_info},
                {"transferred", c.desc.transferred}};
}

// Sectors of the buffer that hold what the disk's never-written sectors hold.
std::vector<bool> good_sectors(DiskRig &rig, uint32_t buffer, uint32_t lba, uint32_t n) {
    std::vector<bool> good;
    uint8_t expect[HW_SECTOR_BYTES];
    for (uint32_t i = 0; i < n; ++i) {
        hw_disk_fill_sector(0, lba + i, expect);
        good.push_back(std::memcmp(rig.mem(buffer + i * HW_SECTOR_BYTES, HW_SECTOR_BYTES), expect,
                                   HW_SECTOR_BYTES) == 0);
    }
    return good;
}

} // namespace

BOOST_AUTO_TEST_SUITE(disk_faults)

BOOST_AUTO_TEST_CASE(a_bad_sector_fails_reads_with_sense_data_and_garbage_after_it) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(faulty({{"fault.bad_sectors", "0:100"}}), 1, [&](DiskRig &rig) {
            const uint32_t buf = DiskRig::kBufferBase;
            out["before"] = desc_json(rig.run(0, HW_SCSI_OP_READ10, 0, 80, 8, buf));
            out["across"] = desc_json(rig.run(0, HW_SCSI_OP_READ10, 0, 96, 8, buf));
            out["good"] = good_sectors(rig, buf, 96, 8);
            out["again"] = desc_json(rig.run(0, HW_SCSI_OP_READ10, 0, 100, 1, buf));
            out["errors"] = rig.disk(0).fault_stats().medium_errors;
        });
        return out;
    });
    BOOST_TEST(r["before"]["status"] == HW_SCSI_STATUS_GOOD);
    BOOST_TEST(r["across"]["status"] == HW_SCSI_STATUS_CHECK_CONDITION);
    BOOST_TEST(r["across"]["key"] == HW_SCSI_SENSE_MEDIUM_ERROR);
    BOOST_TEST(r["across"]["asc"] == HW_SCSI_ASC_UNRECOVERED_READ_ERROR);
    BOOST_TEST(r["across"]["info"] == 100);
    BOOST_TEST(r["across"]["transferred"] == 4 * HW_SECTOR_BYTES);
    // Sectors 96..99 arrived intact; 100..103 are garbage, not the disk's bytes.
    BOOST_TEST(r["good"] == json({true, true, true, true, false, false, false, false}));
    BOOST_TEST(r["again"]["info"] == 100); // a bad sector stays bad
    BOOST_TEST(r["errors"] == 2);
}

BOOST_AUTO_TEST_CASE(a_bad_sector_fails_writes_and_holds_garbage) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(faulty({{"fault.bad_sectors", "0:2000"}}), 1, [&](DiskRig &rig) {
            const uint32_t buf = DiskRig::kBufferBase;
            std::memset(rig.mem(buf, 8 * HW_SECTOR_BYTES), 0x5a, 8 * HW_SECTOR_BYTES);
            out["write"] = desc_json(rig.run(0, HW_SCSI_OP_WRITE10, 0, 1996, 8, buf));
            uint8_t sector[HW_SECTOR_BYTES];
            rig.disk(0).read_sectors(1999, 1, sector);
            out["before_bad"] = sector[0];
            rig.disk(0).read_sectors(2000, 1, sector);
            out["bad"] = sector[0];
        });
        return out;
    });
    BOOST_TEST(r["write"]["status"] == HW_SCSI_STATUS_CHECK_CONDITION);
    BOOST_TEST(r["write"]["key"] == HW_SCSI_SENSE_MEDIUM_ERROR);
    BOOST_TEST(r["write"]["asc"] == HW_SCSI_ASC_WRITE_ERROR);
    BOOST_TEST(r["write"]["info"] == 2000);
    BOOST_TEST(r["before_bad"] == 0x5a);
    BOOST_TEST(r["bad"] != 0x5a);
}

BOOST_AUTO_TEST_CASE(error_rates_draw_from_the_drives_own_seeded_stream) {
    auto count = [](const std::string &rate, uint64_t seed) {
        return sim::run_isolated([rate, seed] {
            json out = json::array();
            run_rig(
                faulty({{"fault.read_error_rate", rate}}), 2,
                [&](DiskRig &rig) {
                    for (uint32_t i = 0; i < 100; ++i) {
                        Completion c =
                            rig.run(i % 2, HW_SCSI_OP_READ10, 0, 1000 * i, 4, DiskRig::kBufferBase);
                        out.push_back(c.desc.status == HW_SCSI_STATUS_GOOD ? 0 : 1);
                    }
                },
                seed);
            return out;
        });
    };
    json half = count("0.5", 1);
    int failed = 0;
    for (const auto &f : half) {
        failed += f.get<int>();
    }
    BOOST_TEST(failed > 30);
    BOOST_TEST(failed < 70);
    BOOST_TEST(count("0.5", 1) == half); // reproducible
    BOOST_TEST(count("0.5", 2) != half); // and seeded
    BOOST_TEST(count("0", 1) == json(std::vector<int>(100, 0)));
    BOOST_TEST(count("1", 1) == json(std::vector<int>(100, 1)));
}

BOOST_AUTO_TEST_CASE(a_silent_drive_takes_commands_and_never_answers) {
    json r = sim::run_isolated([] {
        json out;
        DiskRig rig(
            "rig", faulty({{"fault.silent_disk", "1"}, {"fault.silent_after", "2"}}), 2,
            [&](DiskRig &rig) {
                for (int i = 0; i < 2; ++i) {
                    rig.run(1, HW_SCSI_OP_READ10, 0, 100 * i, 8, DiskRig::kBufferBase);
                }
                rig.submit(1, HW_SCSI_OP_READ10, 0, 500, 8, DiskRig::kBufferBase);
                // The other drive goes on working.
                out["other"] =
                    rig.run(0, HW_SCSI_OP_READ10, 0, 0, 8, DiskRig::kBufferBase).desc.status;
                sc_core::wait(sc_core::sc_time(10, sc_core::SC_SEC));
            });
        sc_core::sc_start();
        out["completed"] = rig.chain.adapter().stats().completed;
        out["silent"] = rig.disk(1).silent();
        out["silent_commands"] = rig.disk(1).fault_stats().silent_commands;
        out["finished"] = rig.scenario_finished();
        return out;
    });
    BOOST_TEST(r["other"] == HW_SCSI_STATUS_GOOD);
    BOOST_TEST(r["completed"] == 3); // two on disk 1, one on disk 0; the third never
    BOOST_TEST(r["silent"] == true);
    BOOST_TEST(r["silent_commands"] == 1);
    BOOST_TEST(r["finished"] == true);
}

BOOST_AUTO_TEST_CASE(faults_are_configuration_checked) {
    auto error = [](const std::vector<std::pair<std::string, std::string>> &sets) {
        try {
            faulty(sets);
        } catch (const config::ConfigError &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    BOOST_TEST(error({{"fault.bad_sectors", "3"}}).find("fault.bad_sectors") != std::string::npos);
    BOOST_TEST(error({{"fault.bad_sectors", "0:1,x:2"}}).find("\"x:2\"") != std::string::npos);
    BOOST_TEST(error({{"fault.bad_sectors", "99:1"}}).find("disk 99") != std::string::npos);
    BOOST_TEST(error({{"fault.silent_disk", "16"}}).find("fault.silent_disk") != std::string::npos);
    // The last sector of a disk (1962 x 19 x 72 sectors) is on it, the next is not.
    BOOST_TEST(error({{"fault.bad_sectors", "15:2684015"}}).empty());
    BOOST_TEST(
        error({{"fault.bad_sectors", "15:4294967295"}}).find("sector 4294967295 of disk 15") !=
        std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
