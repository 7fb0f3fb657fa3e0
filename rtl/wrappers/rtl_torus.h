#pragma once
// The torus network built from the Verilog router (rtl/router/router.v), one
// Verilator model per router, behind the same net::Network interface as the TLM
// engines (net.model = rtl; docs/rtl.md). TorusBase keeps the local-port
// semantics, injection queues, noise, statistics and endpoint calls; this class
// turns each packet into 32-bit flits at its source router's local input (the
// payload bytes really travel through the RTL), reassembles and checks them at the
// ejection channel, carries flits and credits over the links with the wire delay
// (net.link_delay_cycles) in C++, and clocks the routers once per network cycle
// while anything is in flight. When every router is idle and nothing is on the
// wires it sleeps until the next packet may enter, which changes no cycle: an idle
// router's state is a fixed point of its clock.
//
// Every router's `error` output is checked after every clock edge; one that rises
// stops the simulation (std::runtime_error naming the router and cycle).
//
// Limits of the verilated routers (checked, config::ConfigError): net.flit_bytes 4
// (hw/packet.h's 32-bit flits), net.vcs 1 or 2, net.buffer_flits <= 16,
// net.router_delay_cycles <= 16, torus sides <= 255.

#include "tlm_models/net/torus_base.h"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

class VerilatedContext;
class VerilatedFstC;

namespace starfish::rtl {

class RouterModel; // one verilated router (rtl_torus.cpp)

class RtlTorus : public net::TorusBase {
public:
    static constexpr int kMaxBufferFlits = 16; // router.v BMAX as verilated
    static constexpr int kMaxRouterDelay = 16; // router.v RMAX as verilated
    static constexpr int kMaxVcsPerClass = 2;  // VCS = 1 and VCS = 2 are verilated

    SC_HAS_PROCESS(RtlTorus);
    // fst_path: when not empty, every signal of every router goes to this FST file
    // (--rtl-fst; the routers are then the traced variants, a little slower).
    RtlTorus(sc_core::sc_module_name name, const net::NetParams &params, uint64_t seed,
             uint64_t trial, const std::string &fst_path = {});
    ~RtlTorus() override;

    // Clock cycles the routers were evaluated for (the RTL's host work).
    uint64_t cycles_simulated() const { return cycles_simulated_; }
    uint64_t events_processed() const override { return cycles_simulated_; }

private:
    struct Flight { // a packet accepted into the network and not yet delivered
        Injection inj;
        std::vector<uint32_t> flits; // what the source router's local input receives
    };
    struct Port {                                  // one router's local port as the wrapper sees it
        std::deque<std::shared_ptr<Flight>> queue; // accepted, in order; front is offered
        size_t next_flit = 0;                      // of the front packet
        bool tail_injected = false;                // the front's tail crossed last cycle
        int64_t head_ready = kNever;               // first cycle the front's head was offered
        // Ejection: the packet whose flits cross the ejection channel.
        std::shared_ptr<Flight> ejecting;
        std::vector<uint32_t> received;
        bool tail_ejected = false; // its tail crossed in the previous cycle
        bool arrived = false;      // its early_flits-th flit crossed in the previous cycle
        bool refused = false;      // the endpoint refused it; the router holds the tail
        int64_t retry = kNever;    // cycle from which the held tail may cross again
        bool refuse_edge = false;  // ej_refuse for the pending clock edge
    };

    void accept(int router, Injection &&inj) override;
    void endpoint_ready_at(int router, int64_t cycle) override;
    void tick();
    void start_of_cycle_reports();
    void clock_edge();
    bool busy(int64_t now, int64_t &next_eligible) const;
    void evaluate_cycle(int64_t now);
    void eject_flit(int router, uint32_t word, bool head, bool tail);
    void deliver_packet(int router);
    [[noreturn]] void fail(const std::string &what) const;
    void dump_fst(int64_t cycle, bool edge);
    template <typename Word>
    Word through_wire(std::vector<Word> &wires, int index, int64_t now, Word word);

    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<VerilatedFstC> fst_;
    std::vector<std::unique_ptr<RouterModel>> routers_;
    std::vector<Port> ports_;
    // Packets between their injection and their ejection, per (source, destination,
    // VC lane): they leave in the order they entered (docs/network.md).
    std::map<std::tuple<int, int, int>, std::deque<std::shared_ptr<Flight>>> in_network_;
    // Wires of net.link_delay_cycles cycles: per router and input port, the link words
    // and (per router and output port) the credit words of the last L cycles.
    std::vector<uint64_t> flit_wire_;
    std::vector<uint32_t> credit_wire_;
    size_t on_wires_ = 0;              // nonzero words on the wires
    std::vector<uint32_t> busy_flits_; // per channel and VC: flits of its packet so far
    std::vector<bool> evaluated_;      // per router: evaluated in the current cycle
    sc_core::sc_event tick_;
    bool edge_pending_ = false; // the last evaluated cycle has not been clocked yet
    int64_t evaluated_cycle_ = -1;
    uint64_t cycles_simulated_ = 0;
};

} // namespace starfish::rtl
