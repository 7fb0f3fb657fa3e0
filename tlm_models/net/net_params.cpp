#include "tlm_models/net/net_params.h"

#include "hw/machine_keys.h"
#include "hw/packet.h"

#include <cmath>
#include <string>

namespace starfish::net {

void declare_net_params(config::Registry &reg) {
    reg.add_string(keys::net_model, "packet", {"packet", "flit", "rtl", "modeled"},
                   "network timing model: packet (event per packet-hop), flit (cycle-by-cycle "
                   "reference) or rtl (the Verilog router, verilated; docs/rtl.md), which give "
                   "identical timing; or modeled, Proteus's second kind of network: exact "
                   "endpoints, contention inside the network estimated from its average load "
                   "(docs/network.md)",
                   "convention: packet is the fast default, flit the golden reference; modeled "
                   "is what STARFISH's published runs used (TOCS §4.1), with a formula of our "
                   "choosing (Agarwal 1991), as Proteus's is not published");
    reg.add_int(keys::net_router_delay_cycles, 1, "cycles", {1, 64},
                "cycles from a head flit's arrival in a router to its crossing of the next "
                "channel (routing, VC allocation, switch)",
                "given: docs/reference.md §2 (20 ns per router = 1 cycle at machine.cpu_mhz = 50)");
    reg.add_int(
        keys::net_link_delay_cycles, 0, "cycles", {0, 64},
        "extra wire cycles on each router-to-router link, for flits and for credits",
        "derived: docs/reference.md §2 gives 20 ns per hop in all, already spent in the router");
    reg.add_int(
        keys::net_flit_bytes, 4, "bytes", {1, 256},
        "flit width; a link moves one flit per cycle, so a link carries "
        "flit_bytes x machine.cpu_mhz bytes per second",
        "derived: docs/reference.md §2, 200e6 B/s per link / 50 MHz = 4 bytes (hw/packet.h)");
    reg.add_int(keys::net_buffer_flits, 4, "flits", {1, 1024},
                "input buffer depth of each virtual channel (credit flow control); below "
                "router_delay + 2 x link_delay + 1 a single worm cannot use the full link rate",
                "estimate: not published; a small FIFO of the era's wormhole routers, with "
                "room for the credit round trip at the default delays");
    reg.add_int(keys::net_vcs, 1, "VCs per class", {1, 8},
                "virtual channels per dateline class; each link has 2 x net.vcs VCs, and a "
                "packet's lane (Packet::lane mod net.vcs) picks the VC within its class",
                "estimate: not published; one per class is the minimum that makes the torus "
                "deadlock-free (Dally and Seitz 1987)");
    reg.add_int(keys::net_inject_queue_packets, 2, "packets", {1, 64},
                "packets a router's local port accepts before try_inject refuses "
                "(back-pressure to the network interface)",
                "estimate: not published; two lets the interface hand over the next packet "
                "while the current one streams, so back-to-back packets leave no gap");
    reg.add_string(keys::net_vc_realloc, "tail_credit", {"tail_credit", "tail_sent"},
                   "when a router's output VC may be granted to the next packet: tail_credit "
                   "= once the previous packet's tail has left the downstream buffer and its "
                   "credit is back (a VC never holds flits of two packets); tail_sent = the "
                   "cycle after the previous tail crossed into it (per-flit credits)",
                   "convention: tail_credit keeps the calibrated results; tail_sent is "
                   "BookSim's default (wait_for_tail_credit = 0) and that of most VC routers");
    reg.add_int(keys::net_input_speedup, 0, "flits per input port per cycle", {0, 1},
                "router crossbar input limit: 0 = none (each input VC has its own crossbar "
                "input), 1 = at most one flit leaves each input port per cycle, the port's "
                "VCs competing in round robin",
                "convention: 0 keeps the calibrated results; 1 is the usual VC router "
                "(one crossbar input per port)");
    reg.add_int(
        keys::net_noise_cycles, 4, "cycles", {0, 1000000},
        "network timing noise: each packet waits a uniformly random [0, noise_cycles] "
        "extra cycles before injection (stream HW_RNG_STREAM_NETWORK; 0 = off)",
        "estimate: docs/reference.md §9 varies network timing noise across trials; 4 cycles "
        "(mean 40 ns at 50 MHz) reorders near-simultaneous messages between trials "
        "while staying under 1% of the ~5 us Memput end-to-end time");
    reg.add_int(keys::net_modeled_window_cycles, 10000, "cycles", {1, 100000000},
                "net.model = modeled: how far back the load estimate looks (the links' "
                "utilisation and the mean packet length of the packets that entered the "
                "network in this many cycles)",
                "estimate: not published; 200 us at 50 MHz, several 8 KB packets long, so "
                "that one packet does not make the estimate jump");
    reg.add_string(keys::net_modeled_delay, "exponential", {"exponential", "mean"},
                   "net.model = modeled: each packet's contention delay is drawn from an "
                   "exponential distribution with the estimated mean (stream "
                   "HW_RNG_STREAM_NET_CONTENTION), or is the mean itself",
                   "convention: TOCS §4.1 says Proteus's modeled network used \"stochastic "
                   "techniques\"; the exponential is the simplest such draw");
    reg.add_bool(keys::speed_torus_run_ahead, true,
                 "packet model: compute a packet that enters an empty network ahead of "
                 "simulated time up to its delivery, replaying it when a packet or endpoint "
                 "comes first (false: every event at its own cycle); an exact speed-up, the "
                 "results are identical either way",
                 "exact: a host speed-up only; off gives the same results "
                 "(test_net_speed_switches)");
    reg.add_bool(keys::speed_torus_closed_form, true,
                 "packet model: run a lone packet that moves at full rate ahead in closed "
                 "form rather than event by event (only with speed.torus_run_ahead); an exact "
                 "speed-up, the results are identical either way",
                 "exact: a host speed-up only; off gives the same results "
                 "(test_net_speed_switches)");
}

NetParams NetParams::from(const config::Config &cfg) {
    NetParams p;
    p.model = cfg.get_string(keys::net_model);
    p.width = static_cast<int>(cfg.get_int(keys::net_width));
    p.height = static_cast<int>(cfg.get_int(keys::net_height));
    p.router_delay_cycles = static_cast<int>(cfg.get_int(keys::net_router_delay_cycles));
    p.link_delay_cycles = static_cast<int>(cfg.get_int(keys::net_link_delay_cycles));
    p.flit_bytes = static_cast<int>(cfg.get_int(keys::net_flit_bytes));
    p.buffer_flits = static_cast<int>(cfg.get_int(keys::net_buffer_flits));
    p.vcs_per_class = static_cast<int>(cfg.get_int(keys::net_vcs));
    p.inject_queue_packets = static_cast<int>(cfg.get_int(keys::net_inject_queue_packets));
    p.noise_cycles = static_cast<int>(cfg.get_int(keys::net_noise_cycles));
    p.modeled_window_cycles = static_cast<int>(cfg.get_int(keys::net_modeled_window_cycles));
    p.modeled_delay_exponential = cfg.get_string(keys::net_modeled_delay) == "exponential";
    p.vc_realloc_tail_sent = cfg.get_string(keys::net_vc_realloc) == "tail_sent";
    p.input_speedup = static_cast<int>(cfg.get_int(keys::net_input_speedup));
    p.torus_run_ahead = cfg.get_bool(keys::speed_torus_run_ahead);
    p.torus_closed_form = cfg.get_bool(keys::speed_torus_closed_form);
    p.cpu_hz = cfg.get_real(keys::machine_cpu_mhz) * 1e6;
    return p;
}

uint64_t NetParams::cycle_ps() const {
    return static_cast<uint64_t>(std::llround(1e12 / cpu_hz));
}

uint32_t NetParams::packet_flits(uint32_t payload_bytes) const {
    uint64_t bytes = uint64_t(HW_PKT_HEAD_FLITS) * HW_FLIT_BYTES + payload_bytes;
    return static_cast<uint32_t>((bytes + flit_bytes - 1) / flit_bytes);
}

uint64_t NetParams::zero_load_cycles(uint32_t flits, int hops) const {
    return 1 + uint64_t(flits) + uint64_t(hops + 1) * router_delay_cycles +
           uint64_t(hops) * link_delay_cycles;
}

} // namespace starfish::net
