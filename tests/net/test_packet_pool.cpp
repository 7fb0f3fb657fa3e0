// The packet pool (tlm_models/net/packet_pool.h): a recycled packet comes back
// with every field at its default and an empty payload, keeping only host memory.
#include "tlm_models/net/packet_pool.h"

#include <boost/test/unit_test.hpp>

using namespace starfish::net;

BOOST_AUTO_TEST_SUITE(packet_pool)

BOOST_AUTO_TEST_CASE(a_recycled_packet_comes_back_cleared_with_its_buffer) {
    PacketPtr pkt = make_packet();
    BOOST_REQUIRE(pkt);
    pkt->id = 42;
    pkt->src_router = 3;
    pkt->dst_router = 7;
    pkt->tag = 9;
    pkt->lane = 1;
    pkt->early_flits = 5;
    pkt->payload.assign(200, 0xab);
    const Packet *address = pkt.get();
    const uint8_t *buffer = pkt->payload.data();
    recycle(pkt);
    BOOST_TEST(!pkt);

    PacketPtr again = make_packet();
    BOOST_TEST(again.get() == address); // the same object, from the pool
    BOOST_TEST(again->id == 0u);
    BOOST_TEST(again->src_router == 0);
    BOOST_TEST(again->dst_router == 0);
    BOOST_TEST(again->tag == 0u);
    BOOST_TEST(again->lane == 0);
    BOOST_TEST(again->early_flits == 0u);
    BOOST_TEST(again->payload.empty());
    BOOST_TEST(again->payload.capacity() >= 200u);
    BOOST_TEST(again->payload.data() == buffer);
    // Growing it again shows zeros, never the old bytes.
    again->payload.resize(100);
    for (uint8_t b : again->payload) {
        BOOST_TEST(b == 0);
    }
    recycle(again);
}

BOOST_AUTO_TEST_CASE(a_payload_moved_out_returns_through_recycle_buffer) {
    PacketPtr pkt = make_packet();
    pkt->payload.assign(64, 1);
    std::vector<uint8_t> moved = std::move(pkt->payload);
    const uint8_t *buffer = moved.data();
    recycle(pkt); // without a buffer now
    recycle_buffer(std::move(moved));
    PacketPtr again = make_packet();
    BOOST_TEST(again->payload.empty());
    BOOST_TEST(again->payload.data() == buffer); // the packet took the pooled buffer
    recycle(again);
}

BOOST_AUTO_TEST_CASE(huge_buffers_are_not_kept) {
    std::vector<uint8_t> big(1 << 20);
    recycle_buffer(std::move(big));
    BOOST_TEST(big.capacity() == size_t(1) << 20); // left with its owner, who frees it
    PacketPtr pkt = make_packet();
    pkt->payload.assign(size_t(1) << 20, 2);
    recycle(pkt);
    PacketPtr again = make_packet();
    BOOST_TEST(again->payload.capacity() < (size_t(1) << 20));
    recycle(again);
}

BOOST_AUTO_TEST_SUITE_END()
