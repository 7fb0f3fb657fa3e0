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
// docs/node.md lists the decisions the header leaves open.

#include "hw/ni_regs.h"
#include "tlm_models/common/device_fault.h"
#include "tlm_models/net/net_port.h"
#include "tlm_models/node/network_interface_params.h"
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

class NetworkInterface : public sc_core::sc_module, public net::PacketEndpoint {
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
    const NetworkInterfaceStats &stats() const { return stats_; }
    // The ERROR register (the fault itself went to `fault`).
    uint32_t error_code() const { return error_; }

private:
    struct TxDescriptor {
        uint64_t serial = 0;
        uint32_t dest = 0;
        uint32_t body_addr = 0;
        uint32_t body_bytes = 0;
        uint32_t cookie = 0;
        bool notify = false;
        uint16_t seq = 0;
        bool finished = false; // last packet's tail has left
        std::vector<uint8_t> header;
    };
    struct Fragment {
        uint32_t body_offset = 0;
        uint32_t length = 0;
        uint32_t start = 0; // of the fragment inside bytes
        std::vector<uint8_t> bytes;
    };
    enum class RxState { Waiting, Accepted, Discarded };
    struct RxMessage {
        uint32_t handle = 0;
        uint32_t src = 0;
        uint32_t body_bytes = 0;
        uint32_t arrived = 0;
        uint32_t deposited = 0;
        RxState state = RxState::Waiting;
        bool notify = false;
        uint32_t body_addr = 0;
        uint32_t cookie = 0;
        std::deque<Fragment> buffered; // waiting for the firmware's answer
        uint32_t inflight = 0;         // bytes of a committed first fragment whose tail is not in
    };
    // The first packet of a message taken at arriving(), until its tail is delivered.
    struct CutThrough {
        bool active = false;
        uint64_t packet_id = 0;
        uint32_t handle = 0;
        uint32_t length = 0; // its body fragment
        uint32_t start = 0;  // of the fragment inside the payload
    };
    struct Reassembly {
        uint16_t seq = 0;
        uint32_t handle = 0;
        uint32_t body_bytes = 0;
        uint32_t next_offset = 0;
    };
    struct DmaJob {
        uint32_t handle = 0;
        Fragment fragment;
        bool arrived = true;  // the fragment's tail is in (its bytes are in `fragment`)
        uint64_t tail_ps = 0; // when it arrived
    };

    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    uint32_t read_register(uint32_t offset);
    void write_register(uint32_t offset, uint32_t value);
    void push_descriptor(uint32_t flags);
    void set_ctrl(uint32_t value);
    void pop_record();
    void rx_command(uint32_t value);
    // A programming error in the access being served: sets ERROR, reports the
    // fault and makes the access fail.
    void error(uint32_t code, const std::string &reg, const std::string &what);
    // A packet or network report the NI cannot take (a broken model invariant):
    // reported as a fault; the caller refuses or ignores it.
    void model_error(const std::string &what);

    void tx_engine();
    uint64_t offer_delay_cycles(uint32_t body_start, uint32_t frag) const;
    bool deliver_cut_through(net::PacketPtr &pkt);
    void retire_descriptors();
    uint32_t tx_free() const { return params_.tx_queue_depth - static_cast<uint32_t>(txq_.size()); }

    void rx_dma_engine();
    bool refuse(uint64_t &reason_counter);
    uint32_t allocate_handle();
    void write_record(const hw_ni_rx_record_t &rec);
    // The HEADER record of a message whose first packet was accepted (counts it).
    void write_header_record(unsigned src, uint32_t handle, uint32_t hdr_bytes, uint32_t body_bytes,
                             const uint8_t *header);
    void flush_done_records();
    void finish_if_complete(RxMessage &m);
    void space_returned();
    void buffer_add(uint32_t bytes);
    void buffer_release(uint32_t bytes);

    void drive_irqs();
    void irqs_changed() { irq_update_.notify(); }
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

    // registers
    uint32_t ctrl_ = 0;
    uint32_t error_ = HW_NI_ERR_NONE;
    bool access_failed_ = false; // the register access being served caused an error
    uint32_t access_offset_ = 0; // of the register access being served
    uint32_t tx_dest_ = 0, tx_hdr_addr_ = 0, tx_hdr_bytes_ = 0, tx_body_addr_ = 0,
             tx_body_bytes_ = 0, tx_cookie_ = 0;
    uint32_t rx_ring_base_ = 0, rx_ring_slots_ = 0;
    uint32_t rx_count_ = 0, rx_index_ = 0;
    uint32_t rx_body_addr_ = 0, rx_cookie_ = 0;

    // send side
    std::deque<TxDescriptor> txq_; // pushed and not yet retired, in order
    uint64_t txq_front_serial_ = 0;
    uint64_t next_tx_serial_ = 0;
    uint64_t tx_engine_serial_ = 0; // next descriptor the engine starts
    std::deque<uint32_t> tx_done_;  // notified cookies, at most tx_queue_depth
    uint16_t next_seq_ = 0;
    uint64_t next_packet_id_ = 0;
    sc_core::sc_event tx_work_;

    // receive side
    std::unordered_map<uint32_t, RxMessage> rx_messages_; // by handle
    std::unordered_map<uint32_t, Reassembly> reassembly_; // by source node
    std::deque<hw_ni_rx_record_t> pending_done_;          // DONE records waiting for a slot
    std::deque<DmaJob> dma_jobs_;
    sc_core::sc_event dma_work_;
    sc_core::sc_event tail_arrived_; // a fragment the DMA engine waits for arrived
    CutThrough cut_through_;
    uint32_t next_handle_ = 0;
    uint64_t rx_buffered_ = 0;
    bool refused_ = false;

    sc_core::sc_event irq_update_;
    NetworkInterfaceStats stats_;
};

} // namespace starfish::node
