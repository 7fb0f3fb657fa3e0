// Verilator's headers before SystemC's: after them they look for SystemC's
// names (sc_time_stamp) in the global namespace.
#include "Vni_dma.h"
#include <verilated.h>
#include <verilated_fst_c.h>

#include "rtl/ni_dma/ni_dma_rtl.h"

#include "hw/packet.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace starfish::rtl {

namespace {

// Little-endian word `word` of bytes[0, len): zero past the end.
uint32_t word_at(const uint8_t *bytes, uint64_t len, uint64_t offset) {
    uint8_t w[4] = {0, 0, 0, 0};
    for (uint64_t i = 0; i < 4 && offset + i < len; ++i) {
        w[i] = bytes[offset + i];
    }
    return hw_ni_get_word(w);
}

uint32_t dma_shift(uint32_t bytes_per_cycle) {
    switch (bytes_per_cycle) {
    case 1:
        return 0;
    case 2:
        return 1;
    case 4:
        return 2;
    default:
        throw std::invalid_argument("ni.model = rtl: ni.dma_bytes_per_cycle must be 1, 2 or 4");
    }
}

} // namespace

NiDmaRtl::NiDmaRtl(sc_core::sc_module_name name, const node::NetworkInterfaceParams &params,
                   int node_id, node::NodeMemory &memory, net::Network &network, int router,
                   std::vector<int> node_routers, int torus_width)
    : node::NetworkInterface(name, params, node_id, memory, network, router,
                             std::move(node_routers)),
      torus_width_(torus_width), context_(std::make_unique<VerilatedContext>()),
      top_(std::make_unique<Vni_dma>(context_.get(), "ni_dma")) {
    if (params.flit_bytes != HW_FLIT_BYTES || params.packet_setup_cycles < 1 ||
        params.descriptor_setup_cycles + params.packet_setup_cycles > 0xffff || torus_width < 1) {
        throw std::invalid_argument(
            std::string(this->name()) +
            ": ni.model = rtl needs 4-byte flits and 1..65535 setup cycles");
    }
    top_->cfg_dma_shift = static_cast<uint8_t>(dma_shift(params.dma_bytes_per_cycle));
    top_->cfg_packet_setup_cycles = static_cast<uint16_t>(params.packet_setup_cycles);
    top_->clk = 0;
    top_->rst = 1;
    top_->eval();
    top_->clk = 1;
    top_->eval();
    top_->clk = 0;
    top_->rst = 0;
    top_->eval();
    SC_METHOD(clock_process);
    sensitive << edge_event_;
    dont_initialize();
}

NiDmaRtl::~NiDmaRtl() {
    close_rtl_waves();
    top_->final();
}

bool NiDmaRtl::open_rtl_waves(const std::string &path) {
    close_rtl_waves();
    context_->traceEverOn(true);
    waves_ = std::make_unique<VerilatedFstC>();
    top_->trace(waves_.get(), 99);
    waves_->open(path.c_str());
    if (!waves_->isOpen()) {
        waves_.reset();
        return false;
    }
    waves_->dump(static_cast<uint64_t>(sc_core::sc_time_stamp().value()));
    return true;
}

void NiDmaRtl::close_rtl_waves() {
    if (waves_) {
        waves_->close();
        waves_.reset();
    }
}

uint32_t NiDmaRtl::rtl_busy() const {
    return top_->busy;
}

// ---- clocking ------------------------------------------------------------------------

bool NiDmaRtl::needs_edge(Part part) const {
    switch (part) {
    case Part::Tx:
        return pending_[0] || top_->tx_active;
    case Part::Rx:
        return pending_[1] || top_->rx_active;
    case Part::Tail:
        return pending_[2] || top_->rx_tail_active;
    default:
        return pending_[3];
    }
}

bool NiDmaRtl::next_edge(uint64_t &at) const {
    bool any = false;
    for (int p = 0; p < kParts; ++p) {
        if (needs_edge(static_cast<Part>(p)) && (!any || next_[p] < at)) {
            at = next_[p];
            any = true;
        }
    }
    return any;
}

void NiDmaRtl::schedule_edge() {
    uint64_t at = 0;
    if (next_edge(at)) {
        edge_event_.notify(sc_core::sc_time::from_value(at - sc_core::sc_time_stamp().value()));
    }
}

// Each part counts cycles from its own start (the contract counts from each
// input, docs/node.md): an input to a part that is idle starts its edges one
// cycle later; a busy part keeps its own (the send side takes a command while
// its DMA runs only to count the setup after the DMA's end, on the DMA's edges).
void NiDmaRtl::input_applied(Part part) {
    const int p = static_cast<int>(part);
    if (!needs_edge(part)) {
        next_[p] = sc_core::sc_time_stamp().value() + params_.cycle_ps;
    }
    pending_[p] = true;
    schedule_edge();
}

void NiDmaRtl::clock_process() {
    advance_to_now();
}

void NiDmaRtl::advance_to_now() {
    const uint64_t now = sc_core::sc_time_stamp().value();
    uint64_t at = 0;
    while (next_edge(at) && at <= now) {
        if (at < now) {
            model_error(node_prefix() + "RTL DMA engine missed its clock edge at " +
                        std::to_string(at) + " ps");
            return;
        }
        bool enable[kParts];
        for (int p = 0; p < kParts; ++p) {
            enable[p] = needs_edge(static_cast<Part>(p)) && next_[p] == at;
            if (enable[p]) {
                // The part's edge after this one, before the edge's outputs may
                // apply new inputs.
                next_[p] += params_.cycle_ps;
            }
        }
        edge(enable);
    }
    load_deposit();
    schedule_edge();
}

// The memory and the receive buffer answer their read ports within the cycle.
void NiDmaRtl::settle_read_ports() {
    top_->eval();
    top_->mem_rd_data = top_->mem_rd_en ? word_at(memory_.span(0, memory_.size()), memory_.size(),
                                                  top_->mem_rd_addr)
                                        : 0;
    uint32_t frag_word = 0;
    const std::deque<node::NiReceiveDma::Job> &jobs = receive_dma_.jobs();
    if (top_->rx_frag_rd_en && !jobs.empty()) {
        const node::NiReceiveDma::Job &job = jobs.front();
        const std::vector<uint8_t> *bytes = job.arrived ? &job.fragment.bytes : ct_payload_;
        if (bytes == nullptr) {
            model_error(node_prefix() + "RTL DMA engine reads a fragment that has no bytes");
        } else {
            frag_word = word_at(bytes->data(), bytes->size(), top_->rx_frag_rd_offset);
        }
    }
    top_->rx_frag_rd_data = frag_word;
    top_->eval();
}

void NiDmaRtl::edge(const bool enable[kParts]) {
    const uint64_t now = sc_core::sc_time_stamp().value();
    top_->tx_ce = enable[0];
    top_->rx_ce = enable[1];
    top_->rx_tail_ce = enable[2];
    settle_read_ports();
    top_->clk = 1;
    top_->eval();
    if (waves_) {
        waves_->dump(now);
    }
    top_->clk = 0;
    // Inputs sampled by this edge: clear the one-edge pulses.
    if (enable[0]) {
        top_->tx_cmd_valid = 0;
        top_->tx_offer_taken = 0;
    }
    if (enable[1]) {
        top_->rx_load_valid = 0;
    }
    if (enable[2]) {
        top_->rx_tail_valid = 0;
    }
    top_->reg_we = 0; // CTRL is latched by any edge
    top_->tx_ce = top_->rx_ce = top_->rx_tail_ce = 0;
    top_->eval();
    uint64_t next = 0;
    for (int p = 0; p < kParts; ++p) {
        if (enable[p] || p == 3) {
            pending_[p] = false;
        }
    }
    if (waves_ && (!next_edge(next) || next >= now + params_.cycle_ps / 2)) {
        waves_->dump(now + params_.cycle_ps / 2);
    }
    ++edges_;
    check_error("a clock edge");
    after_edge();
}

void NiDmaRtl::check_error(const char *where) {
    if (top_->error && !error_reported_) {
        error_reported_ = true;
        model_error(node_prefix() + "RTL DMA engine raised error after " + where + " (busy 0x" +
                    std::to_string(top_->busy) + ")");
    }
}

void NiDmaRtl::write_memory(uint32_t addr, const uint8_t *bytes, uint32_t len) {
    uint8_t *dst = memory_.span(addr, len);
    if (dst == nullptr) {
        model_error(node_prefix() + "RTL DMA engine writes outside node memory");
        return;
    }
    std::memcpy(dst, bytes, len);
}

// What the edge produced: packet words, an offer, body bytes in memory, a finished deposit.
void NiDmaRtl::after_edge() {
    node::NiSendEngine::Work &tx = send_.work();
    std::deque<node::NiReceiveDma::Job> &jobs = receive_dma_.jobs();
    if (top_->tx_head_we) {
        if (!tx.planned || tx.pkt) {
            model_error(node_prefix() + "RTL DMA engine built a packet nobody asked for");
            return;
        }
        const uint32_t route = top_->tx_offer_route, length = top_->tx_offer_length;
        const int dst_router = static_cast<int>(HW_ROUTE_DEST_Y(route)) * torus_width_ +
                               static_cast<int>(HW_ROUTE_DEST_X(route));
        if (dst_router != node_routers_[tx.dest] ||
            HW_LENGTH_PAYLOAD_BYTES(length) != HW_NI_FRAME_BYTES + tx.hdr_bytes + tx.frag) {
            model_error(node_prefix() + "RTL DMA engine built route flit " + std::to_string(route) +
                        " / length flit " + std::to_string(length) + " for descriptor " +
                        std::to_string(tx.serial));
            return;
        }
        auto pkt = std::make_unique<net::Packet>();
        pkt->id = (static_cast<uint64_t>(node_id_) << 40) | send_.next_packet_id()++;
        pkt->src_router = router_;
        pkt->dst_router = dst_router;
        pkt->tag = tx.serial << 1 | (tx.last ? 1u : 0u);
        pkt->payload.resize(HW_LENGTH_PAYLOAD_BYTES(length));
        if (tx.first && tx.frag > 0) {
            pkt->early_flits = 2 + (HW_NI_FRAME_BYTES + tx.hdr_bytes + params_.flit_bytes - 1) /
                                       params_.flit_bytes;
        }
        Fill fill;
        fill.data = pkt->payload.data();
        fill.bytes = static_cast<uint32_t>(pkt->payload.size());
        fill.words = (fill.bytes + 3) / 4;
        for (uint32_t w = 0; w < top_->tx_head_count; ++w) {
            uint8_t word[4];
            hw_ni_put_word(word, top_->tx_head_words[w]);
            std::memcpy(fill.data + 4 * w, word, std::min<uint32_t>(4, fill.bytes - 4 * w));
        }
        fill.written = top_->tx_head_count;
        fills_.push_back(fill);
        tx.pkt = std::move(pkt);
        tx.planned = false;
        if (trace_.on() && tx.frag > 0) {
            trace_.tx_dma_busy(sc_core::sc_time_stamp().value(), true);
            tx_dma_traced_ = true;
        }
    }
    if (tx_dma_traced_ && !(top_->busy & 4u)) {
        trace_.tx_dma_busy(sc_core::sc_time_stamp().value(), false);
        tx_dma_traced_ = false;
    }
    if (top_->tx_body_we) {
        if (fills_.empty()) {
            model_error(node_prefix() + "RTL DMA engine wrote a body word without a packet");
            return;
        }
        Fill &fill = fills_.back();
        const uint32_t index = top_->tx_body_index;
        if (index >= fill.words || index != fill.written) {
            model_error(node_prefix() + "RTL DMA engine wrote payload word " +
                        std::to_string(index) + " out of order");
            return;
        }
        uint8_t word[4];
        hw_ni_put_word(word, top_->tx_body_word);
        std::memcpy(fill.data + 4 * index, word, std::min<uint32_t>(4, fill.bytes - 4 * index));
        ++fill.written;
    }
    if (top_->tx_offer_valid && !offer_seen_ && tx.pkt) {
        offer_seen_ = true;
        tx_kick_.notify();
    }
    if (top_->mem_wr_en) {
        uint8_t word[4];
        hw_ni_put_word(word, top_->mem_wr_data);
        write_memory(top_->mem_wr_addr, word, top_->mem_wr_bytes);
    }
    if (top_->rx_done) {
        if (!dma_loaded_ || jobs.empty()) {
            model_error(node_prefix() + "RTL DMA engine finished a deposit it was not given");
            return;
        }
        dma_loaded_ = false;
        const uint64_t now = sc_core::sc_time_stamp().value();
        if (trace_.on()) {
            trace_.rx_dma_busy(now, false);
        }
        receive_dma_.free_ps() = now;
        node::NiReceiveDma::Job finished = std::move(jobs.front());
        jobs.pop_front();
        core_.deposit(finished.handle, finished.fragment, false);
        load_deposit();
    }
}

// ---- send side -------------------------------------------------------------------------

void NiDmaRtl::tx_engine() {
    advance_to_now();
    node::NiSendEngine::Work &tx = send_.work();
    for (;;) {
        if (tx.pkt) {
            if (!offer_seen_) {
                next_trigger(tx_kick_); // built; the offer follows its delay
                return;
            }
            if (!network_.try_inject(router_, tx.pkt)) {
                next_trigger(network_.injection_ready(router_));
                return;
            }
            offer_seen_ = false;
            top_->tx_offer_taken = 1;
            input_applied(Part::Tx);
            send_.packet_taken();
            continue;
        }
        if (tx.planned) {
            next_trigger(tx_kick_); // the RTL sets the packet up
            return;
        }
        if (!tx.active && !send_.take_descriptor()) {
            next_trigger(send_.work_event());
            return;
        }
        issue_tx_command();
    }
}

// The next packet of the descriptor: what goes in it is bookkeeping (the same
// split as the TLM model), when it is built and offered is the RTL's.
void NiDmaRtl::issue_tx_command() {
    send_.size_packet();
    node::NiSendEngine::Work &tx = send_.work();
    const int dst = node_routers_[tx.dest];
    top_->tx_cmd_route = HW_ROUTE_FLIT(dst % torus_width_, dst / torus_width_,
                                       router_ % torus_width_, router_ / torus_width_);
    top_->tx_cmd_setup_cycles =
        static_cast<uint16_t>(tx.setup_cycles + params_.packet_setup_cycles);
    top_->tx_cmd_src_node = static_cast<uint16_t>(node_id_);
    top_->tx_cmd_seq = tx.seq;
    top_->tx_cmd_first = tx.first;
    top_->tx_cmd_last = tx.last;
    top_->tx_cmd_hdr_bytes = static_cast<uint8_t>(tx.header_bytes);
    for (uint32_t w = 0; w < HW_NI_HDR_MAX_BYTES / 4; ++w) {
        top_->tx_cmd_header[w] = 4 * w < tx.header_bytes ? hw_ni_get_word(tx.header + 4 * w) : 0;
    }
    top_->tx_cmd_body_bytes = tx.body_bytes;
    top_->tx_cmd_offset = tx.offset;
    top_->tx_cmd_frag_addr = tx.body_addr + tx.offset;
    top_->tx_cmd_frag_bytes = tx.frag;
    top_->tx_cmd_valid = 1;
    tx.setup_cycles = 0;
    tx.planned = true;
    input_applied(Part::Tx);
}

void NiDmaRtl::injected(uint64_t tag) {
    advance_to_now();
    if (fills_.empty() || fills_.front().written != fills_.front().words) {
        model_error(node_prefix() + "a packet's tail left before the RTL DMA engine filled it");
        return;
    }
    fills_.pop_front();
    node::NetworkInterface::injected(tag);
}

// ---- receive side ----------------------------------------------------------------------

// The RTL parses every packet's head too; it must read what the bookkeeping reads.
bool NiDmaRtl::check_frame(const net::Packet &pkt) {
    const std::vector<uint8_t> &p = pkt.payload;
    if (p.size() < HW_NI_FRAME_BYTES) {
        return true; // the bookkeeping reports it
    }
    top_->rx_length_flit = HW_LENGTH_FLIT_LANE(p.size(), pkt.lane);
    for (uint32_t w = 0; w < HW_NI_FRAME_BYTES / 4; ++w) {
        top_->rx_frame[w] = hw_ni_get_word(p.data() + 4 * w);
    }
    top_->eval();
    const uint32_t w1 = hw_ni_get_word(p.data() + 4);
    const bool first = (w1 & HW_NI_FRAME_FIRST) != 0;
    const uint32_t hdr_bytes = first ? (w1 & HW_NI_FRAME_HDR_BYTES_MASK) : 0;
    const bool malformed =
        p.size() < HW_NI_FRAME_BYTES + hdr_bytes || hdr_bytes > HW_NI_HDR_MAX_BYTES;
    const uint32_t frag =
        malformed ? 0 : static_cast<uint32_t>(p.size()) - HW_NI_FRAME_BYTES - hdr_bytes;
    if (top_->rx_src_node != HW_NI_FRAME_SRC(hw_ni_get_word(p.data())) ||
        top_->rx_seq != HW_NI_FRAME_SEQ(hw_ni_get_word(p.data())) || top_->rx_first != first ||
        top_->rx_last != ((w1 & HW_NI_FRAME_LAST) != 0) || top_->rx_hdr_bytes != hdr_bytes ||
        top_->rx_body_bytes != hw_ni_get_word(p.data() + 8) ||
        top_->rx_offset != hw_ni_get_word(p.data() + 12) || top_->rx_frag_bytes != frag ||
        top_->rx_malformed != malformed) {
        model_error(node_prefix() + "RTL frame parser disagrees with the packet from node " +
                    std::to_string(HW_NI_FRAME_SRC(hw_ni_get_word(p.data()))));
        return false;
    }
    return true;
}

void NiDmaRtl::arriving(const net::Packet &pkt) {
    advance_to_now();
    if (!check_frame(pkt)) {
        return;
    }
    const bool was_active = receiver_.cut_through().active;
    node::NetworkInterface::arriving(pkt);
    if (!was_active && receiver_.cut_through().active) {
        // Committed: a deposit of its first fragment may start before its tail.
        ct_payload_ = &pkt.payload;
    }
}

bool NiDmaRtl::deliver(net::PacketPtr &pkt) {
    advance_to_now();
    if (!check_frame(*pkt)) {
        return false;
    }
    const node::NiPacketReceiver::CutThrough &ct = receiver_.cut_through();
    const bool cut_through = ct.active && pkt->id == ct.packet_id;
    const bool taken = node::NetworkInterface::deliver(pkt);
    if (cut_through) {
        ct_payload_ = nullptr; // its bytes moved into the fragment
    }
    return taken;
}

void NiDmaRtl::ni_deposit_arrived(uint32_t handle, node::NiFragment &&fragment) {
    const std::deque<node::NiReceiveDma::Job> &jobs = receive_dma_.jobs();
    const bool loaded_pending =
        dma_loaded_ && !jobs.empty() && jobs.front().handle == handle && !jobs.front().arrived;
    node::NetworkInterface::ni_deposit_arrived(handle, std::move(fragment));
    if (loaded_pending) {
        top_->rx_tail_valid = 1;
        input_applied(Part::Tail);
        if (trace_.on()) {
            trace_.rx_dma_busy(sc_core::sc_time_stamp().value(), true);
        }
    }
}

void NiDmaRtl::complete_due_deposits() {
    advance_to_now();
}

// The next deposit, in order, once the RTL is free: it starts counting at the
// next edge (the receive DMA starts at max(free, queued), docs/node.md).
void NiDmaRtl::load_deposit() {
    const std::deque<node::NiReceiveDma::Job> &jobs = receive_dma_.jobs();
    if (dma_loaded_ || jobs.empty() || top_->busy & (1u << 4 | 1u << 5 | 1u << 6)) {
        return;
    }
    const node::NiReceiveDma::Job &job = jobs.front();
    top_->rx_load_addr = core_.body_address(job.handle) + job.fragment.body_offset;
    top_->rx_load_bytes = job.fragment.length;
    top_->rx_load_start = job.arrived ? job.fragment.start : receiver_.cut_through().start;
    top_->rx_load_arrived = job.arrived;
    top_->rx_load_valid = 1;
    dma_loaded_ = true;
    input_applied(Part::Rx);
    if (trace_.on() && job.arrived) {
        // Shown as the TLM model shows it: a fragment still arriving from its tail.
        trace_.rx_dma_busy(sc_core::sc_time_stamp().value(), true);
    }
}

bool NiDmaRtl::ni_store_record(uint32_t addr, const hw_ni_rx_record_t &record) {
    top_->rec_valid = 1;
    top_->rec_kind = static_cast<uint8_t>(record.kind);
    top_->rec_src_node = record.src_node;
    top_->rec_handle = record.handle;
    top_->rec_cookie = record.cookie;
    top_->rec_hdr_bytes = static_cast<uint8_t>(record.hdr_bytes);
    top_->rec_body_bytes = record.body_bytes;
    for (uint32_t w = 0; w < HW_NI_HDR_MAX_BYTES / 4; ++w) {
        top_->rec_header[w] = hw_ni_get_word(record.header + 4 * w);
    }
    top_->eval();
    check_error("a receive record");
    uint8_t bytes[HW_NI_RX_RECORD_BYTES];
    for (uint32_t w = 0; w < HW_NI_RX_RECORD_BYTES / 4; ++w) {
        hw_ni_put_word(bytes + 4 * w, top_->rec_record[w]);
    }
    top_->rec_valid = 0;
    top_->eval();
    if (std::memcmp(bytes, &record, sizeof record) != 0) {
        // The record's layout is hw/ni_regs.h's struct; the RTL must agree byte for byte.
        model_error(node_prefix() + "RTL record writer disagrees with hw_ni_rx_record_t");
    }
    write_memory(addr, bytes, HW_NI_RX_RECORD_BYTES);
    return true;
}

// ---- interrupts ------------------------------------------------------------------------

void NiDmaRtl::drive_irqs() {
    const uint32_t ctrl = core_.registers().value(HW_NI_REG_CTRL);
    if (ctrl != top_->ctrl) {
        top_->reg_we = 1;
        top_->reg_addr = HW_NI_REG_CTRL;
        top_->reg_wdata = ctrl;
        input_applied(Part::Reg);
    }
    top_->st_rx_records = core_.rx_records() > 0;
    top_->st_tx_done_waiting = core_.tx_done_waiting();
    top_->st_tx_space = core_.tx_free() > 0;
    top_->eval();
    irq_rx_written_ = top_->irq_rx;
    irq_tx_written_ = top_->irq_tx;
    if (irq_rx_written_ != core_.rx_irq() || irq_tx_written_ != core_.tx_irq()) {
        model_error(node_prefix() + "RTL interrupt lines disagree with the register state");
    }
    irq_write_delta_ = sc_core::sc_delta_count();
    irq_rx.write(irq_rx_written_);
    irq_tx.write(irq_tx_written_);
}

} // namespace starfish::rtl
