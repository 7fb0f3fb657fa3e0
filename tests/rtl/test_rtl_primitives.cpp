// The RTL primitives (rtl/common/), verilated, cycle by cycle against reference
// models of their contract on random stimuli: the round-robin arbiter grants the
// first requester after the one granted last (the rotation of docs/network.md's
// link arbitration and VC allocation), and the FIFO keeps order, counts, and
// flags every push into a full buffer or pop from an empty one.
#include "Vrr_arbiter5.h"
#include "Vsync_fifo3.h"

#include "hw/rng.h"

#include <boost/test/unit_test.hpp>

#include <deque>
#include <verilated.h>

namespace {

constexpr int kRequesters = 5;    // rtl/CMakeLists.txt: -GN=5
constexpr size_t kDepth = 3;      // -GDEPTH=3
constexpr uint32_t kMask = 0xfff; // -GWIDTH=12

// Drives one clock edge: inputs are set with the clock low, outputs of the
// combinational logic checked before the edge, state after it.
template <typename Model> void clock(Model &m) {
    m.clk = 1;
    m.eval();
    m.clk = 0;
    m.eval();
}

template <typename Model> void reset(Model &m) {
    m.clk = 0;
    m.rst = 1;
    m.eval();
    clock(m);
    m.rst = 0;
    m.eval();
}

struct Rng {
    hw_rng r;
    explicit Rng(uint64_t seed) {
        hw_rng_seed(&r, hw_rng_stream_seed(seed, 0, HW_RNG_STREAM_WORKLOAD, 5));
    }
    uint32_t below(uint32_t n) { return uint32_t(hw_rng_below(&r, n)); }
};

} // namespace

BOOST_AUTO_TEST_SUITE(rtl_primitives)

BOOST_AUTO_TEST_CASE(round_robin_arbiter_grants_the_next_requester_after_the_last) {
    VerilatedContext ctx;
    Vrr_arbiter5 arb{&ctx};
    reset(arb);
    Rng rng(11);
    int last = kRequesters - 1; // after reset requester 0 has the highest priority
    int grants = 0, held = 0;
    for (int cycle = 0; cycle < 20000; ++cycle) {
        // Dense and sparse request patterns alike.
        uint32_t req =
            rng.below(4) == 0 ? (1u << rng.below(kRequesters)) : rng.below(1u << kRequesters);
        bool advance = rng.below(4) != 0;
        arb.req = req;
        arb.advance = advance;
        arb.eval();
        int expect = -1;
        for (int k = 1; k <= kRequesters && expect < 0; ++k) {
            int idx = (last + k) % kRequesters;
            if (req & (1u << idx)) {
                expect = idx;
            }
        }
        BOOST_TEST_CONTEXT("cycle " << cycle << " req " << req << " last " << last) {
            BOOST_TEST(bool(arb.any) == (expect >= 0));
            if (expect >= 0) {
                BOOST_TEST(int(arb.grant_idx) == expect);
                BOOST_TEST(uint32_t(arb.grant) == (1u << expect));
            } else {
                BOOST_TEST(uint32_t(arb.grant) == 0u);
            }
        }
        if (advance && expect >= 0) {
            last = expect;
            ++grants;
        } else if (expect >= 0) {
            ++held;
        }
        clock(arb);
    }
    // Both kinds of cycle happened often enough to mean something.
    BOOST_TEST(grants > 10000);
    BOOST_TEST(held > 3000);
    arb.final();
}

BOOST_AUTO_TEST_CASE(fifo_keeps_order_and_flags_overflow_and_underflow) {
    VerilatedContext ctx;
    Vsync_fifo3 fifo{&ctx};
    reset(fifo);
    Rng rng(12);
    std::deque<uint32_t> ref;
    bool error = false;
    int errors_seen = 0, full_seen = 0, both = 0;
    for (int cycle = 0; cycle < 20000; ++cycle) {
        BOOST_TEST_CONTEXT("cycle " << cycle) {
            BOOST_TEST(bool(fifo.empty) == ref.empty());
            BOOST_TEST(bool(fifo.full) == (ref.size() == kDepth));
            BOOST_TEST(size_t(fifo.count) == ref.size());
            BOOST_TEST(bool(fifo.error) == error);
            if (!ref.empty()) {
                BOOST_TEST(uint32_t(fifo.head) == ref.front());
            }
        }
        full_seen += ref.size() == kDepth ? 1 : 0;
        // Mostly legal traffic, now and then a push into a full buffer or a pop
        // from an empty one; the error is sticky until a reset.
        bool push = rng.below(2) != 0;
        bool pop = rng.below(2) != 0;
        uint32_t data = rng.below(kMask + 1);
        if (rng.below(50) == 0) {
            error = false;
            reset(fifo);
            ref.clear();
            continue;
        }
        fifo.push = push;
        fifo.pop = pop;
        fifo.push_data = data;
        fifo.eval();
        bool did_pop = pop && !ref.empty();
        bool did_push = push && (ref.size() < kDepth || did_pop);
        if ((push && !did_push) || (pop && !did_pop)) {
            error = true;
            ++errors_seen;
        }
        both += did_push && did_pop ? 1 : 0;
        if (did_pop) {
            ref.pop_front();
        }
        if (did_push) {
            ref.push_back(data);
        }
        clock(fifo);
        fifo.push = 0;
        fifo.pop = 0;
        fifo.eval();
    }
    BOOST_TEST(errors_seen > 100);
    BOOST_TEST(full_seen > 1000);
    BOOST_TEST(both > 1000);
    fifo.final();
}

BOOST_AUTO_TEST_SUITE_END()
