// The node CPU model and the HAL binding: busy-time accounting, interrupt
// latency, threads, semaphores, sleep, memory, configuration and failures. Each
// scenario runs its test firmware (fw_cpu_tests.c) in a forked child.
#include "hw/node_map.h"
#include "sim/parameters.h"
#include "sim/runner/isolated_run.h"
#include "tests/node/fw_tests.h"
#include "tests/node/node_bench.h"
#include "tests/support/hal_charge_sequence.h"
#include "tlm_models/node/hal_cost_rules.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

using namespace starfish;
using nlohmann::json;
using testing::NodeBenchSpec;

namespace {

// The configured value of a cost (the defaults the runs use unless overridden).
int64_t cost(config::IntKey key) {
    static const config::Config cfg(sim::parameter_registry());
    return cfg.get_int(key);
}

json run_one(platform::FirmwareMain main,
             std::vector<std::pair<std::string, std::string>> settings = {}, bool trace = false,
             const testing::NodeInspector &inspect = {}) {
    return sim::run_isolated([=] {
        NodeBenchSpec spec;
        spec.mains = {main};
        spec.settings = settings;
        spec.timers = true;
        spec.trace = trace;
        return testing::run_node_bench(spec, inspect);
    });
}

uint64_t exported(const json &r, const char *name, int node = 0) {
    const json &e = r["nodes"][node]["exports"];
    BOOST_REQUIRE_MESSAGE(e.contains(name), "firmware did not export " << name);
    return e[name].get<uint64_t>();
}

uint64_t busy_ps(const json &r, const std::string &activity, int node = 0) {
    const json &b = r["nodes"][node]["stats"]["cpu"]["busy_ps"];
    return b.contains(activity) ? b[activity].get<uint64_t>() : 0;
}

struct Segment {
    uint64_t start, end;
    uint32_t who, charge;
};

} // namespace

BOOST_AUTO_TEST_SUITE(node_cpu)

// Two threads and an interrupt handler share one CPU: their CPU time never
// overlaps, every cycle is accounted to exactly one activity, and each
// activity's time is what it charged.
BOOST_AUTO_TEST_CASE(threads_and_handler_never_overlap_and_time_adds_up) {
    json r = run_one(fwt_busy_main, {}, true, [](json &out, std::vector<platform::Node *> &nodes) {
        const auto &e = nodes[0]->exports();
        if (!e.count("log_addr")) {
            return;
        }
        uint32_t addr = static_cast<uint32_t>(e.at("log_addr"));
        uint32_t count = static_cast<uint32_t>(e.at("log_count"));
        const auto *log = reinterpret_cast<const fwt_segment_t *>(
            nodes[0]->memory().span(addr, count * sizeof(fwt_segment_t)));
        json segs = json::array();
        for (uint32_t i = 0; i < count; ++i) {
            segs.push_back({log[i].start, log[i].end, log[i].who, log[i].charge});
        }
        out["segments"] = segs;
    });
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    const uint64_t cyc = r["cycle_ps"];
    const json &cpu = r["nodes"][0]["stats"]["cpu"];
    const uint64_t elapsed = cpu["elapsed_ps"];

    // Every picosecond belongs to one activity.
    uint64_t sum = cpu["idle_ps"];
    for (const auto &[name, ps] : cpu["busy_ps"].items()) {
        sum += ps.get<uint64_t>();
    }
    BOOST_TEST(sum == elapsed);

    // The trace tiles time without overlap and agrees with the totals.
    const json &trace = r["nodes"][0]["trace"];
    std::vector<std::string> names = trace["activities"];
    std::map<std::string, uint64_t> traced;
    uint64_t cursor = 0;
    for (const auto &iv : trace["intervals"]) {
        uint64_t start = iv[1], end = iv[2];
        BOOST_REQUIRE(start == cursor);
        BOOST_REQUIRE(end > start);
        traced[names[iv[0].get<size_t>()]] += end - start;
        cursor = end;
    }
    uint64_t open = elapsed - cursor;
    int mismatches = 0;
    for (size_t i = 0; i < names.size(); ++i) {
        uint64_t total = i == 0 ? cpu["idle_ps"].get<uint64_t>() : busy_ps(r, names[i]);
        if (traced[names[i]] != total) {
            ++mismatches;
            BOOST_TEST(total - traced[names[i]] == open);
        }
    }
    BOOST_TEST(mismatches <= 1);

    // Interrupts: every raise served, each costs entry + handler + exit.
    const uint64_t irq_cycles = cost(keys::cost_irq_entry_cycles) + 40 +
                                cost(keys::cost_reg_write_cycles) +
                                cost(keys::cost_irq_exit_cycles);
    const uint64_t interrupts = cpu["interrupts"];
    BOOST_TEST(interrupts > 20u);
    BOOST_TEST(interrupts == exported(r, "raises"));
    BOOST_TEST(busy_ps(r, "irq:" + std::to_string(FWT_TIMER_IRQ)) == interrupts * irq_cycles * cyc);

    // Threads: what the firmware charged plus wakeups and context switches.
    const uint64_t switches = cpu["context_switches"], wakeups = cpu["wakeups"];
    BOOST_TEST(switches > 50u);
    uint64_t thread_ps =
        busy_ps(r, "thread:alpha") + busy_ps(r, "thread:beta") + busy_ps(r, "thread:main");
    BOOST_TEST(thread_ps ==
               (exported(r, "tally_threads") + wakeups * cost(keys::cost_thread_wakeup_cycles) +
                switches * cost(keys::cost_context_switch_cycles)) *
                   cyc);

    // What the firmware itself saw: alpha and beta never overlap; handlers never
    // overlap; a thread's stretch is its own work plus whole handlers.
    std::vector<Segment> threads, handlers;
    for (const auto &s : r["segments"]) {
        Segment seg{s[0], s[1], s[2], s[3]};
        (seg.who == FWT_WHO_HANDLER ? handlers : threads).push_back(seg);
    }
    BOOST_TEST(threads.size() == 120u);
    BOOST_TEST(handlers.size() == interrupts);
    auto disjoint = [](std::vector<Segment> v) {
        std::sort(v.begin(), v.end(), [](auto &a, auto &b) { return a.start < b.start; });
        for (size_t i = 1; i < v.size(); ++i) {
            if (v[i].start < v[i - 1].end) {
                return false;
            }
        }
        return true;
    };
    BOOST_TEST(disjoint(threads));
    BOOST_TEST(disjoint(handlers));
    int interrupted = 0;
    for (const auto &s : threads) {
        uint64_t extra = s.end - s.start - s.charge;
        BOOST_TEST(s.end - s.start >= s.charge);
        BOOST_TEST(extra % irq_cycles == 0u);
        interrupted += extra > 0;
    }
    BOOST_TEST(interrupted > 0);
    for (const auto &s : handlers) {
        BOOST_TEST(s.end - s.start == s.charge);
    }
}

// The same sequence runs on the fake HAL (test_fw_fake_hal): both must charge what
// the one rule source says to each activity.
BOOST_AUTO_TEST_CASE(charges_every_service_by_the_hal_cost_rules) {
    std::vector<std::pair<std::string, std::string>> settings;
    std::map<std::string, uint32_t> costs;
    for (const auto &[key, cycles] : testing::distinct_hal_costs()) {
        settings.emplace_back(key, std::to_string(cycles));
        costs[key] = static_cast<uint32_t>(cycles);
    }
    const auto rules =
        node::HalCostRules::from([&](config::IntKey key) { return costs.at(key.name); });
    json r = run_one(testing::hal_charge_sequence_main, settings);
    BOOST_TEST_REQUIRE(r["failure"].get<std::string>() == "");
    const uint64_t cycle_ps = r["cycle_ps"].get<uint64_t>();
    using A = testing::ChargedActivity;
    BOOST_TEST(busy_ps(r, "thread:main") == testing::expected_cycles(rules, A::Main) * cycle_ps);
    BOOST_TEST(busy_ps(r, "thread:helper") ==
               testing::expected_cycles(rules, A::Helper) * cycle_ps);
    BOOST_TEST(busy_ps(r, "irq:" + std::to_string(HW_IRQ_NI_TX)) ==
               testing::expected_cycles(rules, A::Handler) * cycle_ps);
}

BOOST_AUTO_TEST_CASE(runs_are_deterministic) {
    json a = run_one(fwt_busy_main);
    json b = run_one(fwt_busy_main);
    BOOST_TEST(a.dump() == b.dump());
}

// docs/node.md "Interrupt latency": taken at the simulated time the line rises,
// both inside a thread's synchronisation wait and when the CPU is idle.
BOOST_AUTO_TEST_CASE(interrupt_latency) {
    json r = run_one(fwt_irq_latency_main);
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    const uint64_t entry = cost(keys::cost_irq_entry_cycles),
                   exit = cost(keys::cost_irq_exit_cycles);
    const uint64_t wr = cost(keys::cost_reg_write_cycles), rd = cost(keys::cost_reg_read_cycles);
    const uint64_t handler = entry + 100 + wr + exit;
    BOOST_TEST(exported(r, "t0") == 0u);
    // The FIRE_IN write completes at wr; the line rises 1000 cycles later, in the
    // middle of the thread's 5000 pending cycles.
    BOOST_TEST(exported(r, "busy_entry") == wr + 1000 + entry);
    const uint64_t busy_end = wr + 5000 + rd + handler;
    BOOST_TEST(exported(r, "busy_end") == busy_end);
    BOOST_TEST(exported(r, "idle_entry") == busy_end + wr + 500 + entry);
    BOOST_TEST(exported(r, "after_sleep") == busy_end + wr + 2000);
    BOOST_TEST(exported(r, "handled") == 2u);
}

// The NI's TX_DEST is postable (no synchronisation of its own): the handler of a
// line raised between the second and third of five writes still sees the second
// value, entered at the line's time, and the writes take their full cycles.
BOOST_AUTO_TEST_CASE(posted_writes_take_effect_at_their_time) {
    json r = run_one(fwt_posted_writes_main);
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    const uint64_t entry = cost(keys::cost_irq_entry_cycles),
                   exit = cost(keys::cost_irq_exit_cycles);
    const uint64_t wr = cost(keys::cost_reg_write_cycles), rd = cost(keys::cost_reg_read_cycles);
    const uint64_t t_start = exported(r, "t_start");
    BOOST_TEST(exported(r, "seen_by_handler") == 2u);
    BOOST_TEST(exported(r, "handler_entry") == t_start + 2 * wr + wr / 2 + entry);
    BOOST_TEST(exported(r, "last") == 5u);
    BOOST_TEST(exported(r, "t_end") == t_start + 5 * wr + rd + (entry + rd + wr + exit));
}

// Leaving out a point when the simulation is quiet changes nothing the firmware
// can see: the same cycles, and with an interrupt due inside the point, the
// handler still runs before the code after it. The quiet points were left out.
BOOST_AUTO_TEST_CASE(points_left_out_when_quiet_change_nothing) {
    json r = run_one(fwt_quiet_points_main, {}, false,
                     [](json &out, std::vector<platform::Node *> &nodes) {
                         out["quiet_posts"] = nodes[0]->cpu().quiet_posts();
                         out["quiet_syncs_skipped"] = nodes[0]->cpu().quiet_syncs_skipped();
                     });
    const uint64_t posts = r["quiet_posts"].get<uint64_t>();
    const uint64_t skipped = r["quiet_syncs_skipped"].get<uint64_t>();
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    const uint64_t wr = cost(keys::cost_reg_write_cycles), rd = cost(keys::cost_reg_read_cycles);
    BOOST_TEST(exported(r, "quiet_cookie") == 7u);
    BOOST_TEST(exported(r, "quiet_cycles") == wr + cost(keys::cost_sem_post_cycles) + rd);
    BOOST_TEST(exported(r, "handled") == 2u);
    BOOST_TEST(exported(r, "seen_at_cookie") == 0u);
    BOOST_TEST(exported(r, "seen_at_post") == 1u);
    BOOST_TEST(posts >= 1u);
    BOOST_TEST(skipped >= 1u);
}

BOOST_AUTO_TEST_CASE(semaphores_wake_fifo_count_and_accept_posts_from_handlers) {
    json r = run_one(fwt_sem_main, {}, false, [](json &out, std::vector<platform::Node *> &nodes) {
        out["handler_syncs_skipped"] = nodes[0]->cpu().handler_syncs_skipped();
    });
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    // The handler's post is no synchronisation (nothing interrupts a handler, and
    // the thread it wakes runs after it); the timing below is the same.
    BOOST_TEST(r["handler_syncs_skipped"].get<uint64_t>() >= 1u);
    BOOST_TEST(exported(r, "order") == 123u);
    BOOST_TEST(exported(r, "two_waits_cycles") == 2u * cost(keys::cost_sem_wait_cycles));
    BOOST_TEST(exported(r, "count_after_posts") == 3u);
    // Handler: entry, ACK write, post that wakes, exit; then the waiter gets the
    // idle CPU after a context switch.
    BOOST_TEST(exported(r, "irq_wake") ==
               exported(r, "irq_raised_at") + cost(keys::cost_irq_entry_cycles) +
                   cost(keys::cost_reg_write_cycles) + cost(keys::cost_sem_post_cycles) +
                   cost(keys::cost_thread_wakeup_cycles) + cost(keys::cost_irq_exit_cycles) +
                   cost(keys::cost_context_switch_cycles));
    // The wait that synchronised over the handler's post took that post (a lost
    // wakeup would leave the run without the export).
    BOOST_TEST(exported(r, "post_during_sync_ok") == 1u);
    BOOST_TEST(exported(r, "post_during_sync_count") == 0u);
}

BOOST_AUTO_TEST_CASE(yield_alternates_ready_threads) {
    json r = run_one(fwt_yield_main);
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    BOOST_TEST(exported(r, "sequence") == 1212121212u);
    BOOST_TEST(exported(r, "lone_yield_cycles") ==
               static_cast<uint64_t>(cost(keys::cost_yield_cycles)));
    BOOST_TEST(r["nodes"][0]["stats"]["cpu"]["threads_created"].get<int>() == 3);
}

BOOST_AUTO_TEST_CASE(spawn_fails_at_the_thread_limit_and_recovers) {
    json r = run_one(fwt_spawn_limit_main, {{"machine.node_thread_limit", "4"}});
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    BOOST_TEST(exported(r, "spawned") == 3u); // main is the fourth live thread
    BOOST_TEST(exported(r, "spawn_again") == 1u);
    BOOST_TEST(r["nodes"][0]["stats"]["cpu"]["threads_created"].get<int>() == 5);
}

BOOST_AUTO_TEST_CASE(sleep_leaves_the_cpu_to_others_and_is_exact_alone) {
    json r = run_one(fwt_sleep_main);
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    const uint64_t sw = cost(keys::cost_context_switch_cycles);
    // "busy" holds the CPU (cooperative) until it exits, well past the timer.
    BOOST_TEST(exported(r, "t1") - exported(r, "t0") ==
               sw + 5000 + cost(keys::cost_thread_exit_cycles) + sw);
    BOOST_TEST(exported(r, "t2") - exported(r, "t1") == 1000u);
    BOOST_TEST(r["nodes"][0]["stats"]["cpu"]["idle_cycles"].get<double>() >= 1000.0);
}

BOOST_AUTO_TEST_CASE(a_wait_with_a_timeout_ends_by_a_post_or_by_the_time) {
    json r = run_one(fwt_timed_wait_main);
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    const uint64_t wait = cost(keys::cost_sem_wait_cycles);
    BOOST_TEST(exported(r, "timed_out") == 1u);
    BOOST_TEST(exported(r, "t_timeout") == wait + 1000u); // charge, then exactly the timeout
    BOOST_TEST(exported(r, "posted") == 1u);
    BOOST_TEST(exported(r, "t_posted") > 5000u);  // the poster's sleep
    BOOST_TEST(exported(r, "t_posted") < 10000u); // not the timeout
    BOOST_TEST(exported(r, "took_unit") == 1u);
    BOOST_TEST(exported(r, "count_after") == 0u);
}

BOOST_AUTO_TEST_CASE(memory_allocation) {
    json r = run_one(fwt_mem_main, {{"machine.node_memory_kb", "1024"}});
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    for (const char *flag : {"a_ok", "b_aligned", "round_trip", "ptr_outside_null", "disjoint",
                             "bytes_kept", "whole_after_free", "then_exhausted"}) {
        BOOST_TEST(exported(r, flag) == 1u, flag);
    }
    BOOST_TEST(exported(r, "blocks_64k") == 16u);
}

BOOST_AUTO_TEST_CASE(configuration_and_identity) {
    json r = sim::run_isolated([] {
        NodeBenchSpec spec;
        spec.mains = {fwt_config_main, nullptr, nullptr};
        spec.iop_count = 1;
        spec.settings = {{"machine.placement", "split"}, {"machine.cp_count", "7"}};
        return testing::run_node_bench(spec);
    });
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    BOOST_TEST(exported(r, "cp_count") == 7u);
    BOOST_TEST(exported(r, "cpu_khz") == 50000u);
    BOOST_TEST(exported(r, "cp_count_as_real") == 7u);
    BOOST_TEST(exported(r, "placement_is_split") == 1u);
    BOOST_TEST(exported(r, "reg_read_cost") ==
               static_cast<uint64_t>(cost(keys::cost_reg_read_cycles)));
    BOOST_TEST(exported(r, "node") == 0u);
    BOOST_TEST(exported(r, "role") == static_cast<uint64_t>(HAL_ROLE_CP));
    BOOST_TEST(exported(r, "role_index") == 0u);
    BOOST_TEST(exported(r, "cp_node_1") == 1u);
    BOOST_TEST(exported(r, "iop_node_0") == 2u);
    BOOST_TEST(exported(r, "disks_per_iop") == 1u);
    BOOST_TEST(exported(r, "config_cycles") == 0u);
}

BOOST_AUTO_TEST_CASE(thread_exit_never_returns) {
    json r = run_one(fwt_thread_exit_main);
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    BOOST_TEST(exported(r, "after_exit") == 0u);
    BOOST_TEST(r["nodes"][0]["stats"]["cpu"]["threads_created"].get<int>() == 4);
}

// Fatal firmware errors stop the run with the node and the reason.
BOOST_AUTO_TEST_CASE(failures_stop_the_run_naming_node_and_cause) {
    const std::vector<std::pair<uint32_t, std::string>> cases = {
        {FWT_FAIL_HAL_FAIL, "node 1: checksum mismatch in block 7"},
        {FWT_FAIL_UNKNOWN_KEY, "node 1: hal_config_int: unknown configuration key 'no.such.key'"},
        {FWT_FAIL_WRONG_TYPE,
         "node 1: hal_config_int: 'machine.placement' is a string parameter, not an integer or "
         "boolean"},
        {FWT_FAIL_BLOCK_IN_IRQ, "node 1: hal_sem_wait called from an interrupt handler"},
        {FWT_FAIL_UNMAPPED_REG, "node 1: hal_reg_read: address 0xf0800000 maps to no device"},
        {FWT_FAIL_FREE_TWICE, "node 1: hal_mem_free of a pointer that hal_mem_alloc did not"},
        {FWT_FAIL_UNINIT_SEM, "node 1: hal_sem_post on a semaphore that hal_sem_init never"},
    };
    for (const auto &[scenario, message] : cases) {
        uint32_t which = scenario;
        json r = sim::run_isolated([&] {
            NodeBenchSpec spec;
            spec.mains = {nullptr, fwt_fail_main};
            spec.contexts = {nullptr, &which};
            spec.timers = true;
            return testing::run_node_bench(spec);
        });
        std::string failure = r["failure"];
        BOOST_TEST(failure.rfind(message, 0) == 0u, "scenario " << scenario << ": " << failure);
        BOOST_TEST(!r["nodes"][1]["exports"].contains("continued"));
        if (scenario == FWT_FAIL_HAL_FAIL) {
            BOOST_TEST(r["sim_cycles"].get<uint64_t>() == 1234u); // stopped at once
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
