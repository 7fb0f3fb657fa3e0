// A mixed workload (reads and writes of 1 to 300 sectors, overlapping hot spots,
// sequential runs and random addresses, four drives on one bus) under every cache
// and bus policy: every request completes and every byte read or written is
// checked against the drive's contents (run_disk_replay throws on a mismatch).
#include "hw/rng.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/disk_replay.h"
#include "tests/disk/disk_rig.h"

#include <boost/test/unit_test.hpp>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

std::vector<sim::DiskTraceRequest> mixed_workload(uint32_t count) {
    hw_rng rng;
    hw_rng_seed(&rng, hw_rng_stream_seed(11, 0, HW_RNG_STREAM_WORKLOAD, 1));
    const uint32_t capacity = 1962u * 19 * 72;
    const uint32_t sizes[] = {1, 2, 8, 16, 16, 16, 64, 130, 300};
    std::vector<uint32_t> hot(12);
    for (auto &h : hot) {
        h = static_cast<uint32_t>(hw_rng_below(&rng, capacity - 400));
    }
    std::vector<sim::DiskTraceRequest> reqs;
    uint64_t t = 0;
    for (uint32_t i = 0; i < count; ++i) {
        sim::DiskTraceRequest r;
        t += hw_rng_below(&rng, 16000000000ull); // mean 8 ms between requests
        r.time_ps = t;
        r.disk = static_cast<uint32_t>(hw_rng_below(&rng, 4));
        uint64_t kind = hw_rng_below(&rng, 10);
        r.lba = kind < 4 ? hot[hw_rng_below(&rng, hot.size())] +
                               static_cast<uint32_t>(hw_rng_below(&rng, 64))
                : kind < 7 ? static_cast<uint32_t>(hw_rng_below(&rng, capacity - 400))
                           : (i * 16) % 2000000;
        r.sectors = sizes[hw_rng_below(&rng, 9)];
        r.write = hw_rng_below(&rng, 10) < 4;
        r.line = static_cast<int>(i + 2);
        reqs.push_back(r);
    }
    return reqs;
}

} // namespace

BOOST_AUTO_TEST_SUITE(disk_stress)

BOOST_AUTO_TEST_CASE(mixed_workload_completes_with_exact_data_under_every_policy) {
    const std::vector<std::vector<std::pair<std::string, json>>> policies = {
        {},
        {{"disk.cache_segments", 2}},
        {{"disk.readahead", false}},
        {{"disk.readahead_stop", "command"}},
        {{"disk.write_report", "media"}},
        {{"disk.read_fence_kb", 4}, {"disk.write_fence_kb", 4}},
        {{"disk.cache_kb", 16}, {"disk.read_fence_kb", 8}, {"disk.write_fence_kb", 16}},
        {{"scsi.arbitration", "priority"}, {"scsi.queue_depth", 1}},
        {{"scsi.arbitration", "fifo"}, {"disk.cache_segments", 4}, {"disk.read_fence_kb", 32}},
        {{"disk.controller_overhead_ms", 0.0},
         {"scsi.arbitration_us", 0.0},
         {"scsi.command_us", 0.0},
         {"scsi.status_us", 0.0},
         {"scsi.message_us", 0.0}},
        {{"disk.head_switch_ms", 2.0}, {"disk.track_skew_sectors", 0}}, // switches miss a rev
    };
    const uint32_t kRequests = 800;
    std::vector<double> elapsed;
    for (const auto &policy : policies) {
        json r = sim::run_isolated([&] {
            config::Config cfg = default_config();
            for (const auto &[key, value] : policy) {
                cfg.set(key, value, "test");
            }
            cfg.validate();
            auto reqs = mixed_workload(kRequests);
            sim::DiskReplayOptions opt;
            opt.disks = 4;
            auto res = sim::run_disk_replay(cfg, reqs, opt);
            return res.summary;
        });
        BOOST_TEST_CONTEXT("policy " << json(policy).dump()) {
            BOOST_TEST(r["requests"] == kRequests);
            uint64_t requests = 0, check_conditions = 0, bytes = 0;
            for (const auto &d : r["disks"]) {
                requests += d["requests"].get<uint64_t>();
                check_conditions += d["check_conditions"].get<uint64_t>();
                bytes += d["bytes_read"].get<uint64_t>() + d["bytes_written"].get<uint64_t>();
            }
            BOOST_TEST(requests == kRequests);
            BOOST_TEST(check_conditions == 0u);
            BOOST_TEST(bytes == r["bytes"].get<uint64_t>());
            elapsed.push_back(r["simulated_s"].get<double>());
        }
    }
    // The policies matter: not every run takes the same time.
    BOOST_TEST(*std::max_element(elapsed.begin(), elapsed.end()) >
               *std::min_element(elapsed.begin(), elapsed.end()));
}

BOOST_AUTO_TEST_SUITE_END()
