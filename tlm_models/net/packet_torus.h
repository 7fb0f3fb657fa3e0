#pragma once
// The default network model: an X x Y torus of wormhole routers, computed at
// packet level with exactly the flit-level timing of docs/network.md (the
// flit-level reference, flit_torus.h, gives identical cycles; the
// equivalence tests check it).
//
// How: a packet's flits cross each channel in *runs* of consecutive cycles (one
// flit per cycle), interrupted only when the worm stalls (its head blocked, its
// buffers full, its link given to another VC). The model keeps, per packet and
// hop, the list of runs: the crossing cycle of any flit follows from it. Between
// the changes of a run nothing needs computing, so the model schedules an event
// only where a run starts, stops or ends: a few events per packet-hop, whatever
// the packet's length, and none while the network is idle.

#include "tlm_models/net/torus_base.h"

#include <deque>
#include <memory>
#include <queue>
#include <vector>

namespace starfish::net {

class PacketTorus : public TorusBase {
public:
    SC_HAS_PROCESS(PacketTorus);
    PacketTorus(sc_core::sc_module_name name, const NetParams &params, uint64_t seed,
                uint64_t trial);
    ~PacketTorus() override;

    uint64_t events_processed() const override { return events_processed_; }

private:
    struct Worm;
    struct Run {
        int32_t first; // index of the run's first flit
        int64_t t0;    // cycle it crosses; flit k of the run crosses at t0 + (k - first)
    };
    // One hop of one packet: its flits crossing one channel.
    struct Seg {
        Worm *worm = nullptr;
        int hop = 0;
        int channel = 0;
        int vc = 0;
        int wire = 0; // wire delay of this channel (credits return over it)
        std::vector<Run> runs;
        int32_t count = 0;    // flits crossed, when not running
        bool running = false; // crosses a flit this cycle and (predicted) every next one
        bool vc_owned = false;
        bool eligible = false; // idle, able to send, waiting for the link
        bool finished = false; // tail crossed
        bool refused = false;  // eject hop: tail refused by the endpoint
        bool marked = false;   // in the recompute list
        int64_t head_ready = 0;
        int64_t retry = kNever;
        uint32_t gen = 0; // generation of the valid check event
    };
    struct Worm {
        Injection inj;
        int src = 0;
        int last_hop = 0; // H: the eject hop
        std::vector<Seg> segs;
        int pending_events = 0;
        bool delivered = false;
    };
    struct VcState {
        Seg *owner = nullptr;
        std::vector<Seg *> waiting; // ready heads requesting this VC
        int last_key = -1;          // requester granted last (round robin)
        bool marked = false;
    };
    struct Channel {
        int wire = 0;
        std::vector<VcState> vcs;
        std::vector<Seg *> eligible; // per VC: the idle segment ready to send, if any
        Seg *sender = nullptr;       // the segment crossing this cycle, if any
        int last_vc = -1;            // VC that sent last (round robin)
        bool dirty = false;
    };
    enum class Ev : uint8_t { Check, HeadReady, Release, Arriving };
    struct Event {
        int64_t cycle;
        uint64_t seq;
        Ev kind;
        uint32_t gen;
        Seg *seg;
        int channel;
        int vc;
        bool operator>(const Event &o) const {
            return cycle != o.cycle ? cycle > o.cycle : seq > o.seq;
        }
    };

    void accept(int router, Injection &&inj) override;
    void endpoint_ready_at(int router, int64_t cycle) override;
    void step();

    // Flit timing.
    uint32_t flits(const Seg &s) const { return s.worm->inj.flits; }
    int64_t cross_cycle(const Seg &s, int32_t k) const;
    int32_t first_offset_above(const Seg &s, int32_t k_start, int64_t threshold) const;
    bool can_send(const Seg &s, int32_t k, int64_t now) const;
    int64_t predicted_stop(const Seg &s, int64_t now) const;
    int64_t eligible_from(const Seg &s) const;

    // State changes at the current cycle.
    void finish(Seg &s, int64_t now);
    void stop(Seg &s, int32_t k);
    void start(Seg &s, int64_t now);
    void make_eligible(Seg &s);
    void mark(Seg &s);
    void mark_with_neighbours(Seg &s);
    void mark_dirty(int channel);
    void release(int channel, int vc, int64_t at, int64_t now);
    void schedule(int64_t cycle, Ev kind, Seg *seg, int channel = 0, int vc = 0);
    void wake_at(int64_t cycle);

    std::vector<Channel> channels_;
    std::vector<std::deque<Worm *>> queues_;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
    uint64_t seq_ = 0;
    uint64_t events_processed_ = 0;
    sc_core::sc_event wake_;
    int64_t current_ = -1; // cycle being processed by step(), -1 outside

    // Work lists of the cycle being processed.
    std::vector<Seg *> heads_now_;
    std::vector<std::pair<int, int>> releases_now_;
    std::vector<std::pair<int, int>> alloc_;
    std::vector<int> dirty_;
    std::vector<Seg *> recompute_;
    std::vector<int> injected_;
    std::vector<Seg *> deliveries_;
    std::vector<Seg *> arrivals_;   // eject hops whose early_flits crossed last cycle
    std::vector<Seg *> checks_;     // Check events of the cycle being processed
    std::vector<Worm *> graveyard_; // delivered, recycled once no event refers to them
    // Every worm ever made, owned here; the free ones are reused with the capacity
    // of their hop and run vectors, so a packet costs no allocation in steady state.
    std::vector<std::unique_ptr<Worm>> worms_;
    std::vector<Worm *> free_worms_;
};

} // namespace starfish::net
