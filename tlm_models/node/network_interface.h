#pragma once
// The DMA network interface (NI) of a node: the register, record and framing
// contract of hw/ni_regs.h, implemented exactly, on a net::Network router's local
// port (tlm_models/net/net_port.h).
//
// It is made of parts called in the hardware's order, each in its own file pair:
// the send engine (ni_send_engine.h, descriptors into packets, with the send
// side's cut-through), the receive port (ni_packet_receiver.h, frames,
// reassembly, back-pressure and the receive side's cut-through), the receive DMA
// (ni_receive_dma.h, deposits into node memory), interrupt batching
// (ni_irq_batch.h, a host speed-up) and observation (ni_trace.h; the watchdog's
// and the run's reports in network_interface_report.cpp). This class is the
// SystemC module: it serves the register window, takes the network's calls,
// drives the interrupt lines, and owns and wires the parts.
//
// The registers, queues, ring, records and handles are the SystemC-free NiCore
// (tlm_models/node/ni_core.h), shared with the firmware tests' fake HAL; this
// class adds time, DMA, packets and TLM plumbing. docs/node.md lists the
// decisions the header leaves open.

#include "hw/ni_regs.h"
#include "tlm_models/common/device_fault.h"
#include "tlm_models/common/operand_port.h"
#include "tlm_models/common/trace_hub.h"
#include "tlm_models/net/net_port.h"
#include "tlm_models/node/network_interface_params.h"
#include "tlm_models/node/ni_core.h"
#include "tlm_models/node/ni_irq_batch.h"
#include "tlm_models/node/ni_packet_receiver.h"
#include "tlm_models/node/ni_receive_dma.h"
#include "tlm_models/node/ni_send_engine.h"
#include "tlm_models/node/ni_trace.h"
#include "tlm_models/node/node_memory.h"

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <string>
#include <vector>

namespace starfish::node {

struct NetworkInterfaceStats {
    uint64_t messages_sent = 0;     // descriptors whose last packet left the node
    uint64_t packets_sent = 0;      // packets the network took
    uint64_t body_bytes_sent = 0;   // body bytes in those packets
    uint64_t messages_received = 0; // HEADER records written
    uint64_t packets_received = 0;  // deliveries taken
    uint64_t body_bytes_received = 0;
    uint64_t body_bytes_deposited = 0; // written to node memory by ACCEPT(_NOTIFY)
    uint64_t body_bytes_discarded = 0;
    uint64_t rx_buffer_high_water = 0; // bytes
    uint64_t refusals = 0;             // deliveries refused (back-pressure)
    uint64_t refusals_ring_full = 0;
    uint64_t refusals_buffer_full = 0;
    uint64_t refusals_disabled = 0; // CTRL.ENABLE was 0

    nlohmann::json to_json() const;
};

class NetworkInterface : public sc_core::sc_module,
                         public net::PacketEndpoint,
                         public common::OperandPort,
                         private NiCore::Client,
                         private NiIrqBatch::Driver {
public:
    SC_HAS_PROCESS(NetworkInterface);
    tlm_utils::simple_target_socket<NetworkInterface> regs; // hw/ni_regs.h window
    sc_core::sc_out<bool> irq_rx;                           // HW_IRQ_NI_RX
    sc_core::sc_out<bool> irq_tx;                           // HW_IRQ_NI_TX
    // Programming errors and broken invariants ("network interface"); the node binds it.
    common::DeviceFaultPort fault;

    // node_routers[n] is the router of node n: TX_DEST names a node id.
    NetworkInterface(sc_core::sc_module_name name, const NetworkInterfaceParams &params,
                     int node_id, NodeMemory &memory, net::Network &network, int router,
                     std::vector<int> node_routers);

    // net::PacketEndpoint
    bool deliver(net::PacketPtr &pkt) override;
    void injected(uint64_t tag) override;
    void arriving(const net::Packet &pkt) override;

    const NetworkInterfaceParams &params() const { return params_; }
    NetworkInterfaceStats stats() const;
    // The ERROR register (the fault itself went to `fault`).
    uint32_t error_code() const { return core_.error(); }
    // Queue occupancy in words, or "" when everything is empty (the deadlock
    // watchdog's report; network_interface_report.cpp).
    std::string queue_report() const;
    // Reports messages sent and received (a message's id is its first packet's),
    // the DMA engines and the receive ring to `hub` under `scope`
    // (docs/observe.md). Before sc_start.
    void observe(trace::TraceHub *hub, const std::string &scope);
    // ni.model = rtl writes its DMA engine's RTL waveform (FST) to path, until
    // close_rtl_waves; the TLM model has none and returns false. Before sc_start.
    virtual bool open_rtl_waves(const std::string &path) {
        (void)path;
        return false;
    }
    virtual void close_rtl_waves() {}

protected:
    // The internals are open to the RTL DMA engine's wrapper (rtl/ni_dma/ni_dma_rtl.h),
    // which replaces the virtual send engine, receive DMA and interrupt driver with
    // the Verilog's, works on the parts' state (send_.work(), receive_dma_.jobs(),
    // receiver_.cut_through(), trace_) and keeps everything else.
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    // A posted write to one of NiCore::postable_registers() (common::OperandPort).
    bool write_operand(uint32_t offset, uint32_t value) override;
    // A programming error in the access being served: NiCore has set ERROR; reports
    // the fault and makes the access fail.
    void error(uint32_t code, const std::string &reg, const std::string &what);
    // A packet or network report the NI cannot take (a broken model invariant):
    // reported as a fault; the caller refuses or ignores it.
    void model_error(const std::string &what);

    // NiCore::Client
    void ni_fault(uint32_t code, const std::string &reg, const std::string &what) override {
        error(code, reg, what);
    }
    void ni_irqs_changed() override;
    void ni_tx_pushed() override;
    void ni_rx_space_returned() override;
    void ni_deposit(uint32_t handle, NiFragment &&fragment) override;
    void ni_deposit_pending(uint32_t handle, uint32_t length) override;
    void ni_deposit_arrived(uint32_t handle, NiFragment &&fragment) override;

    // The engines are methods (docs/node.md, "Order within a cycle"): device work
    // due at a time is done before any firmware thread runs at that time.
    virtual void tx_engine();

    void rx_dma_engine();
    // Completes every deposit due by now, in order, and arms the engine for the next.
    virtual void complete_due_deposits();

    virtual void drive_irqs();
    bool irqs_need_driving() const;
    // NiIrqBatch::Driver
    void irqs_changed_in_batch() override;
    std::string node_prefix() const;

    const NetworkInterfaceParams params_;
    const int node_id_;
    NodeMemory &memory_;
    net::Network &network_;
    const int router_;
    const std::vector<int> node_routers_;

    NiCore core_;
    bool access_failed_ = false; // the register access being served caused an error
    uint32_t access_offset_ = 0; // of the register access being served

    // The parts, in the hardware's order.
    NiTrace trace_;
    NiSendEngine send_;
    NiPacketReceiver receiver_;
    NiReceiveDma receive_dma_;
    NiIrqBatch irq_batch_;

    sc_core::sc_event irq_update_;
    // What drive_irqs wrote last, and in which delta cycle.
    bool irq_rx_written_ = false;
    bool irq_tx_written_ = false;
    uint64_t irq_write_delta_ = ~uint64_t(0);
};

} // namespace starfish::node
