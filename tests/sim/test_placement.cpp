// Node placement on the torus routers.
#include "sim/platform/placement.h"

#include <boost/test/unit_test.hpp>

#include <set>
#include <stdexcept>

using namespace starfish::platform;

BOOST_AUTO_TEST_SUITE(placement)

BOOST_AUTO_TEST_CASE(interleaved_default_alternates_and_uses_distinct_routers) {
    auto sites = place_nodes(16, 16, 6, 6, "interleaved");
    BOOST_REQUIRE(sites.size() == 32u);
    std::set<int> routers;
    for (const auto &s : sites) {
        routers.insert(s.router);
        BOOST_TEST(s.router == s.y * 6 + s.x);
        BOOST_TEST((s.role == NodeRole::Compute) == (s.node < 16));
    }
    BOOST_TEST(routers.size() == 32u);
    for (const auto &s : sites) {
        BOOST_TEST(((s.x + s.y) % 2 == 0) == (s.role == NodeRole::Compute)); // checkerboard
    }
    BOOST_TEST(sites[0].router == 0);  // CP 0
    BOOST_TEST(sites[16].router == 1); // IOP 0
    BOOST_TEST(sites[1].router == 2);  // CP 1
    BOOST_TEST(sites[3].router == 7);  // CP 3 starts row 1 at x=1
}

BOOST_AUTO_TEST_CASE(split_puts_cps_first) {
    auto sites = place_nodes(4, 2, 3, 3, "split");
    BOOST_TEST(sites[3].router == 3);
    BOOST_TEST(sites[4].router == 4);
    BOOST_TEST((sites[4].role == NodeRole::Io));
}

BOOST_AUTO_TEST_CASE(unequal_counts_place_the_remainder_after_alternation) {
    auto sites = place_nodes(6, 2, 3, 3, "interleaved");
    // 3x3: even routers 0 2 4 6 8, odd 1 3 5 7. CPs 0-4 take the even ones, CP 5
    // continues on odd router 1; IOPs then take 3 and 5.
    BOOST_TEST(sites[4].router == 8); // C4
    BOOST_TEST(sites[5].router == 1); // C5 on the other colour
    BOOST_TEST(sites[6].router == 3); // I0
    BOOST_TEST(sites[7].router == 5); // I1
}

BOOST_AUTO_TEST_CASE(too_many_nodes_or_unknown_policy_are_errors) {
    BOOST_CHECK_THROW(place_nodes(30, 10, 6, 6, "interleaved"), std::invalid_argument);
    BOOST_CHECK_THROW(place_nodes(4, 4, 6, 6, "spiral"), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
