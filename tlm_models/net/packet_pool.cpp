#include "tlm_models/net/packet_pool.h"

#include <utility>

namespace starfish::net {

namespace {

// Bounds on what the pool keeps: enough for every packet in flight on the
// default machine many times over, and a cap on the host memory it holds.
constexpr size_t kMaxPackets = 4096;
constexpr size_t kMaxBuffers = 4096;
constexpr size_t kMaxBufferBytes = 64 * 1024;

struct Pool {
    std::vector<PacketPtr> packets;
    std::vector<std::vector<uint8_t>> buffers;
};

Pool &pool() {
    static Pool p;
    return p;
}

} // namespace

PacketPtr make_packet() {
    Pool &p = pool();
    PacketPtr pkt;
    if (p.packets.empty()) {
        pkt = std::make_unique<Packet>();
    } else {
        pkt = std::move(p.packets.back());
        p.packets.pop_back();
    }
    if (!p.buffers.empty()) { // pooled packets hold no buffer (recycle)
        pkt->payload = std::move(p.buffers.back());
        p.buffers.pop_back();
    }
    return pkt;
}

void recycle_buffer(std::vector<uint8_t> &&buffer) {
    Pool &p = pool();
    if (buffer.capacity() == 0 || buffer.capacity() > kMaxBufferBytes ||
        p.buffers.size() >= kMaxBuffers) {
        return; // freed with the argument's owner
    }
    buffer.clear();
    p.buffers.push_back(std::move(buffer));
}

void recycle(PacketPtr &pkt) {
    if (!pkt) {
        return;
    }
    recycle_buffer(std::move(pkt->payload)); // a buffer not kept is freed below
    Pool &p = pool();
    if (p.packets.size() >= kMaxPackets) {
        pkt.reset();
        return;
    }
    *pkt = Packet{};
    p.packets.push_back(std::move(pkt));
}

} // namespace starfish::net
