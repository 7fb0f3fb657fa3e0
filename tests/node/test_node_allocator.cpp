// First-fit allocator behind hal_mem_alloc: no overlap, alignment, exhaustion,
// and complete coalescing, against random allocation and free sequences.
#include "hw/rng.h"
#include "sim/platform/node_allocator.h"

#include <boost/test/unit_test.hpp>

#include <map>

using starfish::platform::NodeAllocator;

BOOST_AUTO_TEST_SUITE(node_allocator)

BOOST_AUTO_TEST_CASE(aligned_blocks_and_exhaustion) {
    NodeAllocator a(1 << 20);
    auto x = a.allocate(100, 0);
    auto y = a.allocate(10, 4096);
    BOOST_REQUIRE(x && y);
    BOOST_TEST(*x % NodeAllocator::kGranule == 0u);
    BOOST_TEST(*y % 4096u == 0u);
    BOOST_TEST(!a.allocate(1 << 20, 0));
    BOOST_TEST(a.release(*x));
    BOOST_TEST(!a.release(*x));
    BOOST_TEST(!a.release(12345));
    BOOST_TEST(a.release(*y));
    BOOST_TEST(a.free_ranges() == 1u);
    auto all = a.allocate(1 << 20, 0);
    BOOST_REQUIRE(all);
    BOOST_TEST(*all == 0u);
    BOOST_TEST(!a.allocate(1, 0));
}

BOOST_AUTO_TEST_CASE(random_sequences_never_overlap_and_coalesce_fully) {
    const uint32_t size = 4 << 20;
    NodeAllocator a(size);
    hw_rng rng;
    hw_rng_seed(&rng, 12345);
    std::map<uint32_t, uint32_t> live; // start -> requested bytes
    for (int step = 0; step < 20000; ++step) {
        if (live.empty() || hw_rng_next(&rng) % 3 != 0) {
            uint32_t bytes = 1 + static_cast<uint32_t>(hw_rng_next(&rng) % 20000);
            uint32_t align = 1u << (hw_rng_next(&rng) % 13);
            auto p = a.allocate(bytes, align);
            if (!p) {
                continue;
            }
            BOOST_REQUIRE(*p % align == 0u);
            BOOST_REQUIRE(uint64_t(*p) + bytes <= size);
            auto next = live.lower_bound(*p);
            BOOST_REQUIRE(next == live.end() || *p + bytes <= next->first);
            if (next != live.begin()) {
                auto prev = std::prev(next);
                BOOST_REQUIRE(prev->first + prev->second <= *p);
            }
            live[*p] = bytes;
        } else {
            auto it = live.begin();
            std::advance(it, hw_rng_next(&rng) % live.size());
            BOOST_REQUIRE(a.release(it->first));
            live.erase(it);
        }
    }
    for (const auto &[start, bytes] : live) {
        BOOST_REQUIRE(a.release(start));
    }
    BOOST_TEST(a.free_ranges() == 1u);
    BOOST_TEST(a.free_bytes() == size);
    BOOST_TEST(a.allocated_blocks() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
