#pragma once
// The DMA network interface (NI) of a node: the register, record and framing
// contract of hw/ni_regs.h, implemented exactly, on a net::Network router's local
// port (tlm_models/net/net_port.h).
//
// Send engine (cut-through): descriptors are served in order; per descriptor the
// engine spends ni.descriptor_setup_cycles, per packet ni.packet_setup_cycles to
// build its header, and offers the packet to the network (try_inject;
// injection_ready when refused) while the DMA still reads its body fragment at
// ni.dma_bytes_per_cycle, delayed only as much as keeps the flits from overtaking
// the DMA. A descriptor completes when the network reports its last packet's
// tail injected.
//
// Receive side: packets are taken into a receive buffer of ni.rx_buffer_bytes
// (body fragments only) or refused when it, or the record ring, is full. The
// first packet of a message with a body asks the network for arriving() once its
// frame and software header are in: if the ring and buffer have room then, the
// HEADER record is written at once and the packet is committed (its tail is never
// refused); otherwise it is handled at its tail as any other packet. A message's
// body waits in the buffer until the firmware answers its handle; accepted
// fragments are deposited by one receive DMA engine, in order, each costing
// ni.packet_setup_cycles plus its bytes at ni.dma_bytes_per_cycle, and a fragment
// still arriving finishes no earlier than one DMA step after its tail. Records
// are written into the ring in node memory when they are generated (no DMA time).
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
#include "tlm_models/node/node_memory.h"

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
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
                         private NiCore::Client {
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
    // which replaces the virtual send engine, receive DMA and interrupt driver and
    // keeps everything else.
    // The first packet of a message taken at arriving(), until its tail is delivered.
    struct CutThrough {
        bool active = false;
        uint64_t packet_id = 0;
        uint32_t handle = 0;
        uint32_t length = 0; // its body fragment
        uint32_t start = 0;  // of the fragment inside the payload
        bool last = false;   // the message's only packet
    };
    struct Reassembly {
        uint16_t seq = 0;
        uint32_t handle = 0;
        uint32_t body_bytes = 0;
        uint32_t next_offset = 0;
        uint64_t message_id = 0; // its first packet's id (traces)
    };
    struct DmaJob {
        uint32_t handle = 0;
        NiFragment fragment;
        bool arrived = true;    // the fragment's tail is in (its bytes are in `fragment`)
        bool traced = false;    // its DMA time was reported
        uint64_t tail_ps = 0;   // when it arrived
        uint64_t queued_ps = 0; // when the firmware's answer queued it
    };
    // The descriptor the send engine works on, and its next packet.
    struct TxWork {
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
    // The next queued descriptor into tx_ (false if none is queued).
    bool take_descriptor();
    // tx_'s next packet: its header bytes, fragment and whether it is the last.
    void size_packet();
    // The network took tx_'s packet.
    void packet_taken();
    void plan_packet();
    net::PacketPtr build_packet();
    uint64_t offer_delay_cycles(uint32_t body_start, uint32_t frag) const;
    bool deliver_cut_through(net::PacketPtr &pkt);

    void rx_dma_engine();
    // Completes every deposit due by now, in order, and arms the engine for the next.
    virtual void complete_due_deposits();
    bool refuse(uint64_t &reason_counter);

    virtual void drive_irqs();
    bool irqs_need_driving() const;
    uint64_t cycles_ps(uint64_t cycles) const { return cycles * params_.cycle_ps; }
    uint64_t dma_cycles(uint32_t bytes) const {
        return (bytes + params_.dma_bytes_per_cycle - 1) / params_.dma_bytes_per_cycle;
    }
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

    // send side
    uint64_t tx_engine_serial_ = 0;  // next descriptor the engine starts
    bool tx_waits_for_work_ = false; // tx_engine's last activation ended idle, on tx_work_
    uint64_t next_packet_id_ = 0;
    uint64_t tx_dma_free_ps_ = 0; // the send DMA has read the previous fragment by then
    TxWork tx_;
    sc_core::sc_event tx_work_;

    // receive side
    std::unordered_map<uint32_t, Reassembly> reassembly_; // by source node
    std::deque<DmaJob> dma_jobs_;
    uint64_t rx_dma_free_ps_ = 0; // the receive DMA finished the previous deposit then
    sc_core::sc_event dma_due_;   // the front deposit may be complete
    CutThrough cut_through_;
    bool refused_ = false;

    sc_core::sc_event irq_update_;
    // Inside an entry point (a register access, a packet or report from the
    // network, the receive DMA's wake-up): ni_irqs_changed leaves the lines to the
    // entry point's end (IrqBatch), which writes them in the same evaluation phase
    // as the drive_irqs method would, without running it.
    class IrqBatch {
    public:
        explicit IrqBatch(NetworkInterface &ni) : ni_(ni) { ++ni_.irq_batch_depth_; }
        ~IrqBatch();
        IrqBatch(const IrqBatch &) = delete;
        IrqBatch &operator=(const IrqBatch &) = delete;

    private:
        NetworkInterface &ni_;
    };
    int irq_batch_depth_ = 0;
    bool irqs_changed_in_batch_ = false;
    // What drive_irqs wrote last, and in which delta cycle.
    bool irq_rx_written_ = false;
    bool irq_tx_written_ = false;
    uint64_t irq_write_delta_ = ~uint64_t(0);
    NetworkInterfaceStats stats_;

    // Observation (null hub_: off).
    void trace_received(uint64_t message_id, bool last, uint32_t src, uint32_t body_bytes);
    void trace_rx_ring();
    trace::TraceHub *hub_ = nullptr;
    std::string scope_;
    uint32_t sig_tx_msg_ = 0, sig_rx_msg_ = 0, sig_tx_dma_ = 0, sig_rx_dma_ = 0, sig_rx_ring_ = 0;
};

} // namespace starfish::node
