#include "tlm_models/node/network_interface.h"

#include "tlm_models/common/sim_time.h"

#include <stdexcept>

namespace starfish::node {

namespace {

const char *error_name(uint32_t code) {
    static const char *const names[] = {
        "HW_NI_ERR_NONE",        "HW_NI_ERR_TX_ADDR", "HW_NI_ERR_TX_SIZE",   "HW_NI_ERR_TX_DEST",
        "HW_NI_ERR_TX_OVERFLOW", "HW_NI_ERR_RX_RING", "HW_NI_ERR_RX_HANDLE", "HW_NI_ERR_RX_CMD",
        "HW_NI_ERR_RX_ADDR",     "HW_NI_ERR_RX_POP",  "HW_NI_ERR_REG"};
    return code < sizeof(names) / sizeof(names[0]) ? names[code] : "HW_NI_ERR_?";
}

} // namespace

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
            *this, memory.span(0, memory.size()), memory.size()),
      trace_(node_id),
      send_(params_, node_id, memory, network, router, node_routers_, core_, trace_),
      receiver_(core_, network, router, trace_, fault), receive_dma_(params_, core_, trace_, fault),
      irq_batch_(params_.irq_batching, *this) {
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
    sensitive << receive_dma_.due();
    dont_initialize();
    SC_METHOD(drive_irqs);
    sensitive << irq_update_;
}

std::string NetworkInterface::node_prefix() const {
    return "node " + std::to_string(node_id_) + ": ";
}

// ---- registers -------------------------------------------------------------------

void NetworkInterface::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &) {
    NiIrqBatch::Scope batch(irq_batch_);
    complete_due_deposits();
    access_offset_ = static_cast<uint32_t>(trans.get_address());
    access_failed_ = false;
    core_.registers().transport(trans, trans.get_address());
    if (access_failed_) {
        // The access that caused the error fails, so the firmware stops right there.
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    }
    if (trace_.on()) {
        trace_.rx_ring(common::sim_time().value(), core_.rx_records());
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

void NetworkInterface::tx_engine() {
    send_.run();
}

void NetworkInterface::ni_tx_pushed() {
    send_.descriptor_pushed();
}

void NetworkInterface::injected(uint64_t tag) {
    NiIrqBatch::Scope batch(irq_batch_);
    if ((tag & 1u) == 0) {
        return;
    }
    if (!core_.tx_finished(tag >> 1)) {
        model_error(node_prefix() + "network reported an unknown packet tag injected");
    }
}

// ---- receive side ----------------------------------------------------------------

void NetworkInterface::arriving(const net::Packet &pkt) {
    NiIrqBatch::Scope batch(irq_batch_);
    complete_due_deposits();
    receiver_.arriving(pkt);
}

bool NetworkInterface::deliver(net::PacketPtr &pkt) {
    NiIrqBatch::Scope batch(irq_batch_);
    complete_due_deposits();
    return receiver_.deliver(pkt);
}

void NetworkInterface::ni_rx_space_returned() {
    receiver_.space_returned();
}

void NetworkInterface::ni_deposit(uint32_t handle, NiFragment &&fragment) {
    receive_dma_.queue(handle, std::move(fragment));
}

void NetworkInterface::ni_deposit_pending(uint32_t handle, uint32_t length) {
    receive_dma_.queue_pending(handle, length);
}

void NetworkInterface::ni_deposit_arrived(uint32_t handle, NiFragment &&fragment) {
    receive_dma_.arrived(handle, std::move(fragment));
}

void NetworkInterface::rx_dma_engine() {
    NiIrqBatch::Scope batch(irq_batch_);
    complete_due_deposits();
}

void NetworkInterface::complete_due_deposits() {
    receive_dma_.complete_due();
}

// ---- interrupt lines -------------------------------------------------------------

// Most register accesses leave both lines as they are: then drive_irqs, which
// would write the values the lines hold already, is not run at all. Only when
// it wrote in this very delta cycle (a value not yet in the lines) it must run
// again, to write the final one. An entry point (NiIrqBatch) writes the lines
// itself when it ends: drive_irqs, notified at once, would write them later in
// the same evaluation phase, and the lines take the values in the same update
// phase either way (a method run less each time a line moves).
bool NetworkInterface::irqs_need_driving() const {
    return irq_write_delta_ == sc_core::sc_delta_count() || core_.rx_irq() != irq_rx_written_ ||
           core_.tx_irq() != irq_tx_written_;
}

void NetworkInterface::ni_irqs_changed() {
    if (!irq_batch_.defer_change() && irqs_need_driving()) {
        irq_update_.notify();
    }
}

void NetworkInterface::irqs_changed_in_batch() {
    if (irqs_need_driving()) {
        drive_irqs();
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
