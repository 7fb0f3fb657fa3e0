#include "tlm_models/node/ni_core.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace starfish::node {

namespace {

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string range_text(uint32_t addr, uint32_t bytes) {
    return "[" + hex(addr) + ", +" + std::to_string(bytes) + ")";
}

} // namespace

void NiHeaderBytes::assign(const uint8_t *first, const uint8_t *last) {
    const size_t n = static_cast<size_t>(last - first);
    if (n > bytes.size()) {
        throw std::length_error("NiHeaderBytes: a header of " + std::to_string(n) +
                                " bytes (at most HW_NI_HDR_MAX_BYTES)");
    }
    std::copy(first, last, bytes.begin());
    count = static_cast<uint32_t>(n);
}

NiCore::NiCore(const Config &config, Client &client, uint8_t *memory, uint32_t memory_bytes)
    : config_(config), client_(client), memory_(memory), memory_bytes_(memory_bytes),
      regs_(hw_ni_register_table, HW_NI_SIZE), ctrl_(regs_.storage(HW_NI_REG_CTRL)),
      error_(regs_.storage(HW_NI_REG_ERROR)), tx_dest_(regs_.storage(HW_NI_REG_TX_DEST)),
      tx_hdr_addr_(regs_.storage(HW_NI_REG_TX_HDR_ADDR)),
      tx_hdr_bytes_(regs_.storage(HW_NI_REG_TX_HDR_BYTES)),
      tx_body_addr_(regs_.storage(HW_NI_REG_TX_BODY_ADDR)),
      tx_body_bytes_(regs_.storage(HW_NI_REG_TX_BODY_BYTES)),
      tx_cookie_(regs_.storage(HW_NI_REG_TX_COOKIE)),
      rx_ring_base_(regs_.storage(HW_NI_REG_RX_RING_BASE)),
      rx_ring_slots_(regs_.storage(HW_NI_REG_RX_RING_SLOTS)),
      rx_count_(regs_.storage(HW_NI_REG_RX_COUNT)), rx_index_(regs_.storage(HW_NI_REG_RX_INDEX)),
      rx_body_addr_(regs_.storage(HW_NI_REG_RX_BODY_ADDR)),
      rx_cookie_(regs_.storage(HW_NI_REG_RX_COOKIE)) {
    if (config_.tx_queue_depth == 0 || config_.node_count == 0) {
        throw std::invalid_argument("NiCore: tx_queue_depth and node_count must be positive");
    }
    regs_.set_value(HW_NI_REG_NODE, config_.node_id);
    regs_.write_only_reads_zero(true);
    regs_.on_violation([this](common::RegisterViolation, uint32_t offset, const std::string &what) {
        const std::string reg = regs_.name(offset);
        fault(HW_NI_ERR_REG, reg.empty() ? "at offset " + hex(offset) : reg, what);
    });
    regs_.on_write(HW_NI_REG_CTRL, [this](uint32_t v, unsigned) { set_ctrl(v); });
    regs_.on_write(HW_NI_REG_TX_PUSH, [this](uint32_t v, unsigned) { push_descriptor(v); });
    regs_.on_read(HW_NI_REG_TX_FREE, [this](unsigned) { return tx_free(); });
    regs_.on_read(HW_NI_REG_TX_DONE, [this](unsigned) { return pop_done(); });
    regs_.on_write(HW_NI_REG_RX_RING_BASE,
                   [this](uint32_t v, unsigned) { set_ring(HW_NI_REG_RX_RING_BASE, v); });
    regs_.on_write(HW_NI_REG_RX_RING_SLOTS,
                   [this](uint32_t v, unsigned) { set_ring(HW_NI_REG_RX_RING_SLOTS, v); });
    regs_.on_write(HW_NI_REG_RX_POP, [this](uint32_t, unsigned) { pop_record(); });
    regs_.on_write(HW_NI_REG_RX_CMD, [this](uint32_t v, unsigned) { rx_command(v); });
}

const std::vector<uint32_t> &NiCore::postable_registers() {
    static const std::vector<uint32_t> offsets{HW_NI_REG_TX_DEST,       HW_NI_REG_TX_HDR_ADDR,
                                               HW_NI_REG_TX_HDR_BYTES,  HW_NI_REG_TX_BODY_ADDR,
                                               HW_NI_REG_TX_BODY_BYTES, HW_NI_REG_RX_BODY_ADDR,
                                               HW_NI_REG_RX_COOKIE};
    return offsets;
}

const std::vector<uint32_t> &NiCore::postable_when_quiet_registers() {
    static const std::vector<uint32_t> offsets{HW_NI_REG_TX_COOKIE};
    return offsets;
}

void NiCore::fault(uint32_t code, const std::string &reg, const std::string &what) {
    if (error_ == HW_NI_ERR_NONE) {
        error_ = code;
    }
    client_.ni_fault(code, reg, what);
}

bool NiCore::rx_irq() const {
    return rx_count_ > 0 && (ctrl_ & HW_NI_CTRL_RX_IRQ) != 0;
}

bool NiCore::tx_irq() const {
    return (!tx_done_.empty() && (ctrl_ & HW_NI_CTRL_TX_IRQ) != 0) ||
           (tx_free() > 0 && (ctrl_ & HW_NI_CTRL_TX_SPACE_IRQ) != 0);
}

void NiCore::set_ctrl(uint32_t value) {
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
        } else if (end > memory_bytes_) {
            why = "ring [" + hex(rx_ring_base_) + ", " + hex(end) + ") lies outside node memory (" +
                  std::to_string(memory_bytes_) + " bytes)";
        }
        if (!why.empty()) {
            fault(HW_NI_ERR_RX_RING, "CTRL", "enable with a bad ring: " + why);
            return;
        }
        rx_index_ = 0;
        rx_count_ = 0;
    }
    ctrl_ = value;
    if (enabling) {
        flush_done_records();
        client_.ni_rx_space_returned();
    }
    client_.ni_irqs_changed();
}

void NiCore::set_ring(uint32_t offset, uint32_t value) {
    if (ctrl_ & HW_NI_CTRL_ENABLE) {
        fault(HW_NI_ERR_RX_RING, hw_ni_reg_name(offset), "ring changed while CTRL.ENABLE is set");
        return;
    }
    regs_.set_value(offset, value);
}

// ---- send side -------------------------------------------------------------------

uint32_t NiCore::tx_free() const {
    return config_.tx_queue_depth - static_cast<uint32_t>(txq_.size());
}

void NiCore::push_descriptor(uint32_t flags) {
    const char *reg = "TX_PUSH";
    if (tx_free() == 0) {
        fault(HW_NI_ERR_TX_OVERFLOW, reg,
              "push while TX_FREE is 0 (all " + std::to_string(config_.tx_queue_depth) +
                  " send-queue slots busy)");
        return;
    }
    if (tx_hdr_bytes_ % 4 != 0 || tx_hdr_bytes_ > HW_NI_HDR_MAX_BYTES) {
        fault(HW_NI_ERR_TX_SIZE, reg,
              "TX_HDR_BYTES = " + std::to_string(tx_hdr_bytes_) + " is not a multiple of 4 in 0.." +
                  std::to_string(HW_NI_HDR_MAX_BYTES));
        return;
    }
    if (tx_body_bytes_ > HW_NI_MAX_BODY_BYTES) {
        fault(HW_NI_ERR_TX_SIZE, reg,
              "TX_BODY_BYTES = " + std::to_string(tx_body_bytes_) + " exceeds " +
                  std::to_string(HW_NI_MAX_BODY_BYTES));
        return;
    }
    if (tx_hdr_bytes_ == 0 && tx_body_bytes_ == 0) {
        fault(HW_NI_ERR_TX_SIZE, reg, "empty message (TX_HDR_BYTES and TX_BODY_BYTES are 0)");
        return;
    }
    if (tx_dest_ >= config_.node_count) {
        fault(HW_NI_ERR_TX_DEST, reg,
              "TX_DEST = " + std::to_string(tx_dest_) + " names no node (" +
                  std::to_string(config_.node_count) + " nodes)");
        return;
    }
    if (tx_hdr_bytes_ > 0 && !contains(tx_hdr_addr_, tx_hdr_bytes_)) {
        fault(HW_NI_ERR_TX_ADDR, reg,
              "header " + range_text(tx_hdr_addr_, tx_hdr_bytes_) + " lies outside node memory (" +
                  std::to_string(memory_bytes_) + " bytes)");
        return;
    }
    if (tx_body_bytes_ > 0 && !contains(tx_body_addr_, tx_body_bytes_)) {
        fault(HW_NI_ERR_TX_ADDR, reg,
              "body " + range_text(tx_body_addr_, tx_body_bytes_) + " lies outside node memory (" +
                  std::to_string(memory_bytes_) + " bytes)");
        return;
    }
    NiTxDescriptor &d = txq_.emplace_back(); // built in place: no copy of its header
    d.serial = next_tx_serial_++;
    d.dest = tx_dest_;
    d.body_addr = tx_body_addr_;
    d.body_bytes = tx_body_bytes_;
    d.cookie = tx_cookie_;
    d.notify = (flags & HW_NI_TX_NOTIFY) != 0;
    d.seq = next_seq_++;
    if (tx_hdr_bytes_ > 0) {
        d.header.assign(memory_ + tx_hdr_addr_, memory_ + tx_hdr_addr_ + tx_hdr_bytes_);
    }
    client_.ni_tx_pushed();
    client_.ni_irqs_changed();
}

const NiTxDescriptor &NiCore::tx_descriptor(uint64_t serial) const {
    if (serial < txq_front_serial_ || serial - txq_front_serial_ >= txq_.size()) {
        throw std::out_of_range("NiCore: descriptor " + std::to_string(serial) + " is not queued");
    }
    return txq_[serial - txq_front_serial_];
}

bool NiCore::tx_finished(uint64_t serial) {
    if (serial < txq_front_serial_ || serial - txq_front_serial_ >= txq_.size()) {
        return false;
    }
    txq_[serial - txq_front_serial_].finished = true;
    retire_descriptors();
    return true;
}

uint32_t NiCore::pop_done() {
    if (tx_done_.empty()) {
        return HW_NI_NONE;
    }
    uint32_t cookie = tx_done_.front();
    tx_done_.pop_front();
    retire_descriptors();
    client_.ni_irqs_changed();
    return cookie;
}

void NiCore::retire_descriptors() {
    bool changed = false;
    while (!txq_.empty() && txq_.front().finished) {
        const NiTxDescriptor &d = txq_.front();
        if (d.notify) {
            if (tx_done_.size() >= config_.tx_queue_depth) {
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
        client_.ni_irqs_changed();
    }
}

// ---- receive side ----------------------------------------------------------------

void NiCore::buffer_add(uint32_t bytes) {
    rx_buffered_ += bytes;
    stats_.rx_buffer_high_water = std::max(stats_.rx_buffer_high_water, rx_buffered_);
}

void NiCore::buffer_release(uint32_t bytes) {
    rx_buffered_ -= bytes;
}

bool NiCore::discarded(uint32_t handle) const {
    auto it = rx_messages_.find(handle);
    return it != rx_messages_.end() && it->second.state == RxState::Discarded;
}

uint32_t NiCore::allocate_handle() {
    for (;;) {
        uint32_t h = next_handle_;
        next_handle_ = (next_handle_ + 1) & 0x00ffffffu;
        if (rx_messages_.find(h) == rx_messages_.end()) {
            return h;
        }
    }
}

void NiCore::write_record(const hw_ni_rx_record_t &rec) {
    uint32_t slot = (rx_index_ + rx_count_) & (rx_ring_slots_ - 1);
    const uint32_t addr = rx_ring_base_ + slot * HW_NI_RX_RECORD_BYTES;
    if (!client_.ni_store_record(addr, rec)) {
        std::memcpy(memory_ + addr, &rec, sizeof rec);
    }
    ++rx_count_;
    client_.ni_irqs_changed();
}

void NiCore::flush_done_records() {
    while (!pending_done_.empty() && enabled() && rx_count_ < rx_ring_slots_) {
        write_record(pending_done_.front());
        pending_done_.pop_front();
    }
}

uint32_t NiCore::begin_message(uint32_t src, const uint8_t *header, uint32_t hdr_bytes,
                               uint32_t body_bytes, uint32_t reserve) {
    uint32_t handle = HW_NI_NONE;
    if (body_bytes > 0) {
        handle = allocate_handle();
        RxMessage &m = rx_messages_[handle];
        m.handle = handle;
        m.src = src;
        m.body_bytes = body_bytes;
        m.inflight = reserve;
        buffer_add(reserve);
    }
    hw_ni_rx_record_t rec;
    std::memset(&rec, 0, sizeof rec);
    rec.kind = HW_NI_REC_HEADER;
    rec.src_node = src;
    rec.handle = handle;
    rec.hdr_bytes = hdr_bytes;
    rec.body_bytes = body_bytes;
    if (hdr_bytes > 0) {
        std::memcpy(rec.header, header, hdr_bytes);
    }
    write_record(rec);
    ++stats_.messages_received;
    return handle;
}

void NiCore::fragment_arrived(uint32_t handle, NiFragment &&f, bool reserved) {
    RxMessage &m = rx_messages_.at(handle);
    m.arrived += f.length;
    if (reserved) {
        m.inflight = 0; // its buffer space was counted at begin_message
    }
    if (m.state == RxState::Discarded) {
        stats_.body_bytes_discarded += f.length; // a reserved fragment's space was freed at DISCARD
        finish_if_complete(m);
        return;
    }
    if (!reserved) {
        if (f.length == 0) {
            return;
        }
        buffer_add(f.length);
    }
    if (m.state == RxState::Waiting) {
        m.buffered.push_back(std::move(f));
    } else if (reserved) {
        client_.ni_deposit_arrived(handle, std::move(f));
    } else {
        client_.ni_deposit(handle, std::move(f));
    }
}

void NiCore::deposit(uint32_t handle, const NiFragment &f, bool copy) {
    RxMessage &m = rx_messages_.at(handle);
    if (copy) {
        std::memcpy(memory_ + m.body_addr + f.body_offset, f.bytes.data() + f.start, f.length);
    }
    m.deposited += f.length;
    stats_.body_bytes_deposited += f.length;
    buffer_release(f.length);
    finish_if_complete(m); // may erase m
    client_.ni_rx_space_returned();
}

void NiCore::pop_record() {
    if (rx_count_ == 0) {
        fault(HW_NI_ERR_RX_POP, "RX_POP", "pop with no waiting record (RX_COUNT is 0)");
        return;
    }
    rx_index_ = (rx_index_ + 1) & (rx_ring_slots_ - 1);
    --rx_count_;
    flush_done_records();
    client_.ni_rx_space_returned();
    client_.ni_irqs_changed();
}

void NiCore::rx_command(uint32_t value) {
    const unsigned op = HW_NI_RX_CMD_OP(value);
    const uint32_t handle = HW_NI_RX_CMD_HANDLE(value);
    if (op != HW_NI_RX_ACCEPT && op != HW_NI_RX_ACCEPT_NOTIFY && op != HW_NI_RX_DISCARD) {
        fault(HW_NI_ERR_RX_CMD, "RX_CMD", "unknown op " + std::to_string(op) + " in " + hex(value));
        return;
    }
    auto it = rx_messages_.find(handle);
    if (it == rx_messages_.end() || it->second.state != RxState::Waiting) {
        fault(HW_NI_ERR_RX_HANDLE, "RX_CMD",
              "handle " + std::to_string(handle) + " names no message waiting for an answer");
        return;
    }
    RxMessage &m = it->second;
    if (op == HW_NI_RX_DISCARD) {
        m.state = RxState::Discarded;
        for (const NiFragment &f : m.buffered) {
            buffer_release(f.length);
            stats_.body_bytes_discarded += f.length;
        }
        m.buffered.clear();
        buffer_release(m.inflight); // the arriving fragment will be dropped
        finish_if_complete(m);      // may erase m
        client_.ni_rx_space_returned();
        return;
    }
    if (!contains(rx_body_addr_, m.body_bytes)) {
        fault(HW_NI_ERR_RX_ADDR, "RX_CMD",
              "body " + range_text(rx_body_addr_, m.body_bytes) + " of handle " +
                  std::to_string(handle) + " lies outside node memory (" +
                  std::to_string(memory_bytes_) + " bytes)");
        return;
    }
    m.state = RxState::Accepted;
    m.notify = op == HW_NI_RX_ACCEPT_NOTIFY;
    m.body_addr = rx_body_addr_;
    m.cookie = rx_cookie_;
    // The client may deposit at once, which may complete and erase m: nothing
    // touches m after handing it the fragments.
    std::vector<NiFragment> buffered = std::move(m.buffered);
    m.buffered.clear();
    const uint32_t inflight = m.inflight;
    for (NiFragment &f : buffered) {
        client_.ni_deposit(handle, std::move(f));
    }
    if (inflight > 0) {
        // Deposited as it arrives (fragment_arrived with reserved).
        client_.ni_deposit_pending(handle, inflight);
    }
}

void NiCore::finish_if_complete(RxMessage &m) {
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

} // namespace starfish::node
