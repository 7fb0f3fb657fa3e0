// The messaging library (fw/msg.h) end to end on the fake HAL: Memput/Memget
// byte-exact, reply actions of requests, services and interrupt-level handlers,
// errors, multicast, barriers over messages, and the NI driver's software send
// queue under a full NI send queue.
#include "fw/msg.h"
#include "fw/ni.h"
#include "tests/fw/msg_env.h"
#include "tests/fw/msg_system_probe.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

using namespace starfish::fwtest;

namespace {

const uint32_t kSizes[] = {1, 2, 3, 4, 5, 7, 63, 64, 200, 1001, 4096, 8192, 20000};

void fill(uint8_t *p, uint32_t n, uint32_t seed) {
    for (uint32_t i = 0; i < n; ++i) {
        p[i] = pattern_byte(seed, i);
    }
}

bool same(const uint8_t *p, uint32_t n, uint32_t seed) {
    for (uint32_t i = 0; i < n; ++i) {
        if (p[i] != pattern_byte(seed, i)) {
            return false;
        }
    }
    return true;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fw_messaging)

BOOST_AUTO_TEST_CASE(memput_and_memget_are_byte_exact_for_odd_sizes) {
    for (int mode = 0; mode < 3; ++mode) {
        const bool after = mode == 1;       // interrupts after register accesses
        const bool cycles_sync = mode == 2; // and at hal_cycles
        FakeOptions o;
        o.irq_after_access = after;
        o.sync_on_cycles = cycles_sync;
        auto fm = make_machine(o);
        std::vector<NodeEnv> envs;
        std::vector<int> bad;
        int checked = 0;
        spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
            if (node != 2) {
                return;
            }
            auto *src = static_cast<uint8_t *>(hal_mem_alloc(e.h, 20000, 8));
            auto *dst = static_cast<uint8_t *>(hal_mem_alloc(e.h, 20000, 8));
            uint32_t offset = 3;
            for (uint32_t size : kSizes) {
                fill(src, size, size);
                if (fw_memput(e.m, 0, offset, src, size) != FW_MSG_OK) {
                    bad.push_back(static_cast<int>(size));
                }
                std::memset(dst, 0, size);
                if (fw_memget(e.m, 0, offset, dst, size) != FW_MSG_OK || !same(dst, size, size)) {
                    bad.push_back(-static_cast<int>(size));
                }
                ++checked;
            }
        });
        BOOST_TEST_REQUIRE(fm->run(), fm->failure());
        BOOST_TEST(fm->spawned_threads_finished());
        BOOST_TEST(bad.empty());
        BOOST_TEST(checked == static_cast<int>(std::size(kSizes)));
        // The last Memput is in CP 0's base, untouched around it.
        uint8_t *cp_base = envs[0].base;
        BOOST_TEST(cp_base[2] == 0);
        BOOST_TEST(same(cp_base + 3, 20000, 20000));
        BOOST_TEST(cp_base[3 + 20000] == 0);
    }
}

// A traced node's Memput and Memget each write one BEGIN and one END note with the
// same id, in that order, with the fields the log documents; an untraced node
// writes none and behaves the same to the cycle.
BOOST_AUTO_TEST_CASE(traced_memput_and_memget_write_paired_notes) {
    uint64_t finish[2] = {};
    for (int traced = 0; traced < 2; ++traced) {
        auto fm = make_machine(FakeOptions());
        if (traced) {
            fm->set_observed(2);
        }
        std::vector<NodeEnv> envs;
        spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
            if (node != 2) {
                return;
            }
            auto *buf = static_cast<uint8_t *>(hal_mem_alloc(e.h, 4096, 8));
            fill(buf, 4096, 5);
            for (uint32_t size : {8u, 4096u}) {
                BOOST_TEST(fw_memput(e.m, 1, 16, buf, size) == FW_MSG_OK);
                BOOST_TEST(fw_memget(e.m, 1, 16, buf, size) == FW_MSG_OK);
            }
        });
        BOOST_TEST_REQUIRE(fm->run(), fm->failure());
        finish[traced] = fm->now(2);
        BOOST_TEST(fm->notes(0).empty());
        const auto &notes = fm->notes(2);
        if (!traced) {
            BOOST_TEST(notes.empty());
            continue;
        }
        BOOST_TEST_REQUIRE(notes.size() == 8u);
        const char *ops[] = {"MEMPUT", "MEMGET"};
        for (size_t i = 0; i < notes.size(); i += 2) {
            const auto &b = notes[i], &e = notes[i + 1];
            BOOST_TEST(b.op == ops[(i / 2) % 2]);
            BOOST_TEST(e.op == b.op);
            BOOST_TEST(b.dir == HAL_NOTE_BEGIN);
            BOOST_TEST(e.dir == HAL_NOTE_END);
            BOOST_TEST(b.id == e.id);
            BOOST_TEST(b.id == i / 2 + 1);
            BOOST_TEST(e.cycle > b.cycle);
            uint32_t size = i < 4 ? 8 : 4096;
            BOOST_TEST(b.fields == "src=2 dst=1 offset=16 bytes=" + std::to_string(size));
            BOOST_TEST(e.fields == "status=0");
        }
    }
    BOOST_TEST(finish[0] == finish[1]);
}

// A service that echoes its request body, reversed, with status = node id and
// args (arg0 + 1, arg1 * 2, body bytes).
constexpr unsigned kEcho = FW_MSG_TYPE_USER + 1;
constexpr unsigned kPing = FW_MSG_TYPE_USER + 2;

void echo_service(fw_msg_t *m, const fw_request_t *req, void *) {
    hal_t *h = fw_msg_hal(m);
    uint8_t *out = nullptr;
    if (req->body_bytes > 0) {
        out = static_cast<uint8_t *>(hal_mem_alloc(h, req->body_bytes, 8));
        const auto *in = static_cast<const uint8_t *>(req->body);
        for (uint32_t i = 0; i < req->body_bytes; ++i) {
            out[i] = in[req->body_bytes - 1 - i];
        }
    }
    uint32_t args[FW_MSG_ARGS] = {req->hdr.arg[0] + 1, req->hdr.arg[1] * 2, req->body_bytes};
    fw_msg_reply(m, req, static_cast<int32_t>(hal_node_id(h)), args, out, req->body_bytes);
    hal_mem_free(h, out);
}

void ping_handler(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, void *) {
    uint32_t args[FW_MSG_ARGS] = {hdr->arg[0], src, 7};
    fw_msg_reply_inline(m, src, hdr, FW_MSG_OK, args);
}

void register_echo(NodeEnv &e) {
    fw_msg_register_service(e.m, kEcho, echo_service, nullptr);
    fw_msg_register_handler(e.m, kPing, ping_handler, nullptr);
}

BOOST_AUTO_TEST_CASE(reply_actions_deliver_body_status_and_arguments) {
    auto fm = make_machine();
    std::vector<NodeEnv> envs;
    std::vector<std::string> errors;
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        register_echo(e);
        fw_msg_barrier_wait(e.m, e.all); // services registered everywhere
        if (node != 0) {
            return;
        }
        auto *body = static_cast<uint8_t *>(hal_mem_alloc(e.h, 3000, 8));
        auto *reply = static_cast<uint8_t *>(hal_mem_alloc(e.h, 4 * 3000, 8));
        fill(body, 3000, 99);
        // Blocking request to a service in a server thread.
        fw_reply_t r{};
        uint32_t args[FW_MSG_ARGS] = {10, 20, 0};
        int st = fw_msg_request(e.m, 2, kEcho, args, body, 777, reply, 3000, &r);
        if (st != 2 || r.status != 2 || r.bytes != 777 || r.src != 2 || r.arg[0] != 11 ||
            r.arg[1] != 40 || r.arg[2] != 777) {
            errors.push_back("blocking request result");
        }
        for (uint32_t i = 0; i < 777; ++i) {
            if (reply[i] != body[776 - i]) {
                errors.push_back("blocking request body");
                break;
            }
        }
        // Concurrent requests to every other node, one group; each reply lands in its
        // own buffer and result.
        fw_group_t g;
        fw_group_init(e.m, &g);
        fw_reply_t results[3] = {};
        for (unsigned k = 1; k < 4; ++k) {
            uint32_t a[FW_MSG_ARGS] = {k, k, 0};
            fw_msg_request_async(e.m, k, kEcho, a, body, 1000 * k, reply + 3000 * k, 3000,
                                 &results[k - 1], &g);
        }
        int gst = fw_group_wait(e.m, &g);
        if (gst != 2 && gst != 1 && gst != 3) {
            errors.push_back("group status should be the first reply's status");
        }
        for (unsigned k = 1; k < 4; ++k) {
            const fw_reply_t &rk = results[k - 1];
            if (rk.status != static_cast<int32_t>(k) || rk.bytes != 1000 * k || rk.src != k ||
                rk.arg[0] != k + 1 || rk.arg[1] != 2 * k) {
                errors.push_back("async result " + std::to_string(k));
            }
            for (uint32_t i = 0; i < 1000 * k; ++i) {
                if (reply[3000 * k + i] != body[1000 * k - 1 - i]) {
                    errors.push_back("async body " + std::to_string(k));
                    break;
                }
            }
        }
        // Interrupt-level handler: a header-only round trip.
        uint32_t pa[FW_MSG_ARGS] = {1234, 0, 0};
        st = fw_msg_request(e.m, 3, kPing, pa, nullptr, 0, nullptr, 0, &r);
        if (st != FW_MSG_OK || r.arg[0] != 1234 || r.arg[1] != 0 || r.arg[2] != 7 || r.bytes != 0) {
            errors.push_back("ping");
        }
        // A reply larger than its buffer is discarded with FW_MSG_ETOOBIG.
        st = fw_msg_request(e.m, 1, kEcho, args, body, 500, reply, 499, &r);
        if (st != FW_MSG_ETOOBIG || r.bytes != 0) {
            errors.push_back("too big");
        }
        // A one-way message (no reply wanted) returns once the body has left.
        fw_msg_send(e.m, 1, kEcho, args, body, 100);
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(fm->spawned_threads_finished());
    BOOST_TEST(errors.empty(), (errors.empty() ? "" : errors.front()));
}

BOOST_AUTO_TEST_CASE(outside_the_base_is_an_error_status_not_corruption) {
    auto fm = make_machine();
    std::vector<NodeEnv> envs;
    std::vector<int> st;
    spawn_all(
        *fm, envs,
        [&](unsigned node, NodeEnv &e) {
            if (node != 2) {
                return;
            }
            auto *buf = static_cast<uint8_t *>(hal_mem_alloc(e.h, 64, 8));
            std::memset(buf, 0xab, 64);
            st.push_back(fw_memput(e.m, 0, 1000, buf, 25)); // 1000 + 25 > 1024
            st.push_back(fw_memget(e.m, 0, 1020, buf, 8));  // past the end
            st.push_back(fw_memput(e.m, 0, 1000, buf, 24)); // exactly fits
            fw_group_t g;
            fw_group_init(e.m, &g);
            fw_memput_async(e.m, 1, 0, buf, 64, &g);
            fw_memput_async(e.m, 1, 4000, buf, 64, &g);
            fw_memget_async(e.m, 3, 0, buf, 16, &g);
            st.push_back(fw_group_wait(e.m, &g));
            st.push_back(static_cast<int>(g.errors));
        },
        1024);
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(st == (std::vector<int>{FW_MSG_ERANGE, FW_MSG_ERANGE, FW_MSG_OK, FW_MSG_ERANGE, 1}),
               boost::test_tools::per_element());
    BOOST_TEST(envs[0].base[999] == 0);
    BOOST_TEST(envs[0].base[1000] == 0xab);
    BOOST_TEST(envs[0].base[1023] == 0xab);
}

// Many concurrent Memputs from one thread through an NI send queue of one slot:
// sends wait in the software queue, handlers send acknowledgements in between,
// and everything arrives intact and in order.
BOOST_AUTO_TEST_CASE(software_send_queue_under_a_full_ni_queue) {
    for (int mode = 0; mode < 3; ++mode) {
        const bool after = mode == 1;       // interrupts after register accesses
        const bool cycles_sync = mode == 2; // and at hal_cycles
        FakeOptions o;
        o.tx_queue_depth = 1;
        o.irq_after_access = after;
        o.sync_on_cycles = cycles_sync;
        auto fm = make_machine(o);
        std::vector<NodeEnv> envs;
        std::vector<std::string> errors;
        uint64_t queued = 0, peak = 0;
        spawn_all(
            *fm, envs,
            [&](unsigned node, NodeEnv &e) {
                auto *src = static_cast<uint8_t *>(hal_mem_alloc(e.h, 40 * 500, 8));
                fill(src, 40 * 500, node + 1);
                fw_group_t g;
                fw_group_init(e.m, &g);
                // Every node sends 40 pieces of 500 bytes to every other node's slice.
                for (unsigned k = 0; k < 40; ++k) {
                    for (unsigned peer = 0; peer < 4; ++peer) {
                        if (peer != node) {
                            fw_memput_async(e.m, peer, node * 20000 + k * 500, src + k * 500, 500,
                                            &g);
                        }
                    }
                }
                if (fw_group_wait(e.m, &g) != FW_MSG_OK) {
                    errors.push_back("status");
                }
                fw_msg_barrier_wait(e.m, e.all);
                for (unsigned peer = 0; peer < 4; ++peer) {
                    if (peer != node && !same(e.base + peer * 20000, 40 * 500, peer + 1)) {
                        errors.push_back("data from " + std::to_string(peer));
                    }
                }
                const fw_ni_stats_t *ns = fw_ni_stats(fw_msg_ni(e.m));
                queued += ns->queued;
                peak = std::max<uint64_t>(peak, ns->queue_peak);
            },
            80000);
        BOOST_TEST_REQUIRE(fm->run(), fm->failure());
        BOOST_TEST(fm->spawned_threads_finished());
        BOOST_TEST(errors.empty(), (errors.empty() ? "" : errors.front()));
        BOOST_TEST(queued > 100u);
        BOOST_TEST(peak > 10u);
        BOOST_TEST(fm->tx_queue_full_pushes() > 100u);
    }
}

// Bodies that arrive after their HEADER record (DONE in a later interrupt), and a
// two-slot receive ring that holds messages back in the network.
BOOST_AUTO_TEST_CASE(late_bodies_and_a_tiny_receive_ring) {
    FakeOptions o;
    o.body_delay_cycles = 300;
    auto fm = make_machine(o);
    fm->set_int("msg.rx_ring_slots", 2);
    std::vector<NodeEnv> envs;
    std::vector<std::string> errors;
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        auto *src = static_cast<uint8_t *>(hal_mem_alloc(e.h, 4000, 8));
        fill(src, 4000, node + 7);
        fw_group_t g;
        fw_group_init(e.m, &g);
        for (unsigned k = 0; k < 10; ++k) {
            fw_memput_async(e.m, 0, node * 4000 + k * 400, src + k * 400, 400, &g);
        }
        fw_group_wait(e.m, &g);
        fw_msg_barrier_wait(e.m, e.all);
        if (node == 0) {
            for (unsigned p = 1; p < 4; ++p) {
                if (!same(e.base + p * 4000, 4000, p + 7)) {
                    errors.push_back("data from " + std::to_string(p));
                }
            }
        }
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(errors.empty(), (errors.empty() ? "" : errors.front()));
    BOOST_TEST(fm->held_messages() > 0u);
}

BOOST_AUTO_TEST_CASE(multicast_request_reaches_every_listed_node) {
    auto fm = make_machine();
    std::vector<NodeEnv> envs;
    std::vector<std::string> errors;
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        register_echo(e);
        fw_msg_barrier_wait(e.m, e.all);
        if (node != 1) {
            return;
        }
        auto *body = static_cast<uint8_t *>(hal_mem_alloc(e.h, 64, 8));
        fill(body, 64, 5);
        unsigned dests[3] = {3, 0, 2};
        fw_reply_t results[3] = {};
        fw_group_t g;
        fw_group_init(e.m, &g);
        uint32_t args[FW_MSG_ARGS] = {41, 1, 0};
        fw_msg_multicast(e.m, dests, 3, kEcho, args, body, 64, results, &g);
        fw_group_wait(e.m, &g);
        for (unsigned i = 0; i < 3; ++i) {
            // The echo's reply has a body but multicast replies have no buffer.
            if (results[i].src != dests[i] || results[i].status != FW_MSG_ETOOBIG ||
                results[i].arg[0] != 42) {
                errors.push_back("result " + std::to_string(i));
            }
        }
        fw_msg_multicast(e.m, dests, 3, kPing, args, nullptr, 0, results, &g);
        fw_group_wait(e.m, &g);
        for (unsigned i = 0; i < 3; ++i) {
            if (results[i].src != dests[i] || results[i].status != FW_MSG_OK ||
                results[i].arg[1] != 1) {
                errors.push_back("ping result " + std::to_string(i));
            }
        }
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(errors.empty(), (errors.empty() ? "" : errors.front()));
}

// Each IOP's answer to a request of every IOP: it counts the requests whose body
// is intact and answers with the status the test sets for it.
constexpr unsigned kTally = FW_MSG_TYPE_USER + 3;

struct TallyState {
    std::vector<int32_t> status; // per IOP index, what it answers
    std::vector<int> intact;     // per IOP index, intact bodies received
    std::vector<int> seen;       // per IOP index, requests received
};

void tally_service(fw_msg_t *m, const fw_request_t *req, void *arg) {
    auto *st = static_cast<TallyState *>(arg);
    unsigned k = hal_role_index(fw_msg_hal(m));
    ++st->seen[k];
    st->intact[k] +=
        req->body_bytes == 100 && same(static_cast<const uint8_t *>(req->body), 100, 17);
    fw_msg_reply(m, req, st->status[k], nullptr, nullptr, 0);
}

BOOST_AUTO_TEST_CASE(request_every_iop_reaches_each_iop_once_and_returns_the_first_error) {
    FakeOptions o;
    o.cp_count = 2;
    o.iop_count = 3;
    auto fm = make_machine(o);
    std::vector<NodeEnv> envs;
    TallyState st{{FW_MSG_OK, FW_MSG_OK, FW_MSG_OK}, {0, 0, 0}, {0, 0, 0}};
    std::vector<int> returned;
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        if (node >= o.cp_count) {
            fw_msg_register_service(e.m, kTally, tally_service, &st);
        }
        fw_msg_barrier_wait(e.m, e.all);
        if (node == 1) {
            // The body lives on the caller's stack; the verb copies it into node memory.
            uint8_t body[100];
            fill(body, 100, 17);
            returned.push_back(fw_msg_request_every_iop(e.m, kTally, body, 100, "test"));
            st.status = {FW_MSG_OK, -5, -7};
            returned.push_back(fw_msg_request_every_iop(e.m, kTally, body, 100, "test"));
            returned.push_back(fw_msg_request_every_iop(e.m, kTally, nullptr, 0, "test"));
        }
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(returned == (std::vector<int>{FW_MSG_OK, -5, -5}), boost::test_tools::per_element());
    BOOST_TEST(st.seen == (std::vector<int>{3, 3, 3}), boost::test_tools::per_element());
    BOOST_TEST(st.intact == (std::vector<int>{2, 2, 2}), boost::test_tools::per_element());
}

// Barriers over overlapping subsets, repeated: nobody leaves episode k before every
// member has entered it.
BOOST_AUTO_TEST_CASE(barriers_over_subsets_hold_every_member) {
    FakeOptions o;
    o.cp_count = 4;
    o.iop_count = 3;
    auto fm = make_machine(o);
    std::vector<NodeEnv> envs;
    std::vector<std::vector<int>> entered(3, std::vector<int>(7, 0));
    int violations = 0, passes = 0;
    const std::vector<std::vector<unsigned>> sets = {
        {1, 3}, {0, 2, 4, 5, 6}, {6, 5, 4, 3, 2, 1, 0}};
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        for (size_t s = 0; s < sets.size(); ++s) {
            const auto &set = sets[s];
            if (std::find(set.begin(), set.end(), node) == set.end()) {
                continue;
            }
            fw_msg_barrier_t *b = fw_msg_barrier_create(
                e.m, static_cast<uint32_t>(10 + s), set.data(), static_cast<unsigned>(set.size()));
            for (int k = 1; k <= 12; ++k) {
                hal_cycles(e.h, (node * 37 + k * 11) % 200); // uneven arrival
                entered[s][node] = k;
                fw_msg_barrier_wait(e.m, b);
                for (unsigned peer : set) {
                    if (entered[s][peer] < k) {
                        ++violations;
                    }
                }
                ++passes;
            }
        }
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(fm->spawned_threads_finished());
    BOOST_TEST(violations == 0);
    BOOST_TEST(passes == 12 * (2 + 5 + 7));
}

BOOST_AUTO_TEST_CASE(unregistered_message_type_fails_the_run_with_node_and_type) {
    auto fm = make_machine();
    std::vector<NodeEnv> envs;
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        if (node == 0) {
            fw_msg_send(e.m, 1, FW_MSG_TYPE_USER + 9, nullptr, nullptr, 0);
        }
    });
    BOOST_TEST(!fm->run());
    BOOST_TEST(fm->failure().find("node 1") != std::string::npos, fm->failure());
    BOOST_TEST(fm->failure().find("type 25 from node 0") != std::string::npos, fm->failure());
}

// A service the core has never heard of plugs in through the registry alone: ECHO
// (tests/fw/msg_system_probe.c) takes a body through the body hook and answers
// through the reply hooks; the bytes come back reversed, and every hook runs once
// per message.
BOOST_AUTO_TEST_CASE(a_system_type_plugs_in_through_the_registry) {
    auto fm = make_machine();
    std::vector<probe_counts_t> counts(fm->node_count(), probe_counts_t{});
    int bad = 0, echoed = 0;
    for (unsigned i = 0; i < fm->node_count(); ++i) {
        fm->spawn(
            i,
            [&, i](hal_t *h) {
                fw_msg_t *m = probe_msg_init(h, PROBE_ECHO_TYPE, &counts[i]);
                std::vector<unsigned> nodes;
                for (unsigned k = 0; k < fw_msg_node_count(m); ++k) {
                    nodes.push_back(k);
                }
                fw_msg_barrier_t *all =
                    fw_msg_barrier_create(m, 0, nodes.data(), static_cast<unsigned>(nodes.size()));
                fw_msg_barrier_wait(m, all);
                if (i == 0) {
                    auto *out = static_cast<uint8_t *>(hal_mem_alloc(h, PROBE_ECHO_MAX, 8));
                    auto *back = static_cast<uint8_t *>(hal_mem_alloc(h, PROBE_ECHO_MAX, 8));
                    for (uint32_t size : {1u, 5u, 8192u}) {
                        fill(out, size, size);
                        if (probe_echo(m, 1, out, size, back) != FW_MSG_OK) {
                            ++bad;
                        }
                        for (uint32_t k = 0; k < size; ++k) {
                            bad += back[k] != out[size - 1 - k];
                        }
                        ++echoed;
                    }
                }
                fw_msg_barrier_wait(m, all);
            },
            "echo");
    }
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(bad == 0);
    BOOST_TEST(echoed == 3);
    BOOST_TEST(counts[1].headers == 3u);
    BOOST_TEST(counts[1].bodies == 3u);
    BOOST_TEST(counts[0].replies == 3u);
    BOOST_TEST(counts[0].reply_dones == 3u);
    BOOST_TEST(counts[0].headers == 0u);
    BOOST_TEST(counts[1].replies == 0u);
}

// A system type must lie between the core's own types and the user types, and
// a type is registered once (queued batches already hold QPUT).
BOOST_AUTO_TEST_CASE(a_system_type_outside_its_range_or_taken_fails_the_run) {
    struct Case {
        unsigned type;
        const char *message;
    };
    for (const Case &c : {Case{FW_MSG_TYPE_USER, "system message types are 4..15, not 16"},
                          Case{FW_MSG_REPLY, "system message types are 4..15, not 3"},
                          Case{FW_MSG_QPUT, "message type 4 registered twice"}}) {
        auto fm = make_machine();
        probe_counts_t counts{};
        fm->spawn(
            0, [&](hal_t *h) { (void)probe_msg_init(h, c.type, &counts); }, "register");
        BOOST_TEST(!fm->run());
        BOOST_TEST(fm->failure().find(c.message) != std::string::npos, fm->failure());
    }
}

BOOST_AUTO_TEST_SUITE_END()
