#pragma once
// The receive port of the network interface: packets are taken into a receive
// buffer of ni.rx_buffer_bytes (body fragments only) or refused when it, or the
// record ring, is full (back-pressure; the network retries after
// endpoint_ready). It checks each packet's frame and reassembles messages from
// their packets; NiCore writes the records and holds a message's body until the
// firmware answers its handle, then NiReceiveDma deposits it. Records are written
// into the ring in node memory when they are generated (no DMA time).
//
// Cut-through on the receive side lives here, with the frame parser that sees a
// packet's head flits: the first packet of a message with a body asks the
// network for arriving() once its frame and software header are in; if the ring
// and buffer have room then, the HEADER record is written at once and the packet
// is committed (its tail is never refused); otherwise it is handled at its tail
// as any other packet. The receive DMA only sees a deposit waiting for its tail.

#include "tlm_models/common/device_fault.h"
#include "tlm_models/net/net_port.h"
#include "tlm_models/node/ni_core.h"
#include "tlm_models/node/ni_trace.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace starfish::node {

class NiPacketReceiver {
public:
    // The first packet of a message taken at arriving(), until its tail is delivered.
    struct CutThrough {
        bool active = false;
        uint64_t packet_id = 0;
        uint32_t handle = 0;
        uint32_t length = 0; // its body fragment
        uint32_t start = 0;  // of the fragment inside the payload
        bool last = false;   // the message's only packet
    };
    struct Counters {
        uint64_t packets_received = 0; // deliveries taken
        uint64_t body_bytes_received = 0;
        uint64_t refusals = 0; // deliveries refused (back-pressure)
        uint64_t refusals_ring_full = 0;
        uint64_t refusals_buffer_full = 0;
        uint64_t refusals_disabled = 0; // CTRL.ENABLE was 0
    };

    // Broken model invariants (a packet the NI cannot take) go to `fault`.
    NiPacketReceiver(NiCore &core, net::Network &network, int router, NiTrace &trace,
                     common::DeviceFaultPort &fault);
    NiPacketReceiver(const NiPacketReceiver &) = delete;
    NiPacketReceiver &operator=(const NiPacketReceiver &) = delete;

    // net::PacketEndpoint, for the NI (which completes due deposits first).
    void arriving(const net::Packet &pkt);
    bool deliver(net::PacketPtr &pkt);
    // NiCore::Client::ni_rx_space_returned: packets refused before may be taken now.
    void space_returned();

    const CutThrough &cut_through() const { return cut_through_; }
    const Counters &counters() const { return counters_; }
    std::size_t messages_arriving() const { return reassembly_.size(); }

private:
    struct Reassembly {
        uint16_t seq = 0;
        uint32_t handle = 0;
        uint32_t body_bytes = 0;
        uint32_t next_offset = 0;
        uint64_t message_id = 0; // its first packet's id (traces)
    };

    bool deliver_cut_through(net::PacketPtr &pkt);
    bool refuse(uint64_t &reason_counter);
    void error(const std::string &what) { fault_.fault(what); }

    NiCore &core_;
    net::Network &network_;
    const int router_;
    NiTrace &trace_;
    common::DeviceFaultPort &fault_;

    std::unordered_map<uint32_t, Reassembly> reassembly_; // by source node
    CutThrough cut_through_;
    bool refused_ = false;
    Counters counters_;
};

} // namespace starfish::node
