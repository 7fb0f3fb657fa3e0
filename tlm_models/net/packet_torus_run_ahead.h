#pragma once
// The packet torus's run-ahead (host speed only; docs/network.md, "Host speed").
//
// A packet that enters an empty network has nothing to contend with until the
// next packet is offered, so its events are computed at once, ahead of SystemC
// time, up to the cycle of its delivery (which the endpoint may refuse). The
// engine wakes only at the cycles where an endpoint sees something (injected,
// arriving, the delivery). When a packet is offered or an endpoint becomes ready
// while the state is ahead, the engine goes back to the state the packet entered
// with and replays its events up to the current cycle, which leaves exactly the
// state the cycle-by-cycle processing would have reached. A packet alone that
// moves at full rate is computed in closed form instead of event by event.
//
// Switches (NetParams): speed.torus_run_ahead off = every packet's events are
// processed at their own cycle; speed.torus_closed_form off = a lone packet runs
// ahead event by event. Either way the simulated results are the same.

#include "tlm_models/net/packet_torus.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starfish::net {

class PacketTorusRunAhead {
    // The torus's state, which the engine saves, computes ahead and restores.
    using Worm = PacketTorus::Worm;
    using Seg = PacketTorus::Seg;
    using Run = PacketTorus::Run;
    using Event = PacketTorus::Event;
    using Ev = PacketTorus::Ev;
    using Channel = PacketTorus::Channel;
    using VcState = PacketTorus::VcState;
    using Fifo = PacketTorus::Fifo;

public:
    explicit PacketTorusRunAhead(PacketTorus &torus) : t_(torus) {}

    // Whether the state is ahead of SystemC time (events processed already).
    bool ahead() const { return ahead_; }
    // Whether endpoint calls go straight to the endpoints (not processing ahead
    // or replaying).
    bool emitting() const { return outputs_ == Outputs::Emit; }

    // The worm w was just taken into an empty network: true when it runs ahead
    // (then its events are processed up to its delivery), false when the switch
    // is off (the caller schedules it as usual).
    bool begin(Worm &w);
    // step() at cycle `now` while ahead: true when the cycle was processed already
    // (its endpoint calls are made here), false when the engine caught up (the
    // caller processes the cycle as usual).
    bool step(int64_t now);
    // Something from outside happens during `now` while ahead (see the .cpp).
    void catch_up(int64_t now);

    // Endpoint calls of a processed cycle: false when they are to be made now,
    // true when taken here (deferred to their cycle, or checked against the
    // calls made already, in a replay).
    bool take_injected(int64_t now, int router, uint64_t tag);
    bool take_arriving(int64_t now, int router, const Packet &pkt);

    // Host-side counters: packets that entered an empty network, how often a new
    // packet or endpoint made the engine replay one, and how many were computed
    // in closed form.
    uint64_t packets() const { return packets_; }
    uint64_t replays() const { return replays_; }
    uint64_t closed_form_packets() const { return closed_form_packets_; }

private:
    enum class Outputs : uint8_t { Emit, Defer, Suppress };
    struct Output {
        int64_t cycle;
        bool injected; // else arriving
        int router;
        uint64_t tag;      // injected
        const Packet *pkt; // arriving
    };
    struct ChannelSnapshot {
        int channel;
        int vc;
        int last_vc;
        int last_key;
        int port_last_vc;
        ChannelStats stats;
    };

    bool lone_full_rate(const Worm &w) const;
    void closed_form(Worm &w);
    bool delivers_at(int64_t cycle) const;
    void wake();
    bool replayed_matches(int64_t now, bool injected, int router);

    PacketTorus &t_;
    Outputs outputs_ = Outputs::Emit;
    bool ahead_ = false;         // events up to ahead_through_ are processed already
    int64_t ahead_through_ = -1; // the last cycle processed ahead of SystemC time
    Worm *worm_ = nullptr;       // the packet that entered the empty network
    uint64_t seq_ = 0;           // the torus's seq_ and events_processed_ when it did
    uint64_t events_ = 0;
    std::vector<ChannelSnapshot> channels_; // its path's state then
    std::vector<Fifo> fifos_;               // and its buffers' (tail_sent)
    std::vector<Output> deferred_;          // in cycle order
    size_t deferred_next_ = 0;              // the first not made yet
    size_t replayed_outputs_ = 0;
    uint64_t packets_ = 0;
    uint64_t closed_form_packets_ = 0;
    uint64_t replays_ = 0;
};

} // namespace starfish::net
