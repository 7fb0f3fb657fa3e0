// The dissemination-barrier state machine (fw/barrier.h) on its own: any member
// count, messages delivered in random order (including early, from the next
// episode), repeated episodes, and the errors it reports.
#include "fw/barrier.h"
#include "hw/rng.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace {

struct Msg {
    uint32_t from, to, epoch, round;
};

struct Outcome {
    std::string error;
    uint64_t messages = 0;
    uint32_t completions = 0;
};

// n members run `episodes` barriers; at each step either a member enters its next
// episode or a random in-flight message is delivered.
Outcome simulate(uint32_t n, uint32_t episodes, uint64_t seed) {
    Outcome out;
    hw_rng rng;
    hw_rng_seed(&rng, seed);
    std::vector<fw_barrier_sm_t> sm(n);
    std::vector<uint32_t> done(n, 0);   // episodes completed
    std::vector<bool> inside(n, false); // between enter and completion
    std::vector<uint32_t> entered(episodes + 1, 0);
    std::vector<Msg> flight;
    for (uint32_t i = 0; i < n; ++i) {
        fw_barrier_sm_reset(&sm[i]);
        if (const char *e = fw_barrier_sm_configure(&sm[i], n, i)) {
            out.error = e;
            return out;
        }
    }
    auto act = [&](uint32_t i, const fw_barrier_out_t &o) {
        if (o.error != nullptr) {
            out.error = o.error;
            return;
        }
        for (uint32_t k = 0; k < o.sends; ++k) {
            flight.push_back({i, o.to[k], o.epoch, o.round[k]});
        }
        if (o.complete) {
            uint32_t e = done[i];
            if (entered[e] != n) {
                out.error = "member " + std::to_string(i) + " left episode " + std::to_string(e) +
                            " before everyone entered";
            }
            done[i]++;
            inside[i] = false;
            out.completions++;
        }
    };
    for (uint64_t steps = 0; out.error.empty() && steps < 10000000; ++steps) {
        std::vector<uint32_t> can_enter;
        for (uint32_t i = 0; i < n; ++i) {
            if (!inside[i] && done[i] < episodes) {
                can_enter.push_back(i);
            }
        }
        if (can_enter.empty() && flight.empty()) {
            break;
        }
        uint64_t choice = hw_rng_below(&rng, can_enter.size() + flight.size());
        fw_barrier_out_t o;
        if (choice < can_enter.size()) {
            uint32_t i = can_enter[choice];
            inside[i] = true;
            entered[done[i]]++;
            fw_barrier_sm_enter(&sm[i], &o);
            act(i, o);
        } else {
            size_t k = choice - can_enter.size();
            Msg msg = flight[k];
            flight[k] = flight.back();
            flight.pop_back();
            out.messages++;
            if (fw_barrier_sm_sender(&sm[msg.to], msg.round) != msg.from) {
                out.error = "message from an unexpected sender";
                break;
            }
            fw_barrier_sm_receive(&sm[msg.to], msg.epoch, msg.round, &o);
            act(msg.to, o);
        }
    }
    for (uint32_t i = 0; i < n && out.error.empty(); ++i) {
        if (done[i] != episodes) {
            out.error = "member " + std::to_string(i) + " stuck after " + std::to_string(done[i]) +
                        " episodes";
        }
    }
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fw_barrier_state_machine)

BOOST_AUTO_TEST_CASE(rounds_are_ceil_log2) {
    BOOST_TEST(fw_barrier_sm_rounds(1) == 0u);
    BOOST_TEST(fw_barrier_sm_rounds(2) == 1u);
    BOOST_TEST(fw_barrier_sm_rounds(3) == 2u);
    BOOST_TEST(fw_barrier_sm_rounds(32) == 5u);
    BOOST_TEST(fw_barrier_sm_rounds(33) == 6u);
}

BOOST_AUTO_TEST_CASE(any_member_count_any_delivery_order_repeated_episodes) {
    for (uint32_t n = 1; n <= 33; ++n) {
        for (uint64_t seed = 1; seed <= 4; ++seed) {
            BOOST_TEST_CONTEXT("n=" << n << " seed=" << seed) {
                Outcome o = simulate(n, 6, seed * 1000 + n);
                BOOST_TEST(o.error.empty(), o.error);
                BOOST_TEST(o.completions == 6 * n);
                BOOST_TEST(o.messages == 6ull * n * fw_barrier_sm_rounds(n));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_single_member_completes_at_once) {
    fw_barrier_sm_t s;
    fw_barrier_sm_reset(&s);
    BOOST_TEST(fw_barrier_sm_configure(&s, 1, 0) == nullptr);
    fw_barrier_out_t o;
    fw_barrier_sm_enter(&s, &o);
    BOOST_TEST(o.complete);
    BOOST_TEST(o.sends == 0u);
    BOOST_TEST(s.epoch == 1u);
}

BOOST_AUTO_TEST_CASE(early_arrivals_before_configuration_are_kept) {
    // Member 0 of 4 hears from member 3 (round 0) and member 2 (round 1) before it
    // knows the membership; when it enters it runs straight through.
    fw_barrier_sm_t s;
    fw_barrier_sm_reset(&s);
    fw_barrier_out_t o;
    fw_barrier_sm_receive(&s, 0, 0, &o);
    BOOST_TEST(o.error == nullptr);
    fw_barrier_sm_receive(&s, 0, 1, &o);
    BOOST_TEST(!o.complete);
    BOOST_TEST(fw_barrier_sm_configure(&s, 4, 0) == nullptr);
    fw_barrier_sm_enter(&s, &o);
    BOOST_TEST(o.complete);
    BOOST_TEST(o.sends == 2u);
    BOOST_TEST(o.to[0] == 1u);
    BOOST_TEST(o.to[1] == 2u);
    BOOST_TEST(o.round[1] == 1u);
}

BOOST_AUTO_TEST_CASE(impossible_messages_are_reported) {
    fw_barrier_sm_t s;
    fw_barrier_out_t o;
    fw_barrier_sm_reset(&s);
    fw_barrier_sm_configure(&s, 4, 1);
    fw_barrier_sm_receive(&s, 2, 0, &o); // two episodes ahead
    BOOST_TEST(o.error != nullptr);
    fw_barrier_sm_receive(&s, 0, 2, &o); // round 2 of a 2-round barrier
    BOOST_TEST(o.error != nullptr);
    fw_barrier_sm_receive(&s, 0, 0, &o);
    BOOST_TEST(o.error == nullptr);
    fw_barrier_sm_receive(&s, 0, 0, &o); // duplicate
    BOOST_TEST(o.error != nullptr);
    fw_barrier_sm_enter(&s, &o);
    BOOST_TEST(o.error == nullptr);
    fw_barrier_sm_enter(&s, &o); // twice without completing
    BOOST_TEST(o.error != nullptr);

    fw_barrier_sm_reset(&s);
    fw_barrier_sm_enter(&s, &o); // before configuration
    BOOST_TEST(o.error != nullptr);
    fw_barrier_sm_receive(&s, 0, 3, &o);
    BOOST_TEST(fw_barrier_sm_configure(&s, 4, 0) != nullptr); // round 3 does not exist for 4
    BOOST_TEST(fw_barrier_sm_configure(&s, 0, 0) != nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
