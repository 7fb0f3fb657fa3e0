// speed.ni_irq_batching (tlm_models/node/ni_irq_batch.h) is an exact host
// speed-up: the same traffic with it on and off gives identical results, down to
// every timing, interrupt count, statistic and byte of node memory. Whole-machine
// commtest (ping-pong, sweeps, echo, barrier, queued Memputs and Memgets), the
// same with small packets and a small receive buffer (reassembly, refusals,
// cut-through refused at the head), and DDIO and 2PIO transfers.
#include "fw/apps.h"
#include "sim/platform/machine.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/commtest_trial.h"
#include "sim/workload/transfer_trial.h"
#include "tests/support/transfer_cells.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace starfish;
using nlohmann::json;

namespace {

// FNV-1a over the 64-bit words of each node's whole memory. The firmware keeps
// host pointers there (its lists and queues point into node memory, some
// records to host objects), and each run maps node memory and allocates host
// objects anew: a word pointing into node memory counts as its node and offset,
// any other that reads as a user-space host address (2^40 .. 2^47) as one
// constant.
json memory_digests(platform::Machine &m) {
    constexpr uint64_t kNodePointer = 0x5a5a000000000000ull, kHostPointer = 0xa5a5a5a5a5a5a5a5ull;
    std::vector<std::pair<uint64_t, uint64_t>> ranges; // host address, bytes
    for (int i = 0; i < m.node_count(); ++i) {
        const node::NodeMemory &mem = m.node(i).memory();
        ranges.emplace_back(reinterpret_cast<uintptr_t>(mem.span(0, mem.size())), mem.size());
    }
    uint64_t lowest = UINT64_MAX, highest = 0;
    for (const auto &[base, bytes] : ranges) {
        lowest = std::min(lowest, base);
        highest = std::max(highest, base + bytes);
    }
    json out = json::array();
    for (int i = 0; i < m.node_count(); ++i) {
        const node::NodeMemory &mem = m.node(i).memory();
        const uint8_t *bytes = mem.span(0, mem.size());
        uint64_t h = 1469598103934665603ull;
        for (uint32_t a = 0; a + 8 <= mem.size(); a += 8) {
            uint64_t w;
            std::memcpy(&w, bytes + a, 8);
            if (w >= lowest && w < highest) {
                for (size_t n = 0; n < ranges.size(); ++n) {
                    if (w >= ranges[n].first && w - ranges[n].first < ranges[n].second) {
                        w = (uint64_t(n) << 40 | (w - ranges[n].first)) ^ kNodePointer;
                        break;
                    }
                }
            }
            if (w >= (uint64_t(1) << 40) && w < (uint64_t(1) << 47)) {
                w = kHostPointer;
            }
            h = (h ^ w) * 1099511628211ull;
        }
        out.push_back(std::to_string(h));
    }
    return out;
}

json without_host_fields(json t) {
    for (const char *host : {"host_cpu_s", "wall_s", "host"}) {
        t.erase(host);
    }
    return t;
}

json run_commtest(testing::Settings settings, bool batching) {
    settings.emplace_back("speed.ni_irq_batching", batching ? "true" : "false");
    return sim::run_isolated([&] {
        config::Config cfg = testing::make_config(settings);
        platform::Machine m(cfg, 0,
                            platform::FirmwareSet{fw_commtest_cp_main, fw_commtest_iop_main});
        std::string failure = m.run();
        return json{{"trial", without_host_fields(sim::commtest_trial_result(m, cfg, failure))},
                    {"stats", m.stats_json()},
                    {"memory", memory_digests(m)}};
    });
}

json run_transfer(testing::Settings settings, bool batching) {
    settings.emplace_back("speed.ni_irq_batching", batching ? "true" : "false");
    return sim::run_isolated([&] {
        config::Config cfg = testing::make_config(settings);
        json memory;
        json t = sim::run_transfer_trial(cfg, 0,
                                         [&](platform::Machine &m) { memory = memory_digests(m); });
        return json{{"trial", without_host_fields(t)}, {"memory", memory}};
    });
}

// Runs `run` with batching on and off and requires identical documents.
template <typename Run>
void require_identical(const std::string &label, const testing::Settings &settings, Run run) {
    BOOST_TEST_CONTEXT(label) {
        const json on = run(settings, true);
        const json off = run(settings, false);
        BOOST_REQUIRE(!on.contains("error"));
        BOOST_TEST(on["trial"].value("failure", "") == "");
        BOOST_TEST(on["trial"]["verified"].get<bool>());
        for (const auto &[key, value] : on.items()) {
            BOOST_TEST_CONTEXT(key) {
                BOOST_TEST(off[key] == value, "on " << value.dump() << "\noff " << off[key].dump());
            }
        }
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(ni_irq_batching)

BOOST_AUTO_TEST_CASE(commtest_is_identical_with_batching_on_and_off) {
    require_identical("default packets",
                      {{"commtest.queued_puts", "20000"}, {"commtest.queued_gets", "2000"}},
                      run_commtest);
    // 128-byte packets into a 256-byte buffer: every body is reassembled from many
    // packets, and the buffer refuses often.
    require_identical("small packets, small buffer",
                      {{"commtest.queued_puts", "5000"},
                       {"commtest.queued_gets", "500"},
                       {"ni.max_packet_payload_bytes", "128"},
                       {"ni.rx_buffer_bytes", "256"}},
                      run_commtest);
}

BOOST_AUTO_TEST_CASE(transfers_are_identical_with_batching_on_and_off) {
    const testing::Settings small = {{"workload.file_mb", "1"}, {"workload.trials", "1"}};
    for (const testing::Settings &c : std::vector<testing::Settings>{
             {{"fs.kind", "ddio"}, {"workload.pattern", "rb"}, {"workload.record_bytes", "8"}},
             {{"fs.kind", "2pio"}, {"workload.pattern", "wb"}, {"workload.record_bytes", "8192"}},
         }) {
        testing::Settings settings = small;
        settings.insert(settings.end(), c.begin(), c.end());
        require_identical(testing::cell(settings, {}).label(), settings, run_transfer);
    }
}

BOOST_AUTO_TEST_SUITE_END()
