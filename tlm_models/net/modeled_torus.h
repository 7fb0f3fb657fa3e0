#pragma once
// The "modeled" network (net.model = modeled), after the second of Proteus's two
// network simulations (TOCS §4.1: "an exact simulation that models every flit
// movement and a modeled simulation that uses stochastic techniques to estimate
// network contention and its effect on latency"; STARFISH's published runs used the
// modeled one). Proteus's formula is not in the reference material; this engine
// estimates contention the way the analytic wormhole k-ary n-cube model of Agarwal
// (1991) does, from the average load of the whole network, and draws each packet's
// delay from it.
//
// What is exact and what is estimated:
//  * A node's injection channel and its ejection channel are simulated: each moves
//    one flit per cycle, packets in turn (FIFO at the source, in order of head
//    arrival at the destination). A destination that refuses a packet holds its
//    ejection channel, and the later packets to it wait behind, in front of the
//    node: Proteus's "deep hardware FIFO" at every processor, which never backs up
//    into the network.
//  * The router-to-router links are not: a packet's head reaches its destination
//    (hops + 1) * router_delay + hops * link_delay cycles after it entered the
//    network, plus a contention delay with mean
//        hops * rho / (1 - rho) * B * (k_d - 1) / k_d^2 * (1 + 1/n)
//    (Agarwal's per-hop wait for a k-ary n-cube, n = 2), where rho is the links'
//    utilisation over the last net.modeled_window_cycles (flits x hops of the
//    packets that entered, over links x window), B the mean length in flits of those
//    packets and k_d the mean distance per dimension of uniform traffic on this
//    torus. net.modeled_delay draws it from an exponential distribution of that mean
//    (stream HW_RNG_STREAM_NET_CONTENTION) or adds the mean itself.
//  * Packets of one source and destination stay in order (a later one never
//    arrives before an earlier one), as the NI's multi-packet messages need.
//
// At zero load every packet has exactly the packet and flit engines' latency
// (docs/network.md); under load only the endpoints queue. Channel observation
// (observe()) shows the injection and ejection channels, as the exact engines do
// (busy while flits cross; a refused tail crosses again when retried), and the
// packets; the router-to-router channels have no timeline here and stay idle.

#include "tlm_models/net/torus_base.h"

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace starfish::net {

class ModeledTorus : public TorusBase {
public:
    SC_HAS_PROCESS(ModeledTorus);
    ModeledTorus(sc_core::sc_module_name name, const NetParams &params, uint64_t seed,
                 uint64_t trial);
    ~ModeledTorus() override;

    uint64_t events_processed() const override { return events_processed_; }

private:
    struct Msg {
        Injection inj;
        int dst = 0;
        int hops = 0;                 // router-to-router links
        uint64_t seq = 0;             // acceptance order, for ties
        int64_t head = 0;             // head ready to cross the ejection channel
        bool started = false;         // its head has entered the injection channel
        bool refused = false;         // held at the ejection channel after a refusal
        bool retry_scheduled = false; // a Deliver retry is on the event queue
    };
    // TailRecross: observation only, a refused tail crossing the ejection channel again.
    enum class Ev : uint8_t { Injected, Deliver, Arriving, StartInject, HeadArrives, TailRecross };
    static constexpr size_t kEventKinds = size_t(Ev::TailRecross) + 1;
    struct Event {
        int64_t cycle;
        uint64_t seq;
        Ev kind;
        int router;
        Msg *msg;
        bool operator>(const Event &o) const {
            return cycle != o.cycle ? cycle > o.cycle : seq > o.seq;
        }
    };
    struct Endpoint {
        std::deque<Msg *> sending;  // accepted, not yet injected (front: next or streaming)
        int64_t inject_free = 0;    // first cycle the next packet's head may cross
        std::vector<Msg *> waiting; // heads arrived, not yet ejecting (sorted at use)
        Msg *ejecting = nullptr;    // crossing or held at the ejection channel
        int64_t eject_free = 0;     // first cycle the ejection channel is free
        // Per destination sent to: head cycle of the latest packet (a map, as a
        // 64 x 64 torus would need 16 M entries in a full table).
        std::unordered_map<int, int64_t> last_head;
    };
    struct Load {
        int64_t cycle;
        uint64_t flit_hops;
        uint32_t flits;
    };

    void accept(int router, Injection &&inj) override;
    void endpoint_ready_at(int router, int64_t cycle) override;
    void step();
    void schedule(int64_t cycle, Ev kind, int router, Msg *msg);
    void start_injection(int router, Msg *m, int64_t now);
    void try_eject(int router, int64_t now);
    // A refused packet's tail crosses the ejection channel again in `cycle`; it is
    // delivered in the next.
    void schedule_retry(int router, Msg *m, int64_t cycle);
    // The mean contention delay, in cycles, of a packet of `hops` links when the
    // links are `rho` busy with packets of `mean_flits` flits on average.
    double mean_contention_cycles(int hops, double rho, double mean_flits) const;
    int64_t contention_delay(int router, int hops, int64_t now);
    Msg *new_msg();
    void free_msg(Msg *m);

    std::vector<Endpoint> ends_;
    std::vector<hw_rng> delay_rng_;
    std::deque<Load> window_;
    uint64_t window_flit_hops_ = 0;
    uint64_t window_flits_ = 0;
    int links_ = 0;
    double k_d_ = 0;            // mean distance per dimension of uniform traffic (Agarwal's k_d)
    std::vector<Event> events_; // heap on (cycle, seq), earliest at the front
    uint64_t seq_ = 0;
    uint64_t msg_seq_ = 0;
    uint64_t events_processed_ = 0;
    int64_t wake_cycle_ = kNever;
    sc_core::sc_event wake_;
    // step()'s work lists, kept to reuse their memory: the cycle's events by kind,
    // and the routers whose ejection channel may start a packet.
    std::vector<Event> due_[kEventKinds];
    std::vector<int> touched_;
    // Every message record ever made, owned here; delivered ones are reused.
    std::vector<std::unique_ptr<Msg>> msgs_;
    std::vector<Msg *> free_msgs_;
};

} // namespace starfish::net
