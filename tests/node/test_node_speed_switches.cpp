// The node CPU's host speed-ups against themselves switched off
// (speed.cpu_posted_writes, speed.cpu_skip_quiet_sync; CpuSyncShortcuts): the
// same firmware must give the same exports, statistics, activity traces and end
// time with every combination of the two. That the results do not move is the
// proof the tricks are exact. Each run is a forked child (run_isolated).
#include "sim/runner/isolated_run.h"
#include "tests/node/fw_tests.h"
#include "tests/node/ni_args.h"
#include "tests/node/node_bench.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace starfish;
using nlohmann::json;
using testing::NodeBenchSpec;

namespace {

struct Switches {
    bool posted_writes;
    bool skip_quiet_sync;
};

const Switches kCombinations[] = {{true, true}, {false, true}, {true, false}, {false, false}};

std::string text(bool on) {
    return on ? "true" : "false";
}

// The result of `spec` run with the switches, and the CPU's host-side counters
// (summed over the nodes) under "shortcuts".
json run_with(NodeBenchSpec spec, Switches sw) {
    spec.settings.push_back({"speed.cpu_posted_writes", text(sw.posted_writes)});
    spec.settings.push_back({"speed.cpu_skip_quiet_sync", text(sw.skip_quiet_sync)});
    return sim::run_isolated([spec] {
        return testing::run_node_bench(spec, [](json &out, std::vector<platform::Node *> &nodes) {
            uint64_t posts = 0, skipped = 0, handler_skipped = 0;
            for (platform::Node *n : nodes) {
                posts += n->cpu().quiet_posts();
                skipped += n->cpu().quiet_syncs_skipped();
                handler_skipped += n->cpu().handler_syncs_skipped();
            }
            out["shortcuts"] = {{"quiet_posts", posts},
                                {"quiet_syncs_skipped", skipped},
                                {"handler_syncs_skipped", handler_skipped}};
        });
    });
}

// Shortcuts taken with both switches on, summed over the programs run.
uint64_t quiet_posts_total = 0, quiet_skips_total = 0, handler_skips_total = 0;

void check_same_either_way(const NodeBenchSpec &spec, const std::string &label) {
    json on = run_with(spec, kCombinations[0]);
    const json shortcuts = on["shortcuts"];
    on.erase("shortcuts");
    BOOST_TEST_CONTEXT(label) {
        BOOST_TEST(on["failure"].get<std::string>() == "");
        for (const Switches &sw : kCombinations) {
            json other = run_with(spec, sw);
            BOOST_TEST_CONTEXT("posted_writes=" << sw.posted_writes
                                                << " skip_quiet_sync=" << sw.skip_quiet_sync) {
                if (!sw.skip_quiet_sync) {
                    // Off means off: every point taken, nothing posted "when quiet".
                    BOOST_TEST(other["shortcuts"]["quiet_posts"].get<uint64_t>() == 0u);
                    BOOST_TEST(other["shortcuts"]["quiet_syncs_skipped"].get<uint64_t>() == 0u);
                    BOOST_TEST(other["shortcuts"]["handler_syncs_skipped"].get<uint64_t>() == 0u);
                }
                other.erase("shortcuts");
                BOOST_TEST(other == on, "differs: " << json::diff(on, other).dump());
            }
        }
    }
    quiet_posts_total += shortcuts["quiet_posts"].get<uint64_t>();
    quiet_skips_total += shortcuts["quiet_syncs_skipped"].get<uint64_t>();
    handler_skips_total += shortcuts["handler_syncs_skipped"].get<uint64_t>();
}

NodeBenchSpec cpu_program(platform::FirmwareMain main) {
    NodeBenchSpec spec;
    spec.mains = {main};
    spec.timers = true;
    spec.trace = true; // the activity intervals are compared too
    return spec;
}

} // namespace

BOOST_AUTO_TEST_SUITE(node_speed_switches)

// The CPU test firmware: threads, handlers, posted writes raced by interrupts,
// quiet points, semaphores, yields, sleeps, timed waits.
BOOST_AUTO_TEST_CASE(cpu_programs_give_identical_results_with_every_switch) {
    const std::pair<platform::FirmwareMain, const char *> programs[] = {
        {fwt_busy_main, "busy"},
        {fwt_irq_latency_main, "irq_latency"},
        {fwt_posted_writes_main, "posted_writes"},
        {fwt_quiet_points_main, "quiet_points"},
        {fwt_sem_main, "sem"},
        {fwt_yield_main, "yield"},
        {fwt_sleep_main, "sleep"},
        {fwt_timed_wait_main, "timed_wait"},
        {fwt_thread_exit_main, "thread_exit"},
    };
    quiet_posts_total = quiet_skips_total = handler_skips_total = 0;
    for (const auto &[main, name] : programs) {
        check_same_either_way(cpu_program(main), name);
    }
    // The programs exercised every shortcut (with both switches on).
    BOOST_TEST_MESSAGE("quiet posts " << quiet_posts_total << ", quiet points left out "
                                      << quiet_skips_total << ", handler points left out "
                                      << handler_skips_total);
    BOOST_TEST(quiet_posts_total > 0u);
    BOOST_TEST(quiet_skips_total > 0u);
    BOOST_TEST(handler_skips_total > 0u);
}

// Two nodes exchanging messages through their network interfaces: the TX_*
// operand writes are the posted ones, the handlers' posts the skipped points.
BOOST_AUTO_TEST_CASE(ni_exchange_gives_identical_results_with_every_switch) {
    const fwt_ni_args_t a = testing::ni_args({0, 100, 9000, 20000, 7}, 25);
    NodeBenchSpec spec;
    spec.mains = {fwt_ni_exchange_main, fwt_ni_exchange_main};
    spec.contexts = {&a, &a};
    check_same_either_way(spec, "ni_exchange");
}

BOOST_AUTO_TEST_SUITE_END()
