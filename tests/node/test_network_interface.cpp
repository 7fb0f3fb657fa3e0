// The DMA network interface on the ideal network, programmed by test firmware
// (fw_ni_tests.c) through hw/ni_regs.h: messages of every size split and
// reassembled byte-exact, ACCEPT/ACCEPT_NOTIFY/DISCARD, back-pressure without
// loss, exact timing of one message, and every programming error.
#include "hw/ni_regs.h"
#include "sim/parameters.h"
#include "sim/runner/isolated_run.h"
#include "tests/node/fw_tests.h"
#include "tests/node/ni_args.h"
#include "tests/node/node_bench.h"
#include "tests/support/ideal_network.h"
#include "tlm_models/net/net_params.h"
#include "tlm_models/node/hal_cost_rules.h"
#include "tlm_models/node/network_interface.h"
#include "tlm_models/node/network_interface_params.h"

#include <boost/test/unit_test.hpp>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

using namespace starfish;
using nlohmann::json;
using testing::NodeBenchSpec;

namespace {

int64_t param(config::IntKey key) {
    static const config::Config cfg(sim::parameter_registry());
    return cfg.get_int(key);
}

fwt_ni_args_t make_args(const std::vector<uint32_t> &sizes, uint32_t messages) {
    return testing::ni_args(sizes, messages);
}

json exchange(const fwt_ni_args_t &args,
              std::vector<std::pair<std::string, std::string>> settings = {},
              size_t net_queue = 4) {
    return sim::run_isolated([&] {
        NodeBenchSpec spec;
        spec.mains = {fwt_ni_exchange_main, fwt_ni_exchange_main};
        spec.contexts = {&args, &args};
        spec.settings = settings;
        spec.net.queue_packets = net_queue;
        return testing::run_node_bench(spec);
    });
}

uint64_t exported(const json &r, int node, const char *name) {
    const json &e = r["nodes"][node]["exports"];
    BOOST_REQUIRE_MESSAGE(e.contains(name), "node " << node << " did not export " << name);
    return e[name].get<uint64_t>();
}

uint64_t ni_stat(const json &r, int node, const char *name) {
    return r["nodes"][node]["stats"]["ni"][name].get<uint64_t>();
}

// Packets of a message: the first carries the software header, all the frame.
uint64_t packets_for(uint32_t body, uint32_t hdr, uint32_t max_payload) {
    uint32_t first = max_payload - HW_NI_FRAME_BYTES - hdr;
    uint32_t rest = max_payload - HW_NI_FRAME_BYTES;
    return body <= first ? 1 : 1 + (body - first + rest - 1) / rest;
}

// Every message arrived, in order, intact, and the NI statistics agree.
void check_exchange(const json &r, const fwt_ni_args_t &a, uint32_t max_payload,
                    uint32_t discarded = 0) {
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    uint64_t packets = 0, bytes = 0, with_body = 0;
    for (uint32_t i = 0; i < a.messages; ++i) {
        uint32_t size = a.body_sizes[i % a.n_sizes];
        packets += packets_for(size, a.hdr_bytes, max_payload);
        bytes += size;
        with_body += size > 0;
    }
    BOOST_TEST(exported(r, 0, "tx_done") == a.messages);
    BOOST_TEST(exported(r, 1, "received") == a.messages);
    BOOST_TEST(exported(r, 1, "headers_ok") == a.messages);
    BOOST_TEST(exported(r, 1, "in_order") == 1u);
    BOOST_TEST(exported(r, 1, "bodies_bad") == 0u);
    BOOST_TEST(exported(r, 1, "bodies_ok") == with_body - discarded);
    BOOST_TEST(exported(r, 1, "discarded") == discarded);
    BOOST_TEST(exported(r, 1, "discarded_clean") == 1u);
    BOOST_TEST(ni_stat(r, 0, "messages_sent") == a.messages);
    BOOST_TEST(ni_stat(r, 0, "packets_sent") == packets);
    BOOST_TEST(ni_stat(r, 0, "body_bytes_sent") == bytes);
    BOOST_TEST(ni_stat(r, 1, "messages_received") == a.messages);
    BOOST_TEST(ni_stat(r, 1, "packets_received") == packets);
    BOOST_TEST(ni_stat(r, 1, "body_bytes_received") == bytes);
    BOOST_TEST(ni_stat(r, 1, "body_bytes_deposited") + ni_stat(r, 1, "body_bytes_discarded") ==
               bytes);
}

// Offers the NI, from the network's side, a packet too short to hold its frame
// (and binds the NI's and the memory's sockets, which stay unused).
class ShortPacketSource : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(ShortPacketSource);
    ShortPacketSource(sc_core::sc_module_name name, node::NetworkInterface &ni,
                      node::NodeMemory &memory)
        : sc_core::sc_module(name), regs("regs"), memory_port("memory_port"), ni_(ni) {
        regs.bind(ni.regs);
        memory_port.bind(memory.socket);
        SC_THREAD(run);
    }
    tlm_utils::simple_initiator_socket<ShortPacketSource> regs;
    tlm_utils::simple_initiator_socket<ShortPacketSource> memory_port;
    bool taken = true;
    bool ran_on = false; // the simulation went on after the fault

private:
    void run() {
        sc_core::wait(10, sc_core::SC_NS);
        auto pkt = std::make_unique<net::Packet>();
        pkt->payload.resize(4);
        taken = ni_.deliver(pkt);
        sc_core::wait(1, sc_core::SC_NS);
        ran_on = true;
    }
    node::NetworkInterface &ni_;
};

} // namespace

BOOST_AUTO_TEST_SUITE(network_interface)

BOOST_AUTO_TEST_CASE(header_only_messages) {
    for (uint32_t hdr : {16u, 64u}) {
        fwt_ni_args_t a = make_args({0}, 50);
        a.hdr_bytes = hdr;
        json r = exchange(a);
        check_exchange(r, a, static_cast<uint32_t>(param(keys::ni_max_packet_payload_bytes)));
        BOOST_TEST(ni_stat(r, 1, "rx_buffer_high_water") == 0u);
    }
}

BOOST_AUTO_TEST_CASE(bodies_from_1_byte_to_1_MB_are_split_and_reassembled_byte_exact) {
    fwt_ni_args_t a =
        make_args({1, 3, 4, 5, 100, 8191, 8192, 8193, 8256, 20000, 65536, 1u << 20}, 24);
    json r = exchange(a);
    check_exchange(r, a, static_cast<uint32_t>(param(keys::ni_max_packet_payload_bytes)));
    // A block-sized Memput (8 KB body + 64-byte header) is one packet by default.
    BOOST_TEST(packets_for(8192, 64,
                           static_cast<uint32_t>(param(keys::ni_max_packet_payload_bytes))) == 1u);
}

BOOST_AUTO_TEST_CASE(small_packets_with_a_polling_sender) {
    fwt_ni_args_t a = make_args({0, 1, 47, 48, 49, 112, 113, 1000, 4097, 65536}, 30);
    a.hdr_bytes = 64;
    a.use_tx_irq = 0;
    json r = exchange(a, {{"ni.max_packet_payload_bytes", "128"}, {"ni.rx_buffer_bytes", "1024"}});
    check_exchange(r, a, 128);
}

BOOST_AUTO_TEST_CASE(accept_accept_notify_and_discard) {
    fwt_ni_args_t a = make_args({100, 9000, 0, 20000, 7, 70000}, 31);
    a.rx_mode = FWT_RX_MIXED;
    json r = exchange(a);
    uint32_t discarded = 0;
    uint64_t discarded_bytes = 0;
    for (uint32_t i = 0; i + 1 < a.messages; ++i) {
        uint32_t size = a.body_sizes[i % a.n_sizes];
        if (size > 0 && i % 3 == 2) {
            ++discarded;
            discarded_bytes += size;
        }
    }
    BOOST_TEST(discarded > 3u);
    check_exchange(r, a, static_cast<uint32_t>(param(keys::ni_max_packet_payload_bytes)),
                   discarded);
    BOOST_TEST(ni_stat(r, 1, "body_bytes_discarded") == discarded_bytes);
}

// A full ring refuses packets; the network holds them; nothing is lost.
BOOST_AUTO_TEST_CASE(ring_full_back_pressure_loses_nothing) {
    fwt_ni_args_t a = make_args({0}, 40);
    a.ring_slots = 2;
    a.poll_cycles = 3000;
    json r = exchange(a);
    check_exchange(r, a, static_cast<uint32_t>(param(keys::ni_max_packet_payload_bytes)));
    BOOST_TEST(ni_stat(r, 1, "refusals_ring_full") > 0u);
    BOOST_TEST(r["network"]["refusals"].get<uint64_t>() == ni_stat(r, 1, "refusals"));
}

// Bodies the firmware has not answered fill the receive buffer; further packets
// are refused until it drains, and every byte still arrives.
BOOST_AUTO_TEST_CASE(buffer_full_back_pressure_loses_nothing) {
    fwt_ni_args_t a = make_args({8192, 20000, 3000}, 12);
    a.poll_cycles = 200;
    a.answer_delay = 3000;
    json r = exchange(a, {{"ni.rx_buffer_bytes", "8272"}});
    check_exchange(r, a, static_cast<uint32_t>(param(keys::ni_max_packet_payload_bytes)));
    BOOST_TEST(ni_stat(r, 1, "refusals_buffer_full") > 0u);
    BOOST_TEST(ni_stat(r, 1, "rx_buffer_high_water") <= 8272u);
    BOOST_TEST(ni_stat(r, 1, "rx_buffer_high_water") >= 8192u);
}

// A send queue of two descriptors and a one-packet network injection queue:
// the driver waits on TX_SPACE_IRQ and the engine on injection_ready.
BOOST_AUTO_TEST_CASE(send_queue_and_injection_back_pressure) {
    fwt_ni_args_t a = make_args({0, 500, 8192, 30000}, 40);
    json r = exchange(a, {{"ni.tx_queue_depth", "2"}}, 1);
    check_exchange(r, a, static_cast<uint32_t>(param(keys::ni_max_packet_payload_bytes)));
    BOOST_TEST(r["network"]["injection_refusals"].get<uint64_t>() > 0u);
}

// docs/node.md "Timing of one message", on the ideal network (one flit per cycle
// from the offer, the tail arrives 10 cycles after it left), for the default DMA
// (as fast as the link), a DMA at half the link rate (the send waits for it) and
// one at twice the link rate (the deposit waits for the tail).
BOOST_AUTO_TEST_CASE(timing_of_one_message) {
    const uint32_t body = 1000, hdr = 64;
    for (const char *bw_text : {"4", "2", "8"}) {
        fwt_ni_args_t a = make_args({body}, 1);
        json r = sim::run_isolated([&] {
            NodeBenchSpec spec;
            spec.mains = {fwt_ni_timing_main, fwt_ni_timing_main};
            spec.contexts = {&a, &a};
            spec.net.latency_cycles = 10;
            spec.settings = {{"ni.dma_bytes_per_cycle", bw_text}};
            return testing::run_node_bench(spec);
        });
        BOOST_TEST_CONTEXT("ni.dma_bytes_per_cycle = " << bw_text) {
            BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
            BOOST_TEST(exported(r, 1, "body_ok") == 1u);
            const uint64_t bw = std::stoul(bw_text);
            const uint64_t dma = (body + bw - 1) / bw; // cycles to read or write the body
            const uint64_t entry = param(keys::cost_irq_entry_cycles);
            const uint64_t flit = param(keys::net_flit_bytes);
            const uint64_t flits = hw_packet_flits(HW_NI_FRAME_BYTES + hdr + body); // 272
            const uint64_t t_push = exported(r, 0, "t_push");
            // The header is built after the setups; the body DMA starts then.
            const uint64_t built = t_push + param(keys::ni_descriptor_setup_cycles) +
                                   param(keys::ni_packet_setup_cycles);
            // Offered at once when the DMA keeps up with the link (4 bytes per cycle);
            // at 2 bytes per cycle the tail (flit 271, crossing 1 + 271 cycles after
            // the offer) needs the whole body, read 500 cycles after `built`:
            // offered 500 - 272 = 228 cycles late.
            const uint64_t offered = built + (bw >= flit ? 0 : dma - flits);
            const uint64_t tail_left = offered + flits;
            BOOST_TEST(exported(r, 0, "tx_done_entry") == tail_left + entry);
            // The HEADER record once the 2 head flits, the 16-byte frame and the
            // 64-byte header (22 flits) are in, 10 cycles after they left.
            const uint64_t early = 2 + (HW_NI_FRAME_BYTES + hdr) / flit;
            BOOST_TEST(exported(r, 1, "rx_header_entry") == offered + early + 10 + entry);
            // The deposit starts at RX_CMD; it ends after its setup and DMA, but not
            // before one DMA step (the last flit's 4 bytes) after the tail arrived
            // (which binds at 8 bytes per cycle).
            const uint64_t t_cmd = exported(r, 1, "t_cmd");
            const uint64_t tail_in = tail_left + 10 + (flit + bw - 1) / bw;
            BOOST_TEST(exported(r, 1, "rx_done_entry") ==
                       std::max(t_cmd + param(keys::ni_packet_setup_cycles) + dma, tail_in) +
                           entry);
            BOOST_TEST_MESSAGE("dma " << bw << " B/cycle: push " << t_push << ", offered "
                                      << offered << ", header entry "
                                      << exported(r, 1, "rx_header_entry") << ", RX_CMD " << t_cmd
                                      << ", done entry " << exported(r, 1, "rx_done_entry"));
        }
    }
}

// Every HW_NI_ERR_* is detected, sets ERROR, and stops the run naming node, device
// and register (with its offset) through the device-fault path.
BOOST_AUTO_TEST_CASE(programming_errors_name_node_and_register) {
    struct Case {
        uint32_t scenario;
        uint32_t code;
        const char *text; // "node 0: network interface register …"
    };
    const std::vector<Case> cases = {
        {FWT_NIERR_TX_BODY_ADDR, HW_NI_ERR_TX_ADDR,
         "register TX_PUSH (0x028): body [0xfffff0, +64)"},
        {FWT_NIERR_TX_HDR_ADDR, HW_NI_ERR_TX_ADDR,
         "register TX_PUSH (0x028): header [0xe0000000, +16)"},
        {FWT_NIERR_TX_HDR_MISALIGNED, HW_NI_ERR_TX_SIZE,
         "register TX_PUSH (0x028): TX_HDR_BYTES = 6"},
        {FWT_NIERR_TX_BODY_TOO_LARGE, HW_NI_ERR_TX_SIZE,
         "register TX_PUSH (0x028): TX_BODY_BYTES = 16777217"},
        {FWT_NIERR_TX_EMPTY, HW_NI_ERR_TX_SIZE, "register TX_PUSH (0x028): empty message"},
        {FWT_NIERR_TX_DEST, HW_NI_ERR_TX_DEST,
         "register TX_PUSH (0x028): TX_DEST = 99 names no node"},
        {FWT_NIERR_TX_OVERFLOW, HW_NI_ERR_TX_OVERFLOW,
         "register TX_PUSH (0x028): push while TX_FREE is 0"},
        {FWT_NIERR_RING_SLOTS, HW_NI_ERR_RX_RING,
         "register CTRL (0x008): enable with a bad ring: RX_RING_SLOTS = 3"},
        {FWT_NIERR_RING_ALIGN, HW_NI_ERR_RX_RING,
         "register CTRL (0x008): enable with a bad ring: RX_RING_BASE"},
        {FWT_NIERR_RING_OUTSIDE, HW_NI_ERR_RX_RING,
         "register CTRL (0x008): enable with a bad ring: ring ["},
        {FWT_NIERR_RING_CHANGED, HW_NI_ERR_RX_RING,
         "register RX_RING_BASE (0x040): ring changed while"},
        {FWT_NIERR_RX_HANDLE, HW_NI_ERR_RX_HANDLE,
         "register RX_CMD (0x05c): handle 5 names no message"},
        {FWT_NIERR_RX_CMD, HW_NI_ERR_RX_CMD, "register RX_CMD (0x05c): unknown op 7"},
        {FWT_NIERR_RX_ADDR, HW_NI_ERR_RX_ADDR, "register RX_CMD (0x05c): body [0xeffff000, +100)"},
        {FWT_NIERR_RX_POP, HW_NI_ERR_RX_POP, "register RX_POP (0x050): pop with no waiting record"},
        {FWT_NIERR_REG_UNDEFINED, HW_NI_ERR_REG, "register at offset 0x100: read of an undefined"},
        {FWT_NIERR_REG_READ_ONLY, HW_NI_ERR_REG,
         "register ID (0x000): write to a read-only register"},
    };
    BOOST_REQUIRE(cases.size() == FWT_NIERR_COUNT);
    static const char *const code_names[] = {"",
                                             "HW_NI_ERR_TX_ADDR",
                                             "HW_NI_ERR_TX_SIZE",
                                             "HW_NI_ERR_TX_DEST",
                                             "HW_NI_ERR_TX_OVERFLOW",
                                             "HW_NI_ERR_RX_RING",
                                             "HW_NI_ERR_RX_HANDLE",
                                             "HW_NI_ERR_RX_CMD",
                                             "HW_NI_ERR_RX_ADDR",
                                             "HW_NI_ERR_RX_POP",
                                             "HW_NI_ERR_REG"};
    for (const Case &c : cases) {
        uint32_t scenario = c.scenario;
        json r = sim::run_isolated([&] {
            NodeBenchSpec spec;
            spec.mains = {fwt_ni_error_main, fwt_ni_error_main};
            spec.contexts = {&scenario, &scenario};
            spec.settings = {{"ni.tx_queue_depth", "2"}};
            return testing::run_node_bench(spec);
        });
        std::string failure = r["failure"];
        BOOST_TEST_CONTEXT("scenario " << c.scenario << ": " << failure) {
            BOOST_TEST(failure.rfind(std::string("node 0: network interface ") + c.text, 0) == 0u);
            BOOST_TEST(failure.find(code_names[c.code]) != std::string::npos);
            BOOST_TEST(r["nodes"][0]["ni_error"].get<uint32_t>() == c.code);
            // The faulting access fails: the firmware does not run on.
            BOOST_TEST(!r["nodes"][0]["exports"].contains("continued"));
        }
    }
}

// A packet the NI cannot take is a broken model invariant, not a programming
// error: it goes through the same fault path (no SC_REPORT_ERROR, nothing
// thrown), without a register, and stops the simulation.
BOOST_AUTO_TEST_CASE(broken_invariant_is_a_device_fault_without_register) {
    json r = sim::run_isolated([] {
        sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                                sc_core::SC_DO_NOTHING);
        config::Config cfg(sim::parameter_registry());
        testing::IdealNetwork network("network", 1, testing::IdealNetwork::Params{});
        node::NodeMemory memory("memory", 1u << 20);
        node::NetworkInterface ni("ni", node::NetworkInterfaceParams::from(cfg), 3, memory, network,
                                  0, {0});
        // Written by the access that moves a line and by the NI's method (node.h, IrqLine).
        sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> irq_rx("irq_rx"), irq_tx("irq_tx");
        ni.irq_rx(irq_rx);
        ni.irq_tx(irq_tx);
        common::DeviceFaultSink sink;
        ni.fault.bind(sink);
        ShortPacketSource source("source", ni, memory);
        sc_core::sc_start();
        BOOST_REQUIRE(sink.faults().size() == 1u);
        const common::DeviceFault &f = sink.faults()[0];
        return json{{"failure", sink.failure()},
                    {"port_failure", ni.fault.failure()},
                    {"in_register_access", f.in_register_access},
                    {"time_ps", f.time_ps},
                    {"stopped_ps", sc_core::sc_time_stamp().value()},
                    {"taken", source.taken},
                    {"ran_on", source.ran_on}};
    });
    BOOST_TEST(r["failure"] ==
               "node 3: network interface: packet of 4 bytes is shorter than the NI frame");
    BOOST_TEST(r["port_failure"] == r["failure"]);
    BOOST_TEST(r["in_register_access"] == false);
    BOOST_TEST(r["taken"] == false); // refused
    BOOST_TEST(r["time_ps"] == 10000u);
    BOOST_TEST(r["stopped_ps"] == 10000u);
    BOOST_TEST(r["ran_on"] == false);
}

BOOST_AUTO_TEST_SUITE_END()
