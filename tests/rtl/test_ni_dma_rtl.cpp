// The DMA engine's RTL (rtl/ni_dma/, ni.model = rtl) through its SystemC wrapper,
// directed: every scenario of the TLM network interface's own test (firmware
// tests/node/fw_ni_tests.c on the ideal network: header-only messages, bodies of
// 1 B to 1 MB split into packets, ACCEPT / ACCEPT_NOTIFY / DISCARD, ring-full and
// buffer-full back-pressure, send-queue and injection back-pressure, the timing
// of one message at 1, 2 and 4 bytes per DMA cycle) runs once with the TLM model
// and once with the RTL, and the two runs must agree exactly: every exported
// timestamp (push, interrupt entries, RX_CMD), every statistic, the simulated end
// time, and a hash of every node's whole memory (bodies deposited, receive
// records in the ring). Every programming error gives the same ERROR code and
// the same fault message. The wrapper turns a rise of the RTL's `error` output
// into a device fault, so a run without failure is a run in which it never rose.
#include "hw/config/config_error.h"
#include "rtl/ni_dma/ni_dma_rtl.h"
#include "sim/parameters.h"
#include "sim/platform/node.h"
#include "sim/runner/isolated_run.h"
#include "tests/node/fw_tests.h"
#include "tests/node/ni_args.h"
#include "tests/node/node_bench.h"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <string>
#include <vector>

using namespace starfish;
using nlohmann::json;
using testing::NodeBenchSpec;

namespace {

// FNV-1a of a node's memory. The firmware keeps host pointers into node memory
// in its own data structures (hal_mem_alloc returns them), which differ from run
// to run: an aligned 8-byte word that points into the memory is hashed as its
// offset.
uint64_t memory_hash(const uint8_t *p, size_t n) {
    const uint64_t base = reinterpret_cast<uintptr_t>(p);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t word;
        std::memcpy(&word, p + i, 8);
        if (word >= base && word <= base + n) {
            word -= base;
        }
        for (int b = 0; b < 8; ++b) {
            h = (h ^ ((word >> (8 * b)) & 0xffu)) * 1099511628211ull;
        }
    }
    return h;
}

// The bench's result plus each node's memory hash; with the RTL also the clock
// edges it was given and its final busy vector (kept apart: the TLM has none).
json run(NodeBenchSpec spec, const std::string &model) {
    spec.settings.emplace_back("ni.model", model);
    return sim::run_isolated([&] {
        return testing::run_node_bench(spec, [](json &out, std::vector<platform::Node *> &nodes) {
            json rtl = json::array();
            for (size_t i = 0; i < nodes.size(); ++i) {
                node::NodeMemory &m = nodes[i]->memory();
                out["nodes"][i]["memory_fnv"] = memory_hash(m.span(0, m.size()), m.size());
                if (auto *ni = dynamic_cast<rtl::NiDmaRtl *>(&nodes[i]->ni())) {
                    rtl.push_back({{"edges", ni->rtl_edges()}, {"busy", ni->rtl_busy()}});
                }
            }
            out["rtl"] = rtl;
        });
    });
}

// Runs spec with both models; they must agree on everything but one count: how
// often the ideal network refused an offer because its injection queue was full
// (a retry at the same picosecond as the queue drains is refused or not by
// SystemC's order among processes woken at that time; no simulated time, and no
// result of the machine, depends on it). `work`: the RTL must have been clocked
// (error scenarios may stop before it has anything to do).
json require_identical(const NodeBenchSpec &spec, bool work = true) {
    json tlm = run(spec, "tlm");
    json rtl = run(spec, "rtl");
    BOOST_REQUIRE(tlm["rtl"].empty());
    BOOST_REQUIRE_EQUAL(rtl["rtl"].size(), spec.mains.size());
    uint64_t edges = 0;
    for (const json &n : rtl["rtl"]) {
        edges += n["edges"].get<uint64_t>();
        if (rtl["failure"] == "") {
            BOOST_TEST(n["busy"].get<uint32_t>() == 0u); // nothing left half done
        }
    }
    if (work) {
        BOOST_TEST(edges > 0u);
    }
    tlm.erase("rtl");
    rtl.erase("rtl");
    BOOST_TEST((tlm["network"]["injection_refusals"] > 0u) ==
               (rtl["network"]["injection_refusals"] > 0u));
    tlm["network"].erase("injection_refusals");
    rtl["network"].erase("injection_refusals");
    if (tlm != rtl) {
        const json diff = json::diff(tlm, rtl);
        BOOST_ERROR("TLM and RTL runs differ: " << json::diff(rtl, tlm).dump().substr(0, 1000)
                                                << " -> " << diff.dump().substr(0, 1000));
    }
    BOOST_TEST_MESSAGE("RTL clock edges: " << edges << ", simulated cycles "
                                           << rtl["sim_cycles"].get<uint64_t>());
    return rtl;
}

fwt_ni_args_t make_args(const std::vector<uint32_t> &sizes, uint32_t messages) {
    return testing::ni_args(sizes, messages);
}

NodeBenchSpec exchange(const fwt_ni_args_t &args,
                       std::vector<std::pair<std::string, std::string>> settings = {},
                       size_t net_queue = 4) {
    NodeBenchSpec spec;
    spec.mains = {fwt_ni_exchange_main, fwt_ni_exchange_main};
    spec.contexts = {&args, &args};
    spec.settings = std::move(settings);
    spec.net.queue_packets = net_queue;
    return spec;
}

void require_clean_exchange(const json &r, const fwt_ni_args_t &a) {
    BOOST_REQUIRE_EQUAL(r["failure"].get<std::string>(), "");
    BOOST_TEST(r["nodes"][1]["exports"]["received"].get<uint32_t>() == a.messages);
    BOOST_TEST(r["nodes"][1]["exports"]["bodies_bad"].get<uint32_t>() == 0u);
}

} // namespace

BOOST_AUTO_TEST_SUITE(ni_dma_rtl)

BOOST_AUTO_TEST_CASE(header_only_messages) {
    for (uint32_t hdr : {16u, 64u}) {
        fwt_ni_args_t a = make_args({0}, 50);
        a.hdr_bytes = hdr;
        require_clean_exchange(require_identical(exchange(a)), a);
    }
}

BOOST_AUTO_TEST_CASE(bodies_from_1_byte_to_1_MB) {
    fwt_ni_args_t a =
        make_args({1, 3, 4, 5, 100, 8191, 8192, 8193, 8256, 20000, 65536, 1u << 20}, 12);
    require_clean_exchange(require_identical(exchange(a)), a);
}

BOOST_AUTO_TEST_CASE(small_packets_with_a_polling_sender) {
    fwt_ni_args_t a = make_args({0, 1, 47, 48, 49, 112, 113, 1000, 4097, 65536}, 30);
    a.use_tx_irq = 0;
    require_clean_exchange(require_identical(exchange(a, {{"ni.max_packet_payload_bytes", "128"},
                                                          {"ni.rx_buffer_bytes", "1024"}})),
                           a);
}

BOOST_AUTO_TEST_CASE(accept_accept_notify_and_discard) {
    fwt_ni_args_t a = make_args({100, 9000, 0, 20000, 7, 70000}, 31);
    a.rx_mode = FWT_RX_MIXED;
    require_clean_exchange(require_identical(exchange(a)), a);
}

BOOST_AUTO_TEST_CASE(ring_full_back_pressure) {
    fwt_ni_args_t a = make_args({0}, 40);
    a.ring_slots = 2;
    a.poll_cycles = 3000;
    json r = require_identical(exchange(a));
    require_clean_exchange(r, a);
    BOOST_TEST(r["nodes"][1]["stats"]["ni"]["refusals_ring_full"].get<uint64_t>() > 0u);
}

BOOST_AUTO_TEST_CASE(buffer_full_back_pressure) {
    fwt_ni_args_t a = make_args({8192, 20000, 3000}, 12);
    a.poll_cycles = 200;
    a.answer_delay = 3000;
    json r = require_identical(exchange(a, {{"ni.rx_buffer_bytes", "8272"}}));
    require_clean_exchange(r, a);
    BOOST_TEST(r["nodes"][1]["stats"]["ni"]["refusals_buffer_full"].get<uint64_t>() > 0u);
}

BOOST_AUTO_TEST_CASE(send_queue_and_injection_back_pressure) {
    fwt_ni_args_t a = make_args({0, 500, 8192, 30000}, 40);
    json r = require_identical(exchange(a, {{"ni.tx_queue_depth", "2"}}, 1));
    require_clean_exchange(r, a);
}

// docs/node.md "Timing of one message": at 4 bytes per cycle the offer is at
// once, at 2 and 1 it waits for the DMA (the tail leaves as the DMA ends).
BOOST_AUTO_TEST_CASE(timing_of_one_message) {
    for (const char *bw : {"4", "2", "1"}) {
        for (uint32_t body : {1000u, 3u, 8192u}) {
            BOOST_TEST_CONTEXT("ni.dma_bytes_per_cycle = " << bw << ", body " << body) {
                fwt_ni_args_t a = make_args({body}, 1);
                NodeBenchSpec spec;
                spec.mains = {fwt_ni_timing_main, fwt_ni_timing_main};
                spec.contexts = {&a, &a};
                spec.net.latency_cycles = 10;
                spec.settings = {{"ni.dma_bytes_per_cycle", bw}};
                json r = require_identical(spec);
                BOOST_TEST(r["failure"].get<std::string>() == "");
                BOOST_TEST(r["nodes"][1]["exports"]["body_ok"].get<uint32_t>() == 1u);
            }
        }
    }
}

// Longer setups: the send setup waits for the DMA of the packet before.
BOOST_AUTO_TEST_CASE(setup_cycles_and_small_packets) {
    fwt_ni_args_t a = make_args({1, 300, 5000}, 12);
    json r = require_identical(exchange(a, {{"ni.descriptor_setup_cycles", "37"},
                                            {"ni.packet_setup_cycles", "9"},
                                            {"ni.max_packet_payload_bytes", "256"},
                                            {"ni.dma_bytes_per_cycle", "2"}}));
    require_clean_exchange(r, a);
}

// Every HW_NI_ERR_* with the RTL: the same ERROR code and fault message as the TLM.
BOOST_AUTO_TEST_CASE(programming_errors_match_the_model) {
    for (uint32_t scenario = 1; scenario <= FWT_NIERR_COUNT; ++scenario) {
        BOOST_TEST_CONTEXT("scenario " << scenario) {
            NodeBenchSpec spec;
            spec.mains = {fwt_ni_error_main, fwt_ni_error_main};
            spec.contexts = {&scenario, &scenario};
            spec.settings = {{"ni.tx_queue_depth", "2"}};
            json r = require_identical(spec, false);
            BOOST_TEST(r["failure"].get<std::string>().rfind("node 0: network interface ", 0) ==
                       0u);
            BOOST_TEST(r["nodes"][0]["ni_error"].get<uint32_t>() != 0u);
        }
    }
}

// What the RTL's one-word datapath cannot do is a configuration error.
BOOST_AUTO_TEST_CASE(unsupported_settings_are_configuration_errors) {
    for (auto [key, value] :
         std::vector<std::pair<std::string, std::string>>{{"ni.dma_bytes_per_cycle", "8"},
                                                          {"ni.dma_bytes_per_cycle", "3"},
                                                          {"ni.packet_setup_cycles", "0"},
                                                          {"net.flit_bytes", "8"}}) {
        config::Config cfg(sim::parameter_registry());
        cfg.set_from_text("ni.model", "rtl", "test");
        cfg.set_from_text(key, value, "test");
        BOOST_CHECK_THROW(cfg.validate(), config::ConfigError);
    }
}

BOOST_AUTO_TEST_SUITE_END()
