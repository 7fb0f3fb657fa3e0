// Machine assembly: the default machine elaborates with every node at its
// placement, IOP firmware reaches its own disks through the SCSI host adapter,
// and runs are deterministic.
#include "hw/platform/machine.h"
#include "sim/parameters.h"
#include "sim/runner/isolated_run.h"

#include <boost/test/unit_test.hpp>

extern "C" void machine_test_iop_main(hal_t *h);

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
                     {"completed", e.count("completed") ? e.at("completed") : 0}});
        }
        out["stats"] = m.stats_json();
        return out;
    });
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

BOOST_AUTO_TEST_SUITE_END()
