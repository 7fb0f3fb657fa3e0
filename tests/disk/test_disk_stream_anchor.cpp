// The read stream's movable anchor (tlm_models/storage/stream_anchor.h) is an
// exact speed-up: the drive gives identical timings, statistics and media
// accesses with speed.disk_stream_anchor on and off, and the anchored positions of
// a long stream equal the straightforward computation from its first sector.
#include "sim/runner/isolated_run.h"
#include "tests/disk/disk_rig.h"
#include "tlm_models/storage/disk_mechanics.h"
#include "tlm_models/storage/stream_anchor.h"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

using Settings = std::vector<std::pair<std::string, json>>;

// A request mix that keeps a read stream running for many tracks (so the anchor
// moves) and interrupts it in every way the drive knows: reads that hit, skip
// ahead through the gap, go back, and miss; a large and an immediate PRE-FETCH;
// writes; several commands queued at once. With `trace` the drive is also
// observed (a VCD, docs/observe.md), which asks for stream positions at extra
// times: at every mechanism transition and track boundary.
json run_mix(bool anchor, const Settings &settings, bool trace) {
    return sim::run_isolated([anchor, settings, trace] {
        config::Config cfg = default_config();
        cfg.set("speed.disk_stream_anchor", anchor, "test");
        for (const auto &[key, value] : settings) {
            cfg.set(key, value, "test");
        }
        json out;
        json times = json::array();
        DiskRig rig(
            "rig", cfg, 2,
            [&](DiskRig &r) {
                const uint32_t buf = DiskRig::kBufferBase;
                auto record = [&](const Completion &c) {
                    times.push_back({c.time_ps, c.desc.status});
                };
                for (unsigned d = 0; d < 2; ++d) {
                    r.disk(d).set_media_log(true);
                }
                // A long sequential stream (about 60 tracks), one request at a time.
                for (uint32_t i = 0; i < 280; ++i) {
                    record(r.run(0, HW_SCSI_OP_READ10, 0, 1300 + i * 16, 16, buf));
                }
                // Skips ahead by less than the gap the stream may read through, then by more.
                uint32_t next = 1300 + 280 * 16;
                record(r.run(0, HW_SCSI_OP_READ10, 0, next + 40, 16, buf));
                record(r.run(0, HW_SCSI_OP_READ10, 0, next + 400, 16, buf));
                // Back into the stream's segment, and back past it.
                record(r.run(0, HW_SCSI_OP_READ10, 0, next + 300, 16, buf));
                record(r.run(0, HW_SCSI_OP_READ10, 0, 1300, 16, buf));
                // Eight requests queued at once, on both drives.
                std::vector<uint32_t> tags;
                for (uint32_t i = 0; i < 8; ++i) {
                    tags.push_back(r.submit(i % 2, HW_SCSI_OP_READ10, 0, 90000 + i * 64, 64,
                                            buf + (i % 2) * 32768));
                }
                for (uint32_t tag : tags) {
                    record(r.wait(tag));
                }
                // A PRE-FETCH larger than a segment, then reads of what it fetched.
                record(r.run(0, HW_SCSI_OP_PREFETCH10, 0, 300000, 2000, 0));
                for (uint32_t i = 0; i < 40; ++i) {
                    record(r.run(0, HW_SCSI_OP_READ10, 0, 300000 + i * 32, 32, buf));
                }
                // An immediate PRE-FETCH, then writes that take the arm from it.
                record(r.run(0, HW_SCSI_OP_PREFETCH10, HW_SCSI_CDB1_IMMED, 500000, 64, 0));
                for (uint32_t i = 0; i < 6; ++i) {
                    record(r.run(0, HW_SCSI_OP_WRITE10, 0, 700000 + i * 16, 16, buf));
                }
                record(r.run(0, HW_SCSI_OP_READ10, 0, 700000, 128, buf));
                record(r.run(0, HW_SCSI_OP_SYNC_CACHE10, 0, 0, 0, 0));
                // A second long stream in large requests, across cylinder boundaries.
                for (uint32_t i = 0; i < 60; ++i) {
                    record(r.run(1, HW_SCSI_OP_READ10, 0, 72 * 19 * 30 - 500 + i * 128, 128, buf));
                }
                for (unsigned d = 0; d < 2; ++d) {
                    json log = json::array();
                    for (const MediaOp &op : r.disk(d).media_log()) {
                        log.push_back(
                            {op.write, op.lba, op.sectors, op.start_ps, op.data_ps, op.end_ps});
                    }
                    out["log"].push_back(log);
                    out["stats"].push_back(r.disk(d).stats().to_json());
                }
            },
            5, 0);
        std::unique_ptr<RigTrace> observed;
        std::string vcd;
        if (trace) {
            char dir[] = "/tmp/starfish_anchor_XXXXXX";
            vcd = std::string(::mkdtemp(dir)) + "/disk.vcd";
            observed = std::make_unique<RigTrace>(rig, vcd);
        }
        sc_core::sc_start();
        if (observed) {
            observed->finish();
            std::remove(vcd.c_str());
        }
        if (!rig.error().empty() || !rig.scenario_finished()) {
            throw std::runtime_error("scenario failed: " + rig.error());
        }
        out["times"] = times;
        return out;
    });
}

// Where the anchored and the straightforward computation of one stream disagree
// ("" if nowhere): the stream reads `length` sectors from lba0 on a drive with
// the given platter phase, queried at many times in increasing order (which moves
// the anchor forward), with end slots asked before, at and after the anchor.
std::string first_disagreement(const DiskMechanics &mech, uint32_t lba0, uint32_t length) {
    StreamAnchor anchored(mech, true), plain(mech, false);
    Positioning pos = mech.position(MechPlan{}, lba0, 0);
    anchored.reset(lba0, pos.u0);
    plain.reset(lba0, pos.u0);
    const uint32_t limit = lba0 + length;
    const uint64_t start = mech.slot_time(pos.u0);
    const uint64_t end = mech.slot_time(mech.run_end_slot(lba0, pos.u0, length));
    const uint64_t step = mech.geometry().revolution_ps() / 7 + 12345;
    auto where = [&](const std::string &what, uint64_t t) {
        return what + " at t = " + std::to_string(t) + " (stream from " + std::to_string(lba0) +
               ")";
    };
    for (uint64_t t = start > step ? start - step : 0; t <= end + step; t += step) {
        uint32_t hi = anchored.reached_by(limit, t);
        uint32_t expected = lba0 + mech.run_sectors_by(lba0, pos.u0, length, t);
        if (hi != expected || plain.reached_by(limit, t) != expected) {
            return where("sector reached: " + std::to_string(hi) + " instead of " +
                             std::to_string(expected),
                         t);
        }
        for (uint32_t e : {hi + 1, hi + 73, hi > 300 ? hi - 300 : lba0 + 1, lba0 + 1, limit}) {
            if (e <= lba0 || e > limit) {
                continue;
            }
            uint64_t want = mech.run_end_slot(lba0, pos.u0, e - lba0);
            if (anchored.end_slot(e) != want || plain.end_slot(e) != want) {
                return where("end slot of " + std::to_string(e), t);
            }
        }
        uint64_t want_limit = mech.run_end_slot(lba0, pos.u0, length);
        if (anchored.limit_end_slot(limit) != want_limit ||
            plain.limit_end_slot(limit) != want_limit) {
            return where("end slot of the limit", t);
        }
    }
    return "";
}

} // namespace

BOOST_AUTO_TEST_SUITE(disk_stream_anchor)

BOOST_AUTO_TEST_CASE(the_anchor_switch_changes_no_result) {
    const std::vector<Settings> variants = {
        {},
        {{"disk.readahead", false}},
        {{"disk.cache_segments", 2}, {"disk.cache_keep", "window"}},
        {{"disk.readahead_stop", "command"}, {"disk.write_report", "media"}},
    };
    for (const Settings &settings : variants) {
        BOOST_TEST_CONTEXT(json(settings).dump()) {
            json on = run_mix(true, settings, false), off = run_mix(false, settings, false);
            BOOST_TEST(on["times"].size() == 402u);
            BOOST_TEST(on["log"][0].size() > 5u);
            BOOST_TEST(on["times"] == off["times"]);
            BOOST_TEST(on["log"] == off["log"]);
            BOOST_TEST(on["stats"] == off["stats"]);
        }
    }
    // Observing asks for stream positions at extra times (and moves the anchor there).
    json traced_on = run_mix(true, {}, true), traced_off = run_mix(false, {}, true);
    json plain = run_mix(false, {}, false);
    BOOST_TEST(traced_on == traced_off);
    BOOST_TEST(traced_on == plain);
}

BOOST_AUTO_TEST_CASE(the_anchored_stream_position_equals_the_straightforward_one) {
    DiskMechanics mech(DiskParams::from(default_config()));
    const uint32_t track = mech.geometry().sectors_per_track();
    const uint32_t cylinder = track * mech.geometry().heads();
    // Long streams (some 280 tracks, across cylinder boundaries) from the start,
    // the middle and the end of a track and just before a cylinder boundary, at
    // several platter angles.
    for (uint64_t phase : {0ull, 1234567ull, 7000000000ull}) {
        mech.set_phase_ps(phase);
        for (uint32_t lba0 : {0u, 5 * track + 1, 17 * track + 40, 3 * cylinder - 3}) {
            BOOST_TEST_CONTEXT("phase " << phase << ", stream from " << lba0) {
                BOOST_TEST(first_disagreement(mech, lba0, 20000) == "");
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
