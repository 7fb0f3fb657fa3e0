#include "tlm_models/node/network_interface.h"

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

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string range_text(uint32_t addr, uint32_t bytes) {
    return "[" + hex(addr) + ", +" + std::to_string(bytes) + ")";
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

bool is_read_only(uint32_t offset) {
    switch (offset) {
    case HW_NI_REG_ID:
    case HW_NI_REG_NODE:
    case HW_NI_REG_ERROR:
    case HW_NI_REG_TX_FREE:
    case HW_NI_REG_TX_DONE:
    case HW_NI_REG_RX_COUNT:
    case HW_NI_REG_RX_INDEX:
        return true;
    default:
        return false;
    }
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

NetworkInterface::NetworkInterface(sc_core::sc_module_name name,
                                   const NetworkInterfaceParams &params, int node_id,
                                   NodeMemory &memory, net::Network &network, int router,
                                   std::vector<int> node_routers)
    : sc_core::sc_module(name), regs("regs"), irq_rx("irq_rx"), irq_tx("irq_tx"),
      fault(node_id, "network interface"), params_(params), node_id_(node_id), memory_(memory),
      network_(network), router_(router), node_routers_(std::move(node_routers)) {
    if (params_.max_packet_payload_bytes < HW_NI_FRAME_BYTES + HW_NI_HDR_MAX_BYTES + 4 ||
        params_.max_packet_payload_bytes > HW_PKT_MAX_PAYLOAD_BYTES ||
        params_.rx_buffer_bytes < params_.max_packet_payload_bytes || params_.tx_queue_depth == 0 ||
        params_.dma_bytes_per_cycle == 0) {
        throw std::invalid_argument(std::string(this->name()) + ": inconsistent ni.* parameters");
    }
    regs.register_b_transport(this, &NetworkInterface::b_transport);
    network_.attach(router_, this);
    SC_THREAD(tx_engine);
    SC_THREAD(rx_dma_engine);
    SC_METHOD(drive_irqs);
    sensitive << irq_update_;
}

std::string NetworkInterface::node_prefix() const {
    return "node " + std::to_string(node_id_) + ": ";
}

// ---- registers -------------------------------------------------------------------

void NetworkInterface::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &) {
    uint64_t offset = trans.get_address();
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    access_offset_ = static_cast<uint32_t>(offset);
    if (trans.get_data_length() != 4 || offset % 4 != 0 || offset >= HW_NI_SIZE ||
        trans.get_byte_enable_ptr() != nullptr || trans.get_streaming_width() < 4) {
        const char *reg = hw_ni_reg_name(static_cast<uint32_t>(offset));
        error(HW_NI_ERR_REG, reg != nullptr ? reg : "at offset " + hex(offset),
              "access of " + std::to_string(trans.get_data_length()) + " bytes at offset " +
                  hex(offset) + " (registers are 32-bit, word aligned)");
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    uint32_t value = 0;
    access_failed_ = false;
    if (trans.is_read()) {
        value = read_register(static_cast<uint32_t>(offset));
        std::memcpy(trans.get_data_ptr(), &value, 4);
    } else if (trans.is_write()) {
        std::memcpy(&value, trans.get_data_ptr(), 4);
        write_register(static_cast<uint32_t>(offset), value);
    }
    if (access_failed_) {
        // The access that caused the error fails, so the firmware stops right there.
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    }
}

uint32_t NetworkInterface::read_register(uint32_t offset) {
    switch (offset) {
    case HW_NI_REG_ID:
        return HW_NI_ID_VALUE;
    case HW_NI_REG_NODE:
        return static_cast<uint32_t>(node_id_);
    case HW_NI_REG_CTRL:
        return ctrl_;
    case HW_NI_REG_ERROR:
        return error_;
    case HW_NI_REG_TX_DEST:
        return tx_dest_;
    case HW_NI_REG_TX_HDR_ADDR:
        return tx_hdr_addr_;
    case HW_NI_REG_TX_HDR_BYTES:
        return tx_hdr_bytes_;
    case HW_NI_REG_TX_BODY_ADDR:
        return tx_body_addr_;
    case HW_NI_REG_TX_BODY_BYTES:
        return tx_body_bytes_;
    case HW_NI_REG_TX_COOKIE:
        return tx_cookie_;
    case HW_NI_REG_TX_FREE:
        return tx_free();
    case HW_NI_REG_TX_DONE: {
        if (tx_done_.empty()) {
            return HW_NI_NONE;
        }
        uint32_t cookie = tx_done_.front();
        tx_done_.pop_front();
        retire_descriptors();
        irqs_changed();
        return cookie;
    }
    case HW_NI_REG_RX_RING_BASE:
        return rx_ring_base_;
    case HW_NI_REG_RX_RING_SLOTS:
        return rx_ring_slots_;
    case HW_NI_REG_RX_COUNT:
        return rx_count_;
    case HW_NI_REG_RX_INDEX:
        return rx_index_;
    case HW_NI_REG_RX_BODY_ADDR:
        return rx_body_addr_;
    case HW_NI_REG_RX_COOKIE:
        return rx_cookie_;
    case HW_NI_REG_TX_PUSH:
    case HW_NI_REG_RX_POP:
    case HW_NI_REG_RX_CMD:
        return 0; // write-only registers read as 0
    default:
        error(HW_NI_ERR_REG, "at offset " + hex(offset), "read of an undefined register");
        return 0;
    }
}

void NetworkInterface::write_register(uint32_t offset, uint32_t value) {
    if (is_read_only(offset)) {
        error(HW_NI_ERR_REG, hw_ni_reg_name(offset), "write to a read-only register");
        return;
    }
    switch (offset) {
    case HW_NI_REG_CTRL:
        set_ctrl(value);
        break;
    case HW_NI_REG_TX_DEST:
        tx_dest_ = value;
        break;
    case HW_NI_REG_TX_HDR_ADDR:
        tx_hdr_addr_ = value;
        break;
    case HW_NI_REG_TX_HDR_BYTES:
        tx_hdr_bytes_ = value;
        break;
    case HW_NI_REG_TX_BODY_ADDR:
        tx_body_addr_ = value;
        break;
    case HW_NI_REG_TX_BODY_BYTES:
        tx_body_bytes_ = value;
        break;
    case HW_NI_REG_TX_COOKIE:
        tx_cookie_ = value;
        break;
    case HW_NI_REG_TX_PUSH:
        push_descriptor(value);
        break;
    case HW_NI_REG_RX_RING_BASE:
    case HW_NI_REG_RX_RING_SLOTS:
        if (ctrl_ & HW_NI_CTRL_ENABLE) {
            error(HW_NI_ERR_RX_RING, hw_ni_reg_name(offset),
                  "ring changed while CTRL.ENABLE is set");
            return;
        }
        (offset == HW_NI_REG_RX_RING_BASE ? rx_ring_base_ : rx_ring_slots_) = value;
        break;
    case HW_NI_REG_RX_POP:
        pop_record();
        break;
    case HW_NI_REG_RX_BODY_ADDR:
        rx_body_addr_ = value;
        break;
    case HW_NI_REG_RX_COOKIE:
        rx_cookie_ = value;
        break;
    case HW_NI_REG_RX_CMD:
        rx_command(value);
        break;
    default:
        error(HW_NI_ERR_REG, "at offset " + hex(offset), "write to an undefined register");
    }
}

void NetworkInterface::error(uint32_t code, const std::string &reg, const std::string &what) {
    access_failed_ = true;
    if (error_ == HW_NI_ERR_NONE) {
        error_ = code;
    }
    // reg is "at offset 0x..." for an offset that names no register.
    const bool named = hw_ni_reg_name(access_offset_) != nullptr;
    fault.register_fault(access_offset_, named ? reg : "", error_name(code), what);
}

void NetworkInterface::model_error(const std::string &what) {
    // The fault names the node already.
    const std::string prefix = node_prefix();
    fault.fault(what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what);
}

void NetworkInterface::set_ctrl(uint32_t value) {
    const uint32_t defined =
        HW_NI_CTRL_ENABLE | HW_NI_CTRL_RX_IRQ | HW_NI_CTRL_TX_IRQ | HW_NI_CTRL_TX_SPACE_IRQ;
    value &= defined;
    bool enabling = (value & HW_NI_CTRL_ENABLE) && !(ctrl_ & HW_NI_CTRL_ENABLE);
    if (enabling) {
        uint32_t slots = rx_ring_slots_;
        uint64_t end = uint64_t(rx_ring_base_) + uint64_t(slots) * HW_NI_RX_RECORD_BYTES;
        std::string why;
        if (slots < 2 || (slots & (slots - 1)) != 0) {
            why = "RX_RING_SLOTS = " + std::to_string(slots) + " is not a power of two >= 2";
        } else if (rx_ring_base_ % HW_NI_RX_RECORD_BYTES != 0) {
            why = "RX_RING_BASE = " + hex(rx_ring_base_) + " is not " +
                  std::to_string(HW_NI_RX_RECORD_BYTES) + "-byte aligned";
        } else if (end > memory_.size()) {
            why = "ring [" + hex(rx_ring_base_) + ", " + hex(end) + ") lies outside node memory (" +
                  std::to_string(memory_.size()) + " bytes)";
        }
        if (!why.empty()) {
            error(HW_NI_ERR_RX_RING, "CTRL", "enable with a bad ring: " + why);
            return;
        }
        rx_index_ = 0;
        rx_count_ = 0;
    }
    ctrl_ = value;
    if (enabling) {
        flush_done_records();
        space_returned();
    }
    irqs_changed();
}

// ---- send side -------------------------------------------------------------------

void NetworkInterface::push_descriptor(uint32_t flags) {
    const char *reg = "TX_PUSH";
    if (tx_free() == 0) {
        error(HW_NI_ERR_TX_OVERFLOW, reg,
              "push while TX_FREE is 0 (all " + std::to_string(params_.tx_queue_depth) +
                  " send-queue slots busy)");
        return;
    }
    if (tx_hdr_bytes_ % 4 != 0 || tx_hdr_bytes_ > HW_NI_HDR_MAX_BYTES) {
        error(HW_NI_ERR_TX_SIZE, reg,
              "TX_HDR_BYTES = " + std::to_string(tx_hdr_bytes_) + " is not a multiple of 4 in 0.." +
                  std::to_string(HW_NI_HDR_MAX_BYTES));
        return;
    }
    if (tx_body_bytes_ > HW_NI_MAX_BODY_BYTES) {
        error(HW_NI_ERR_TX_SIZE, reg,
              "TX_BODY_BYTES = " + std::to_string(tx_body_bytes_) + " exceeds " +
                  std::to_string(HW_NI_MAX_BODY_BYTES));
        return;
    }
    if (tx_hdr_bytes_ == 0 && tx_body_bytes_ == 0) {
        error(HW_NI_ERR_TX_SIZE, reg, "empty message (TX_HDR_BYTES and TX_BODY_BYTES are 0)");
        return;
    }
    if (tx_dest_ >= node_routers_.size()) {
        error(HW_NI_ERR_TX_DEST, reg,
              "TX_DEST = " + std::to_string(tx_dest_) + " names no node (" +
                  std::to_string(node_routers_.size()) + " nodes)");
        return;
    }
    if (tx_hdr_bytes_ > 0 && !memory_.contains(tx_hdr_addr_, tx_hdr_bytes_)) {
        error(HW_NI_ERR_TX_ADDR, reg,
              "header " + range_text(tx_hdr_addr_, tx_hdr_bytes_) + " lies outside node memory (" +
                  std::to_string(memory_.size()) + " bytes)");
        return;
    }
    if (tx_body_bytes_ > 0 && !memory_.contains(tx_body_addr_, tx_body_bytes_)) {
        error(HW_NI_ERR_TX_ADDR, reg,
              "body " + range_text(tx_body_addr_, tx_body_bytes_) + " lies outside node memory (" +
                  std::to_string(memory_.size()) + " bytes)");
        return;
    }
    TxDescriptor d;
    d.serial = next_tx_serial_++;
    d.dest = tx_dest_;
    d.body_addr = tx_body_addr_;
    d.body_bytes = tx_body_bytes_;
    d.cookie = tx_cookie_;
    d.notify = (flags & HW_NI_TX_NOTIFY) != 0;
    d.seq = next_seq_++;
    const uint8_t *hdr = memory_.span(tx_hdr_addr_, tx_hdr_bytes_);
    d.header.assign(hdr, hdr + tx_hdr_bytes_);
    txq_.push_back(std::move(d));
    tx_work_.notify();
    irqs_changed();
}

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

void NetworkInterface::tx_engine() {
    const uint32_t max_payload = params_.max_packet_payload_bytes;
    uint64_t dma_free_ps = 0; // the DMA has read the previous fragment by then
    for (;;) {
        while (tx_engine_serial_ >= next_tx_serial_) {
            sc_core::wait(tx_work_);
        }
        // Copy what the engine needs: the descriptor stays queued until retired.
        const TxDescriptor &queued = txq_[tx_engine_serial_ - txq_front_serial_];
        const uint64_t serial = queued.serial;
        const uint32_t dest = queued.dest;
        const uint32_t body_addr = queued.body_addr;
        const uint32_t body_bytes = queued.body_bytes;
        const uint16_t seq = queued.seq;
        const std::vector<uint8_t> header = queued.header;

        uint64_t setup_cycles = params_.descriptor_setup_cycles;
        uint32_t offset = 0;
        bool first = true;
        for (;;) {
            uint32_t hdr_bytes = first ? static_cast<uint32_t>(header.size()) : 0;
            uint32_t room = max_payload - HW_NI_FRAME_BYTES - hdr_bytes;
            uint32_t frag = std::min(body_bytes - offset, room);
            bool last = offset + frag == body_bytes;
            // Setups start once the DMA is free; the body DMA starts when the header
            // is built, and the packet is offered while it runs (cut-through).
            const uint64_t now = sc_core::sc_time_stamp().value();
            const uint64_t built =
                std::max(now, dma_free_ps) + cycles_ps(setup_cycles + params_.packet_setup_cycles);
            const uint64_t offer =
                built + cycles_ps(offer_delay_cycles(HW_NI_FRAME_BYTES + hdr_bytes, frag));
            dma_free_ps = built + cycles_ps(dma_cycles(frag));
            setup_cycles = 0;
            if (offer > now) {
                sc_core::wait(sc_core::sc_time::from_value(offer - now));
            }
            // The whole fragment is read from memory now, when the packet is offered
            // (docs/node.md, "Timing of one message").
            auto pkt = std::make_unique<net::Packet>();
            pkt->id = (static_cast<uint64_t>(node_id_) << 40) | next_packet_id_++;
            pkt->src_router = router_;
            pkt->dst_router = node_routers_[dest];
            pkt->tag = serial << 1 | (last ? 1u : 0u);
            pkt->payload.resize(HW_NI_FRAME_BYTES + hdr_bytes + frag);
            if (first && frag > 0) {
                // The receiver may act once the frame and software header are in.
                pkt->early_flits = 2 + (HW_NI_FRAME_BYTES + hdr_bytes + params_.flit_bytes - 1) /
                                           params_.flit_bytes;
            }
            uint8_t *p = pkt->payload.data();
            put_le32(p, HW_NI_FRAME_W0(node_id_, seq));
            put_le32(p + 4,
                     hdr_bytes | (first ? HW_NI_FRAME_FIRST : 0u) | (last ? HW_NI_FRAME_LAST : 0u));
            put_le32(p + 8, body_bytes);
            put_le32(p + 12, offset);
            if (hdr_bytes > 0) {
                std::memcpy(p + HW_NI_FRAME_BYTES, header.data(), hdr_bytes);
            }
            if (frag > 0) {
                std::memcpy(p + HW_NI_FRAME_BYTES + hdr_bytes,
                            memory_.span(body_addr + offset, frag), frag);
            }
            while (!network_.try_inject(router_, pkt)) {
                sc_core::wait(network_.injection_ready(router_));
            }
            ++stats_.packets_sent;
            stats_.body_bytes_sent += frag;
            offset += frag;
            first = false;
            if (last) {
                break;
            }
        }
        ++tx_engine_serial_;
    }
}

void NetworkInterface::injected(uint64_t tag) {
    if ((tag & 1u) == 0) {
        return;
    }
    uint64_t serial = tag >> 1;
    if (serial < txq_front_serial_ || serial - txq_front_serial_ >= txq_.size()) {
        model_error(node_prefix() + "network reported an unknown packet tag injected");
        return;
    }
    txq_[serial - txq_front_serial_].finished = true;
    retire_descriptors();
}

void NetworkInterface::retire_descriptors() {
    bool changed = false;
    while (!txq_.empty() && txq_.front().finished) {
        const TxDescriptor &d = txq_.front();
        if (d.notify) {
            if (tx_done_.size() >= params_.tx_queue_depth) {
                break; // its slot frees when the firmware drains TX_DONE
            }
            tx_done_.push_back(d.cookie);
        }
        ++stats_.messages_sent;
        txq_.pop_front();
        ++txq_front_serial_;
        changed = true;
    }
    if (changed) {
        irqs_changed();
    }
}

// ---- receive side ----------------------------------------------------------------

bool NetworkInterface::refuse(uint64_t &reason_counter) {
    ++stats_.refusals;
    ++reason_counter;
    refused_ = true;
    return false;
}

void NetworkInterface::space_returned() {
    if (refused_) {
        refused_ = false;
        network_.endpoint_ready(router_);
    }
}

void NetworkInterface::buffer_add(uint32_t bytes) {
    rx_buffered_ += bytes;
    stats_.rx_buffer_high_water = std::max(stats_.rx_buffer_high_water, rx_buffered_);
}

void NetworkInterface::buffer_release(uint32_t bytes) {
    rx_buffered_ -= bytes;
}

uint32_t NetworkInterface::allocate_handle() {
    for (;;) {
        uint32_t h = next_handle_;
        next_handle_ = (next_handle_ + 1) & 0x00ffffffu;
        if (rx_messages_.find(h) == rx_messages_.end()) {
            return h;
        }
    }
}

void NetworkInterface::write_header_record(unsigned src, uint32_t handle, uint32_t hdr_bytes,
                                           uint32_t body_bytes, const uint8_t *header) {
    hw_ni_rx_record_t rec;
    std::memset(&rec, 0, sizeof rec);
    rec.kind = HW_NI_REC_HEADER;
    rec.src_node = src;
    rec.handle = handle;
    rec.hdr_bytes = hdr_bytes;
    rec.body_bytes = body_bytes;
    std::memcpy(rec.header, header, hdr_bytes);
    write_record(rec);
    ++stats_.messages_received;
}

void NetworkInterface::write_record(const hw_ni_rx_record_t &rec) {
    uint32_t slot = (rx_index_ + rx_count_) & (rx_ring_slots_ - 1);
    uint8_t *dst =
        memory_.span(rx_ring_base_ + slot * HW_NI_RX_RECORD_BYTES, HW_NI_RX_RECORD_BYTES);
    std::memcpy(dst, &rec, sizeof rec);
    ++rx_count_;
    irqs_changed();
}

void NetworkInterface::flush_done_records() {
    while (!pending_done_.empty() && (ctrl_ & HW_NI_CTRL_ENABLE) && rx_count_ < rx_ring_slots_) {
        write_record(pending_done_.front());
        pending_done_.pop_front();
    }
}

void NetworkInterface::arriving(const net::Packet &pkt) {
    // Anything unusual is left to deliver(), which refuses or reports it.
    const std::vector<uint8_t> &p = pkt.payload;
    if (cut_through_.active || !(ctrl_ & HW_NI_CTRL_ENABLE) || p.size() < HW_NI_FRAME_BYTES) {
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
        rx_count_ >= rx_ring_slots_ || !pending_done_.empty() ||
        frag > params_.rx_buffer_bytes - rx_buffered_) {
        return;
    }
    // Committed: the HEADER record now, the fragment's buffer space reserved.
    const uint32_t handle = allocate_handle();
    RxMessage &m = rx_messages_[handle];
    m.handle = handle;
    m.src = src;
    m.body_bytes = body_bytes;
    m.inflight = frag;
    if (!last) {
        reassembly_[src] =
            Reassembly{static_cast<uint16_t>(HW_NI_FRAME_SEQ(w0)), handle, body_bytes, frag};
    }
    buffer_add(frag);
    write_header_record(src, handle, hdr_bytes, body_bytes, p.data() + HW_NI_FRAME_BYTES);
    cut_through_ = CutThrough{true, pkt.id, handle, frag, HW_NI_FRAME_BYTES + hdr_bytes};
}

// The tail of a packet committed at arriving(): never refused.
bool NetworkInterface::deliver_cut_through(net::PacketPtr &pkt) {
    const CutThrough ct = cut_through_;
    cut_through_.active = false;
    ++stats_.packets_received;
    stats_.body_bytes_received += ct.length;
    RxMessage &m = rx_messages_.at(ct.handle);
    m.arrived += ct.length;
    m.inflight = 0;
    Fragment f;
    f.body_offset = 0;
    f.length = ct.length;
    f.start = ct.start;
    if (m.state == RxState::Discarded) {
        stats_.body_bytes_discarded += ct.length; // its space was freed at DISCARD
        finish_if_complete(m);
    } else if (m.state == RxState::Waiting) {
        f.bytes = std::move(pkt->payload);
        m.buffered.push_back(std::move(f));
    } else {
        // ACCEPTed while arriving: its deposit job is queued, waiting for the tail.
        auto job = std::find_if(dma_jobs_.begin(), dma_jobs_.end(), [&](const DmaJob &j) {
            return j.handle == ct.handle && !j.arrived;
        });
        if (job == dma_jobs_.end()) {
            model_error(node_prefix() + "no deposit waits for the fragment of handle " +
                        std::to_string(ct.handle));
            return false;
        }
        f.bytes = std::move(pkt->payload);
        job->fragment = std::move(f);
        job->arrived = true;
        job->tail_ps = sc_core::sc_time_stamp().value();
        tail_arrived_.notify();
    }
    pkt.reset();
    return true;
}

bool NetworkInterface::deliver(net::PacketPtr &pkt) {
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
    const uint64_t buffer_free = params_.rx_buffer_bytes - rx_buffered_;
    if (!(ctrl_ & HW_NI_CTRL_ENABLE)) {
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
        if (rx_count_ >= rx_ring_slots_ || !pending_done_.empty()) {
            return refuse(stats_.refusals_ring_full);
        }
        if (frag > buffer_free) {
            return refuse(stats_.refusals_buffer_full);
        }
        if (body_bytes > 0) {
            handle = allocate_handle();
            RxMessage &m = rx_messages_[handle];
            m.handle = handle;
            m.src = src;
            m.body_bytes = body_bytes;
            if (!last) {
                reassembly_[src] = Reassembly{seq, handle, body_bytes, frag};
            }
        } else if (!last) {
            model_error(node_prefix() + "message without body from node " + std::to_string(src) +
                        " spans several packets");
            return false;
        }
        write_header_record(src, handle, hdr_bytes, body_bytes, p.data() + HW_NI_FRAME_BYTES);
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
        if (rx_messages_.at(handle).state != RxState::Discarded && frag > buffer_free) {
            return refuse(stats_.refusals_buffer_full);
        }
        it->second.next_offset += frag;
        if (last) {
            reassembly_.erase(it);
        }
    }

    ++stats_.packets_received;
    stats_.body_bytes_received += frag;
    if (handle != HW_NI_NONE) {
        RxMessage &m = rx_messages_.at(handle);
        m.arrived += frag;
        if (m.state == RxState::Discarded) {
            stats_.body_bytes_discarded += frag;
            finish_if_complete(m);
        } else if (frag > 0) {
            Fragment f;
            f.body_offset = offset;
            f.length = frag;
            f.start = HW_NI_FRAME_BYTES + hdr_bytes;
            f.bytes = std::move(pkt->payload);
            buffer_add(frag);
            if (m.state == RxState::Waiting) {
                m.buffered.push_back(std::move(f));
            } else {
                dma_jobs_.push_back(DmaJob{handle, std::move(f), true, 0});
                dma_work_.notify();
            }
        }
    }
    pkt.reset();
    return true;
}

void NetworkInterface::pop_record() {
    if (rx_count_ == 0) {
        error(HW_NI_ERR_RX_POP, "RX_POP", "pop with no waiting record (RX_COUNT is 0)");
        return;
    }
    rx_index_ = (rx_index_ + 1) & (rx_ring_slots_ - 1);
    --rx_count_;
    flush_done_records();
    space_returned();
    irqs_changed();
}

void NetworkInterface::rx_command(uint32_t value) {
    const unsigned op = HW_NI_RX_CMD_OP(value);
    const uint32_t handle = HW_NI_RX_CMD_HANDLE(value);
    if (op != HW_NI_RX_ACCEPT && op != HW_NI_RX_ACCEPT_NOTIFY && op != HW_NI_RX_DISCARD) {
        error(HW_NI_ERR_RX_CMD, "RX_CMD", "unknown op " + std::to_string(op) + " in " + hex(value));
        return;
    }
    auto it = rx_messages_.find(handle);
    if (it == rx_messages_.end() || it->second.state != RxState::Waiting) {
        error(HW_NI_ERR_RX_HANDLE, "RX_CMD",
              "handle " + std::to_string(handle) + " names no message waiting for an answer");
        return;
    }
    RxMessage &m = it->second;
    if (op == HW_NI_RX_DISCARD) {
        m.state = RxState::Discarded;
        for (const Fragment &f : m.buffered) {
            buffer_release(f.length);
            stats_.body_bytes_discarded += f.length;
        }
        m.buffered.clear();
        buffer_release(m.inflight); // the arriving fragment will be dropped
        finish_if_complete(m);      // may erase m
        space_returned();
        return;
    }
    if (!memory_.contains(rx_body_addr_, m.body_bytes)) {
        error(HW_NI_ERR_RX_ADDR, "RX_CMD",
              "body " + range_text(rx_body_addr_, m.body_bytes) + " of handle " +
                  std::to_string(handle) + " lies outside node memory (" +
                  std::to_string(memory_.size()) + " bytes)");
        return;
    }
    m.state = RxState::Accepted;
    m.notify = op == HW_NI_RX_ACCEPT_NOTIFY;
    m.body_addr = rx_body_addr_;
    m.cookie = rx_cookie_;
    for (Fragment &f : m.buffered) {
        dma_jobs_.push_back(DmaJob{handle, std::move(f), true, 0});
    }
    m.buffered.clear();
    if (m.inflight > 0) {
        // Deposited as it arrives: the job waits for the tail (deliver_cut_through).
        DmaJob job;
        job.handle = handle;
        job.fragment.length = m.inflight;
        job.arrived = false;
        dma_jobs_.push_back(std::move(job));
    }
    dma_work_.notify();
}

void NetworkInterface::finish_if_complete(RxMessage &m) {
    if (m.arrived != m.body_bytes) {
        return;
    }
    if (m.state == RxState::Accepted && m.deposited == m.body_bytes) {
        if (m.notify) {
            hw_ni_rx_record_t rec;
            std::memset(&rec, 0, sizeof rec);
            rec.kind = HW_NI_REC_DONE;
            rec.src_node = m.src;
            rec.handle = m.handle;
            rec.cookie = m.cookie;
            rec.body_bytes = m.body_bytes;
            pending_done_.push_back(rec);
            flush_done_records();
        }
        rx_messages_.erase(m.handle);
    } else if (m.state == RxState::Discarded) {
        rx_messages_.erase(m.handle);
    }
}

void NetworkInterface::rx_dma_engine() {
    for (;;) {
        while (dma_jobs_.empty()) {
            sc_core::wait(dma_work_);
        }
        const uint32_t length = dma_jobs_.front().fragment.length;
        uint64_t cycles = params_.packet_setup_cycles + dma_cycles(length);
        if (cycles > 0) {
            sc_core::wait(sc_core::sc_time::from_value(cycles_ps(cycles)));
        }
        // A fragment deposited as it arrives ends one DMA step (its last flit's
        // bytes) after its tail, if that is later.
        while (!dma_jobs_.front().arrived) {
            sc_core::wait(tail_arrived_);
        }
        const uint64_t end =
            dma_jobs_.front().tail_ps + cycles_ps(dma_cycles(std::min(length, params_.flit_bytes)));
        const uint64_t now = sc_core::sc_time_stamp().value();
        if (end > now) {
            sc_core::wait(sc_core::sc_time::from_value(end - now));
        }
        DmaJob job = std::move(dma_jobs_.front());
        dma_jobs_.pop_front();
        RxMessage &m = rx_messages_.at(job.handle);
        const Fragment &f = job.fragment;
        std::memcpy(memory_.span(m.body_addr + f.body_offset, f.length), f.bytes.data() + f.start,
                    f.length);
        m.deposited += f.length;
        stats_.body_bytes_deposited += f.length;
        buffer_release(f.length);
        finish_if_complete(m);
        space_returned();
    }
}

void NetworkInterface::drive_irqs() {
    irq_rx.write(rx_count_ > 0 && (ctrl_ & HW_NI_CTRL_RX_IRQ) != 0);
    irq_tx.write((!tx_done_.empty() && (ctrl_ & HW_NI_CTRL_TX_IRQ) != 0) ||
                 (tx_free() > 0 && (ctrl_ & HW_NI_CTRL_TX_SPACE_IRQ) != 0));
}

} // namespace starfish::node
