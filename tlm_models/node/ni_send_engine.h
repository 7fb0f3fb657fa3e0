#pragma once
// The send engine of the network interface (cut-through): descriptors are served
// in order; per descriptor the engine spends ni.descriptor_setup_cycles, per
// packet ni.packet_setup_cycles to build its header, and offers the packet to the
// network (try_inject; injection_ready when refused) while the DMA still reads
// its body fragment at ni.dma_bytes_per_cycle, delayed only as much as keeps the
// flits from overtaking the DMA. A descriptor completes when the network reports
// its last packet's tail injected (NetworkInterface::injected, NiCore).
//
// Offering a packet before its DMA is done is this engine's cut-through: it is
// the send DMA's timing (offer_delay_cycles), so it lives here. The receive
// side's (a message committed at its head flits) is NiPacketReceiver's.

#include "hw/ni_regs.h"
#include "tlm_models/net/net_port.h"
#include "tlm_models/node/network_interface_params.h"
#include "tlm_models/node/ni_core.h"
#include "tlm_models/node/ni_trace.h"
#include "tlm_models/node/node_memory.h"

#include <systemc>

#include <cstdint>
#include <vector>

namespace starfish::node {

class NiSendEngine {
public:
    // The descriptor the engine works on, and its next packet.
    struct Work {
        bool active = false; // a descriptor is being sent
        uint64_t serial = 0;
        uint64_t message_id = 0; // its first packet's id (traces)
        uint32_t dest = 0;
        uint32_t body_addr = 0;
        uint32_t body_bytes = 0;
        uint16_t seq = 0;
        uint8_t header[HW_NI_HDR_MAX_BYTES] = {};
        uint32_t header_bytes = 0;
        uint64_t setup_cycles = 0; // still to spend before the next packet
        uint32_t offset = 0;       // of the next packet's fragment in the body
        bool first = true;
        // The next packet: planned (offer time known), then built and offered.
        bool planned = false;
        uint64_t offer_ps = 0;
        uint32_t hdr_bytes = 0;
        uint32_t frag = 0;
        bool last = false;
        net::PacketPtr pkt; // built, refused by a full injection queue so far
    };

    // node_routers[n] is the router of node n: TX_DEST names a node id.
    NiSendEngine(const NetworkInterfaceParams &params, int node_id, NodeMemory &memory,
                 net::Network &network, int router, const std::vector<int> &node_routers,
                 const NiCore &core, NiTrace &trace);
    NiSendEngine(const NiSendEngine &) = delete;
    NiSendEngine &operator=(const NiSendEngine &) = delete;

    // One activation of the engine's method (the NI's tx_engine): works until it
    // must wait and sets its next trigger.
    void run();
    // NiCore queued a descriptor.
    void descriptor_pushed();

    // The next queued descriptor into work() (false if none is queued).
    bool take_descriptor();
    // work()'s next packet: its header bytes, fragment and whether it is the last.
    void size_packet();
    // The network took work()'s packet.
    void packet_taken();

    uint64_t packets_sent() const { return packets_sent_; }
    uint64_t body_bytes_sent() const { return body_bytes_sent_; }

    // The RTL DMA engine's wrapper (rtl/ni_dma/ni_dma_rtl.h) times the packets
    // itself and works on this state.
    Work &work() { return work_; }
    uint64_t &next_packet_id() { return next_packet_id_; }
    sc_core::sc_event &work_event() { return work_event_; }

private:
    void plan_packet();
    net::PacketPtr build_packet();
    uint64_t offer_delay_cycles(uint32_t body_start, uint32_t frag) const;

    const NetworkInterfaceParams &params_;
    const int node_id_;
    NodeMemory &memory_;
    net::Network &network_;
    const int router_;
    const std::vector<int> &node_routers_;
    const NiCore &core_;
    NiTrace &trace_;

    uint64_t serial_ = 0;         // next descriptor the engine starts
    bool waits_for_work_ = false; // run()'s last activation ended idle, on work_event_
    uint64_t next_packet_id_ = 0;
    uint64_t dma_free_ps_ = 0; // the send DMA has read the previous fragment by then
    Work work_;
    sc_core::sc_event work_event_;
    uint64_t packets_sent_ = 0;    // packets the network took
    uint64_t body_bytes_sent_ = 0; // body bytes in those packets
};

} // namespace starfish::node
