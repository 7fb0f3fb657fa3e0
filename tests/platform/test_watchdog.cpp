// The deadlock watchdog (sim.watchdog_ms, docs/watchdog.md) on the whole machine:
// two threads waiting for each other fail the run with a report naming both and
// what each waits on; a long sleep and a long seek are not taken for a deadlock;
// polling or spinning on a flag nobody sets is reported as no progress; 0 switches
// it off.
#include "sim/parameters.h"
#include "sim/platform/machine.h"
#include "sim/runner/isolated_run.h"

#include <boost/test/unit_test.hpp>

extern "C" {
void watchdog_test_deadlock_cp_main(hal_t *h);
void watchdog_test_sleeper_cp_main(hal_t *h);
void watchdog_test_poller_cp_main(hal_t *h);
void watchdog_test_spinner_cp_main(hal_t *h);
void watchdog_test_long_seek_iop_main(hal_t *h);
}

using namespace starfish;
using nlohmann::json;

namespace {

// Runs firmware on a 2 CP + 2 IOP machine; the failure text, simulated time and
// the exports of CP 0 and IOP 0.
json run_machine(const platform::FirmwareSet &firmware, const std::string &watchdog_ms) {
    return sim::run_isolated([&] {
        config::Config cfg(sim::parameter_registry());
        for (const auto &[k, v] :
             std::vector<std::pair<std::string, std::string>>{{"machine.cp_count", "2"},
                                                              {"machine.iop_count", "2"},
                                                              {"net.width", "2"},
                                                              {"net.height", "2"},
                                                              {"sim.watchdog_ms", watchdog_ms}}) {
            cfg.set_from_text(k, v, "test");
        }
        cfg.validate();
        platform::Machine m(cfg, 0, firmware);
        std::string failure = m.run();
        json out{{"failure", failure}, {"sim_s", m.sim_seconds()}};
        for (const auto &[k, v] : m.cp(0).exports()) {
            out["cp0"][k] = v;
        }
        for (const auto &[k, v] : m.iop(0).exports()) {
            out["iop0"][k] = v;
        }
        return out;
    });
}

bool contains(const json &r, const std::string &part) {
    return r["failure"].get<std::string>().find(part) != std::string::npos;
}

} // namespace

BOOST_AUTO_TEST_SUITE(watchdog)

BOOST_AUTO_TEST_CASE(two_threads_waiting_for_each_other_are_named_with_what_they_wait_on) {
    json r = run_machine({watchdog_test_deadlock_cp_main, nullptr}, "1000");
    BOOST_TEST_MESSAGE(r["failure"].get<std::string>());
    BOOST_TEST(contains(r, "watchdog: deadlock"));
    BOOST_TEST(contains(r, "(cp0 alpha, cp0 beta)"));
    BOOST_TEST(contains(r, "node 0 (cp0):"));
    BOOST_TEST(contains(r, "thread alpha: waits on \"beta's answer\""));
    BOOST_TEST(contains(r, "thread beta: waits on \"alpha's answer\""));
    // Idle message servers are listed as waiting on a work queue, not as culprits.
    BOOST_TEST(contains(r, "waits on \"msg server: incoming requests\" (semaphore #1, a work "
                           "queue)"));
}

BOOST_AUTO_TEST_CASE(switched_off_the_watchdog_lets_the_deadlock_end_quietly) {
    json r = run_machine({watchdog_test_deadlock_cp_main, nullptr}, "0");
    BOOST_TEST(r["failure"] == "");
}

BOOST_AUTO_TEST_CASE(a_long_sleep_is_not_a_deadlock) {
    // 50 ms asleep, the watchdog looking every 2 ms.
    json r = run_machine({watchdog_test_sleeper_cp_main, nullptr}, "2");
    BOOST_TEST(r["failure"] == "");
    BOOST_TEST(r["cp0"]["woke_at_cycles"].get<uint64_t>() >= 50u * 50000u);
}

BOOST_AUTO_TEST_CASE(a_long_seek_is_not_a_deadlock) {
    json r = run_machine({nullptr, watchdog_test_long_seek_iop_main}, "2");
    BOOST_TEST(r["failure"] == "");
    BOOST_TEST(r["iop0"]["status"] == 0);
    // The full-stroke seek and the read took longer than the watchdog's period.
    BOOST_TEST(r["iop0"]["seek_read_cycles"].get<uint64_t>() > 2u * 50000u);
}

BOOST_AUTO_TEST_CASE(polling_a_flag_nobody_sets_is_reported_as_no_progress) {
    json r = run_machine({watchdog_test_poller_cp_main, nullptr}, "5");
    BOOST_TEST_MESSAGE(r["failure"].get<std::string>());
    BOOST_TEST(contains(r, "watchdog: no progress for"));
    BOOST_TEST(contains(r, "thread main: waits on \"alpha's answer\""));
    BOOST_TEST(contains(r, "thread poller: sleeps until"));
    BOOST_TEST(r["sim_s"].get<double>() < 0.02); // stopped, not left to run forever
}

BOOST_AUTO_TEST_CASE(spinning_on_a_flag_nobody_sets_is_reported_as_no_progress) {
    json r = run_machine({watchdog_test_spinner_cp_main, nullptr}, "5");
    BOOST_TEST_MESSAGE(r["failure"].get<std::string>());
    BOOST_TEST(contains(r, "watchdog: no progress for"));
    BOOST_TEST((contains(r, "thread main: running") || contains(r, "thread main: ready")));
}

BOOST_AUTO_TEST_SUITE_END()
