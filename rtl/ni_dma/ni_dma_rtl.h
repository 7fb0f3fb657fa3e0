#pragma once
// ni.model = rtl: the DMA network interface with its DMA engine in Verilog
// (rtl/ni_dma/ni_dma.v, verilated), behind the same C++ interface as the TLM
// model it replaces (node::NetworkInterface: register socket, interrupt lines,
// node memory through its direct pointer, net::PacketEndpoint on the router's
// local port). docs/rtl.md, "The DMA engine", draws the boundary:
//
// * kept from the TLM model (untimed bookkeeping, NiCore and the packet
//   acceptance rules): the registers and their checks, the send queue, the
//   done FIFO, handles, the receive-buffer accounting, ring pointers, the
//   order of deposit jobs;
// * done by the RTL, cycle by cycle: when each packet is built and offered, the
//   send DMA (reads node memory word by word), the route/length flits, frame and
//   header words of every packet (written into the packet handed to the
//   network), the receive DMA (reads the receive buffer, writes node memory) and
//   when each deposit completes, the receive records' bytes, the interrupt lines.
//
// The RTL is clocked only while it has work: each part (send side, receive DMA,
// a deposit's tail count) gets edges, with its clock enable, while it counts
// (tx_active, rx_active, rx_tail_active) or an input waits for it, one cycle
// after that input when it was idle; otherwise no SystemC event is scheduled. Edges due by the
// current time are run before every packet, network report and register access (advance_to_now), so
// the order within a cycle is the TLM model's (docs/node.md). The RTL's `error` output is checked
// after every edge and evaluation; a rise stops the run as a device fault.
#include "tlm_models/node/network_interface.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

class Vni_dma;
class VerilatedContext;
class VerilatedFstC;

namespace starfish::rtl {

class NiDmaRtl : public node::NetworkInterface {
public:
    SC_HAS_PROCESS(NiDmaRtl);
    NiDmaRtl(sc_core::sc_module_name name, const node::NetworkInterfaceParams &params, int node_id,
             node::NodeMemory &memory, net::Network &network, int router,
             std::vector<int> node_routers, int torus_width);
    ~NiDmaRtl() override;

    bool deliver(net::PacketPtr &pkt) override;
    void injected(uint64_t tag) override;
    void arriving(const net::Packet &pkt) override;

    // Clock edges the RTL was given so far.
    uint64_t rtl_edges() const { return edges_; }
    // The RTL's busy vector (rtl/ni_dma/ni_dma.v).
    uint32_t rtl_busy() const;
    // The RTL's signals into an FST file: sampled after each rising edge and
    // half a cycle later (clock low, the edge's pulses cleared).
    bool open_rtl_waves(const std::string &path) override;
    void close_rtl_waves() override;

private:
    // A packet the send DMA fills: its payload bytes live in the packet object,
    // which the network owns once it took the packet; the tail cannot leave
    // before the last word is in (the offer delay), which injected() checks.
    struct Fill {
        uint8_t *data = nullptr;
        uint32_t bytes = 0;
        uint32_t words = 0;   // payload words expected
        uint32_t written = 0; // payload words the RTL wrote
    };

    void tx_engine() override;
    void complete_due_deposits() override;
    void drive_irqs() override;
    void ni_deposit_arrived(uint32_t handle, node::NiFragment &&fragment) override;
    bool ni_store_record(uint32_t addr, const hw_ni_rx_record_t &record) override;

    // The parts of the RTL that count cycles, each from its own start: the send
    // side, the receive DMA, a deposit's tail; and the CTRL register's latch.
    enum class Part { Tx = 0, Rx = 1, Tail = 2, Reg = 3 };
    static constexpr int kParts = 4;

    void clock_process();
    // Runs every edge due by now, then loads the next deposit if the RTL is free.
    void advance_to_now();
    // One clock edge with the clock enables of the parts whose edge it is.
    void edge(const bool enable[kParts]);
    // An input of `part` was set for its next edge: make sure that edge comes.
    void input_applied(Part part);
    bool needs_edge(Part part) const;
    // The earliest edge any part needs; false if none needs one.
    bool next_edge(uint64_t &at) const;
    void schedule_edge();
    void settle_read_ports();
    void after_edge();
    void load_deposit();
    void issue_tx_command();
    void check_error(const char *where);
    bool check_frame(const net::Packet &pkt);
    void write_memory(uint32_t addr, const uint8_t *bytes, uint32_t len);

    const int torus_width_; // router id = y * width + x (route flits carry x and y)
    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<Vni_dma> top_;
    std::unique_ptr<VerilatedFstC> waves_; // --ni-dma-fst
    uint64_t edges_ = 0;
    uint64_t next_[kParts] = {}; // each part's next edge (valid while it needs edges)
    bool pending_[kParts] = {};  // an input waits for the part's next edge
    bool error_reported_ = false;
    sc_core::sc_event edge_event_;
    sc_core::sc_event tx_kick_; // the RTL offered a packet

    // send side
    bool offer_seen_ = false;    // the current packet's offer was handed to tx_engine
    std::deque<Fill> fills_;     // packets built, oldest first, until their tail left
    bool tx_dma_traced_ = false; // the observed tx_dma signal is high

    // receive side
    bool dma_loaded_ = false;                          // the front job is in the RTL
    const std::vector<uint8_t> *ct_payload_ = nullptr; // the committed cut-through packet
};

} // namespace starfish::rtl
