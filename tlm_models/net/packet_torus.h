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
//
// Run-ahead (host speed only): a packet that enters an empty network is computed
// ahead of SystemC time up to its delivery, and replayed when something from
// outside comes first (PacketTorusRunAhead, packet_torus_run_ahead.h; switch
// speed.torus_run_ahead).

#include "tlm_models/net/torus_base.h"

#include <deque>
#include <memory>
#include <vector>

namespace starfish::net {

class PacketTorusRunAhead;

class PacketTorus : public TorusBase {
public:
    SC_HAS_PROCESS(PacketTorus);
    PacketTorus(sc_core::sc_module_name name, const NetParams &params, uint64_t seed,
                uint64_t trial);
    ~PacketTorus() override;

    uint64_t events_processed() const override { return events_processed_; }
    // Host-side counters of the run-ahead: packets that entered an empty network,
    // and how often a new packet or endpoint made the engine replay one.
    uint64_t run_ahead_packets() const;
    uint64_t run_ahead_replays() const;
    // Run-ahead packets computed in closed form (alone and at full rate).
    uint64_t run_ahead_closed_form() const;

private:
    friend class PacketTorusRunAhead; // works on the state below
    struct Worm;
    struct Run {
        int32_t first; // index of the run's first flit
        int64_t t0;    // cycle it crosses; flit k of the run crosses at t0 + (k - first)
    };
    struct PosRun {
        int64_t first; // stream position (Fifo) of the run's first flit
        int64_t t0;
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
        bool eligible = false;         // idle, able to send, waiting for the link
        bool finished = false;         // tail crossed
        bool refused = false;          // eject hop: tail refused by the endpoint
        bool marked = false;           // in the recompute list
        bool head_waits_front = false; // tail_sent: head ready, but a packet ahead in its buffer
        int64_t head_ready = 0;
        int64_t base = 0; // tail_sent: stream position of flit 0 in the buffer this hop fills
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
    // The input buffer at the far end of a VC (tail_sent only): the packets with flits
    // in it, and when the earlier flits of its stream left it (for the credits).
    struct Fifo {
        std::deque<Seg *> fillers; // hops filling it whose tails have not left it, in order
        std::vector<PosRun> gone;  // departures of packets that left, by stream position
        int64_t gone_end = 0;      // position after the last of them
        int64_t next_base = 0;     // position of the next packet's flit 0
    };
    struct VcState {
        Seg *owner = nullptr;
        std::vector<Seg *> waiting; // ready heads requesting this VC
        int last_key = -1;          // requester granted last (round robin)
        bool marked = false;
        Fifo fifo;
    };
    struct Channel {
        int wire = 0;
        std::vector<VcState> vcs;
        std::vector<Seg *> eligible; // per VC: the idle segment ready to send, if any
        Seg *sender = nullptr;       // the segment crossing this cycle, if any
        int last_vc = -1;            // VC that sent last (round robin)
        bool dirty = false;
        // As the router input port the channel feeds (input_speedup = 1):
        std::vector<Seg *> port_eligible; // per VC: the eligible hop draining that buffer
        Seg *port_sender = nullptr;       // the hop a flit leaves the port for, if any
        int port_last_vc = -1;            // VC whose flit left the port last (round robin)
        bool port_dirty = false;
    };
    enum class Ev : uint8_t { Check, HeadReady, Release, Arriving, PortRetry };
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
    // Processes every event of cycle `now` (the engine's one cycle of work).
    void process_cycle(int64_t now);
    void reset_segs(Worm &w);

    // Event queue: a binary heap on (cycle, seq), earliest at the front.
    const Event &next_event() const { return events_.front(); }
    void pop_event();

    // Endpoint calls of a processed cycle: made now, or taken by the run-ahead.
    void output_injected(int64_t now, int router, uint64_t tag);
    void output_arriving(int64_t now, int router, const Packet &pkt);

    // Flit timing.
    uint32_t flits(const Seg &s) const { return s.worm->inj.flits; }
    int64_t cross_cycle(const Seg &s, int32_t k) const;
    int32_t first_offset_above(const Seg &s, int32_t k_start, int64_t threshold) const;
    bool can_send(const Seg &s, int32_t k, int64_t now) const;
    int64_t predicted_stop(const Seg &s, int64_t now) const;
    int64_t eligible_from(const Seg &s) const;
    // tail_sent: the cycle stream position pos left a buffer (kNever if not known yet),
    // and the first position in [from, to) whose departure minus position exceeds
    // threshold (to if none).
    int64_t departure(const Fifo &f, int64_t pos) const;
    int64_t first_position_above(const Fifo &f, int64_t from, int64_t to, int64_t threshold) const;
    Fifo &fifo_filled_by(const Seg &s) { return channels_[s.channel].vcs[s.vc].fifo; }
    const Fifo &fifo_filled_by(const Seg &s) const { return channels_[s.channel].vcs[s.vc].fifo; }
    void enter_fifo(Seg &filler);
    void leave_fifo(Seg &drainer, int64_t now);
    void mark_later_fillers(const Seg &drainer);
    void recheck_later_fillers(const Seg &drainer, int64_t now);
    void arbitrate_ports(int64_t now);
    void mark_port_dirty(int port);
    void free_port(Seg &s);
    bool at_front(const Seg &s) const;

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
    std::vector<Event> events_; // heap (std::push_heap with std::greater)
    uint64_t seq_ = 0;
    uint64_t events_processed_ = 0;
    sc_core::sc_event wake_;
    int64_t current_ = -1;         // cycle being processed by step(), -1 outside
    int64_t last_step_cycle_ = -1; // cycle of the last activation of step()

    // Work lists of the cycle being processed.
    std::vector<Seg *> heads_now_;
    std::vector<std::pair<int, int>> releases_now_;
    std::vector<std::pair<int, int>> alloc_;
    std::vector<int> dirty_;
    std::vector<int> dirty_ports_;
    std::vector<Seg *> picks_; // input_speedup: the hops the input ports put forward
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
    int live_worms_ = 0; // accepted and not delivered

    std::unique_ptr<PacketTorusRunAhead> run_ahead_;
};

} // namespace starfish::net
