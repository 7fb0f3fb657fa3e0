// The messaging library (fw/msg.h) end to end on the fake HAL: Memput/Memget
// byte-exact, reply actions of requests, services and interrupt-level handlers,
// errors, multicast, barriers over messages, and the NI driver's software send
// queue under a full NI send queue.
#include "fw/msg.h"
#include "fw/ni.h"
#include "tests/fw/msg_env.h"

#include <boost/test/unit_test.hpp>

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
    for (bool after : {false, true}) {
        FakeOptions o;
        o.irq_after_access = after;
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

BOOST_AUTO_TEST_SUITE_END()
