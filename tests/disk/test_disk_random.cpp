// Random single-block (8 KB) reads spread over the whole disk: the mean service
// time the model produces agrees with the value derived from the parameters.
#include "hw/rng.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/disk_replay.h"
#include "tests/disk/disk_rig.h"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

BOOST_AUTO_TEST_SUITE(disk_random)

// Derivation. One drive, one request at a time (the next is queued in the adapter
// and selected as soon as the previous completes), each an aligned 16-sector block
// chosen uniformly over the disk. A request's service time is
//
//   S = T_sel + T_ovh + T_pos + T_rot + T_media + T_resel
//
//   T_sel   selection: arbitration 6 + command 15 us = 21 us (the 4 us disconnect
//           message overlaps the overhead, which starts once the CDB is in)
//   T_ovh   controller overhead, 2.2 ms (bus free; the previous request's
//           read-ahead stops when this command arrives, as it misses)
//   T_pos   seek(|X - Y|) for the cylinders X, Y of consecutive blocks, with the
//           two-piece curve; a head switch (1.6 ms) when the cylinder is the same
//           but the surface differs. E[T_pos] is summed exactly over the
//           distribution of block-start cylinders (85 or 86 blocks per cylinder).
//   T_rot   rotational latency: uniform over a revolution, E = 14.9925 / 2 ms
//   T_media 16 sector slots (1/72 revolution each), plus the skew gap when the
//           block crosses a track boundary (8 slots; 18 at a cylinder boundary):
//           72 is not a multiple of 16, so one block in nine crosses a track
//   T_resel reselection tenure once all 16 sectors are cached (the request is below
//           the 64 KB read fence): arbitration 6 + 8192 B at 10 MB/s (781.25 us) +
//           status 4 us = 791.25 us
//
// The previous request's read-ahead moves the head on by a few sectors before it
// is stopped, which the derivation ignores (it rarely changes the cylinder).
BOOST_AUTO_TEST_CASE(mean_service_time_matches_the_analytic_value) {
    const uint32_t kRequests = 5000;
    json r = sim::run_isolated([=] {
        config::Config cfg = default_config();
        DiskGeometry g(DiskParams::from(cfg));
        hw_rng rng;
        hw_rng_seed(&rng, hw_rng_stream_seed(7, 0, HW_RNG_STREAM_WORKLOAD, 0));
        std::vector<sim::DiskTraceRequest> reqs(kRequests);
        for (auto &q : reqs) {
            q.lba = static_cast<uint32_t>(hw_rng_below(&rng, g.capacity() / 16)) * 16;
            q.sectors = 16;
        }
        sim::DiskReplayOptions opt;
        auto res = sim::run_disk_replay(cfg, reqs, opt);
        double sum = 0;
        for (size_t i = 1; i < reqs.size(); ++i) {
            sum += (res.complete_ps[i] - res.complete_ps[i - 1]) * 1e-9;
        }
        return json{{"mean_ms", sum / (reqs.size() - 1)}, {"summary", res.summary}};
    });

    // The analytic value, from the same parameters.
    const double rev = 60e3 / 4002; // ms
    const uint32_t C = 1962, H = 19, S = 72, blocks = C * H * S / 16;
    std::vector<double> p_cyl(C, 0.0);
    double cross_track = 0, cross_cyl = 0;
    for (uint32_t b = 0; b < blocks; ++b) {
        uint32_t first = b * 16, last = first + 15;
        p_cyl[first / (H * S)] += 1.0 / blocks;
        if (first / S != last / S) {
            (first / (H * S) != last / (H * S) ? cross_cyl : cross_track) += 1.0 / blocks;
        }
    }
    auto seek = [](uint32_t d) {
        return d == 0 ? 0.0 : d < 383 ? 3.24 + 0.4 * std::sqrt(d) : 8.0 + 0.008 * d;
    };
    double e_pos = 0, p_same = 0;
    for (uint32_t x = 0; x < C; ++x) {
        for (uint32_t y = 0; y < C; ++y) {
            e_pos += p_cyl[x] * p_cyl[y] * seek(x > y ? x - y : y - x);
        }
        p_same += p_cyl[x] * p_cyl[x];
    }
    e_pos += p_same * (1.0 - 1.0 / H) * 1.6;
    double e_media = (16 + 8 * cross_track + 18 * cross_cyl) * rev / S;
    double t_sel = 0.021, t_resel = 0.79125, t_ovh = 2.2;
    double analytic = t_sel + t_ovh + e_pos + rev / 2 + e_media + t_resel;

    double mean = r["mean_ms"];
    BOOST_TEST_MESSAGE("random 8 KB reads: model " << mean << " ms, analytic " << analytic
                                                   << " ms (mean seek " << e_pos << " ms)");
    BOOST_TEST(mean == analytic, boost::test_tools::tolerance(0.05)); // the bound
    BOOST_TEST(mean == analytic, boost::test_tools::tolerance(0.02));
    // Every request needed a seek or a rotational wait; almost all a seek.
    const json &d = r["summary"]["disks"][0];
    BOOST_TEST(d["movements"].get<uint32_t>() == kRequests);
    BOOST_TEST(d["seeks"].get<uint32_t>() > kRequests * 99 / 100);
    BOOST_TEST(d["cache_hits"].get<uint32_t>() == 0u);
    // Positioning time (seek, head switch, rotational latency; no overhead, no
    // transfer, no read-ahead) per request is the analytic E[T_pos] + E[T_rot].
    double positioning_ms = d["positioning_s"].get<double>() * 1e3 / kRequests;
    BOOST_TEST_MESSAGE("positioning " << positioning_ms << " ms per request, analytic "
                                      << e_pos + rev / 2);
    BOOST_TEST(positioning_ms == e_pos + rev / 2, boost::test_tools::tolerance(0.03));
}

BOOST_AUTO_TEST_SUITE_END()
