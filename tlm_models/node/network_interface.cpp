#include "tlm_models/node/network_interface.h"

#include "tlm_models/common/register_transport.h"
#include "tlm_models/common/sim_time.h"
#include "tlm_models/net/packet_pool.h"
#include "tlm_models/node/node_cpu.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace starfish::node {

namespace {

const char *error_name(uint32_t code) {
    static const char *const names[] = {
        "HW_NI_ERR_NONE",        "HW_NI_ERR_TX_ADDR", "HW_NI_ERR_TX_SIZE",   "HW_NI_ERR_TX_DEST",
        "HW_NI_ERR_TX_OVERFLOW", "HW_NI_ERR_RX_RING", "HW_NI_ERR_RX_HANDLE", "HW_NI_ERR_RX_CMD",
        "HW_NI_ERR_RX_ADDR",     "HW_NI_ERR_RX_POP",  "HW_NI_ERR_REG"};
    return code < sizeof(names) / sizeof(names[0]) ? names[code] : "HW_NI_ERR_?";
}

void put_le32(uint8_t *p, uint32_t v) {
    p[0] = static_cast<uint8_t>(v);
    p[1] = static_cast<uint8_t>(v >> 8);
    p[2] = static_cast<uint8_t>(v >> 16);
    p[3] = static_cast<uint8_t>(v >> 24);
}

uint32_t get_le32(const uint8_t *p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
           static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

} // namespace

nlohmann::json NetworkInterfaceStats::to_json() const {
    return nlohmann::json{{"messages_sent", messages_sent},
                          {"packets_sent", packets_sent},
                          {"body_bytes_sent", body_bytes_sent},
                          {"messages_received", messages_received},
                          {"packets_received", packets_received},
                          {"body_bytes_received", body_bytes_received},
                          {"body_bytes_deposited", body_bytes_deposited},
                          {"body_bytes_discarded", body_bytes_discarded},
                          {"rx_buffer_high_water", rx_buffer_high_water},
                          {"refusals", refusals},
                          {"refusals_ring_full", refusals_ring_full},
                          {"refusals_buffer_full", refusals_buffer_full},
                          {"refusals_disabled", refusals_disabled}};
}

NetworkInterfaceStats NetworkInterface::stats() const {
    NetworkInterfaceStats s = stats_;
    const NiCoreStats &core = core_.stats();
    s.messages_sent = core.messages_sent;
    s.messages_received = core.messages_received;
    s.body_bytes_deposited = core.body_bytes_deposited;
    s.body_bytes_discarded = core.body_bytes_discarded;
    s.rx_buffer_high_water = core.rx_buffer_high_water;
    return s;
}

NetworkInterface::NetworkInterface(sc_core::sc_module_name name,
                                   const NetworkInterfaceParams &params, int node_id,
                                   NodeMemory &memory, net::Network &network, int router,
                                   std::vector<int> node_routers)
    : sc_core::sc_module(name), regs("regs"), irq_rx("irq_rx"), irq_tx("irq_tx"),
      fault(node_id, "network interface"), params_(params), node_id_(node_id), memory_(memory),
      network_(network), router_(router), node_routers_(std::move(node_routers)),
      core_(NiCore::Config{static_cast<uint32_t>(node_id),
                           static_cast<uint32_t>(node_routers_.size()), params.tx_queue_depth,
                           params.rx_buffer_bytes},
            *this, memory.span(0, memory.size()), memory.size()) {
    if (params_.max_packet_payload_bytes < HW_NI_FRAME_BYTES + HW_NI_HDR_MAX_BYTES + 4 ||
        params_.max_packet_payload_bytes > HW_PKT_MAX_PAYLOAD_BYTES ||
        params_.rx_buffer_bytes < params_.max_packet_payload_bytes || params_.tx_queue_depth == 0 ||
        params_.dma_bytes_per_cycle == 0) {
        throw std::invalid_argument(std::string(this->name()) + ": inconsistent ni.* parameters");
    }
    regs.register_b_transport(this, &NetworkInterface::b_transport);
    network_.attach(router_, this);
    SC_METHOD(tx_engine);
    SC_METHOD(rx_dma_engine);
    sensitive << dma_due_;
    dont_initialize();
    SC_METHOD(drive_irqs);
    sensitive << irq_update_;
}

std::string NetworkInterface::node_prefix() const {
    return "node " + std::to_string(node_id_) + ": ";
}

// ---- registers -------------------------------------------------------------------

void NetworkInterface::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &) {
    IrqBatch batch(*this);
    complete_due_deposits();
    access_offset_ = static_cast<uint32_t>(trans.get_address());
    access_failed_ = false;
    common::transport_registers(core_.registers(), trans, trans.get_address());
    if (access_failed_) {
        // The access that caused the error fails, so the firmware stops right there.
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    }
    if (hub_ != nullptr) {
        trace_rx_ring();
    }
}

// The register write alone: what b_transport adds does nothing for an operand (no
// deposit completes at a time no method has reached yet; no line moves).
bool NetworkInterface::write_operand(uint32_t offset, uint32_t value) {
    access_offset_ = offset;
    access_failed_ = false;
    return core_.registers().write(offset, value) && !access_failed_;
}

void NetworkInterface::error(uint32_t code, const std::string &reg, const std::string &what) {
    access_failed_ = true;
    // reg is "at offset 0x..." for an offset that names no register.
    const bool named = hw_ni_reg_name(access_offset_) != nullptr;
    fault.register_fault(access_offset_, named ? reg : "", error_name(code), what);
}

void NetworkInterface::model_error(const std::string &what) {
    // The fault names the node already.
    const std::string prefix = node_prefix();
    fault.fault(what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what);
}

// ---- send side -------------------------------------------------------------------

// Cycles between building a packet's header (its body DMA starts then) and
// offering it, so that no flit crosses the injection channel before the DMA has
// read its bytes: flit i (the head is flit 0) crosses at the earliest 1 + i
// cycles after the offer, and needs the body bytes up to the end of its payload
// slice. When the DMA is at least as fast as the link the first body flit is the
// tightest, otherwise the last ones are: checking those is enough.
uint64_t NetworkInterface::offer_delay_cycles(uint32_t body_start, uint32_t frag) const {
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
        uint64_t ready = dma_cycles(static_cast<uint32_t>(need));
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
void NetworkInterface::tx_engine() {
    tx_waits_for_work_ = false;
    for (;;) {
        const uint64_t now = common::sim_time().value();
        if (tx_.pkt) {
            if (!network_.try_inject(router_, tx_.pkt)) {
                next_trigger(network_.injection_ready(router_));
                return;
            }
            packet_taken();
            continue;
        }
        if (tx_.planned) {
            if (tx_.offer_ps > now) {
                next_trigger(sc_core::sc_time::from_value(tx_.offer_ps - now));
                return;
            }
            tx_.planned = false;
            tx_.pkt = build_packet();
            continue;
        }
        if (!tx_.active && !take_descriptor()) {
            next_trigger(tx_work_);
            tx_waits_for_work_ = true;
            return;
        }
        plan_packet();
    }
}

// A push to an idle engine: it would run at once in this evaluation phase, take
// the descriptor and plan its first packet, with the same time and state as here,
// and then sleep until the offer. Doing the first step here and waking it at the
// offer saves that activation.
void NetworkInterface::ni_tx_pushed() {
    if (!tx_waits_for_work_ || tx_.active || tx_.planned || tx_.pkt || !take_descriptor()) {
        tx_work_.notify();
        return;
    }
    plan_packet();
    const uint64_t now = common::sim_time().value();
    if (tx_.offer_ps > now) {
        tx_work_.notify(sc_core::sc_time::from_value(tx_.offer_ps - now));
    } else {
        tx_work_.notify();
    }
}

bool NetworkInterface::take_descriptor() {
    if (tx_engine_serial_ >= core_.tx_pushed()) {
        return false;
    }
    const uint64_t now = common::sim_time().value();
    // Copy what the engine needs: the descriptor stays queued until retired.
    const NiTxDescriptor &queued = core_.tx_descriptor(tx_engine_serial_);
    tx_.active = true;
    tx_.serial = queued.serial;
    tx_.message_id = (static_cast<uint64_t>(node_id_) << 40) | next_packet_id_;
    tx_.dest = queued.dest;
    tx_.body_addr = queued.body_addr;
    tx_.body_bytes = queued.body_bytes;
    tx_.seq = queued.seq;
    tx_.header_bytes = static_cast<uint32_t>(queued.header.size());
    std::copy(queued.header.begin(), queued.header.end(), tx_.header);
    tx_.setup_cycles = params_.descriptor_setup_cycles;
    tx_.offset = 0;
    tx_.first = true;
    if (hub_ != nullptr) {
        hub_->set(sig_tx_msg_, now, static_cast<int64_t>(tx_.message_id));
        hub_->log({now, "NET", scope_, trace::Direction::Begin, "MSG", tx_.message_id,
                   "src=" + std::to_string(node_id_) + " dst=" + std::to_string(tx_.dest) +
                       " header=" + std::to_string(tx_.header_bytes) +
                       " bytes=" + std::to_string(tx_.body_bytes)});
    }
    return true;
}

void NetworkInterface::size_packet() {
    tx_.hdr_bytes = tx_.first ? tx_.header_bytes : 0;
    const uint32_t room = params_.max_packet_payload_bytes - HW_NI_FRAME_BYTES - tx_.hdr_bytes;
    tx_.frag = std::min(tx_.body_bytes - tx_.offset, room);
    tx_.last = tx_.offset + tx_.frag == tx_.body_bytes;
}

void NetworkInterface::packet_taken() {
    ++stats_.packets_sent;
    stats_.body_bytes_sent += tx_.frag;
    tx_.offset += tx_.frag;
    tx_.first = false;
    if (tx_.last) {
        tx_.active = false;
        ++tx_engine_serial_;
        if (hub_ != nullptr) {
            hub_->set(sig_tx_msg_, common::sim_time().value(), trace::kNoValue);
        }
    }
}

void NetworkInterface::plan_packet() {
    size_packet();
    const uint64_t now = common::sim_time().value();
    const uint64_t built =
        std::max(now, tx_dma_free_ps_) + cycles_ps(tx_.setup_cycles + params_.packet_setup_cycles);
    tx_.offer_ps =
        built + cycles_ps(offer_delay_cycles(HW_NI_FRAME_BYTES + tx_.hdr_bytes, tx_.frag));
    tx_dma_free_ps_ = built + cycles_ps(dma_cycles(tx_.frag));
    if (hub_ != nullptr && tx_.frag > 0) {
        hub_->set(sig_tx_dma_, built, 1);
        hub_->set(sig_tx_dma_, tx_dma_free_ps_, 0);
    }
    tx_.setup_cycles = 0;
    tx_.planned = true;
}

// The whole fragment is read from memory when the packet is offered (docs/node.md,
// "Timing of one message").
net::PacketPtr NetworkInterface::build_packet() {
    const uint32_t hdr_bytes = tx_.hdr_bytes, frag = tx_.frag;
    net::PacketPtr pkt = net::make_packet();
    pkt->id = (static_cast<uint64_t>(node_id_) << 40) | next_packet_id_++;
    pkt->src_router = router_;
    pkt->dst_router = node_routers_[tx_.dest];
    pkt->tag = tx_.serial << 1 | (tx_.last ? 1u : 0u);
    pkt->payload.resize(HW_NI_FRAME_BYTES + hdr_bytes + frag);
    if (tx_.first && frag > 0) {
        // The receiver may act once the frame and software header are in.
        pkt->early_flits =
            2 + (HW_NI_FRAME_BYTES + hdr_bytes + params_.flit_bytes - 1) / params_.flit_bytes;
    }
    uint8_t *p = pkt->payload.data();
    put_le32(p, HW_NI_FRAME_W0(node_id_, tx_.seq));
    put_le32(p + 4,
             hdr_bytes | (tx_.first ? HW_NI_FRAME_FIRST : 0u) | (tx_.last ? HW_NI_FRAME_LAST : 0u));
    put_le32(p + 8, tx_.body_bytes);
    put_le32(p + 12, tx_.offset);
    if (hdr_bytes > 0) {
        std::memcpy(p + HW_NI_FRAME_BYTES, tx_.header, hdr_bytes);
    }
    if (frag > 0) {
        std::memcpy(p + HW_NI_FRAME_BYTES + hdr_bytes,
                    memory_.span(tx_.body_addr + tx_.offset, frag), frag);
    }
    return pkt;
}

void NetworkInterface::injected(uint64_t tag) {
    IrqBatch batch(*this);
    if ((tag & 1u) == 0) {
        return;
    }
    if (!core_.tx_finished(tag >> 1)) {
        model_error(node_prefix() + "network reported an unknown packet tag injected");
    }
}

// ---- receive side ----------------------------------------------------------------

bool NetworkInterface::refuse(uint64_t &reason_counter) {
    ++stats_.refusals;
    ++reason_counter;
    refused_ = true;
    return false;
}

void NetworkInterface::ni_rx_space_returned() {
    if (refused_) {
        refused_ = false;
        network_.endpoint_ready(router_);
    }
}

void NetworkInterface::ni_deposit(uint32_t handle, NiFragment &&fragment) {
    DmaJob job;
    job.handle = handle;
    job.fragment = std::move(fragment);
    job.queued_ps = common::sim_time().value();
    dma_jobs_.push_back(std::move(job));
    // Never inside this call (NiCore is in the middle of an access): at the earliest
    // when the access is over, in the same evaluation phase.
    dma_due_.notify();
}

void NetworkInterface::ni_deposit_pending(uint32_t handle, uint32_t length) {
    // Deposited as it arrives: the job waits for the tail (ni_deposit_arrived).
    DmaJob job;
    job.handle = handle;
    job.fragment.length = length;
    job.arrived = false;
    job.queued_ps = common::sim_time().value();
    dma_jobs_.push_back(std::move(job));
    dma_due_.notify();
}

void NetworkInterface::ni_deposit_arrived(uint32_t handle, NiFragment &&fragment) {
    auto job = std::find_if(dma_jobs_.begin(), dma_jobs_.end(),
                            [&](const DmaJob &j) { return j.handle == handle && !j.arrived; });
    if (job == dma_jobs_.end()) {
        model_error(node_prefix() + "no deposit waits for the fragment of handle " +
                    std::to_string(handle));
        return;
    }
    job->fragment = std::move(fragment);
    job->arrived = true;
    job->tail_ps = common::sim_time().value();
    dma_due_.notify();
}

void NetworkInterface::arriving(const net::Packet &pkt) {
    IrqBatch batch(*this);
    complete_due_deposits();
    // Anything unusual is left to deliver(), which refuses or reports it.
    const std::vector<uint8_t> &p = pkt.payload;
    if (cut_through_.active || !core_.enabled() || p.size() < HW_NI_FRAME_BYTES) {
        return;
    }
    const uint32_t w0 = get_le32(p.data()), w1 = get_le32(p.data() + 4);
    const uint32_t body_bytes = get_le32(p.data() + 8), offset = get_le32(p.data() + 12);
    const uint32_t src = HW_NI_FRAME_SRC(w0);
    const bool first = (w1 & HW_NI_FRAME_FIRST) != 0, last = (w1 & HW_NI_FRAME_LAST) != 0;
    const uint32_t hdr_bytes = w1 & 0xffu;
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
    if (hub_ != nullptr) {
        trace_rx_ring();
    }
}

// The tail of a packet committed at arriving(): never refused.
bool NetworkInterface::deliver_cut_through(net::PacketPtr &pkt) {
    const CutThrough ct = cut_through_;
    cut_through_.active = false;
    ++stats_.packets_received;
    stats_.body_bytes_received += ct.length;
    NiFragment f;
    f.body_offset = 0;
    f.length = ct.length;
    f.start = ct.start;
    f.bytes = std::move(pkt->payload);
    if (hub_ != nullptr) {
        trace_received(ct.packet_id, ct.last, HW_NI_FRAME_SRC(get_le32(f.bytes.data())),
                       get_le32(f.bytes.data() + 8));
    }
    net::recycle(pkt);
    core_.fragment_arrived(ct.handle, std::move(f), true);
    return true;
}

bool NetworkInterface::deliver(net::PacketPtr &pkt) {
    IrqBatch batch(*this);
    complete_due_deposits();
    if (cut_through_.active && pkt->id == cut_through_.packet_id) {
        return deliver_cut_through(pkt);
    }
    const std::vector<uint8_t> &p = pkt->payload;
    if (p.size() < HW_NI_FRAME_BYTES) {
        model_error(node_prefix() + "packet of " + std::to_string(p.size()) +
                    " bytes is shorter than the NI frame");
        return false;
    }
    const uint32_t w0 = get_le32(p.data()), w1 = get_le32(p.data() + 4);
    const uint32_t body_bytes = get_le32(p.data() + 8), offset = get_le32(p.data() + 12);
    const uint32_t src = HW_NI_FRAME_SRC(w0);
    const uint16_t seq = static_cast<uint16_t>(HW_NI_FRAME_SEQ(w0));
    const bool first = (w1 & HW_NI_FRAME_FIRST) != 0, last = (w1 & HW_NI_FRAME_LAST) != 0;
    const uint32_t hdr_bytes = first ? (w1 & 0xffu) : 0;
    if (p.size() < HW_NI_FRAME_BYTES + hdr_bytes || hdr_bytes > HW_NI_HDR_MAX_BYTES) {
        model_error(node_prefix() + "malformed packet from node " + std::to_string(src));
        return false;
    }
    const uint32_t frag = static_cast<uint32_t>(p.size()) - HW_NI_FRAME_BYTES - hdr_bytes;
    if (offset + uint64_t(frag) > body_bytes || (last && offset + frag != body_bytes)) {
        model_error(node_prefix() + "packet from node " + std::to_string(src) +
                    " does not fit its message (offset " + std::to_string(offset) + ", " +
                    std::to_string(frag) + " of " + std::to_string(body_bytes) + " bytes)");
        return false;
    }
    const uint64_t buffer_free = core_.buffer_free();
    if (!core_.enabled()) {
        return refuse(stats_.refusals_disabled);
    }

    uint32_t handle = HW_NI_NONE;
    if (first) {
        if (reassembly_.count(src) != 0) {
            model_error(node_prefix() + "a new message from node " + std::to_string(src) +
                        " started before the previous one ended (network reordered packets)");
            return false;
        }
        if (offset != 0) {
            model_error(node_prefix() + "first packet from node " + std::to_string(src) +
                        " has body offset " + std::to_string(offset));
            return false;
        }
        if (!core_.ring_has_room()) {
            return refuse(stats_.refusals_ring_full);
        }
        if (frag > buffer_free) {
            return refuse(stats_.refusals_buffer_full);
        }
        if (body_bytes == 0 && !last) {
            model_error(node_prefix() + "message without body from node " + std::to_string(src) +
                        " spans several packets");
            return false;
        }
        handle = core_.begin_message(src, p.data() + HW_NI_FRAME_BYTES, hdr_bytes, body_bytes);
        if (handle != HW_NI_NONE && !last) {
            reassembly_[src] = Reassembly{seq, handle, body_bytes, frag, pkt->id};
        }
        if (hub_ != nullptr) {
            trace_received(pkt->id, last, src, body_bytes);
        }
    } else {
        auto it = reassembly_.find(src);
        if (it == reassembly_.end() || it->second.seq != seq || it->second.next_offset != offset ||
            it->second.body_bytes != body_bytes) {
            model_error(node_prefix() + "packet from node " + std::to_string(src) + " (sequence " +
                        std::to_string(seq) + ", offset " + std::to_string(offset) +
                        ") continues no message in reassembly");
            return false;
        }
        handle = it->second.handle;
        if (!core_.discarded(handle) && frag > buffer_free) {
            return refuse(stats_.refusals_buffer_full);
        }
        it->second.next_offset += frag;
        if (hub_ != nullptr) {
            trace_received(it->second.message_id, last, src, body_bytes);
        }
        if (last) {
            reassembly_.erase(it);
        }
    }

    ++stats_.packets_received;
    stats_.body_bytes_received += frag;
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

void NetworkInterface::rx_dma_engine() {
    IrqBatch batch(*this);
    complete_due_deposits();
}

// The receive DMA serves the deposits in order: each starts when the engine is free
// and the firmware has answered, and takes ni.packet_setup_cycles plus its bytes;
// a fragment deposited as it arrives ends no earlier than one DMA step (its last
// flit's bytes) after its tail. A deposit due at a time is complete before the
// packets and register accesses of that time are served, whoever comes first.
void NetworkInterface::complete_due_deposits() {
    if (dma_jobs_.empty()) {
        return; // the usual case: every register access and packet comes here first
    }
    const uint64_t now = common::sim_time().value();
    while (!dma_jobs_.empty()) {
        const DmaJob &job = dma_jobs_.front();
        if (!job.arrived) {
            return; // ni_deposit_arrived re-arms the engine
        }
        const uint32_t length = job.fragment.length;
        const uint64_t start = std::max(rx_dma_free_ps_, job.queued_ps);
        uint64_t done = start + cycles_ps(params_.packet_setup_cycles + dma_cycles(length));
        if (job.tail_ps != 0) {
            done = std::max(done, job.tail_ps +
                                      cycles_ps(dma_cycles(std::min(length, params_.flit_bytes))));
        }
        if (hub_ != nullptr && !job.traced) {
            // Shown from when the engine takes the job (records are never stamped
            // earlier than now).
            dma_jobs_.front().traced = true;
            hub_->set(sig_rx_dma_, std::max(start, now), 1);
            hub_->set(sig_rx_dma_, std::max(done, now), 0);
        }
        if (done > now) {
            dma_due_.notify(sc_core::sc_time::from_value(done - now));
            return;
        }
        rx_dma_free_ps_ = done;
        DmaJob finished = std::move(dma_jobs_.front());
        dma_jobs_.pop_front();
        core_.deposit(finished.handle, finished.fragment);
        net::recycle_buffer(std::move(finished.fragment.bytes));
    }
}

// ---- observation -------------------------------------------------------------------

void NetworkInterface::observe(trace::TraceHub *hub, const std::string &scope) {
    hub_ = hub;
    scope_ = scope;
    using trace::SignalKind;
    using trace::TimelineRole;
    const trace::Value none{trace::kNoValue, {}};
    sig_tx_msg_ = hub->signal({scope, "tx_msg", SignalKind::Int, 64, TimelineRole::None, ""}, none);
    sig_rx_msg_ = hub->signal({scope, "rx_msg", SignalKind::Int, 64, TimelineRole::None, ""}, none);
    sig_tx_dma_ = hub->signal({scope, "tx_dma", SignalKind::Bit, 1, TimelineRole::None, ""});
    sig_rx_dma_ = hub->signal({scope, "rx_dma", SignalKind::Bit, 1, TimelineRole::None, ""});
    sig_rx_ring_ = hub->signal({scope, "rx_ring", SignalKind::Int, 16, TimelineRole::Counter, ""});
}

void NetworkInterface::trace_received(uint64_t message_id, bool last, uint32_t src,
                                      uint32_t body_bytes) {
    const uint64_t now = common::sim_time().value();
    hub_->set(sig_rx_msg_, now, last ? trace::kNoValue : static_cast<int64_t>(message_id));
    if (last) {
        hub_->log({now, "NET", scope_, trace::Direction::End, "MSG", message_id,
                   "src=" + std::to_string(src) + " dst=" + std::to_string(node_id_) +
                       " bytes=" + std::to_string(body_bytes)});
    }
    trace_rx_ring();
}

void NetworkInterface::trace_rx_ring() {
    hub_->set(sig_rx_ring_, common::sim_time().value(), core_.rx_records());
}

// Most register accesses leave both lines as they are: then drive_irqs, which
// would write the values the lines hold already, is not run at all. Only when
// it wrote in this very delta cycle (a value not yet in the lines) it must run
// again, to write the final one. An entry point (IrqBatch) writes the lines
// itself when it ends: drive_irqs, notified at once, would write them later in
// the same evaluation phase, and the lines take the values in the same update
// phase either way (a method run less each time a line moves).
bool NetworkInterface::irqs_need_driving() const {
    return irq_write_delta_ == sc_core::sc_delta_count() || core_.rx_irq() != irq_rx_written_ ||
           core_.tx_irq() != irq_tx_written_;
}

void NetworkInterface::ni_irqs_changed() {
    if (irq_batch_depth_ > 0) {
        irqs_changed_in_batch_ = true;
    } else if (irqs_need_driving()) {
        irq_update_.notify();
    }
}

NetworkInterface::IrqBatch::~IrqBatch() {
    if (--ni_.irq_batch_depth_ == 0 && ni_.irqs_changed_in_batch_) {
        ni_.irqs_changed_in_batch_ = false;
        if (ni_.irqs_need_driving()) {
            ni_.drive_irqs();
        }
    }
}

void NetworkInterface::drive_irqs() {
    irq_rx_written_ = core_.rx_irq();
    irq_tx_written_ = core_.tx_irq();
    irq_write_delta_ = sc_core::sc_delta_count();
    irq_rx.write(irq_rx_written_);
    irq_tx.write(irq_tx_written_);
}

} // namespace starfish::node
