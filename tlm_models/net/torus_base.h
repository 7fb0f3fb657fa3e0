#pragma once
// What the packet-level torus (packet_torus.h) and the flit-level reference
// (flit_torus.h) share: the net::Network local-port semantics, injection
// queues and timing noise, endpoint calls, statistics and observation. The two
// engines differ only in how they compute when flits cross channels, so everything
// an endpoint can observe goes through this class and happens at the same point of
// a cycle in both.
//
// Time: the network runs at machine.cpu_mhz; cycle c is the interval
// [c * T, (c + 1) * T). A packet accepted by try_inject during cycle c may start
// crossing its injection channel in cycle c + 1 + noise. At the start of each cycle
// the engine first reports the packets whose tail left an injection port in the
// previous cycle (injected(), injection_ready), then delivers the packets whose
// tail crossed an ejection channel in the previous cycle (deliver()), then reports
// the packets whose first early_flits flits did so (arriving()), each group in
// router order; only then does it decide the cycle's flit movements.

#include "tlm_models/common/trace_hub.h"
#include "tlm_models/net/net_params.h"
#include "tlm_models/net/net_port.h"
#include "tlm_models/net/net_stats.h"
#include "tlm_models/net/route_table.h"
#include "tlm_models/net/torus_topology.h"

#include "hw/rng.h"

#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace starfish::net {

class TorusBase : public sc_core::sc_module, public Network {
public:
    static constexpr int64_t kNever = INT64_MAX / 4;

    // seed and trial select the noise streams (hw_rng_stream_seed(seed, trial,
    // HW_RNG_STREAM_NETWORK, router)).
    TorusBase(sc_core::sc_module_name name, const NetParams &params, uint64_t seed, uint64_t trial);
    ~TorusBase() override;

    int router_count() const override { return topo_.routers(); }
    void attach(int router, PacketEndpoint *endpoint) override;
    bool try_inject(int router, PacketPtr &pkt) override;
    const sc_core::sc_event &injection_ready(int router) const override;
    void endpoint_ready(int router) override;

    const NetParams &params() const { return params_; }
    const TorusTopology &topology() const { return topo_; }
    const NetStats &stats() const { return stats_; }
    nlohmann::json stats_json() const { return stats_.to_json(topo_, params_.cycle_ps()); }
    // Reports every channel (busy, packet, VC) whose scope ("net.r7.E", a router
    // port) `want` accepts, and every packet's injection and delivery, to
    // `hub` (docs/observe.md). Turns the packet engine's run-ahead off: records are
    // made at their simulated time. Costs one pointer test per channel change
    // unless called.
    void observe(trace::TraceHub *hub, const std::function<bool(const std::string &)> &want);
    int64_t now_cycle() const;
    // Host work done so far, for speed figures: scheduled events for the packet
    // engine, simulated cycles for the flit engine.
    virtual uint64_t events_processed() const = 0;
    sc_core::sc_time time_of(int64_t cycle) const;

protected:
    // A packet accepted into a router's injection queue.
    struct Injection {
        PacketPtr pkt;
        RouteView path; // held by routes_
        uint32_t flits = 0;
        int64_t accept_cycle = 0;
        int64_t eligible_cycle = 0; // accept_cycle + 1 + noise
        uint32_t noise = 0;
    };

    // The engine takes the packet into its queue for the router (at the back).
    virtual void accept(int router, Injection &&inj) = 0;
    // The endpoint of a router that refused a delivery is ready from `cycle` on.
    virtual void endpoint_ready_at(int router, int64_t cycle) = 0;

    // The tail of the front packet of the router's queue left the injection port in
    // cycle-1: frees its queue slot, calls injected(tag) and notifies injection_ready.
    void report_injected(int router, uint64_t tag);
    enum class Delivery { Accepted, Refused };
    // Offers a packet to the router's endpoint; on acceptance records its latency.
    // `retry_cycle` is set when the endpoint called endpoint_ready from inside
    // deliver() (else left at kNever).
    Delivery deliver(int router, PacketPtr &pkt, const Injection &info, int hops,
                     int64_t &retry_cycle);

    // Flit early_flits - 1 of a packet crossed the router's ejection channel in
    // cycle-1: calls the endpoint's arriving().
    void report_arriving(int router, const Packet &pkt);
    // Whether a packet asks for arriving() (early_flits in 1 .. flits-1).
    static bool wants_arriving(const Packet &pkt, uint32_t flits) {
        return pkt.early_flits > 0 && pkt.early_flits < flits;
    }

    void record_head(int channel, int64_t wait) {
        stats_.channels[channel].packets += 1;
        stats_.channels[channel].head_wait_cycles += uint64_t(wait);
    }
    void record_flits(int channel, uint32_t flits) {
        stats_.channels[channel].busy_cycles += flits;
    }
    // A channel's statistics (the packet engine's run-ahead saves and restores them).
    ChannelStats &channel_stats(int channel) { return stats_.channels[channel]; }
    // Whether the observation layer watches the network (observe()): the engines
    // then report every channel change at its cycle (no run-ahead).
    bool observed() const { return hub_ != nullptr; }
    void trace_channel(int channel, bool busy, int vc, uint64_t packet = 0) {
        if (hub_ != nullptr) {
            observe_channel(channel, busy, vc, packet); // out of line: engines stay small
        }
    }

    NetParams params_;
    TorusTopology topo_;
    RouteTable routes_{topo_};
    uint64_t cycle_units_; // SystemC time units per cycle

private:
    std::vector<PacketEndpoint *> endpoints_;
    std::vector<hw_rng> noise_rng_;
    std::vector<int> queued_;
    std::vector<std::unique_ptr<sc_core::sc_event>> injection_ready_;
    std::vector<int> delivering_; // router whose endpoint is inside deliver(), else -1
    std::vector<bool> ready_during_deliver_;
    NetStats stats_;
    // Observation (null hub_: off).
    void observe_channel(int channel, bool busy, int vc, uint64_t packet);
    void observe_packet(trace::Direction dir, int router, uint64_t id, int src, int dst,
                        uint32_t flits);
    trace::TraceHub *hub_ = nullptr;
    struct ObservedChannel {
        uint32_t busy = 0, packet = 0, vc = 0; // signal handles
        bool on = false;                       // the channel's router is observed
        int64_t last_packet = -2;              // what was reported last (-2: nothing)
        int last_vc = -2;
    };
    std::vector<ObservedChannel> observed_;
};

// Builds the model named by params.model ("packet", "flit" or "modeled").
std::unique_ptr<TorusBase> make_torus_network(const char *name, const NetParams &params,
                                              uint64_t seed, uint64_t trial);

} // namespace starfish::net
