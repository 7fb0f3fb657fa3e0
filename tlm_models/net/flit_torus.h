#pragma once
// The flit-level reference model of the torus: every cycle it moves flits one by
// one, straight from the timing contract in docs/network.md (availability, credits,
// VC allocation, link arbitration). Slow (work per cycle while packets are in
// flight) and kept simple on purpose: it is the golden model that the packet-level
// PacketTorus and the Verilog router (rtl/router) are checked against. Select it with
// net.model = flit. It sleeps while the network is empty.

#include "tlm_models/net/torus_base.h"

#include <deque>
#include <memory>
#include <vector>

namespace starfish::net {

class FlitTorus : public TorusBase {
public:
    SC_HAS_PROCESS(FlitTorus);
    FlitTorus(sc_core::sc_module_name name, const NetParams &params, uint64_t seed, uint64_t trial);
    ~FlitTorus() override;

    uint64_t cycles_simulated() const { return cycles_simulated_; }
    uint64_t events_processed() const override { return cycles_simulated_; }

private:
    struct Worm {
        Injection inj;
        int src = 0;
        int last_hop = 0;
        std::vector<std::vector<int64_t>> cross; // per hop: crossing cycle of each flit so far
        std::vector<bool> vc_owned;
        std::vector<int64_t> base; // per hop: stream position of flit 0 in the buffer it fills
        std::vector<int64_t> head_ready; // per hop: cycle the head was ready to request the VC
        bool refused = false;
        int64_t retry = kNever;
        bool delivered = false;
    };
    struct VcState {
        Worm *owner = nullptr;
        int64_t release_at = kNever;
        int last_key = -1;
    };
    // The input buffer a VC fills, as a stream of flit positions (every packet that
    // held the VC, in order): when each position left it, for the credits and for the
    // head-at-the-front rule of tail_sent (docs/network.md, "Router policies").
    struct Fifo {
        int64_t next_base = 0;       // position of the next packet's flit 0
        int64_t last_base = 0;       // position of the latest packet's flit 0
        int64_t departs_base = 0;    // position of departs.front()
        std::deque<int64_t> departs; // cycle each position left the buffer, in order
        int64_t departed() const { return departs_base + int64_t(departs.size()); }
    };
    struct Channel {
        int wire = 0;
        std::vector<VcState> vcs;
        std::vector<Fifo> fifos;   // per VC: the buffer at the channel's far end
        int sent_last_cycle = -1;  // VC that crossed in the previous cycle, -1 if none
        Worm *sent_worm = nullptr; // its packet
        int last_vc = -1;          // VC that crossed last (round robin)
        int port_last_vc = -1;     // as a router input port: the VC whose flit left last
    };

    void accept(int router, Injection &&inj) override;
    void endpoint_ready_at(int router, int64_t cycle) override;
    void step();
    void keep_ticking();
    bool can_send(const Worm &w, int hop, int64_t now) const;
    Fifo &fifo(const Worm &w, int hop) {
        return channels_[w.inj.path[hop].channel].fifos[w.inj.path[hop].vc];
    }
    const Fifo &fifo(const Worm &w, int hop) const {
        return channels_[w.inj.path[hop].channel].fifos[w.inj.path[hop].vc];
    }
    int wire(const Worm &w, int hop) const { return channels_[w.inj.path[hop].channel].wire; }

    std::vector<Channel> channels_;
    std::vector<std::deque<Worm *>> queues_;
    std::vector<std::unique_ptr<Worm>> worms_; // accepted and not yet delivered
    std::vector<int> injected_;                // routers whose injection tail crossed last cycle
    std::vector<Worm *> deliveries_;           // worms whose tail crossed an ejection last cycle
    std::vector<Worm *> arrivals_; // worms whose early_flits crossed an ejection last cycle
    sc_core::sc_event tick_;
    bool ticking_ = false;
    uint64_t cycles_simulated_ = 0;
};

} // namespace starfish::net
