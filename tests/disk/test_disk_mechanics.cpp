// HP 97560 mechanics: seek curve, geometry and skew, rotation clock, and the
// exact media timings of a revolution, a head switch and a cylinder switch as the
// simulated drive produces them.
#include "sim/runner/isolated_run.h"
#include "tests/disk/disk_rig.h"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {
uint64_t ms_ps(double ms) {
    return static_cast<uint64_t>(std::llround(ms * 1e9));
}

DiskGeometry default_geometry() {
    return DiskGeometry(DiskParams::from(default_config()));
}
} // namespace

BOOST_AUTO_TEST_SUITE(disk_mechanics)

BOOST_AUTO_TEST_CASE(seek_time_follows_the_two_piece_curve) {
    DiskGeometry g = default_geometry();
    BOOST_TEST(g.seek_ps(0) == 0u);
    // d < 383: 3.24 + 0.400 sqrt(d) ms; d >= 383: 8.00 + 0.008 d ms (docs/reference.md §3).
    BOOST_TEST(g.seek_ps(1) == ms_ps(3.64));
    BOOST_TEST(g.seek_ps(382) == ms_ps(3.24 + 0.4 * std::sqrt(382.0)));
    BOOST_TEST(g.seek_ps(383) == ms_ps(8.0 + 0.008 * 383));
    BOOST_TEST(g.seek_ps(1961) == ms_ps(23.688));
    // A seek covers the head switch; within a cylinder only the head switch counts.
    BOOST_TEST(g.switch_ps(0, 1) == ms_ps(1.6));
    BOOST_TEST(g.switch_ps(18, 19) == ms_ps(3.64));
    BOOST_TEST(g.switch_ps(0, 19 * 1961) == ms_ps(23.688));
    BOOST_TEST(g.switch_ps(5, 5) == 0u);
}

BOOST_AUTO_TEST_CASE(geometry_and_skewed_layout) {
    DiskGeometry g = default_geometry();
    BOOST_TEST(g.capacity() == 1962u * 19 * 72);
    BOOST_TEST(static_cast<uint64_t>(g.capacity()) * 512 == 1374216192ull); // the "1.3 GB" drive
    auto c = g.locate(72 * 19 * 3 + 72 * 2 + 5);
    BOOST_TEST(c.cylinder == 3u);
    BOOST_TEST(c.head == 2u);
    BOOST_TEST(c.sector == 5u);
    // Track skew: the first sector of the next track (same cylinder) starts 8 slots
    // after the previous track's last sector ends; cylinder skew 18 slots.
    for (uint32_t track : {0u, 5u, 17u, 18u, 19u, 37u, 1000u}) {
        uint32_t last = track * 72 + 71, first_next = (track + 1) * 72;
        uint32_t gap = (g.physical_slot(first_next) + 72 - (g.physical_slot(last) + 1) % 72) % 72;
        BOOST_TEST_CONTEXT("track " << track) {
            BOOST_TEST(gap == ((track + 1) % 19 == 0 ? 18u : 8u));
        }
    }
    // Within a track, consecutive sectors occupy consecutive slots.
    BOOST_TEST((g.physical_slot(100) + 1) % 72 == g.physical_slot(101));
}

BOOST_AUTO_TEST_CASE(rotation_clock_slots_are_exact) {
    DiskGeometry g = default_geometry();
    uint64_t rev = g.revolution_ps();
    BOOST_TEST(rev == 14992503748ull); // 60 s / 4002 RPM, to the picosecond
    RotationClock clock(rev, 72, 123456789);
    for (uint64_t u : {0ull, 1ull, 71ull, 72ull, 1000ull, 123457ull}) {
        BOOST_TEST(clock.slot_time(u + 72) - clock.slot_time(u) == static_cast<int64_t>(rev));
        int64_t t = clock.slot_time(u);
        if (t >= 0) {
            BOOST_TEST(clock.first_slot_at_or_after(t) == u);
            BOOST_TEST(clock.last_slot_at_or_before(t) == u);
            BOOST_TEST(clock.first_slot_at_or_after(t + 1) == u + 1);
            BOOST_TEST(clock.last_slot_at_or_before(t - 1) == u - 1);
        }
    }
    BOOST_TEST(clock.next_slot_with_index(75, 3) == 75u);
    BOOST_TEST(clock.next_slot_with_index(76, 3) == 147u);
}

BOOST_AUTO_TEST_CASE(head_and_cylinder_switches_fit_within_the_skew) {
    // 8 sectors at 4002 RPM are 1.666 ms >= the 1.6 ms head switch, and 18 sectors
    // are 3.748 ms >= the 3.64 ms one-cylinder seek: a multi-track transfer loses
    // exactly the skew at each boundary, never a revolution.
    DiskGeometry g = default_geometry();
    uint64_t rev = g.revolution_ps();
    BOOST_TEST(8 * rev / 72 >= g.head_switch_ps());
    BOOST_TEST(18 * rev / 72 >= g.seek_ps(1));
    BOOST_TEST(8 * rev / 72 - g.head_switch_ps() < ms_ps(0.07)); // a close fit
}

// Reads with read-ahead off and records the media accesses: one track takes
// exactly one revolution; two tracks one revolution each plus the 8-slot skew;
// a cylinder boundary the 18-slot skew.
BOOST_AUTO_TEST_CASE(media_timings_in_the_simulated_drive_are_exact) {
    json r = sim::run_isolated([] {
        config::Config cfg = default_config();
        cfg.set("disk.readahead", false, "test");
        json out;
        run_rig(cfg, 1, [&](DiskRig &rig) {
            Hp97560Disk &d = rig.disk(0);
            d.set_media_log(true);
            auto c1 = rig.run(0, HW_SCSI_OP_READ10, 0, 72 * 5, 72, DiskRig::kBufferBase);
            auto c2 = rig.run(0, HW_SCSI_OP_READ10, 0, 72 * 40, 144, DiskRig::kBufferBase);
            auto c3 = rig.run(0, HW_SCSI_OP_READ10, 0, 72 * 19 * 7 - 72, 144, DiskRig::kBufferBase);
            out["status"] = {c1.desc.status, c2.desc.status, c3.desc.status};
            json log = json::array();
            for (const auto &op : d.media_log()) {
                log.push_back({op.lba, op.sectors, op.start_ps, op.data_ps, op.end_ps});
            }
            out["log"] = log;
        });
        return out;
    });
    BOOST_TEST(r["status"] == json({0, 0, 0}));
    const json &log = r["log"];
    BOOST_REQUIRE(log.size() == 3u);
    uint64_t rev = 14992503748ull;
    auto span = [&](int i) { return log[i][4].get<uint64_t>() - log[i][3].get<uint64_t>(); };
    BOOST_TEST(log[0][1].get<uint32_t>() == 72u);
    BOOST_TEST(span(0) == rev);
    // 2 revolutions + 8 slots; slot boundaries are floor(k * rev / 72), so allow the
    // one picosecond of rounding between boundaries.
    BOOST_TEST(std::llabs(static_cast<long long>(span(1) - (2 * rev + 8 * rev / 72))) <= 1);
    BOOST_TEST(std::llabs(static_cast<long long>(span(2) - (2 * rev + 18 * rev / 72))) <= 1);
    // Track 5 -> track 40 is a two-cylinder seek before the rotational wait.
    BOOST_TEST(log[1][3].get<uint64_t>() >=
               log[1][2].get<uint64_t>() + ms_ps(3.24 + 0.4 * std::sqrt(2.0)));
}

BOOST_AUTO_TEST_SUITE_END()
