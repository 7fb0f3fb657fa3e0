// Writes: immediate report (completion after the bus transfer and the controller
// overhead), media writes later and in order, reads of pending data, the cache
// filling up, write-through reporting and SYNCHRONIZE CACHE.
#include "hw/data_pattern.h"
#include "sim/runner/isolated_run.h"
#include "tests/disk/disk_rig.h"
#include "tlm_models/storage/disk_params.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

void fill(DiskRig &rig, uint32_t addr, uint32_t bytes, uint32_t seed) {
    uint8_t *p = rig.mem(addr, bytes);
    for (uint32_t i = 0; i < bytes; ++i) {
        p[i] = hw_file_byte(seed, i);
    }
}

bool same(DiskRig &rig, uint32_t addr, uint32_t bytes, uint32_t seed) {
    const uint8_t *p = rig.mem(addr, bytes);
    for (uint32_t i = 0; i < bytes; ++i) {
        if (p[i] != hw_file_byte(seed, i)) {
            return false;
        }
    }
    return true;
}

json media_log_json(const Hp97560Disk &d) {
    json log = json::array();
    for (const auto &op : d.media_log()) {
        log.push_back(json{{"write", op.write},
                           {"lba", op.lba},
                           {"sectors", op.sectors},
                           {"start", op.start_ps},
                           {"end", op.end_ps}});
    }
    return log;
}

} // namespace

BOOST_AUTO_TEST_SUITE(disk_writes)

BOOST_AUTO_TEST_CASE(immediate_report_completes_after_bus_time_and_overhead) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(default_config(), 1, [&](DiskRig &rig) {
            Hp97560Disk &d = rig.disk(0);
            d.set_media_log(true);
            const uint32_t buf = DiskRig::kBufferBase;
            fill(rig, buf, 8192, 11);
            uint64_t t0 = rig.now();
            auto c = rig.run(0, HW_SCSI_OP_WRITE10, 0, 500000, 16, buf);
            out["status"] = c.desc.status;
            out["transferred"] = c.desc.transferred;
            out["response"] = c.time_ps - t0;
            out["pending_at_completion"] = d.pending_write_sectors();
            // Read it back at once, while the media write is still pending.
            std::memset(rig.mem(buf, 8192), 0, 8192);
            auto rd = rig.run(0, HW_SCSI_OP_READ10, 0, 500000, 16, buf);
            out["read_status"] = rd.desc.status;
            out["read_back_pending"] = same(rig, buf, 8192, 11);
            out["read_response"] = rd.time_ps - c.time_ps;
            sc_core::wait(100, sc_core::SC_MS);
            out["pending_later"] = d.pending_write_sectors();
            std::memset(rig.mem(buf, 8192), 0, 8192);
            rig.run(0, HW_SCSI_OP_READ10, 0, 500000, 16, buf);
            out["read_back_later"] = same(rig, buf, 8192, 11);
            out["completion"] = c.time_ps;
            out["log"] = media_log_json(d);
        });
        return out;
    });
    BOOST_TEST(r["status"] == HW_SCSI_STATUS_GOOD);
    BOOST_TEST(r["transferred"] == 8192);
    // Selection (arbitration 6 + command 15 us), overhead 2.2 ms (from the end of
    // the command phase; the 4 us disconnect overlaps it), reselection (6 us +
    // 8192 B at 10 MB/s = 781.25 us + status 4 us).
    BOOST_TEST(r["response"].get<uint64_t>() == 3012250000ull);
    BOOST_TEST(r["pending_at_completion"] == 16);
    BOOST_TEST(r["read_back_pending"] == true);
    // The read is a cache hit: overhead and bus only, no seek.
    BOOST_TEST(r["read_response"].get<uint64_t>() == 3012250000ull);
    BOOST_TEST(r["pending_later"] == 0);
    BOOST_TEST(r["read_back_later"] == true);
    // The media write happened after the drive reported completion.
    const json &log = r["log"];
    BOOST_REQUIRE(log.size() >= 1u);
    BOOST_TEST(log[0]["write"] == true);
    BOOST_TEST(log[0]["end"].get<uint64_t>() > r["completion"].get<uint64_t>());
}

BOOST_AUTO_TEST_CASE(media_writes_follow_in_order_and_the_cache_fills) {
    json r = sim::run_isolated([] {
        json out;
        config::Config cfg = default_config();
        // The whole cache may hold reported writes (the default: one 8 KB block).
        cfg.set("disk.write_behind_kb", 128, "test");
        run_rig(cfg, 1, [&](DiskRig &rig) {
            Hp97560Disk &d = rig.disk(0);
            d.set_media_log(true);
            // 24 scattered 8 KB writes (192 KB, more than the 128 KB cache).
            std::vector<uint32_t> lbas;
            json responses = json::array(), completions = json::array();
            for (uint32_t i = 0; i < 24; ++i) {
                uint32_t lba = (i * 7919u % 24u) * 100000u + 32;
                lbas.push_back(lba);
                uint32_t buf = DiskRig::kBufferBase + i * 8192;
                fill(rig, buf, 8192, 100 + i);
                uint64_t t0 = rig.now();
                auto c = rig.run(0, HW_SCSI_OP_WRITE10, 0, lba, 16, buf);
                responses.push_back(c.time_ps - t0);
                completions.push_back(c.time_ps);
            }
            out["responses"] = responses;
            out["completions"] = completions;
            out["lbas"] = lbas;
            out["log"] = media_log_json(d);
            // SYNCHRONIZE CACHE returns once every write is on the media.
            auto s = rig.run(0, HW_SCSI_OP_SYNC_CACHE10, 0, 0, 0, 0);
            out["sync_status"] = s.desc.status;
            out["sync_time"] = s.time_ps;
            out["pending_after_sync"] = d.pending_write_sectors();
            // Every byte is there.
            bool ok = true;
            for (uint32_t i = 0; i < 24; ++i) {
                std::memset(rig.mem(DiskRig::kBufferBase, 8192), 0, 8192);
                rig.run(0, HW_SCSI_OP_READ10, 0, lbas[i], 16, DiskRig::kBufferBase);
                ok = ok && same(rig, DiskRig::kBufferBase, 8192, 100 + i);
            }
            out["all_read_back"] = ok;
        });
        return out;
    });
    const json &resp = r["responses"];
    const json &log = r["log"];
    // The first 16 writes (128 KB) fit in the cache and complete in bus time +
    // overhead; later ones find the cache full of unwritten data unless a media
    // write has finished meanwhile, and then take their data the moment one does.
    for (int i = 0; i < 16; ++i) {
        BOOST_TEST(resp[i].get<uint64_t>() == 3012250000ull);
    }
    int waited = 0;
    for (int i = 16; i < 24; ++i) {
        if (resp[i].get<uint64_t>() == 3012250000ull) {
            continue;
        }
        ++waited;
        uint64_t data_start = r["completions"][i].get<uint64_t>() - 791250000ull;
        bool at_a_media_write_end = false;
        for (const auto &op : log) {
            at_a_media_write_end |= op["end"].get<uint64_t>() == data_start;
        }
        BOOST_TEST(at_a_media_write_end, "write " << i);
    }
    BOOST_TEST(waited >= 4);
    // Media writes in submission order, one after the other.
    BOOST_REQUIRE(log.size() == 24u);
    for (size_t i = 0; i < 24; ++i) {
        BOOST_TEST(log[i]["write"] == true);
        BOOST_TEST(log[i]["lba"] == r["lbas"][i]);
        if (i > 0) {
            BOOST_TEST(log[i]["start"].get<uint64_t>() >= log[i - 1]["end"].get<uint64_t>());
        }
    }
    BOOST_TEST(r["sync_status"] == 0);
    BOOST_TEST(r["sync_time"].get<uint64_t>() >= log[23]["end"].get<uint64_t>());
    BOOST_TEST(r["pending_after_sync"] == 0);
    BOOST_TEST(r["all_read_back"] == true);
}

// Three scattered 8 KB writes submitted back to back with write_behind_kb = wb_kb:
// response and completion times and the media log.
static json three_scattered_writes(int64_t wb_kb) {
    return sim::run_isolated([wb_kb] {
        json out;
        config::Config cfg = default_config();
        cfg.set("disk.write_behind_kb", wb_kb, "test");
        run_rig(cfg, 1, [&](DiskRig &rig) {
            Hp97560Disk &d = rig.disk(0);
            d.set_media_log(true);
            json responses = json::array(), completions = json::array();
            for (uint32_t i = 0; i < 3; ++i) {
                uint32_t buf = DiskRig::kBufferBase + i * 8192;
                fill(rig, buf, 8192, 40 + i);
                uint64_t t0 = rig.now();
                auto c = rig.run(0, HW_SCSI_OP_WRITE10, 0, 100000u + i * 300000u, 16, buf);
                responses.push_back(c.time_ps - t0);
                completions.push_back(c.time_ps);
            }
            out["responses"] = responses;
            out["completions"] = completions;
            out["log"] = media_log_json(d);
        });
        return out;
    });
}

BOOST_AUTO_TEST_CASE(
    without_write_behind_a_write_is_reported_once_earlier_writes_are_on_the_media) {
    json r = three_scattered_writes(0);
    const json &log = r["log"];
    BOOST_REQUIRE(log.size() == 3u);
    // The first write finds nothing unwritten: bus time + overhead.
    BOOST_TEST(r["responses"][0].get<uint64_t>() == 3012250000ull);
    // Each later write is reported exactly when the write before it reaches the
    // media (plus the status phase), never earlier.
    for (int i = 1; i < 3; ++i) {
        uint64_t prev_end = log[i - 1]["end"].get<uint64_t>();
        uint64_t done = r["completions"][i].get<uint64_t>();
        BOOST_TEST(done > prev_end, "write " << i);
        BOOST_TEST(done - prev_end < 20000000ull, "write " << i); // within 20 us (reselection)
        BOOST_TEST(log[i]["end"].get<uint64_t>() > done); // its own data is still in the cache
    }
}

BOOST_AUTO_TEST_CASE(with_8_kb_write_behind_one_earlier_block_may_stay_unwritten) {
    // disk.write_behind_kb = 8: a write is reported once at most 8 KB of earlier
    // writes is still unwritten. (The default is the whole 128 KB cache.)
    BOOST_TEST(default_config().get_int(keys::disk_write_behind_kb) == 128);
    json r = three_scattered_writes(8);
    const json &log = r["log"];
    BOOST_REQUIRE(log.size() == 3u);
    // Writes 0 and 1 find at most 8 KB unwritten: bus time + overhead each.
    BOOST_TEST(r["responses"][0].get<uint64_t>() == 3012250000ull);
    BOOST_TEST(r["responses"][1].get<uint64_t>() == 3012250000ull);
    BOOST_TEST(r["completions"][1].get<uint64_t>() < log[0]["end"].get<uint64_t>());
    // Write 2 would leave 16 KB unwritten: it is reported once write 0 is on the media.
    uint64_t done = r["completions"][2].get<uint64_t>();
    BOOST_TEST(done > log[0]["end"].get<uint64_t>());
    BOOST_TEST(done - log[0]["end"].get<uint64_t>() < 20000000ull); // within 20 us
    BOOST_TEST(done < log[1]["end"].get<uint64_t>());
}

BOOST_AUTO_TEST_CASE(write_through_reports_after_the_media_write) {
    json r = sim::run_isolated([] {
        config::Config cfg = default_config();
        cfg.set("disk.write_report", "media", "test");
        json out;
        run_rig(cfg, 1, [&](DiskRig &rig) {
            Hp97560Disk &d = rig.disk(0);
            d.set_media_log(true);
            fill(rig, DiskRig::kBufferBase, 8192, 5);
            auto c = rig.run(0, HW_SCSI_OP_WRITE10, 0, 1234560, 16, DiskRig::kBufferBase);
            out["status"] = c.desc.status;
            out["completion"] = c.time_ps;
            out["log"] = media_log_json(d);
        });
        return out;
    });
    BOOST_TEST(r["status"] == 0);
    BOOST_REQUIRE(r["log"].size() == 1u);
    uint64_t media_end = r["log"][0]["end"];
    // Reselection for status after the media write: arbitration + status.
    BOOST_TEST(r["completion"].get<uint64_t>() == media_end + 10000000ull);
}

BOOST_AUTO_TEST_CASE(large_writes_move_in_fence_sized_bursts) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(default_config(), 1, [&](DiskRig &rig) {
            fill(rig, DiskRig::kBufferBase, 300 * 512, 77);
            auto c = rig.run(0, HW_SCSI_OP_WRITE10, 0, 9000, 300, DiskRig::kBufferBase);
            out["status"] = c.desc.status;
            out["transferred"] = c.desc.transferred;
            out["tenures"] = rig.chain.bus().stats().tenures;
            std::memset(rig.mem(DiskRig::kBufferBase, 300 * 512), 0, 300 * 512);
            rig.run(0, HW_SCSI_OP_READ10, 0, 9000, 300, DiskRig::kBufferBase);
            out["read_back"] = same(rig, DiskRig::kBufferBase, 300 * 512, 77);
        });
        return out;
    });
    BOOST_TEST(r["status"] == 0);
    BOOST_TEST(r["transferred"] == 300 * 512);
    // 150 KB: selection, then bursts of 64 + 64 + 22 KB (the write fence).
    BOOST_TEST(r["tenures"] == 4);
    BOOST_TEST(r["read_back"] == true);
}

namespace {

// The LU program's pattern on one drive (docs/lu.md): read 16 sequential 4 KB
// blocks, pause while the CPs compute, write them back, then read the next 16.
// The writes stop the read-ahead, whose data the next reads find in the cache.
json read_write_read(bool readahead_after_hit) {
    return sim::run_isolated([readahead_after_hit] {
        config::Config cfg = default_config();
        cfg.set(keys::disk_readahead_after_hit, readahead_after_hit, "test");
        json out;
        run_rig(cfg, 1, [&](DiskRig &rig) {
            Hp97560Disk &d = rig.disk(0);
            const uint32_t buf = DiskRig::kBufferBase, base = 632;
            for (uint32_t i = 0; i < 16; ++i) {
                rig.run(0, HW_SCSI_OP_READ10, 0, base + 8 * i, 8, buf);
            }
            sc_core::wait(17, sc_core::SC_MS);
            for (uint32_t i = 0; i < 16; ++i) {
                fill(rig, buf, 4096, 100 + i);
                rig.run(0, HW_SCSI_OP_WRITE10, 0, base + 8 * i, 8, buf);
            }
            json responses = json::array();
            uint64_t hits_before = d.stats().cache_hits;
            for (uint32_t i = 16; i < 32; ++i) {
                uint64_t t0 = rig.now();
                rig.run(0, HW_SCSI_OP_READ10, 0, base + 8 * i, 8, buf);
                responses.push_back(rig.now() - t0);
            }
            out["responses"] = responses;
            out["hits"] = d.stats().cache_hits - hits_before;
            // The written blocks read back with the new bytes.
            bool written = true;
            for (uint32_t i = 0; i < 16; ++i) {
                rig.run(0, HW_SCSI_OP_READ10, 0, base + 8 * i, 8, buf);
                written = written && same(rig, buf, 4096, 100 + i);
            }
            out["written"] = written;
        });
        return out;
    });
}

uint64_t slowest(const json &responses) {
    uint64_t worst = 0;
    for (const auto &t : responses) {
        worst = std::max(worst, t.get<uint64_t>());
    }
    return worst;
}

} // namespace

BOOST_AUTO_TEST_CASE(after_a_hit_read_ahead_goes_on_only_with_readahead_after_hit) {
    BOOST_TEST(default_config().get_bool(keys::disk_readahead_after_hit) == true);
    // A 4 KB read from the cache: 21 us selection + 2.2 ms overhead + 410 us bus.
    const uint64_t command_ps = 2700000000ull;
    // Off: the reads are served from what the stopped read-ahead left; when it runs
    // out the drive repositions, and the head has passed the block: one read waits
    // for it to come round again (here 8 ms of the 15 ms revolution).
    json off = read_write_read(false);
    BOOST_TEST(slowest(off["responses"]) > 3 * command_ps);
    BOOST_TEST(off["hits"].get<uint64_t>() < 16u);
    BOOST_TEST(off["written"] == true);
    // On: the first hit starts read-ahead after the cached blocks, so every read
    // finds its block in the cache.
    json on = read_write_read(true);
    BOOST_TEST(slowest(on["responses"]) < command_ps);
    BOOST_TEST(on["hits"].get<uint64_t>() == 16u);
    BOOST_TEST(on["written"] == true);
}

BOOST_AUTO_TEST_CASE(the_drive_sums_its_read_and_write_response_times) {
    // Command phase to status, per READ and WRITE: what the host sees of each
    // command, less selection, the command phase and the adapter's completion.
    json r = sim::run_isolated([] {
        json out;
        run_rig(default_config(), 1, [&](DiskRig &rig) {
            Hp97560Disk &d = rig.disk(0);
            const uint32_t buf = DiskRig::kBufferBase;
            fill(rig, buf, 8192, 3);
            uint64_t t0 = rig.now();
            auto w = rig.run(0, HW_SCSI_OP_WRITE10, 0, 700000, 16, buf);
            uint64_t t1 = rig.now();
            auto rd = rig.run(0, HW_SCSI_OP_READ10, 0, 100000, 16, buf);
            out["write_host"] = w.time_ps - t0;
            out["read_host"] = rd.time_ps - t1;
            out["stats"] = d.stats().to_json();
            out["write_ps"] = d.stats().write_response_ps;
            out["read_ps"] = d.stats().read_response_ps;
        });
        return out;
    });
    const json &st = r["stats"];
    BOOST_TEST(st["reads_completed"] == 1u);
    BOOST_TEST(st["writes_completed"] == 1u);
    for (const char *op : {"write", "read"}) {
        uint64_t drive = r[std::string(op) + "_ps"].get<uint64_t>();
        uint64_t host = r[std::string(op) + "_host"].get<uint64_t>();
        BOOST_TEST(drive < host, op);
        BOOST_TEST(host - drive < 100000000ull, op); // within 100 us
        BOOST_TEST(drive > 2200000000ull, op);       // the controller overhead at least
    }
}

BOOST_AUTO_TEST_SUITE_END()
