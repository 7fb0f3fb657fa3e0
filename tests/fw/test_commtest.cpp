// The commtest program (fw/apps.h, workload.kind=commtest) on a few fake nodes:
// every phase runs, every byte checks out (verified = 1), its measurements are
// exported, a corrupted message makes it fail, and bad parameters are named.
#include "fw/apps.h"
#include "fw/msg.h"
#include "tests/fw/fw_test_support.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>

using namespace starfish::fwtest;

namespace {

std::unique_ptr<FakeMachine> commtest_machine(const FakeOptions &o) {
    auto fm = make_machine(o);
    fm->set_int("commtest.queued_puts", 6000);
    fm->set_int("commtest.queued_gets", 1500);
    fm->set_string("commtest.sweep_words", "1,50,300");
    for (unsigned i = 0; i < fm->node_count(); ++i) {
        bool cp = i < o.cp_count;
        fm->spawn(i, cp ? fw_commtest_cp_main : fw_commtest_iop_main, cp ? "cp_main" : "iop_main");
    }
    return fm;
}

uint64_t get(const FakeMachine &fm, unsigned node, const std::string &name) {
    auto it = fm.exports(node).find(name);
    return it == fm.exports(node).end() ? ~0ull : it->second;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fw_commtest)

BOOST_AUTO_TEST_CASE(runs_every_phase_and_verifies_every_byte) {
    // Interrupts before register accesses, after them, and also at hal_cycles: the
    // same results must verify (timings differ).
    for (int mode = 2; mode >= 0; --mode) {
        FakeOptions o;
        o.cp_count = 3;
        o.iop_count = 3;
        o.tx_queue_depth = 2;
        o.irq_after_access = mode == 1;
        o.sync_on_cycles = mode == 2;
        auto fm = commtest_machine(o);
        BOOST_TEST_REQUIRE(fm->run(), fm->failure());
        BOOST_TEST(get(*fm, 0, "commtest.verified") == 1u);
        if (mode > 0) {
            continue;
        }
        BOOST_TEST(fm->spawned_threads_finished());
        BOOST_TEST(get(*fm, 0, "commtest.verified") == 1u);
        uint64_t puts = 0, batches = 0;
        for (unsigned i = 0; i < 6; ++i) {
            BOOST_TEST_CONTEXT("node " << i) {
                BOOST_TEST(get(*fm, i, "commtest.node_ok") == 1u);
                BOOST_TEST(get(*fm, i, "commtest.errors") == 0u);
                puts += get(*fm, i, "commtest.queued.puts");
                batches += get(*fm, i, "commtest.batches_sent");
            }
        }
        BOOST_TEST(puts == 6000u);
        BOOST_TEST(batches > 30u);
        // auto pairs: CP0-CP1, CP0-IOP0, IOP0-last IOP.
        for (const char *name :
             {"commtest.pingpong.0-1.rtt_cycles", "commtest.pingpong.0-3.rtt_cycles"}) {
            BOOST_TEST(get(*fm, 0, name) > 100u);
            BOOST_TEST(get(*fm, 0, name) < 10000u);
        }
        BOOST_TEST(get(*fm, 3, "commtest.pingpong.3-5.rtt_cycles") > 100u);
        // The sweep runs on the first IOP against the first CP: bigger costs more.
        uint64_t put1 = get(*fm, 3, "commtest.memput.1w.cycles");
        uint64_t put50 = get(*fm, 3, "commtest.memput.50w.cycles");
        uint64_t put300 = get(*fm, 3, "commtest.memput.300w.cycles");
        BOOST_TEST(put1 > 200u);
        BOOST_TEST(put1 < put50);
        BOOST_TEST(put50 < put300);
        BOOST_TEST(get(*fm, 3, "commtest.memget.50w.cycles") >
                   get(*fm, 3, "commtest.memget.1w.cycles"));
        BOOST_TEST(get(*fm, 0, "commtest.echo.50w.cycles") > 0u);
        BOOST_TEST(get(*fm, 0, "commtest.barrier.6_nodes.cycles") > 0u);
    }
}

// The paper machine (16 CPs + 16 IOPs) with every commtest default, 10^5 queued
// Memputs included.
BOOST_AUTO_TEST_CASE(paper_machine_with_defaults) {
    FakeOptions o;
    o.cp_count = 16;
    o.iop_count = 16;
    o.memory_bytes = 8u << 20;
    auto fm = make_machine(o);
    for (unsigned i = 0; i < 32; ++i) {
        fm->spawn(i, i < 16 ? fw_commtest_cp_main : fw_commtest_iop_main, "main");
    }
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(get(*fm, 0, "commtest.verified") == 1u);
    uint64_t puts = 0;
    for (unsigned i = 0; i < 32; ++i) {
        puts += get(*fm, i, "commtest.queued.puts");
    }
    BOOST_TEST(puts == 100000u);
    BOOST_TEST(get(*fm, 0, "commtest.barrier.32_nodes.cycles") > 0u);
    BOOST_TEST(get(*fm, 16, "commtest.memput.2000w.cycles") >
               get(*fm, 16, "commtest.memput.1w.cycles"));
}

BOOST_AUTO_TEST_CASE(two_nodes_and_explicit_pairs) {
    FakeOptions o;
    o.cp_count = 1;
    o.iop_count = 1;
    auto fm = commtest_machine(o);
    fm->set_string("commtest.pingpong_pairs", "1:0,0:1");
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(get(*fm, 0, "commtest.verified") == 1u);
    BOOST_TEST(get(*fm, 1, "commtest.pingpong.1-0.rtt_cycles") > 0u);
    BOOST_TEST(get(*fm, 0, "commtest.pingpong.0-1.rtt_cycles") > 0u);
}

// Corrupt the n-th message body sent, for every n: whatever the message (Memput,
// Memget reply, echo, queued batch or its reply, verdict), the run is never
// reported verified (it either fails on a malformed batch or finds wrong bytes).
BOOST_AUTO_TEST_CASE(corrupted_messages_are_not_verified) {
    FakeOptions o;
    o.cp_count = 2;
    o.iop_count = 2;
    uint64_t bodies = 0;
    {
        auto fm = commtest_machine(o);
        BOOST_TEST_REQUIRE(fm->run(), fm->failure());
        bodies = fm->bodies_sent();
    }
    BOOST_TEST(bodies > 50u);
    std::map<int, int> caught_by_type;
    for (uint64_t nth = 1; nth <= bodies; ++nth) {
        o.corrupt_body_nth = nth;
        auto fm = commtest_machine(o);
        bool caught = !fm->run() || get(*fm, 0, "commtest.verified") == 0u;
        BOOST_TEST_CONTEXT("corrupt body " << nth << " of type " << fm->corrupted_type()) {
            BOOST_TEST(caught);
        }
        caught_by_type[fm->corrupted_type()] += caught;
    }
    // Every kind of body was among them.
    for (int type : {int(FW_MSG_MEMPUT), int(FW_MSG_REPLY), int(FW_MSG_QPUT), int(FW_MSG_QGET),
                     int(FW_MSG_TYPE_USER) + 1}) {
        BOOST_TEST(caught_by_type[type] > 0, "type " << type);
    }
}

BOOST_AUTO_TEST_CASE(bad_pairs_are_named) {
    FakeOptions o;
    auto fm = commtest_machine(o);
    fm->set_string("commtest.pingpong_pairs", "0:9");
    BOOST_TEST(!fm->run());
    BOOST_TEST(fm->failure().find("commtest.pingpong_pairs") != std::string::npos, fm->failure());
}

BOOST_AUTO_TEST_SUITE_END()
