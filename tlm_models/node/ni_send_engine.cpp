#include "tlm_models/node/ni_send_engine.h"

#include "tlm_models/common/sim_time.h"
#include "tlm_models/net/packet_pool.h"

#include <algorithm>
#include <cstring>

namespace starfish::node {

NiSendEngine::NiSendEngine(const NetworkInterfaceParams &params, int node_id, NodeMemory &memory,
                           net::Network &network, int router, const std::vector<int> &node_routers,
                           const NiCore &core, NiTrace &trace)
    : params_(params), node_id_(node_id), memory_(memory), network_(network), router_(router),
      node_routers_(node_routers), core_(core), trace_(trace) {}

// Cycles between building a packet's header (its body DMA starts then) and
// offering it, so that no flit crosses the injection channel before the DMA has
// read its bytes: flit i (the head is flit 0) crosses at the earliest 1 + i
// cycles after the offer, and needs the body bytes up to the end of its payload
// slice. When the DMA is at least as fast as the link the first body flit is the
// tightest, otherwise the last ones are: checking those is enough.
uint64_t NiSendEngine::offer_delay_cycles(uint32_t body_start, uint32_t frag) const {
    if (frag == 0) {
        return 0;
    }
    const uint64_t f = params_.flit_bytes;
    const uint64_t first = 2 + body_start / f;                 // flit holding body byte 0
    const uint64_t last = 1 + (body_start + frag + f - 1) / f; // the tail
    uint64_t delay = 0;
    for (uint64_t i : {first, last > first ? last - 1 : first, last}) {
        uint64_t end = std::min<uint64_t>((i - 1) * f, uint64_t(body_start) + frag);
        uint64_t need = end > body_start ? end - body_start : 0;
        uint64_t ready = params_.dma_cycles(static_cast<uint32_t>(need));
        if (ready > 1 + i) {
            delay = std::max(delay, ready - 1 - i);
        }
    }
    return delay;
}

// The send engine, one step per activation: take the next descriptor, plan its
// next packet (setups start once the DMA is free; the body DMA starts when the
// header is built, and the packet is offered while it runs: cut-through), build
// it at its offer time and offer it until the network takes it.
void NiSendEngine::run() {
    waits_for_work_ = false;
    for (;;) {
        const uint64_t now = common::sim_time().value();
        if (work_.pkt) {
            if (!network_.try_inject(router_, work_.pkt)) {
                sc_core::next_trigger(network_.injection_ready(router_));
                return;
            }
            packet_taken();
            continue;
        }
        if (work_.planned) {
            if (work_.offer_ps > now) {
                sc_core::next_trigger(sc_core::sc_time::from_value(work_.offer_ps - now));
                return;
            }
            work_.planned = false;
            work_.pkt = build_packet();
            continue;
        }
        if (!work_.active && !take_descriptor()) {
            sc_core::next_trigger(work_event_);
            waits_for_work_ = true;
            return;
        }
        plan_packet();
    }
}

// A push to an idle engine: it would run at once in this evaluation phase, take
// the descriptor and plan its first packet, with the same time and state as here,
// and then sleep until the offer. Doing the first step here and waking it at the
// offer saves that activation.
void NiSendEngine::descriptor_pushed() {
    if (!waits_for_work_ || work_.active || work_.planned || work_.pkt || !take_descriptor()) {
        work_event_.notify();
        return;
    }
    plan_packet();
    const uint64_t now = common::sim_time().value();
    if (work_.offer_ps > now) {
        work_event_.notify(sc_core::sc_time::from_value(work_.offer_ps - now));
    } else {
        work_event_.notify();
    }
}

bool NiSendEngine::take_descriptor() {
    if (serial_ >= core_.tx_pushed()) {
        return false;
    }
    const uint64_t now = common::sim_time().value();
    // Copy what the engine needs: the descriptor stays queued until retired.
    const NiTxDescriptor &queued = core_.tx_descriptor(serial_);
    work_.active = true;
    work_.serial = queued.serial;
    work_.message_id = (static_cast<uint64_t>(node_id_) << 40) | next_packet_id_;
    work_.dest = queued.dest;
    work_.body_addr = queued.body_addr;
    work_.body_bytes = queued.body_bytes;
    work_.seq = queued.seq;
    work_.header_bytes = static_cast<uint32_t>(queued.header.size());
    std::copy(queued.header.begin(), queued.header.end(), work_.header);
    work_.setup_cycles = params_.descriptor_setup_cycles;
    work_.offset = 0;
    work_.first = true;
    if (trace_.on()) {
        trace_.message_send_begins(now, work_.message_id, work_.dest, work_.header_bytes,
                                   work_.body_bytes);
    }
    return true;
}

void NiSendEngine::size_packet() {
    work_.hdr_bytes = work_.first ? work_.header_bytes : 0;
    const uint32_t room = params_.max_packet_payload_bytes - HW_NI_FRAME_BYTES - work_.hdr_bytes;
    work_.frag = std::min(work_.body_bytes - work_.offset, room);
    work_.last = work_.offset + work_.frag == work_.body_bytes;
}

void NiSendEngine::packet_taken() {
    ++packets_sent_;
    body_bytes_sent_ += work_.frag;
    work_.offset += work_.frag;
    work_.first = false;
    if (work_.last) {
        work_.active = false;
        ++serial_;
        if (trace_.on()) {
            trace_.message_send_ends(common::sim_time().value());
        }
    }
}

void NiSendEngine::plan_packet() {
    size_packet();
    const uint64_t now = common::sim_time().value();
    const uint64_t built = std::max(now, dma_free_ps_) +
                           params_.cycles_ps(work_.setup_cycles + params_.packet_setup_cycles);
    work_.offer_ps =
        built +
        params_.cycles_ps(offer_delay_cycles(HW_NI_FRAME_BYTES + work_.hdr_bytes, work_.frag));
    dma_free_ps_ = built + params_.cycles_ps(params_.dma_cycles(work_.frag));
    if (trace_.on() && work_.frag > 0) {
        trace_.tx_dma(built, dma_free_ps_);
    }
    work_.setup_cycles = 0;
    work_.planned = true;
}

// The whole fragment is read from memory when the packet is offered (docs/node.md,
// "Timing of one message").
net::PacketPtr NiSendEngine::build_packet() {
    const uint32_t hdr_bytes = work_.hdr_bytes, frag = work_.frag;
    net::PacketPtr pkt = net::make_packet();
    pkt->id = (static_cast<uint64_t>(node_id_) << 40) | next_packet_id_++;
    pkt->src_router = router_;
    pkt->dst_router = node_routers_[work_.dest];
    pkt->tag = work_.serial << 1 | (work_.last ? 1u : 0u);
    pkt->payload.resize(HW_NI_FRAME_BYTES + hdr_bytes + frag);
    if (work_.first && frag > 0) {
        // The receiver may act once the frame and software header are in.
        pkt->early_flits =
            2 + (HW_NI_FRAME_BYTES + hdr_bytes + params_.flit_bytes - 1) / params_.flit_bytes;
    }
    uint8_t *p = pkt->payload.data();
    hw_ni_put_word(p, HW_NI_FRAME_W0(node_id_, work_.seq));
    hw_ni_put_word(p + 4, hdr_bytes | (work_.first ? HW_NI_FRAME_FIRST : 0u) |
                              (work_.last ? HW_NI_FRAME_LAST : 0u));
    hw_ni_put_word(p + 8, work_.body_bytes);
    hw_ni_put_word(p + 12, work_.offset);
    if (hdr_bytes > 0) {
        std::memcpy(p + HW_NI_FRAME_BYTES, work_.header, hdr_bytes);
    }
    if (frag > 0) {
        std::memcpy(p + HW_NI_FRAME_BYTES + hdr_bytes,
                    memory_.span(work_.body_addr + work_.offset, frag), frag);
    }
    return pkt;
}

} // namespace starfish::node
