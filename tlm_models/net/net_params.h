#pragma once
// Parameters of the torus interconnect (net.*): topology, router timing, buffers,
// virtual channels, injection queue and timing noise. docs/network.md defines what
// each one means in the router's timing contract.

#include "hw/config/config.h"
#include "hw/config/key.h"
#include "hw/config/registry.h"

#include <cstdint>
#include <string>

// The keys of the net.* parameters; net.width and net.height are in
// hw/machine_keys.h.
namespace starfish::keys {
inline constexpr config::StringKey net_model{"net.model"};
inline constexpr config::IntKey net_router_delay_cycles{"net.router_delay_cycles"};
inline constexpr config::IntKey net_link_delay_cycles{"net.link_delay_cycles"};
inline constexpr config::IntKey net_flit_bytes{"net.flit_bytes"};
inline constexpr config::IntKey net_buffer_flits{"net.buffer_flits"};
inline constexpr config::IntKey net_vcs{"net.vcs"};
inline constexpr config::IntKey net_inject_queue_packets{"net.inject_queue_packets"};
inline constexpr config::StringKey net_vc_realloc{"net.vc_realloc"};
inline constexpr config::IntKey net_input_speedup{"net.input_speedup"};
inline constexpr config::IntKey net_noise_cycles{"net.noise_cycles"};
inline constexpr config::IntKey net_modeled_window_cycles{"net.modeled_window_cycles"};
inline constexpr config::StringKey net_modeled_delay{"net.modeled_delay"};
inline constexpr config::BoolKey speed_torus_run_ahead{"speed.torus_run_ahead"};
inline constexpr config::BoolKey speed_torus_closed_form{"speed.torus_closed_form"};
} // namespace starfish::keys

namespace starfish::net {

// Declares every net.* parameter except net.width and net.height, which the machine
// shape owns (sim/platform/machine_params.cpp).
void declare_net_params(config::Registry &registry);

struct NetParams {
    // "packet" (fast, exact), "flit" (cycle-by-cycle reference) or "modeled"
    // (Proteus-style contention estimate, modeled_torus.h)
    std::string model = "packet";
    int width = 6;
    int height = 6;
    int router_delay_cycles = 1; // head arrival in a router to its crossing of the next channel
    int link_delay_cycles = 0;   // extra wire cycles per router-to-router link (flits and credits)
    int flit_bytes = 4;
    int buffer_flits = 4;  // input buffer depth per virtual channel
    int vcs_per_class = 1; // virtual channels per dateline class (2 classes)
    int inject_queue_packets = 2;
    int noise_cycles = 0; // extra injection delay per packet, uniform in [0, noise_cycles]
    // The modeled engine: the window its load estimate looks back over, and whether a
    // packet's contention delay is drawn (exponential) or the mean itself.
    int modeled_window_cycles = 10000;
    bool modeled_delay_exponential = true;
    // VC reallocation (docs/network.md, "Router policies"): false = tail_credit (a VC
    // is freed once its packet's tail has left the buffer it guards and the credit is
    // back), true = tail_sent (freed the cycle after the tail crossed into it).
    bool vc_realloc_tail_sent = false;
    // Input speedup: 0 = every input VC may send in the same cycle, 1 = at most one
    // flit leaves each router input port per cycle.
    int input_speedup = 0;
    // Host speed-ups of the packet model (results identical either way): the
    // run-ahead of a packet alone in the network (PacketTorusRunAhead), and its
    // closed form for a packet at full rate.
    bool torus_run_ahead = true;
    bool torus_closed_form = true;
    double cpu_hz = 50e6; // the network runs at the node clock (machine.cpu_mhz)

    static NetParams from(const config::Config &cfg);

    // Picoseconds per network cycle (rounded to a whole picosecond).
    uint64_t cycle_ps() const;
    int routers() const { return width * height; }
    int vcs_total() const { return 2 * vcs_per_class; }
    // Flits of a packet with this payload: the 8 header bytes (route and length
    // words, hw/packet.h) plus the payload, in flits of flit_bytes.
    uint32_t packet_flits(uint32_t payload_bytes) const;
    // Bytes per second one link carries at one flit per cycle.
    double link_bytes_per_s() const { return flit_bytes * cpu_hz; }
    // Zero-load latency, from try_inject to deliver, of a packet of `flits` flits
    // over `hops` router-to-router links (docs/network.md):
    //   1 + flits + (hops + 1) * router_delay + hops * link_delay
    uint64_t zero_load_cycles(uint32_t flits, int hops) const;
};

} // namespace starfish::net
