// Sequential streaming: one drive reaches the published multi-track rate
// (2.11 MB/s), 16 drives on 16 buses the published peak (33.8 MB/s), and drives
// sharing one bus approach but never exceed its 10 MB/s.
//
// Each drive gets a closed stream of 8 KB READs (the file-system block), all
// queued at t = 0 so the adapter always has the next command ready. Throughput is
// measured in steady state: from the first completion to the last on each drive.
#include "sim/runner/isolated_run.h"
#include "sim/workload/disk_replay.h"
#include "tests/disk/disk_rig.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

constexpr double kMB = 1048576.0;

// Runs `per_disk` sequential 16-sector reads on each of `disks` drives.
json stream(uint32_t disks, uint32_t buses, uint32_t per_disk, uint32_t sectors = 16) {
    return sim::run_isolated([=] {
        config::Config cfg = default_config();
        std::vector<sim::DiskTraceRequest> reqs;
        for (uint32_t i = 0; i < per_disk; ++i) {
            for (uint32_t d = 0; d < disks; ++d) {
                sim::DiskTraceRequest r;
                r.disk = d;
                r.lba = i * sectors;
                r.sectors = sectors;
                reqs.push_back(r);
            }
        }
        sim::DiskReplayOptions opt;
        opt.disks = disks;
        opt.buses = buses;
        auto res = sim::run_disk_replay(cfg, reqs, opt);
        json per_disk_rate = json::array();
        double total = 0;
        uint64_t first_all = ~0ull, last_all = 0;
        for (uint32_t d = 0; d < disks; ++d) {
            uint64_t first = ~0ull, last = 0;
            for (size_t i = 0; i < reqs.size(); ++i) {
                if (reqs[i].disk == d) {
                    first = std::min(first, res.complete_ps[i]);
                    last = std::max(last, res.complete_ps[i]);
                }
            }
            double rate = (per_disk - 1) * sectors * 512.0 / ((last - first) * 1e-12) / kMB;
            per_disk_rate.push_back(rate);
            total += rate;
            first_all = std::min(first_all, first);
            last_all = std::max(last_all, last);
        }
        double bytes = static_cast<double>(disks) * (per_disk - 1) * sectors * 512.0;
        return json{{"per_disk", per_disk_rate},
                    {"sum_of_rates", total},
                    {"aggregate", bytes / ((last_all - first_all) * 1e-12) / kMB},
                    {"summary", res.summary}};
    });
}

} // namespace

BOOST_AUTO_TEST_SUITE(disk_streaming)

BOOST_AUTO_TEST_CASE(one_drive_streams_at_the_multitrack_rate) {
    json r = stream(1, 1, 1024); // 8 MB: 12 cylinders
    double rate = r["per_disk"][0];
    // Published: 2.11 MB/s for multitrack transfers (docs/reference.md §3) = 72/80 of the
    // 2.345 MB/s media rate (8-sector skew per track).
    BOOST_TEST(rate == 2.11, boost::test_tools::tolerance(0.01));
    // Exactly: sectors 16..16383 of cylinders 0..11 cross 216 track boundaries
    // (8 slots each) and 11 cylinder boundaries (18 slots each); a slot is 1/72 rev.
    double rev_s = 60.0 / 4002;
    double slots = 16368 + 216 * 8 + 11 * 18;
    double exact = 16368 * 512.0 / (slots * rev_s / 72) / kMB;
    BOOST_TEST(rate == exact, boost::test_tools::tolerance(0.002));
    // Read-ahead served every request after the first from the cache or the stream.
    BOOST_TEST(r["summary"]["disks"][0]["cache_hits"].get<int>() == 1023);
    BOOST_TEST(r["summary"]["disks"][0]["movements"].get<int>() == 1);
    // Only that first access positioned: a seek of at most a full stroke plus at
    // most a revolution (the drive starts at cylinder 0 with a random phase).
    double positioning = r["summary"]["disks"][0]["positioning_s"].get<double>();
    BOOST_TEST(positioning < (8.0 + 0.008 * 1961 + 60e3 / 4002) * 1e-3);
}

BOOST_AUTO_TEST_CASE(large_requests_stream_at_the_same_rate) {
    // 256 KB READs exceed the 128 KB cache: the drive reconnects every 64 KB (read
    // fence) and the stream refills the cache as the host drains it.
    json r = stream(1, 1, 32, 512);
    BOOST_TEST(r["per_disk"][0].get<double>() == 2.11, boost::test_tools::tolerance(0.01));
}

BOOST_AUTO_TEST_CASE(sixteen_drives_on_sixteen_buses_reach_the_published_peak) {
    json r = stream(16, 16, 512);
    for (const auto &rate : r["per_disk"]) {
        BOOST_TEST(rate.get<double>() == 2.11, boost::test_tools::tolerance(0.01));
    }
    // Published peak: 33.8 MB/s (docs/reference.md §1, §3).
    BOOST_TEST(r["sum_of_rates"].get<double>() == 33.8, boost::test_tools::tolerance(0.01));
}

BOOST_AUTO_TEST_CASE(drives_sharing_one_bus_approach_but_never_exceed_it) {
    // Per 8 KB request the bus carries a selection tenure (6 + 15 + 4 us) and a
    // reselection tenure (6 + 781.25 + 4 us): at most 8 KB / 816.25 us = 9.80 MB/s.
    double bus_limit = 8192.0 / 816.25e-6 / kMB;
    json four = stream(4, 1, 256);
    json eight = stream(8, 1, 256);
    double r4 = four["aggregate"], r8 = eight["aggregate"];
    BOOST_TEST_MESSAGE("4 drives: " << r4 << " MB/s, 8 drives: " << r8 << " MB/s");
    BOOST_TEST(r4 <= 10.0);
    BOOST_TEST(r8 <= 10.0);
    BOOST_TEST(r8 <= bus_limit * 1.0001);
    // Four drives deliver their media rate (4 x 2.11 = 8.4 MB/s): the host
    // adapter wins arbitration (scsi.arbitration = fair), so a drive's next command
    // starts its overhead at once, and the bus has room to spare.
    BOOST_TEST(r4 > 0.97 * 4 * 2.11);
    BOOST_TEST(r4 < bus_limit);
    // Eight drives saturate the bus.
    BOOST_TEST(r8 > 0.97 * bus_limit);
    BOOST_TEST(r8 > r4);
    double busy = eight["summary"]["buses"][0]["busy_s"];
    double elapsed = eight["summary"]["simulated_s"];
    BOOST_TEST(busy / elapsed > 0.97);
}

BOOST_AUTO_TEST_SUITE_END()
