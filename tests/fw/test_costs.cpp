// The CPU cost of each Memput/Memget path comes out of cycle accounting (firmware
// charges with hal_cycles plus each HAL service's own charge) and lands on the
// published figures of docs/reference.md §2 with the registered defaults:
//   Memput call (IOP) 46-56, handler (CP) 91 + 1/word, return (IOP) 72 + wakeup;
//   Memget call (IOP) 51-66, handler (CP) 103 + DMA, return (IOP) 58 + 1/word + wakeup.
// The fake NI delivers a body with its header, so each handler path runs in one
// interrupt (docs/messaging.md: a body still in transit costs one more entry/exit).
// The NI send queue is deep enough here that no TX_FREE re-read happens (a re-read
// adds cost.reg_read_cycles; the call ranges allow for it).
#include "fw/msg.h"
#include "fw/ni.h"
#include "tests/fw/msg_env.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

using namespace starfish::fwtest;

namespace {

struct PathCost {
    uint64_t call = 0, handler = 0, ret = 0, wakeup = 0, tx_free_reads = 0;
    std::map<std::string, uint64_t> handler_parts;
};

enum class Op { Memput, Memget };

// IOP node 2 runs one operation of `words` words against CP node 0, after the
// machine has gone quiet; measures the charges of each side.
PathCost measure(Op op, uint32_t words) {
    FakeOptions o;
    o.tx_queue_depth = 64;
    auto fm = make_machine(o);
    std::vector<NodeEnv> envs;
    PathCost pc;
    FakeMachine *m = fm.get();
    spawn_all(*fm, envs, [&, m](unsigned node, NodeEnv &e) {
        if (node != 2) {
            return;
        }
        hal_sleep_cycles(e.h, 100000); // let the set-up barrier's traffic settle
        auto *buf = static_cast<uint8_t *>(hal_mem_alloc(e.h, 4 * words, 8));
        uint64_t reads0 = fw_ni_stats(fw_msg_ni(envs[0].m))->tx_free_reads +
                          fw_ni_stats(fw_msg_ni(e.m))->tx_free_reads;
        uint64_t t0 = m->charged(2, "test"), i0 = m->charged(2, "irq"), c0 = m->charged(0, "irq");
        auto parts0 = m->charges(0, "irq");
        uint64_t w0 = m->charged(2, "test", "thread_wakeup");
        fw_group_t g;
        fw_group_init(e.m, &g);
        if (op == Op::Memput) {
            fw_memput_async(e.m, 0, 0, buf, 4 * words, &g);
        } else {
            fw_memget_async(e.m, 0, 0, buf, 4 * words, &g);
        }
        pc.call = m->charged(2, "test") - t0;
        fw_group_wait(e.m, &g);
        pc.handler = m->charged(0, "irq") - c0;
        pc.ret = m->charged(2, "irq") - i0;
        pc.wakeup = m->charged(2, "test", "thread_wakeup") - w0;
        for (const auto &[cat, cycles] : m->charges(0, "irq")) {
            pc.handler_parts[cat] = cycles - parts0[cat];
        }
        pc.tx_free_reads = fw_ni_stats(fw_msg_ni(envs[0].m))->tx_free_reads +
                           fw_ni_stats(fw_msg_ni(e.m))->tx_free_reads - reads0;
    });
    if (!fm->run()) {
        BOOST_FAIL(fm->failure());
    }
    return pc;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fw_costs)

BOOST_AUTO_TEST_CASE(memput_paths_match_spec_section_2) {
    for (uint32_t w : {1u, 50u, 2048u}) {
        BOOST_TEST_CONTEXT("words " << w) {
            PathCost pc = measure(Op::Memput, w);
            BOOST_TEST(pc.tx_free_reads == 0u);
            BOOST_TEST(pc.call >= 46u);
            BOOST_TEST(pc.call <= 56u);
            BOOST_TEST(pc.call == 50u); // 36 firmware + 7 TX writes x 2
            BOOST_TEST(pc.handler == 91u + w);
            // "72 + thread wakeup": the handler that posts pays the wakeup (as on the
            // node model), the woken thread nothing.
            BOOST_TEST(pc.ret == 72u + 15u);
            BOOST_TEST(pc.wakeup == 0u);
            // Breakdown of the handler: interrupt entry/exit, 12 register writes
            // (4 receive, 1 pop of the DONE record, 7 for the ack), firmware.
            BOOST_TEST(pc.handler_parts["irq_entry"] == 20u);
            BOOST_TEST(pc.handler_parts["irq_exit"] == 10u);
            BOOST_TEST(pc.handler_parts["reg_write"] == 24u);
            BOOST_TEST(pc.handler_parts["reg_read"] == 0u);
            BOOST_TEST(pc.handler_parts["fw"] == 37u + w);
        }
    }
}

BOOST_AUTO_TEST_CASE(memget_paths_match_spec_section_2) {
    for (uint32_t w : {1u, 50u, 2048u}) {
        BOOST_TEST_CONTEXT("words " << w) {
            PathCost pc = measure(Op::Memget, w);
            BOOST_TEST(pc.tx_free_reads == 0u);
            BOOST_TEST(pc.call >= 51u);
            BOOST_TEST(pc.call <= 66u);
            BOOST_TEST(pc.call == 58u);          // 44 firmware + 7 TX writes x 2
            BOOST_TEST(pc.handler == 103u);      // the data leaves by background DMA
            BOOST_TEST(pc.ret == 58u + w + 15u); // "+ 1/word + wakeup", paid by the handler
            BOOST_TEST(pc.wakeup == 0u);
            BOOST_TEST(pc.handler_parts["reg_write"] == 16u);
            BOOST_TEST(pc.handler_parts["fw"] == 57u);
        }
    }
}

// The costs are parameters: doubling one firmware part moves exactly that path.
BOOST_AUTO_TEST_CASE(firmware_parts_come_from_the_configuration) {
    FakeOptions o;
    o.tx_queue_depth = 64;
    auto fm = make_machine(o);
    fm->set_int("cost.msg_memput_return_cycles", 2 * fw_param("cost.msg_memput_return_cycles"));
    fm->set_int("cost.reg_write_cycles", 3);
    std::vector<NodeEnv> envs;
    uint64_t call = 0, ret = 0;
    FakeMachine *m = fm.get();
    spawn_all(*fm, envs, [&, m](unsigned node, NodeEnv &e) {
        if (node != 2) {
            return;
        }
        hal_sleep_cycles(e.h, 100000);
        auto *buf = static_cast<uint8_t *>(hal_mem_alloc(e.h, 4, 8));
        uint64_t t0 = m->charged(2, "test"), i0 = m->charged(2, "irq");
        fw_group_t g;
        fw_group_init(e.m, &g);
        fw_memput_async(e.m, 0, 0, buf, 4, &g);
        call = m->charged(2, "test") - t0;
        fw_group_wait(e.m, &g);
        ret = m->charged(2, "irq") - i0;
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(call == 36u + 7u * 3u);
    // Return part doubled, one RX_POP write 1 cycle dearer, and the wakeup it pays.
    BOOST_TEST(ret == 72u + 32u + 1u + 15u);
}

// A queued-Memput batch of ten 8-byte pieces: the sender pays per piece and one
// Memput call for the batch; the receiver pays the Memput handler for the batch
// message plus, per piece, cost.msg_queue_piece_cycles and the copy per word.
BOOST_AUTO_TEST_CASE(queued_batch_costs_per_piece_and_per_word) {
    FakeOptions o;
    o.tx_queue_depth = 64;
    auto fm = make_machine(o);
    std::vector<NodeEnv> envs;
    uint64_t pack = 0, flush = 0, handler = 0;
    FakeMachine *m = fm.get();
    spawn_all(*fm, envs, [&, m](unsigned node, NodeEnv &e) {
        if (node != 2) {
            return;
        }
        hal_sleep_cycles(e.h, 100000);
        uint8_t piece[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        // The first batch to a peer allocates its buffers (cost.mem_alloc_cycles on
        // both sides); measure a later one.
        fw_qput(e.m, 0, 0, piece, 8, nullptr);
        fw_q_wait_all(e.m);
        uint64_t t0 = m->charged(2, "test"), c0 = m->charged(0, "irq");
        for (uint32_t i = 0; i < 10; ++i) {
            fw_qput(e.m, 0, i * 8, piece, 8, nullptr);
        }
        pack = m->charged(2, "test") - t0;
        fw_q_flush(e.m);
        flush = m->charged(2, "test") - t0 - pack;
        fw_q_wait_all(e.m);
        handler = m->charged(0, "irq") - c0;
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    const uint64_t piece = fw_param("cost.msg_queue_piece_cycles");
    const uint64_t copy = fw_param("cost.copy_word_cycles");
    BOOST_TEST(pack == 10 * (piece + 2 * copy));
    BOOST_TEST(flush == 50u); // one Memput call: 36 + 7 x 2
    // Batch body: 10 x (8-byte piece header + 8 data) = 160 bytes = 40 words.
    BOOST_TEST(handler == 91u + 40u + 10 * (piece + 2 * copy));
}

// One barrier over 32 nodes, per node: entering (a step, the round-0 send, the
// wait and the wakeup) in the thread, and per received message a state-machine
// step, the record and its pop, the next round's send (7 TX writes) when the
// episode goes on, and at completion one semaphore post. Messages that arrive
// together share one interrupt entry/exit: 30 cycles per interrupt, 1 to 5 of them.
BOOST_AUTO_TEST_CASE(barrier_over_32_nodes_costs_per_node) {
    FakeOptions o;
    o.cp_count = 16;
    o.iop_count = 16;
    o.tx_queue_depth = 64;
    auto fm = make_machine(o);
    std::vector<NodeEnv> envs;
    std::vector<uint64_t> thread(32), irq(32), irqs(32);
    FakeMachine *m = fm.get();
    spawn_all(*fm, envs, [&, m](unsigned node, NodeEnv &e) {
        hal_sleep_cycles(e.h, 100000);
        uint64_t t0 = m->charged(node, "test"), i0 = m->charged(node, "irq");
        uint64_t n0 = m->interrupts(node, 0);
        fw_msg_barrier_wait(e.m, e.all);
        thread[node] = m->charged(node, "test") - t0;
        irq[node] = m->charged(node, "irq") - i0;
        irqs[node] = m->interrupts(node, 0) - n0;
        hal_sleep_cycles(e.h, 100000); // let the last messages land before anyone measures
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    const uint64_t step = fw_param("cost.msg_barrier_step_cycles");
    const uint64_t rx = fw_param("cost.msg_rx_record_cycles");
    for (unsigned n = 0; n < 32; ++n) {
        BOOST_TEST_CONTEXT("node " << n) {
            // sem_wait 5 (no other thread ran: no context switch)
            BOOST_TEST(thread[n] == step + 14 + 5);
            BOOST_TEST(irqs[n] >= 1u);
            BOOST_TEST(irqs[n] <= 5u);
            // ... and the handler that completes the barrier pays its post and wakeup.
            BOOST_TEST(irq[n] == 30 * irqs[n] + 5 * (step + rx + 2) + 4 * 14 + 5 + 15);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
