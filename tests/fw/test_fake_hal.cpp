// The fake HAL itself: one activity at a time with per-activity charges, semaphore
// wakeups, time order between nodes, and the fake NI's checks of bad programming
// (the run fails naming node and register).
#include "hw/ni_regs.h"
#include "hw/node_map.h"
#include "tests/fw/fake_hal.h"
#include "tests/support/hal_charge_sequence.h"
#include "tlm_models/node/hal_cost_rules.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace starfish::fwtest;

namespace {

void w(hal_t *h, uint32_t reg, uint32_t v) {
    hal_reg_write(h, HW_NI_BASE + reg, v);
}

// Programs a valid ring and enables node's NI.
void enable(hal_t *h) {
    void *ring = hal_mem_alloc(h, 4 * HW_NI_RX_RECORD_BYTES, HW_NI_RX_RECORD_BYTES);
    w(h, HW_NI_REG_RX_RING_BASE, hal_mem_addr(h, ring));
    w(h, HW_NI_REG_RX_RING_SLOTS, 4);
    w(h, HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE);
}

std::string fail_with(const std::function<void(hal_t *)> &body) {
    FakeOptions o;
    o.tx_queue_depth = 1;
    FakeMachine fm(o);
    fm.spawn(0, body, "t");
    BOOST_TEST(!fm.run());
    return fm.failure();
}

} // namespace

BOOST_AUTO_TEST_SUITE(fake_hal)

BOOST_AUTO_TEST_CASE(threads_semaphores_and_charges) {
    FakeMachine fm;
    std::vector<std::string> order;
    hal_sem_t *sem = nullptr;
    fm.spawn(
        0,
        [&](hal_t *h) {
            sem = static_cast<hal_sem_t *>(hal_mem_alloc(h, sizeof(hal_sem_t), 8));
            hal_sem_init(h, sem, 0);
            hal_cycles(h, 100);
            order.push_back("a waits");
            hal_sem_wait(h, sem);
            order.push_back("a woken");
        },
        "a");
    fm.spawn(
        0,
        [&](hal_t *h) {
            order.push_back("b posts");
            hal_cycles(h, 7);
            hal_sem_post(h, sem);
            order.push_back("b done");
        },
        "b");
    BOOST_TEST_REQUIRE(fm.run(), fm.failure());
    BOOST_TEST(fm.spawned_threads_finished());
    BOOST_TEST(order == (std::vector<std::string>{"a waits", "b posts", "b done", "a woken"}),
               boost::test_tools::per_element());
    BOOST_TEST(fm.charged(0, "a", "fw") == 100u);
    BOOST_TEST(fm.charged(0, "a", "mem_alloc") == 40u);
    BOOST_TEST(fm.charged(0, "a", "sem_wait") == 5u);
    // The post that wakes a waiter pays the wakeup (as on the node model).
    BOOST_TEST(fm.charged(0, "a", "thread_wakeup") == 0u);
    BOOST_TEST(fm.charged(0, "b", "thread_wakeup") == 15u);
    BOOST_TEST(fm.charged(0, "b", "sem_post") == 5u);
    // A switch is charged whenever the CPU starts a thread other than the last one
    // it ran: b after a, a again after b (a's first dispatch follows no thread).
    BOOST_TEST(fm.charged(0, "a", "context_switch") == 30u);
    BOOST_TEST(fm.charged(0, "b", "context_switch") == 30u);
    BOOST_TEST(fm.charged(0, "", "thread_exit") == 40u);
    // One CPU: the node's time is the sum of everything charged on it.
    BOOST_TEST(fm.now(0) == fm.charged(0));
}

// The same sequence runs on the machine (test_node_cpu): both must charge what the
// one rule source says, per activity and, here, per cost.
BOOST_AUTO_TEST_CASE(charges_every_service_by_the_hal_cost_rules) {
    namespace st = starfish::testing;
    FakeMachine fm;
    std::map<std::string, uint32_t> costs;
    for (const auto &[key, cycles] : st::distinct_hal_costs()) {
        fm.set_int(key, cycles);
        costs[key] = static_cast<uint32_t>(cycles);
    }
    const auto rules = starfish::node::HalCostRules::from(
        [&](starfish::config::IntKey key) { return costs.at(key.name); });
    fm.spawn(0, st::hal_charge_sequence_main, "main");
    BOOST_TEST_REQUIRE(fm.run(), fm.failure());
    BOOST_TEST(fm.spawned_threads_finished());

    const std::map<st::ChargedActivity, std::string> names = {
        {st::ChargedActivity::Main, "main"},
        {st::ChargedActivity::Helper, "helper"},
        {st::ChargedActivity::Handler, "irq"}};
    std::map<std::pair<std::string, std::string>, uint64_t> want, got;
    for (const st::ExpectedCharge &e : st::hal_charge_sequence_charges()) {
        want[{names.at(e.activity), starfish::node::hal_charge_name(e.charge)}] +=
            e.count * rules.cycles(e.charge);
    }
    for (const auto &[activity, name] : names) {
        for (const auto &[category, cycles] : fm.charges(0, name)) {
            got[{name, category}] = cycles;
        }
        BOOST_TEST(fm.charged(0, name) == st::expected_cycles(rules, activity), name);
    }
    for (const auto &[key, cycles] : want) {
        BOOST_TEST(got[key] == cycles, key.first << " " << key.second);
    }
    for (const auto &[key, cycles] : got) {
        BOOST_TEST(want.count(key) == 1u, "unexpected charge " << key.first << " " << key.second);
    }
    BOOST_TEST(fm.now(0) == fm.charged(0));
}

BOOST_AUTO_TEST_CASE(a_wait_with_a_timeout_ends_by_a_post_or_by_the_time) {
    FakeMachine fm;
    hal_sem_t *sem = nullptr;
    std::vector<std::pair<int, uint64_t>> results; // (result, time)
    fm.spawn(
        0,
        [&](hal_t *h) {
            sem = static_cast<hal_sem_t *>(hal_mem_alloc(h, sizeof(hal_sem_t), 8));
            hal_sem_init(h, sem, 0);
            for (uint64_t timeout : {1000u, 100000u}) {
                uint64_t t0 = hal_now_cycles(h);
                int r = hal_sem_wait_timeout(h, sem, timeout);
                results.emplace_back(r, hal_now_cycles(h) - t0);
            }
        },
        "waiter");
    fm.spawn(
        0,
        [&](hal_t *h) {
            hal_sleep_cycles(h, 5000);
            hal_sem_post(h, sem);
        },
        "poster");
    BOOST_TEST(fm.run());
    BOOST_REQUIRE(results.size() == 2u);
    BOOST_TEST(results[0].first == -1); // nobody posted within 1000 cycles
    BOOST_TEST(results[0].second >= 1000u);
    BOOST_TEST(results[0].second < 1200u);
    BOOST_TEST(results[1].first == 0); // posted at 5000, long before the timeout
    BOOST_TEST(results[1].second < 5000u);
    BOOST_TEST(sem->count == 0u);
}

BOOST_AUTO_TEST_CASE(a_message_arrives_after_its_latency) {
    FakeOptions o;
    o.latency_cycles = 1000;
    FakeMachine fm(o);
    uint64_t seen = 0, sent = 0;
    fm.spawn(
        1,
        [&](hal_t *h) {
            enable(h);
            w(h, HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE | HW_NI_CTRL_RX_IRQ);
            hal_irq_register(
                h, HW_IRQ_NI_RX,
                [](hal_t *hh, void *arg) {
                    *static_cast<uint64_t *>(arg) = hal_now_cycles(hh);
                    w(hh, HW_NI_REG_RX_POP, 1);
                },
                &seen);
        },
        "rx");
    fm.spawn(
        0,
        [&](hal_t *h) {
            enable(h);
            auto *hdr = static_cast<uint32_t *>(hal_mem_alloc(h, 16, 8));
            w(h, HW_NI_REG_TX_DEST, 1);
            w(h, HW_NI_REG_TX_HDR_ADDR, hal_mem_addr(h, hdr));
            w(h, HW_NI_REG_TX_HDR_BYTES, 16);
            w(h, HW_NI_REG_TX_BODY_BYTES, 0);
            sent = hal_now_cycles(h);
            w(h, HW_NI_REG_TX_PUSH, 0);
        },
        "tx");
    BOOST_TEST_REQUIRE(fm.run(), fm.failure());
    // 16 frame + 16 header bytes at 4 B/cycle, then the latency; the handler's
    // entry (20) and the pop's register write come before it reads the time.
    BOOST_TEST(seen >= sent + 2 + 8 + 1000);
    BOOST_TEST(seen <= sent + 2 + 8 + 1000 + 20 + 2);
}

BOOST_AUTO_TEST_CASE(bad_ni_programming_names_node_and_register) {
    std::string f = fail_with([](hal_t *h) {
        enable(h);
        w(h, HW_NI_REG_TX_DEST, 1);
        w(h, HW_NI_REG_TX_HDR_BYTES, 0);
        w(h, HW_NI_REG_TX_BODY_BYTES, 0);
        w(h, HW_NI_REG_TX_PUSH, 0); // empty message
    });
    BOOST_TEST(f.find("node 0") != std::string::npos, f);
    BOOST_TEST(f.find("TX_PUSH") != std::string::npos, f);

    f = fail_with([](hal_t *h) {
        enable(h);
        w(h, HW_NI_REG_TX_DEST, 1);
        w(h, HW_NI_REG_TX_HDR_BYTES, 4);
        w(h, HW_NI_REG_TX_BODY_ADDR, 0xfffff000u);
        w(h, HW_NI_REG_TX_BODY_BYTES, 64);
        w(h, HW_NI_REG_TX_PUSH, 0);
    });
    BOOST_TEST(f.find("outside node memory") != std::string::npos, f);

    f = fail_with([](hal_t *h) {
        enable(h);
        w(h, HW_NI_REG_TX_DEST, 1);
        w(h, HW_NI_REG_TX_HDR_BYTES, 4);
        w(h, HW_NI_REG_TX_PUSH, 0);
        w(h, HW_NI_REG_TX_PUSH, 0); // depth 1: the queue is full
    });
    BOOST_TEST(f.find("TX_PUSH: push while TX_FREE is 0") != std::string::npos, f);

    f = fail_with([](hal_t *h) {
        enable(h);
        w(h, HW_NI_REG_RX_RING_SLOTS, 8); // while enabled
    });
    BOOST_TEST(f.find("RX_RING_SLOTS") != std::string::npos, f);

    f = fail_with([](hal_t *h) {
        enable(h);
        w(h, HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT, 77));
    });
    BOOST_TEST(f.find("RX_CMD: handle 77") != std::string::npos, f);

    f = fail_with([](hal_t *h) { w(h, HW_NI_REG_RX_POP, 1); });
    BOOST_TEST(f.find("RX_POP") != std::string::npos, f);

    f = fail_with([](hal_t *h) { (void)hal_config_int(h, "no.such_key"); });
    BOOST_TEST(f.find("no.such_key") != std::string::npos, f);
}

BOOST_AUTO_TEST_SUITE_END()
