#pragma once
// Recycled packets and payload buffers. A message-heavy run (SPFS or 2PIO with
// 8-byte records) builds and consumes millions of packets; taking them and their
// byte buffers from a free list instead of the heap saves two allocations and two
// frees per packet. Only host memory is reused: nothing simulated depends on it.
//
// One pool per process (the simulator is single-threaded; each trial runs in its
// own process). A packet or buffer that is never recycled is simply freed.

#include "tlm_models/net/net_port.h"

#include <cstdint>
#include <vector>

namespace starfish::net {

// A packet with every field at its default and an empty payload (with a recycled
// buffer's capacity when the pool has one).
PacketPtr make_packet();
// Returns the packet and its payload buffer to the pool; pkt becomes null.
void recycle(PacketPtr &pkt);
// Returns a byte buffer (a payload moved out of its packet) to the pool.
void recycle_buffer(std::vector<uint8_t> &&buffer);

} // namespace starfish::net
