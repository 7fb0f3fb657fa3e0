// Machine assembly: the default machine elaborates with every node at its
// placement, IOP firmware reaches its own disks through the SCSI host adapter,
// runs are deterministic, and a device's programming error ends in the machine's
// failure report.
#include "hw/scsi_regs.h"
#include "sim/parameters.h"
#include "sim/platform/machine.h"
#include "sim/runner/isolated_run.h"

#include <boost/test/unit_test.hpp>

extern "C" void machine_test_iop_main(hal_t *h);
extern "C" void machine_test_bad_scsi_iop_main(hal_t *h);
extern "C" void machine_test_bad_ni_cp_main(hal_t *h);

using namespace starfish;
using nlohmann::json;

namespace {

json run_machine(const std::vector<std::pair<std::string, std::string>> &sets, int trial = 0) {
    return sim::run_isolated([&] {
        config::Config cfg(sim::parameter_registry());
        for (const auto &[k, v] : sets) {
            cfg.set_from_text(k, v, "test");
        }
        cfg.validate();
        platform::Machine m(cfg, trial, platform::FirmwareSet{nullptr, machine_test_iop_main});
        std::string failure = m.run();
        json out{{"failure", failure}, {"sim_s", m.sim_seconds()}, {"disks", m.disk_count()}};
        for (int k = 0; k < m.shape().iop_count; ++k) {
            const auto &e = m.iop(k).exports();
            out["iops"].push_back(
                json{{"ok", e.count("ok") ? e.at("ok") : 0},
                     {"cycles", e.count("cycles") ? e.at("cycles") : 0},
                     {"completed", e.count("completed") ? e.at("completed") : 0},
                     {"on_done_calls", e.count("on_done_calls") ? e.at("on_done_calls") : 0},
                     {"on_done_while_busy",
                      e.count("on_done_while_busy") ? e.at("on_done_while_busy") : 0}});
        }
        out["stats"] = m.stats_json();
        return out;
    });
}

// Runs firmware that makes one device fail; returns the machine's failure report,
// the faults every node's sink holds, and what the failing node's firmware did.
json run_faulting_machine(const platform::FirmwareSet &firmware) {
    return sim::run_isolated([&] {
        config::Config cfg(sim::parameter_registry());
        cfg.validate();
        platform::Machine m(cfg, 0, firmware);
        std::string failure = m.run(); // returns: nothing was thrown through the firmware
        json out{{"failure", failure},
                 {"machine_failure", m.failure()},
                 {"stopped_ps", sc_core::sc_time_stamp().value()}};
        out["faults"] = json::array();
        for (int i = 0; i < m.node_count(); ++i) {
            for (const auto &f : m.node(i).device_faults().faults()) {
                out["faults"].push_back(json{{"node", f.node},
                                             {"device", f.device},
                                             {"in_register_access", f.in_register_access},
                                             {"offset", f.offset},
                                             {"reg", f.reg},
                                             {"code", f.code},
                                             {"time_ps", f.time_ps},
                                             {"cpu_failure", m.node(i).cpu().failure()}});
                json e = json::object();
                for (const auto &[k, v] : m.node(i).exports()) {
                    e[k] = v;
                }
                out["exports"] = e;
            }
        }
        return out;
    });
}

bool starts_with(const std::string &s, const std::string &prefix) {
    return s.rfind(prefix, 0) == 0;
}

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

BOOST_AUTO_TEST_SUITE(machine)

BOOST_AUTO_TEST_CASE(every_iop_reads_and_writes_its_own_disks) {
    json r = run_machine({{"machine.disks_per_iop", "2"}});
    BOOST_TEST(r["failure"].get<std::string>() == "");
    BOOST_TEST(r["disks"].get<int>() == 32);
    BOOST_REQUIRE(r["iops"].size() == 16u);
    for (const auto &iop : r["iops"]) {
        BOOST_TEST(iop["ok"].get<int>() == 1);
        BOOST_TEST(iop["completed"].get<int>() == 8); // 4 commands on each of 2 disks
        // The completion hook ran once per completion, never before it.
        BOOST_TEST(iop["on_done_calls"].get<int>() == 8);
        BOOST_TEST(iop["on_done_while_busy"].get<int>() == 0);
        BOOST_TEST(iop["cycles"].get<uint64_t>() > 0u);
    }
    // Every disk saw its own commands: 3 data commands + 1 rejected per disk.
    for (const auto &d : r["stats"]["disks"]) {
        BOOST_TEST(d["requests"].get<int>() == 4);
        BOOST_TEST(d["check_conditions"].get<int>() == 1);
    }
}

BOOST_AUTO_TEST_CASE(runs_are_deterministic_and_trials_differ) {
    json a = run_machine({}, 0);
    json b = run_machine({}, 0);
    json c = run_machine({}, 1);
    BOOST_TEST(a["failure"].get<std::string>() == "");
    BOOST_TEST(a["iops"] == b["iops"]);
    BOOST_TEST(a["sim_s"].get<double>() == b["sim_s"].get<double>());
    // Each trial draws new rotational positions, so disk timings differ.
    BOOST_TEST(a["iops"] != c["iops"]);
}

// A bad descriptor submitted by the SCSI driver (fw/src/scsi.c) on IOP 0: the
// adapter reports the fault (no exception unwinds through the C driver), the
// SUBMIT write fails so the firmware stops there, the simulation stops at once,
// and the machine's failure report names node, device and register.
BOOST_AUTO_TEST_CASE(bad_scsi_descriptor_ends_in_the_failure_report) {
    json r = run_faulting_machine(platform::FirmwareSet{nullptr, machine_test_bad_scsi_iop_main});
    const std::string f = r["failure"];
    BOOST_TEST_MESSAGE("failure report: " << f);
    BOOST_TEST(f == r["machine_failure"].get<std::string>());
    BOOST_TEST(starts_with(f, "node 16: SCSI adapter 0 register SUBMIT (0x020): descriptor 0x"), f);
    BOOST_TEST(f.find("buffer [0xfff00000, +8192) is not inside node memory") != std::string::npos,
               f);
    BOOST_TEST(ends_with(f, "(HW_SCSI_ERR_BUF_ADDR)"), f);
    BOOST_REQUIRE(r["faults"].size() == 1u);
    const json &fault = r["faults"][0];
    BOOST_TEST(fault["node"] == 16);
    BOOST_TEST(fault["device"] == "SCSI adapter 0");
    BOOST_TEST(fault["in_register_access"] == true);
    BOOST_TEST(fault["reg"] == "SUBMIT");
    BOOST_TEST(fault["offset"] == HW_SCSI_REG_SUBMIT);
    BOOST_TEST(fault["code"] == "HW_SCSI_ERR_BUF_ADDR");
    BOOST_TEST(fault["time_ps"] == r["stopped_ps"]);
    // The firmware saw the failed access: parked inside fw_scsi_submit10.
    BOOST_TEST(r["exports"].contains("bad_desc"));
    BOOST_TEST(!r["exports"].contains("continued"));
    const std::string cpu = fault["cpu_failure"];
    BOOST_TEST(starts_with(cpu, "node 16: hal_reg_write: the device at 0xf0010020 answered with "
                                "an error response"),
               cpu);
}

// The same for an NI programming error made by a CP's firmware.
BOOST_AUTO_TEST_CASE(ni_programming_error_ends_in_the_failure_report) {
    json r = run_faulting_machine(platform::FirmwareSet{machine_test_bad_ni_cp_main, nullptr});
    const std::string f = r["failure"];
    BOOST_TEST_MESSAGE("failure report: " << f);
    BOOST_TEST(f == "node 2: network interface register TX_PUSH (0x028): TX_HDR_BYTES = 6 is "
                    "not a multiple of 4 in 0.." +
                        std::to_string(HW_NI_HDR_MAX_BYTES) + " (HW_NI_ERR_TX_SIZE)",
               f);
    BOOST_REQUIRE(r["faults"].size() == 1u);
    const json &fault = r["faults"][0];
    BOOST_TEST(fault["node"] == 2);
    BOOST_TEST(fault["device"] == "network interface");
    BOOST_TEST(fault["reg"] == "TX_PUSH");
    BOOST_TEST(fault["offset"] == HW_NI_REG_TX_PUSH);
    BOOST_TEST(fault["time_ps"] == r["stopped_ps"]);
    BOOST_TEST(!r["exports"].contains("continued"));
}

BOOST_AUTO_TEST_SUITE_END()
