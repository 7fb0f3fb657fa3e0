// Torus geometry and routing: dimension order, the shorter way round each ring,
// the documented tie rule, dateline VC classes, channel numbering.
#include "tlm_models/net/route_table.h"
#include "tlm_models/net/torus_topology.h"

#include <boost/test/unit_test.hpp>

#include <set>
#include <stdexcept>

using namespace starfish::net;

BOOST_AUTO_TEST_SUITE(net_routing)

// Walks a path and checks it: it starts and ends at the local ports, each link
// leaves the router the previous one entered, X moves all come before Y moves, and
// the number of links is the torus distance.
void check_path(const TorusTopology &t, int src, int dst, int lane) {
    auto path = t.route(src, dst, lane);
    BOOST_REQUIRE(path.size() >= 2u);
    BOOST_TEST(path.front().channel == t.inject_channel(src));
    BOOST_TEST(path.back().channel == t.eject_channel(dst));
    int here = src;
    bool turned_to_y = false;
    std::set<int> ports_x, ports_y;
    for (size_t i = 1; i + 1 < path.size(); ++i) {
        int ch = path[i].channel;
        BOOST_REQUIRE(t.channel_kind(ch) == ChannelKind::Link);
        BOOST_TEST(t.channel_router(ch) == here);
        int port = t.channel_port(ch);
        bool is_y = port == kNorth || port == kSouth;
        BOOST_TEST(!(turned_to_y && !is_y), "X move after a Y move");
        turned_to_y = turned_to_y || is_y;
        (is_y ? ports_y : ports_x).insert(port);
        BOOST_TEST(path[i].vc % t.vcs_total() == path[i].vc);
        BOOST_TEST(path[i].vc % (t.vcs_total() / 2) == lane % (t.vcs_total() / 2));
        here = t.neighbour(here, port);
    }
    BOOST_TEST(here == dst);
    BOOST_TEST(int(path.size()) - 2 == t.hops(src, dst));
    BOOST_TEST(ports_x.size() <= 1u); // never turns back along a ring
    BOOST_TEST(ports_y.size() <= 1u);
}

BOOST_AUTO_TEST_CASE(every_route_is_shortest_and_dimension_ordered) {
    for (auto [w, h] : {std::pair{6, 6}, {2, 2}, {5, 3}, {8, 8}, {16, 16}, {7, 4}}) {
        TorusTopology t(w, h, 2);
        for (int s = 0; s < t.routers(); ++s) {
            for (int d = 0; d < t.routers(); ++d) {
                check_path(t, s, d, (s + d) % 3);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(distance_matches_the_ring_formula) {
    TorusTopology t(6, 6, 1);
    // (0,0) to (3,0): half-way round an even ring, 3 hops either way.
    BOOST_TEST(t.hops(t.router_at(0, 0), t.router_at(3, 0)) == 3);
    BOOST_TEST(t.hops(t.router_at(0, 0), t.router_at(5, 5)) == 2);
    BOOST_TEST(t.hops(t.router_at(1, 2), t.router_at(4, 5)) == 6);
    BOOST_TEST(TorusTopology::ring_distance(4, 1, 6) == 3);
    BOOST_TEST(TorusTopology::ring_distance(5, 0, 6) == 1);
}

BOOST_AUTO_TEST_CASE(half_way_ties_go_plus_from_even_sources_minus_from_odd) {
    TorusTopology t(6, 4, 1);
    // X tie: source x = 2 (even) to x = 5 goes East; source x = 1 (odd) to 4 goes West.
    BOOST_TEST(t.route_step(t.router_at(2, 0), t.router_at(2, 0), t.router_at(5, 0)).port == kEast);
    BOOST_TEST(t.route_step(t.router_at(1, 0), t.router_at(1, 0), t.router_at(4, 0)).port == kWest);
    // Y tie on the 4-ring: decided by the source's y parity, at the turn.
    int src = t.router_at(0, 1), dst = t.router_at(3, 3);
    auto path = t.route(src, dst, 0);
    BOOST_TEST(t.channel_port(path[1].channel) == kEast);         // x 0 -> 3: tie, 0 even: plus
    BOOST_TEST(t.channel_port(path.end()[-2].channel) == kSouth); // y = 1 odd: minus
}

BOOST_AUTO_TEST_CASE(dateline_class_switches_at_the_wrap_link_and_resets_on_the_turn) {
    TorusTopology t(6, 6, 1);
    // (4,4) -> (1,1): East 4->5 (class 0), 5->0 wraps (class 1), 0->1 (class 1),
    // then North 4->5 (class 0), 5->0 (class 1), 0->1 (class 1).
    auto path = t.route(t.router_at(4, 4), t.router_at(1, 1), 0);
    BOOST_REQUIRE(path.size() == 8u);
    int expected_class[] = {0, 1, 1, 0, 1, 1};
    int expected_port[] = {kEast, kEast, kEast, kNorth, kNorth, kNorth};
    for (int i = 0; i < 6; ++i) {
        BOOST_TEST(t.channel_port(path[i + 1].channel) == expected_port[i]);
        BOOST_TEST(path[i + 1].vc == expected_class[i]);
    }
    // Westward: (1,0) -> (4,0) is a tie from odd x: West 1->0 (class 0), 0->5 wraps
    // (class 1), 5->4 (class 1).
    path = t.route(t.router_at(1, 0), t.router_at(4, 0), 0);
    BOOST_REQUIRE(path.size() == 5u);
    BOOST_TEST(path[1].vc == 0);
    BOOST_TEST(path[2].vc == 1);
    BOOST_TEST(path[3].vc == 1);
}

BOOST_AUTO_TEST_CASE(no_class_zero_path_uses_a_wrap_link) {
    // With the dateline, class-0 channels never include a wrap-around link, and a
    // class-1 path never wraps again: the channel dependency graph is acyclic.
    TorusTopology t(5, 4, 1);
    for (int s = 0; s < t.routers(); ++s) {
        for (int d = 0; d < t.routers(); ++d) {
            auto path = t.route(s, d, 0);
            for (size_t i = 1; i + 1 < path.size(); ++i) {
                int ch = path[i].channel;
                int from = t.channel_router(ch), to = t.neighbour(from, t.channel_port(ch));
                bool wraps = t.channel_port(ch) == kEast    ? t.x_of(to) < t.x_of(from)
                             : t.channel_port(ch) == kWest  ? t.x_of(to) > t.x_of(from)
                             : t.channel_port(ch) == kNorth ? t.y_of(to) < t.y_of(from)
                                                            : t.y_of(to) > t.y_of(from);
                if (wraps) {
                    BOOST_TEST(path[i].vc == 1);
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(channels_are_numbered_and_named) {
    TorusTopology t(3, 2, 2);
    BOOST_TEST(t.channel_count() == 36);
    BOOST_TEST(t.channel_name(t.link_channel(4, kNorth)) == "r4.N");
    BOOST_TEST(t.channel_name(t.inject_channel(5)) == "r5.inject");
    BOOST_TEST(t.channel_name(t.eject_channel(0)) == "r0.eject");
    BOOST_TEST(t.channel_vcs(t.link_channel(0, kEast)) == 4);
    BOOST_TEST(t.channel_vcs(t.eject_channel(0)) == 1);
    BOOST_CHECK_THROW(t.route(0, 6, 0), std::out_of_range);
    BOOST_CHECK_THROW(TorusTopology(1, 4, 1), std::invalid_argument);
}

// The route table hands out the topology's own paths, computes each once, and
// keeps them where they are (a packet holds its path while later ones are made).
void check_table(int width, int height, int vcs, int pairs_step) {
    TorusTopology t(width, height, vcs);
    RouteTable table(t);
    for (int src = 0; src < t.routers(); src += pairs_step) {
        for (int dst = 0; dst < t.routers(); dst += pairs_step) {
            for (int lane = -1; lane <= 2 * vcs; ++lane) {
                auto want = t.route(src, dst, lane);
                RouteView got = table.route(src, dst, lane);
                BOOST_REQUIRE_EQUAL(got.size(), want.size());
                for (size_t h = 0; h < want.size(); ++h) {
                    BOOST_TEST(got[h].channel == want[h].channel);
                    BOOST_TEST(got[h].vc == want[h].vc);
                    BOOST_TEST(got[h].requester == want[h].requester);
                }
                BOOST_TEST(table.route(src, dst, lane).begin() == got.begin());
            }
        }
    }
    BOOST_CHECK_THROW(table.route(0, t.routers(), 0), std::out_of_range);
    BOOST_CHECK_THROW(table.route(-1, 0, 0), std::out_of_range);
}

BOOST_AUTO_TEST_CASE(route_table_gives_the_topology_paths_once_and_keeps_them) {
    check_table(6, 6, 1, 1); // a flat table
    check_table(6, 4, 2, 1);
    check_table(32, 32, 2, 37); // beyond the flat table's size: a hash map
}

BOOST_AUTO_TEST_SUITE_END()
