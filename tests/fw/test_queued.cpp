// Queued (batched) Memput/Memget (fw/msg.h, docs/reference.md §7) on the fake HAL: packing
// and unpacking of odd sizes, pieces straddling the batch limit, many peers with
// overlapping pieces (order matters), gather/scatter of queued Memgets, groups and
// errors.
#include "fw/msg.h"
#include "hw/rng.h"
#include "tests/fw/msg_env.h"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace starfish::fwtest;

BOOST_AUTO_TEST_SUITE(fw_queued)

BOOST_AUTO_TEST_CASE(odd_sizes_pack_and_unpack_exactly) {
    auto fm = make_machine();
    std::vector<NodeEnv> envs;
    std::vector<uint8_t> expect(60000, 0);
    int status = -100;
    uint64_t pieces = 0, batches = 0, received = 0;
    // Pieces of 1..37 bytes at increasing offsets with gaps of 0..2 bytes.
    std::vector<std::pair<uint32_t, uint32_t>> plan;
    for (uint32_t off = 1, i = 0; off + 40 < 60000; ++i) {
        uint32_t len = 1 + i % 37;
        plan.emplace_back(off, len);
        for (uint32_t k = 0; k < len; ++k) {
            expect[off + k] = pattern_byte(i, k);
        }
        off += len + i % 3;
    }
    spawn_all(
        *fm, envs,
        [&](unsigned node, NodeEnv &e) {
            if (node == 2) {
                uint8_t piece[64];
                for (size_t i = 0; i < plan.size(); ++i) {
                    for (uint32_t k = 0; k < plan[i].second; ++k) {
                        piece[k] = pattern_byte(static_cast<uint32_t>(i), k);
                    }
                    fw_qput(e.m, 0, plan[i].first, piece, plan[i].second, nullptr);
                    std::memset(piece, 0xee, sizeof piece); // copied at once: reuse is fine
                }
                status = fw_q_wait_all(e.m);
                pieces = fw_msg_stats(e.m)->qput_pieces;
                batches = fw_msg_stats(e.m)->batches_sent;
            }
            fw_msg_barrier_wait(e.m, e.all);
            if (node == 0) {
                received = fw_msg_stats(e.m)->batches_received;
            }
        },
        60000);
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(status == FW_MSG_OK);
    BOOST_TEST(std::memcmp(envs[0].base, expect.data(), expect.size()) == 0);
    BOOST_TEST(pieces >= plan.size());
    // Each piece costs 8 header bytes + padded data; 8 KB batches.
    uint64_t packed = 0;
    for (const auto &p : plan) {
        packed += 8 + (p.second + 3) / 4 * 4;
    }
    BOOST_TEST(batches >= (packed + 8191) / 8192);
    BOOST_TEST(batches <= (packed + 8191) / 8192 + plan.size() / 400 + 1);
    BOOST_TEST(received == batches);
}

BOOST_AUTO_TEST_CASE(pieces_straddling_the_batch_limit_are_split) {
    auto fm = make_machine();
    fm->set_int("fs.block_bytes", 256); // batch limit: 248 data bytes in one piece
    std::vector<NodeEnv> envs;
    std::vector<uint8_t> expect(20000, 0);
    const uint32_t lens[] = {100, 250, 300, 1000, 3, 244, 240, 1, 2, 5000, 247};
    std::vector<std::string> errors;
    uint64_t pieces = 0, batches = 0;
    spawn_all(
        *fm, envs,
        [&](unsigned node, NodeEnv &e) {
            if (node != 3) {
                return;
            }
            auto *src = static_cast<uint8_t *>(hal_mem_alloc(e.h, 5000, 8));
            uint32_t off = 0;
            for (size_t i = 0; i < std::size(lens); ++i) {
                for (uint32_t k = 0; k < lens[i]; ++k) {
                    src[k] = pattern_byte(static_cast<uint32_t>(100 + i), k);
                    expect[off + k] = src[k];
                }
                fw_qput(e.m, 1, off, src, lens[i], nullptr);
                off += lens[i];
            }
            if (fw_q_wait_all(e.m) != FW_MSG_OK) {
                errors.push_back("status");
            }
            pieces = fw_msg_stats(e.m)->qput_pieces;
            batches = fw_msg_stats(e.m)->batches_sent;
        },
        20000);
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(errors.empty());
    BOOST_TEST(std::memcmp(envs[1].base, expect.data(), expect.size()) == 0);
    uint32_t total = 0;
    for (uint32_t l : lens) {
        total += l;
    }
    // At most 248 data bytes per piece and per batch, so at least ceil(total/248)
    // batches, and more pieces than calls.
    BOOST_TEST(batches >= (total + 247) / 248);
    BOOST_TEST(pieces > std::size(lens));
}

// Every node sends random small pieces to random peers at random (overlapping)
// offsets of its own slice there; the last write of each byte must win, and queued
// Memgets of random ranges must read back exactly that.
BOOST_AUTO_TEST_CASE(many_peers_random_pieces_in_order_and_read_back) {
    for (int mode = 0; mode < 3; ++mode) {
        const bool after = mode == 1;       // interrupts after register accesses
        const bool cycles_sync = mode == 2; // and at hal_cycles
        FakeOptions o;
        o.cp_count = 5;
        o.iop_count = 4;
        o.tx_queue_depth = 2;
        o.irq_after_access = after;
        o.sync_on_cycles = cycles_sync;
        auto fm = make_machine(o);
        fm->set_int("fs.block_bytes", 1024);
        const unsigned nodes = 9;
        const uint32_t slice = 2048;
        std::vector<NodeEnv> envs;
        // shadow[src][dst]: what src wrote into its slice at dst.
        std::vector<std::vector<std::vector<uint8_t>>> shadow(
            nodes, std::vector<std::vector<uint8_t>>(nodes, std::vector<uint8_t>(slice, 0)));
        std::vector<std::string> errors;
        spawn_all(
            *fm, envs,
            [&](unsigned node, NodeEnv &e) {
                hw_rng rng;
                hw_rng_seed(&rng, hw_rng_stream_seed(7, 0, HW_RNG_STREAM_WORKLOAD, node));
                fw_group_t g;
                fw_group_init(e.m, &g);
                uint8_t piece[40];
                for (int i = 0; i < 1500; ++i) {
                    unsigned dst = static_cast<unsigned>(hw_rng_below(&rng, nodes - 1));
                    dst += dst >= node;
                    uint32_t len = 1 + static_cast<uint32_t>(hw_rng_below(&rng, 40));
                    uint32_t off = static_cast<uint32_t>(hw_rng_below(&rng, slice - len + 1));
                    for (uint32_t k = 0; k < len; ++k) {
                        piece[k] = static_cast<uint8_t>(hw_rng_next(&rng));
                        shadow[node][dst][off + k] = piece[k];
                    }
                    fw_qput(e.m, dst, node * slice + off, piece, len, &g);
                }
                if (fw_group_wait(e.m, &g) != FW_MSG_OK || g.outstanding != 0) {
                    errors.push_back("put group");
                }
                fw_msg_barrier_wait(e.m, e.all);
                for (unsigned src = 0; src < nodes; ++src) {
                    if (std::memcmp(e.base + src * slice, shadow[src][node].data(), slice) != 0) {
                        errors.push_back("slice of " + std::to_string(src) + " at " +
                                         std::to_string(node));
                    }
                }
                // Read back random ranges of our slices with queued Memgets.
                auto *back = static_cast<uint8_t *>(hal_mem_alloc(e.h, 64 * 1024, 8));
                struct Want {
                    unsigned dst;
                    uint32_t off, len, at;
                };
                std::vector<Want> wants;
                uint32_t at = 0;
                for (int i = 0; i < 600; ++i) {
                    unsigned dst = static_cast<unsigned>(hw_rng_below(&rng, nodes - 1));
                    dst += dst >= node;
                    uint32_t len = 1 + static_cast<uint32_t>(hw_rng_below(&rng, 100));
                    uint32_t off = static_cast<uint32_t>(hw_rng_below(&rng, slice - len + 1));
                    wants.push_back({dst, off, len, at});
                    fw_qget(e.m, dst, node * slice + off, back + at, len, &g);
                    at += len;
                }
                if (fw_group_wait(e.m, &g) != FW_MSG_OK) {
                    errors.push_back("get group");
                }
                for (const Want &w : wants) {
                    if (std::memcmp(back + w.at, shadow[node][w.dst].data() + w.off, w.len) != 0) {
                        errors.push_back("get from " + std::to_string(w.dst));
                        break;
                    }
                }
                fw_msg_barrier_wait(e.m, e.all);
            },
            nodes * slice);
        BOOST_TEST_REQUIRE(fm->run(), fm->failure());
        BOOST_TEST(fm->spawned_threads_finished());
        BOOST_TEST(errors.empty(), (errors.empty() ? "" : errors.front()));
        BOOST_TEST_MESSAGE("messages " << fm->messages_delivered() << " cycles " << fm->now(0));
        // 9 x 1500 pieces of ~20 B in 1 KB batches: hundreds of batches and acks.
        BOOST_TEST(fm->messages_delivered() > 500u);
    }
}

BOOST_AUTO_TEST_CASE(queued_memget_splits_at_the_data_limit_and_reports_errors) {
    auto fm = make_machine();
    fm->set_int("fs.block_bytes", 128);
    std::vector<NodeEnv> envs;
    std::vector<std::string> errors;
    int bad_status = 0, put_status = 0;
    spawn_all(
        *fm, envs,
        [&](unsigned node, NodeEnv &e) {
            for (uint32_t k = 0; k < 4096; ++k) {
                e.base[k] = pattern_byte(node, k);
            }
            fw_msg_barrier_wait(e.m, e.all);
            if (node != 0) {
                return;
            }
            auto *dst = static_cast<uint8_t *>(hal_mem_alloc(e.h, 8192, 8));
            fw_group_t g;
            fw_group_init(e.m, &g);
            fw_qget(e.m, 2, 5, dst, 1000, &g);         // > one batch of data
            fw_qget(e.m, 3, 0, dst + 1000, 1, &g);     // tiny, another peer
            fw_qget(e.m, 2, 4000, dst + 1001, 96, &g); // straddles a batch
            if (fw_group_wait(e.m, &g) != FW_MSG_OK) {
                errors.push_back("status");
            }
            for (uint32_t k = 0; k < 1000; ++k) {
                if (dst[k] != pattern_byte(2, 5 + k)) {
                    errors.push_back("piece 1");
                    break;
                }
            }
            if (dst[1000] != pattern_byte(3, 0)) {
                errors.push_back("piece 2");
            }
            for (uint32_t k = 0; k < 96; ++k) {
                if (dst[1001 + k] != pattern_byte(2, 4000 + k)) {
                    errors.push_back("piece 3");
                    break;
                }
            }
            // Outside the peer's base: an error status, not corruption.
            fw_group_init(e.m, &g);
            fw_qget(e.m, 1, 4090, dst, 10, &g);
            bad_status = fw_group_wait(e.m, &g);
            fw_qput(e.m, 1, 4095, dst, 2, nullptr);
            put_status = fw_q_wait_all(e.m);
        },
        4096);
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(errors.empty(), (errors.empty() ? "" : errors.front()));
    BOOST_TEST(bad_status == FW_MSG_ERANGE);
    BOOST_TEST(put_status == FW_MSG_ERANGE);
    BOOST_TEST(envs[1].base[4095] == pattern_byte(1, 4095));
}

// More groups in one batch than it keeps runs for: the batch goes early and every
// group still completes.
BOOST_AUTO_TEST_CASE(many_groups_interleaved_in_one_peer_batch) {
    auto fm = make_machine();
    std::vector<NodeEnv> envs;
    std::vector<uint32_t> outstanding;
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        if (node != 1) {
            return;
        }
        std::vector<fw_group_t> groups(20);
        for (auto &g : groups) {
            fw_group_init(e.m, &g);
        }
        uint8_t b[4] = {1, 2, 3, 4};
        for (int round = 0; round < 3; ++round) {
            for (size_t i = 0; i < groups.size(); ++i) {
                fw_qput(e.m, 0, static_cast<uint32_t>(i * 4), b, 4, &groups[i]);
            }
        }
        for (auto &g : groups) {
            fw_group_wait(e.m, &g);
            outstanding.push_back(g.outstanding);
        }
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(outstanding == std::vector<uint32_t>(20, 0), boost::test_tools::per_element());
    BOOST_TEST(envs[0].base[79] == 4);
}

BOOST_AUTO_TEST_SUITE_END()
