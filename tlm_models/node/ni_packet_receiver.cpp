#include "tlm_models/node/ni_packet_receiver.h"

#include "hw/ni_regs.h"
#include "tlm_models/common/sim_time.h"
#include "tlm_models/net/packet_pool.h"

#include <string>
#include <vector>

namespace starfish::node {

NiPacketReceiver::NiPacketReceiver(NiCore &core, net::Network &network, int router, NiTrace &trace,
                                   common::DeviceFaultPort &fault)
    : core_(core), network_(network), router_(router), trace_(trace), fault_(fault) {}

bool NiPacketReceiver::refuse(uint64_t &reason_counter) {
    ++counters_.refusals;
    ++reason_counter;
    refused_ = true;
    return false;
}

void NiPacketReceiver::space_returned() {
    if (refused_) {
        refused_ = false;
        network_.endpoint_ready(router_);
    }
}

void NiPacketReceiver::arriving(const net::Packet &pkt) {
    // Anything unusual is left to deliver(), which refuses or reports it.
    const std::vector<uint8_t> &p = pkt.payload;
    if (cut_through_.active || !core_.enabled() || p.size() < HW_NI_FRAME_BYTES) {
        return;
    }
    const uint32_t w0 = hw_ni_get_word(p.data()), w1 = hw_ni_get_word(p.data() + 4);
    const uint32_t body_bytes = hw_ni_get_word(p.data() + 8),
                   offset = hw_ni_get_word(p.data() + 12);
    const uint32_t src = HW_NI_FRAME_SRC(w0);
    const bool first = (w1 & HW_NI_FRAME_FIRST) != 0, last = (w1 & HW_NI_FRAME_LAST) != 0;
    const uint32_t hdr_bytes = w1 & HW_NI_FRAME_HDR_BYTES_MASK;
    if (!first || hdr_bytes > HW_NI_HDR_MAX_BYTES || p.size() < HW_NI_FRAME_BYTES + hdr_bytes ||
        offset != 0 || body_bytes == 0 || reassembly_.count(src) != 0) {
        return;
    }
    const uint32_t frag = static_cast<uint32_t>(p.size()) - HW_NI_FRAME_BYTES - hdr_bytes;
    if (frag > body_bytes || (last && frag != body_bytes) || (!last && frag == body_bytes) ||
        !core_.ring_has_room() || frag > core_.buffer_free()) {
        return;
    }
    // Committed: the HEADER record now, the fragment's buffer space reserved.
    const uint32_t handle =
        core_.begin_message(src, p.data() + HW_NI_FRAME_BYTES, hdr_bytes, body_bytes, frag);
    if (!last) {
        reassembly_[src] =
            Reassembly{static_cast<uint16_t>(HW_NI_FRAME_SEQ(w0)), handle, body_bytes, frag};
    }
    cut_through_ = CutThrough{true, pkt.id, handle, frag, HW_NI_FRAME_BYTES + hdr_bytes, last};
    if (!last) {
        reassembly_[src].message_id = pkt.id;
    }
    if (trace_.on()) {
        trace_.rx_ring(common::sim_time().value(), core_.rx_records());
    }
}

// The tail of a packet committed at arriving(): never refused.
bool NiPacketReceiver::deliver_cut_through(net::PacketPtr &pkt) {
    const CutThrough ct = cut_through_;
    cut_through_.active = false;
    ++counters_.packets_received;
    counters_.body_bytes_received += ct.length;
    NiFragment f;
    f.body_offset = 0;
    f.length = ct.length;
    f.start = ct.start;
    f.bytes = std::move(pkt->payload);
    if (trace_.on()) {
        trace_.message_received(common::sim_time().value(), ct.packet_id, ct.last,
                                HW_NI_FRAME_SRC(hw_ni_get_word(f.bytes.data())),
                                hw_ni_get_word(f.bytes.data() + 8), core_.rx_records());
    }
    net::recycle(pkt);
    core_.fragment_arrived(ct.handle, std::move(f), true);
    return true;
}

bool NiPacketReceiver::deliver(net::PacketPtr &pkt) {
    if (cut_through_.active && pkt->id == cut_through_.packet_id) {
        return deliver_cut_through(pkt);
    }
    const std::vector<uint8_t> &p = pkt->payload;
    if (p.size() < HW_NI_FRAME_BYTES) {
        error("packet of " + std::to_string(p.size()) + " bytes is shorter than the NI frame");
        return false;
    }
    const uint32_t w0 = hw_ni_get_word(p.data()), w1 = hw_ni_get_word(p.data() + 4);
    const uint32_t body_bytes = hw_ni_get_word(p.data() + 8),
                   offset = hw_ni_get_word(p.data() + 12);
    const uint32_t src = HW_NI_FRAME_SRC(w0);
    const uint16_t seq = static_cast<uint16_t>(HW_NI_FRAME_SEQ(w0));
    const bool first = (w1 & HW_NI_FRAME_FIRST) != 0, last = (w1 & HW_NI_FRAME_LAST) != 0;
    const uint32_t hdr_bytes = first ? (w1 & HW_NI_FRAME_HDR_BYTES_MASK) : 0;
    if (p.size() < HW_NI_FRAME_BYTES + hdr_bytes || hdr_bytes > HW_NI_HDR_MAX_BYTES) {
        error("malformed packet from node " + std::to_string(src));
        return false;
    }
    const uint32_t frag = static_cast<uint32_t>(p.size()) - HW_NI_FRAME_BYTES - hdr_bytes;
    if (offset + uint64_t(frag) > body_bytes || (last && offset + frag != body_bytes)) {
        error("packet from node " + std::to_string(src) + " does not fit its message (offset " +
              std::to_string(offset) + ", " + std::to_string(frag) + " of " +
              std::to_string(body_bytes) + " bytes)");
        return false;
    }
    const uint64_t buffer_free = core_.buffer_free();
    if (!core_.enabled()) {
        return refuse(counters_.refusals_disabled);
    }

    uint32_t handle = HW_NI_NONE;
    if (first) {
        if (reassembly_.count(src) != 0) {
            error("a new message from node " + std::to_string(src) +
                  " started before the previous one ended (network reordered packets)");
            return false;
        }
        if (offset != 0) {
            error("first packet from node " + std::to_string(src) + " has body offset " +
                  std::to_string(offset));
            return false;
        }
        if (!core_.ring_has_room()) {
            return refuse(counters_.refusals_ring_full);
        }
        if (frag > buffer_free) {
            return refuse(counters_.refusals_buffer_full);
        }
        if (body_bytes == 0 && !last) {
            error("message without body from node " + std::to_string(src) +
                  " spans several packets");
            return false;
        }
        handle = core_.begin_message(src, p.data() + HW_NI_FRAME_BYTES, hdr_bytes, body_bytes);
        if (handle != HW_NI_NONE && !last) {
            reassembly_[src] = Reassembly{seq, handle, body_bytes, frag, pkt->id};
        }
        if (trace_.on()) {
            trace_.message_received(common::sim_time().value(), pkt->id, last, src, body_bytes,
                                    core_.rx_records());
        }
    } else {
        auto it = reassembly_.find(src);
        if (it == reassembly_.end() || it->second.seq != seq || it->second.next_offset != offset ||
            it->second.body_bytes != body_bytes) {
            error("packet from node " + std::to_string(src) + " (sequence " + std::to_string(seq) +
                  ", offset " + std::to_string(offset) + ") continues no message in reassembly");
            return false;
        }
        handle = it->second.handle;
        if (!core_.discarded(handle) && frag > buffer_free) {
            return refuse(counters_.refusals_buffer_full);
        }
        it->second.next_offset += frag;
        if (trace_.on()) {
            trace_.message_received(common::sim_time().value(), it->second.message_id, last, src,
                                    body_bytes, core_.rx_records());
        }
        if (last) {
            reassembly_.erase(it);
        }
    }

    ++counters_.packets_received;
    counters_.body_bytes_received += frag;
    if (handle != HW_NI_NONE) {
        NiFragment f;
        f.body_offset = offset;
        f.length = frag;
        f.start = HW_NI_FRAME_BYTES + hdr_bytes;
        f.bytes = std::move(pkt->payload);
        core_.fragment_arrived(handle, std::move(f), false);
    }
    net::recycle(pkt);
    return true;
}

} // namespace starfish::node
