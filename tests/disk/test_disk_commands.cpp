// The host adapter and the command subset: bad commands complete with CHECK
// CONDITION and sense data, data round trips are byte-exact, per-target queues,
// overlap across targets, the interrupt, programming errors named by node and
// register, PRE-FETCH, cache policies, determinism and tracing.
#include "hw/data_pattern.h"
#include "sim/runner/isolated_run.h"
#include "tests/disk/disk_rig.h"
#include "tests/support/vcd_reader.h"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <unistd.h>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

const uint32_t kCapacity = 1962u * 19 * 72;

json sense(const Completion &c) {
    return json{c.desc.status, c.desc.sense_key, c.desc.asc, c.desc.sense_info};
}

void fill(DiskRig &rig, uint32_t addr, uint32_t bytes, uint64_t seed) {
    uint8_t *p = rig.mem(addr, bytes);
    for (uint32_t i = 0; i < bytes; ++i) {
        p[i] = hw_file_byte(seed, i);
    }
}

// Runs a scenario expected to stop with a programming error; returns its message
// and the ERROR / ERROR_INFO registers read afterwards.
json programming_error(const std::function<void(DiskRig &)> &bad) {
    return sim::run_isolated([bad] {
        json out;
        run_rig(default_config(), 2, [&](DiskRig &rig) {
            bad(rig); // nothing is thrown: the fault goes to the adapter's fault port
            out["message"] = rig.chain.adapter().fault.failure();
            out["error"] = rig.reg_read(HW_SCSI_REG_ERROR);
            out["info"] = rig.reg_read(HW_SCSI_REG_ERROR_INFO);
        });
        return out;
    });
}

bool contains(const json &s, const std::string &part) {
    return s.get<std::string>().find(part) != std::string::npos;
}

// Runs a one-drive scenario in its own process with one parameter changed; the
// scenario fills the JSON it returns.
json with_setting(const std::string &key, const json &value,
                  const std::function<void(DiskRig &, json &)> &scenario) {
    return sim::run_isolated([key, value, scenario] {
        config::Config cfg = default_config();
        cfg.set(key, value, "test");
        json out;
        run_rig(cfg, 1, [&](DiskRig &rig) { scenario(rig, out); });
        return out;
    });
}

} // namespace

BOOST_AUTO_TEST_SUITE(disk_commands)

BOOST_AUTO_TEST_CASE(bad_commands_return_check_condition_with_sense) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(default_config(), 1, [&](DiskRig &rig) {
            const uint32_t buf = DiskRig::kBufferBase;
            out["beyond"] = sense(rig.run(0, HW_SCSI_OP_READ10, 0, kCapacity, 1, buf));
            out["straddle"] = sense(rig.run(0, HW_SCSI_OP_READ10, 0, kCapacity - 8, 16, buf));
            out["zero"] = sense(rig.run(0, HW_SCSI_OP_READ10, 0, 100, 0, buf));
            out["write_beyond"] = sense(rig.run(0, HW_SCSI_OP_WRITE10, 0, kCapacity + 5, 2, buf));
            out["prefetch_beyond"] = sense(rig.run(0, HW_SCSI_OP_PREFETCH10, 0, kCapacity, 16, 0));
            out["inquiry"] = sense(rig.run(0, 0x12, 0, 0, 0, 0));
            // A short CDB for a 10-byte opcode.
            hw_scsi_desc_t d{};
            hw_scsi_desc_init10(&d, 900, 0, HW_SCSI_OP_READ10, 0, 0, 1, buf);
            d.cdb_len = 6;
            out["short_cdb"] = sense(rig.wait(rig.submit_raw(d)));
            // The drive still works.
            auto ok = rig.run(0, HW_SCSI_OP_READ10, 0, kCapacity - 16, 16, buf);
            out["after"] = sense(ok);
            std::vector<uint8_t> expect(8192);
            rig.disk(0).read_sectors(kCapacity - 16, 16, expect.data());
            out["after_data"] = std::memcmp(expect.data(), rig.mem(buf, 8192), 8192) == 0;
            out["check_conditions"] = rig.disk(0).stats().check_conditions;
        });
        return out;
    });
    const uint32_t cc = HW_SCSI_STATUS_CHECK_CONDITION, ill = HW_SCSI_SENSE_ILLEGAL_REQUEST;
    BOOST_TEST(r["beyond"] == json({cc, ill, HW_SCSI_ASC_LBA_OUT_OF_RANGE, kCapacity}));
    BOOST_TEST(r["straddle"] == json({cc, ill, HW_SCSI_ASC_LBA_OUT_OF_RANGE, kCapacity}));
    BOOST_TEST(r["zero"] == json({cc, ill, HW_SCSI_ASC_INVALID_FIELD_IN_CDB, 0}));
    BOOST_TEST(r["write_beyond"] == json({cc, ill, HW_SCSI_ASC_LBA_OUT_OF_RANGE, kCapacity + 5}));
    BOOST_TEST(r["prefetch_beyond"] == json({cc, ill, HW_SCSI_ASC_LBA_OUT_OF_RANGE, kCapacity}));
    BOOST_TEST(r["inquiry"] == json({cc, ill, HW_SCSI_ASC_INVALID_OPCODE, 0}));
    BOOST_TEST(r["short_cdb"] == json({cc, ill, HW_SCSI_ASC_INVALID_FIELD_IN_CDB, 0}));
    BOOST_TEST(r["after"] == json({0, 0, 0, 0}));
    BOOST_TEST(r["after_data"] == true);
    BOOST_TEST(r["check_conditions"] == 7);
}

BOOST_AUTO_TEST_CASE(test_unit_ready_and_read_capacity) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(default_config(), 1, [&](DiskRig &rig) {
            uint64_t t0 = rig.now();
            auto tur = rig.run(0, HW_SCSI_OP_TEST_UNIT_READY, 0, 0, 0, 0);
            out["tur"] = sense(tur);
            out["tur_time"] = tur.time_ps - t0;
            auto cap = rig.run(0, HW_SCSI_OP_READ_CAPACITY10, 0, 0, 0, DiskRig::kBufferBase);
            out["cap"] = sense(cap);
            const uint8_t *p = rig.mem(DiskRig::kBufferBase, 8);
            out["last_lba"] =
                (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
            out["block"] = (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 | (uint32_t)p[6] << 8 | p[7];
            out["transferred"] = cap.desc.transferred;
        });
        return out;
    });
    BOOST_TEST(r["tur"] == json({0, 0, 0, 0}));
    BOOST_TEST(r["tur_time"].get<uint64_t>() == 25000000ull); // one tenure: 6 + 15 + 4 us
    BOOST_TEST(r["cap"] == json({0, 0, 0, 0}));
    BOOST_TEST(r["last_lba"] == kCapacity - 1);
    BOOST_TEST(r["block"] == 512);
    BOOST_TEST(r["transferred"] == 8);
}

BOOST_AUTO_TEST_CASE(data_round_trips_are_byte_exact) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(default_config(), 2, [&](DiskRig &rig) {
            struct Piece {
                uint32_t target, lba, sectors;
            };
            std::vector<Piece> pieces = {{0, 0, 1},         {0, 17, 16},
                                         {0, 1367, 3},      {1, 1000, 100},
                                         {0, 2000000, 300}, {1, kCapacity - 40, 40}};
            bool ok = true;
            for (size_t i = 0; i < pieces.size(); ++i) {
                const Piece &p = pieces[i];
                fill(rig, DiskRig::kBufferBase, p.sectors * 512, 1000 + i);
                auto w = rig.run(p.target, HW_SCSI_OP_WRITE10, 0, p.lba, p.sectors,
                                 DiskRig::kBufferBase);
                ok = ok && w.desc.status == 0;
            }
            out["writes_ok"] = ok;
            sc_core::wait(50, sc_core::SC_MS);
            // Read each piece with a sector of never-written neighbours on each side.
            bool data_ok = true, host_ok = true;
            for (size_t i = 0; i < pieces.size(); ++i) {
                const Piece &p = pieces[i];
                uint32_t lba = p.lba > 0 ? p.lba - 1 : 0;
                uint32_t end = std::min(p.lba + p.sectors + 1, kCapacity);
                uint32_t n = end - lba;
                std::memset(rig.mem(DiskRig::kBufferBase, n * 512), 0xaa, n * 512);
                auto c = rig.run(p.target, HW_SCSI_OP_READ10, 0, lba, n, DiskRig::kBufferBase);
                data_ok = data_ok && c.desc.status == 0 && c.desc.transferred == n * 512;
                const uint8_t *got = rig.mem(DiskRig::kBufferBase, n * 512);
                for (uint32_t s = lba; s < end; ++s) {
                    uint8_t expect[512];
                    if (s >= p.lba && s < p.lba + p.sectors) {
                        for (uint32_t k = 0; k < 512; ++k) {
                            expect[k] = hw_file_byte(1000 + i, (s - p.lba) * 512 + k);
                        }
                    } else {
                        hw_disk_fill_sector(p.target, s, expect); // global id = target here
                    }
                    data_ok = data_ok && std::memcmp(expect, got + (s - lba) * 512, 512) == 0;
                }
                std::vector<uint8_t> host(n * 512);
                rig.disk(p.target).read_sectors(lba, n, host.data());
                host_ok = host_ok && std::memcmp(host.data(), got, n * 512) == 0;
            }
            out["data_ok"] = data_ok;
            out["host_view_ok"] = host_ok;
            out["written_sectors"] = rig.disk(0).written_sectors() + rig.disk(1).written_sectors();
            // Different disks hold different never-written contents.
            uint8_t a[512], b[512];
            rig.disk(0).read_sectors(5000, 1, a);
            rig.disk(1).read_sectors(5000, 1, b);
            out["disks_differ"] = std::memcmp(a, b, 512) != 0;
        });
        return out;
    });
    BOOST_TEST(r["writes_ok"] == true);
    BOOST_TEST(r["data_ok"] == true);
    BOOST_TEST(r["host_view_ok"] == true);
    BOOST_TEST(r["written_sectors"] == 1 + 16 + 3 + 100 + 300 + 40);
    BOOST_TEST(r["disks_differ"] == true);
}

BOOST_AUTO_TEST_CASE(queues_per_target_and_overlap_across_targets) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(default_config(), 2, [&](DiskRig &rig) {
            const uint32_t buf = DiskRig::kBufferBase;
            out["qdepth"] = rig.reg_read(HW_SCSI_REG_QDEPTH);
            out["targets"] = rig.reg_read(HW_SCSI_REG_TARGETS);
            uint32_t a1 = rig.submit(0, HW_SCSI_OP_READ10, 0, 100000, 16, buf);
            uint32_t a2 = rig.submit(0, HW_SCSI_OP_READ10, 0, 2000000, 16, buf + 8192);
            uint32_t a3 = rig.submit(0, HW_SCSI_OP_READ10, 0, 300, 16, buf + 16384);
            uint32_t b1 = rig.submit(1, HW_SCSI_OP_READ10, 0, 1500000, 16, buf + 24576);
            out["qfree0"] = rig.reg_read(HW_SCSI_REG_QFREE(0));
            out["qfree1"] = rig.reg_read(HW_SCSI_REG_QFREE(1));
            out["qfree_none"] = rig.reg_read(HW_SCSI_REG_QFREE(5));
            auto c3 = rig.wait(a3);
            auto cb = rig.wait(b1);
            auto c1 = rig.wait(a1);
            auto c2 = rig.wait(a2);
            out["order"] = rig.done_order();
            out["tags"] = {a1, a2, a3, b1};
            out["times"] = {c1.time_ps, c2.time_ps, c3.time_ps, cb.time_ps};
            out["qfree0_after"] = rig.reg_read(HW_SCSI_REG_QFREE(0));
            out["done_empty"] = rig.reg_read(HW_SCSI_REG_DONE);
        });
        return out;
    });
    BOOST_TEST(r["qdepth"] == 4);
    BOOST_TEST(r["targets"] == 2);
    BOOST_TEST(r["qfree0"] == 1);
    BOOST_TEST(r["qfree1"] == 3);
    BOOST_TEST(r["qfree_none"] == 0);
    BOOST_TEST(r["qfree0_after"] == 4);
    BOOST_TEST(r["done_empty"] == HW_SCSI_NONE);
    // Target 0 completes in submission order; target 1's one read, submitted last,
    // overlaps them and finishes before target 0's second.
    const json &t = r["times"];
    BOOST_TEST(t[0].get<uint64_t>() < t[1].get<uint64_t>());
    BOOST_TEST(t[1].get<uint64_t>() < t[2].get<uint64_t>());
    BOOST_TEST(t[3].get<uint64_t>() < t[1].get<uint64_t>());
    json order = r["order"];
    BOOST_TEST(order == json({r["tags"][0], r["tags"][3], r["tags"][1], r["tags"][2]}));
}

BOOST_AUTO_TEST_CASE(interrupt_is_a_level_on_the_done_fifo) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(default_config(), 1, [&](DiskRig &rig) {
            rig.reg_write(HW_SCSI_REG_CTRL, 0); // polled mode
            rig.submit(0, HW_SCSI_OP_TEST_UNIT_READY, 0, 0, 0, 0);
            uint32_t t2 = rig.submit(0, HW_SCSI_OP_TEST_UNIT_READY, 0, 0, 0, 0);
            sc_core::wait(1, sc_core::SC_MS);
            out["count"] = rig.reg_read(HW_SCSI_REG_DONE_COUNT);
            out["irq_disabled"] = rig.irq.read();
            rig.reg_write(HW_SCSI_REG_CTRL, HW_SCSI_CTRL_IRQ_ENABLE);
            sc_core::wait(1, sc_core::SC_NS);
            // The rig's handler drained the FIFO as soon as the line rose.
            out["drained_order"] = rig.done_order();
            out["t2"] = t2;
            out["count_after"] = rig.reg_read(HW_SCSI_REG_DONE_COUNT);
            out["irq_after"] = rig.irq.read();
            out["id"] = rig.reg_read(HW_SCSI_REG_ID);
            out["node"] = rig.reg_read(HW_SCSI_REG_NODE);
        });
        return out;
    });
    BOOST_TEST(r["count"] == 2);
    BOOST_TEST(r["irq_disabled"] == false);
    BOOST_TEST(r["drained_order"].size() == 2u);
    BOOST_TEST(r["drained_order"][1] == r["t2"]);
    BOOST_TEST(r["count_after"] == 0);
    BOOST_TEST(r["irq_after"] == false);
    BOOST_TEST(r["id"] == HW_SCSI_ID_VALUE);
    BOOST_TEST(r["node"] == 7);
}

BOOST_AUTO_TEST_CASE(programming_errors_name_node_and_register) {
    const std::string where = "node 7: SCSI adapter 0 register SUBMIT (0x020): ";
    json e = programming_error(
        [](DiskRig &rig) { rig.reg_write(HW_SCSI_REG_SUBMIT, DiskRig::kMemoryBytes - 32); });
    BOOST_TEST(contains(e["message"], where));
    BOOST_TEST(contains(e["message"], "not inside node memory"));
    BOOST_TEST(contains(e["message"], "(HW_SCSI_ERR_DESC_ADDR)"));
    BOOST_TEST(e["error"] == HW_SCSI_ERR_DESC_ADDR);
    BOOST_TEST(e["info"] == DiskRig::kMemoryBytes - 32);

    e = programming_error(
        [](DiskRig &rig) { rig.submit(5, HW_SCSI_OP_READ10, 0, 0, 16, DiskRig::kBufferBase); });
    BOOST_TEST(contains(e["message"], where));
    BOOST_TEST(contains(e["message"], "target 5"));
    BOOST_TEST(e["error"] == HW_SCSI_ERR_TARGET);
    BOOST_TEST(e["info"] == 5);

    e = programming_error([](DiskRig &rig) {
        rig.submit(0, HW_SCSI_OP_READ10, 0, 0, 16, DiskRig::kMemoryBytes - 4096);
    });
    BOOST_TEST(contains(e["message"], "buffer"));
    BOOST_TEST(e["error"] == HW_SCSI_ERR_BUF_ADDR);

    e = programming_error([](DiskRig &rig) {
        hw_scsi_desc_t d{};
        hw_scsi_desc_init10(&d, 1, 0, HW_SCSI_OP_READ10, 0, 0, 16, DiskRig::kBufferBase);
        d.length = 4096;
        rig.submit_raw(d);
    });
    BOOST_TEST(contains(e["message"], "length 4096"));
    BOOST_TEST(e["error"] == HW_SCSI_ERR_LENGTH);

    e = programming_error([](DiskRig &rig) {
        for (int i = 0; i < 5; ++i) {
            rig.submit(1, HW_SCSI_OP_READ10, 0, i * 100000, 16, DiskRig::kBufferBase);
        }
    });
    BOOST_TEST(contains(e["message"], where));
    BOOST_TEST(contains(e["message"], "target 1's queue is full"));
    BOOST_TEST(e["error"] == HW_SCSI_ERR_QUEUE_FULL);
    BOOST_TEST(e["info"] == 1);

    e = programming_error([](DiskRig &rig) { rig.reg_write(HW_SCSI_REG_DONE, 1); });
    BOOST_TEST(contains(e["message"], "register DONE (0x024): write to a read-only register"));
    BOOST_TEST(e["error"] == HW_SCSI_ERR_REG);

    e = programming_error([](DiskRig &rig) { rig.reg_read(0x0f0); });
    BOOST_TEST(contains(e["message"], "register at offset 0x0f0: read of an undefined register"));
    BOOST_TEST(e["error"] == HW_SCSI_ERR_REG);

    // ERROR is sticky: the first error stays, and so does the reported fault.
    e = programming_error([](DiskRig &rig) {
        rig.submit(9, HW_SCSI_OP_READ10, 0, 0, 16, DiskRig::kBufferBase);
        rig.reg_read(0x0f0);
    });
    BOOST_TEST(e["error"] == HW_SCSI_ERR_TARGET);
    BOOST_TEST(contains(e["message"], "target 9"));
}

BOOST_AUTO_TEST_CASE(prefetch_starts_the_drive_before_the_read) {
    json r = sim::run_isolated([] {
        json out;
        run_rig(default_config(), 1, [&](DiskRig &rig) {
            const uint32_t buf = DiskRig::kBufferBase;
            // Cold read for reference (far from anything cached).
            uint64_t t0 = rig.now();
            auto cold = rig.run(0, HW_SCSI_OP_READ10, 0, 1800000, 16, buf);
            out["cold"] = cold.time_ps - t0;
            // PRE-FETCH with IMMED: status in the selection tenure.
            t0 = rig.now();
            auto pf = rig.run(0, HW_SCSI_OP_PREFETCH10, HW_SCSI_CDB1_IMMED, 600000, 16, 0);
            out["prefetch_immed"] = pf.time_ps - t0;
            out["prefetch_status"] = pf.desc.status;
            // The host needs 5 ms to free a buffer; then it reads the block.
            sc_core::wait(5, sc_core::SC_MS);
            uint64_t t1 = rig.now();
            auto rd = rig.run(0, HW_SCSI_OP_READ10, 0, 600000, 16, buf);
            out["after_prefetch"] = rd.time_ps - t0;
            out["read_only"] = rd.time_ps - t1;
            std::vector<uint8_t> expect(8192);
            rig.disk(0).read_sectors(600000, 16, expect.data());
            out["data"] = std::memcmp(expect.data(), rig.mem(buf, 8192), 8192) == 0;
            // PRE-FETCH without IMMED returns once the blocks are in the cache.
            t0 = rig.now();
            auto pf2 = rig.run(0, HW_SCSI_OP_PREFETCH10, 0, 40000, 16, 0);
            out["prefetch_wait"] = pf2.time_ps - t0;
            t1 = rig.now();
            rig.run(0, HW_SCSI_OP_READ10, 0, 40000, 16, buf);
            out["hit_read"] = rig.now() - t1;
            out["stats"] = rig.disk(0).stats().to_json();
        });
        return out;
    });
    BOOST_TEST(r["prefetch_status"] == 0);
    BOOST_TEST(r["prefetch_immed"].get<uint64_t>() == 25000000ull); // 6 + 15 + 4 us
    // The read after the prefetch found the drive already positioned or reading.
    BOOST_TEST(r["after_prefetch"].get<uint64_t>() < r["cold"].get<uint64_t>() + 5000000000ull);
    BOOST_TEST(r["data"] == true);
    uint64_t hit = r["hit_read"];
    // A read of prefetched blocks costs selection (the overhead starts after the
    // command phase), overhead and the transfer only.
    BOOST_TEST(hit == 21000000ull + 2200000000ull + 791250000ull);
    BOOST_TEST(r["prefetch_wait"].get<uint64_t>() > 2200000000ull);
    BOOST_TEST(r["stats"]["prefetches"] == 2);
    BOOST_TEST(r["stats"]["cache_hits"].get<int>() >= 2);
}

BOOST_AUTO_TEST_CASE(cache_policy_switches_change_sequential_performance) {
    // 200 sequential 8 KB reads, one at a time: the elapsed simulated time.
    auto elapsed = [](std::vector<std::pair<std::string, json>> settings) {
        return sim::run_isolated([settings] {
            config::Config cfg = default_config();
            for (auto &[k, v] : settings) {
                cfg.set(k, v, "test");
            }
            json out;
            run_rig(cfg, 1, [&](DiskRig &rig) {
                for (uint32_t i = 0; i < 200; ++i) {
                    rig.run(0, HW_SCSI_OP_READ10, 0, 5000 + i * 16, 16, DiskRig::kBufferBase);
                }
                out["ms"] = rig.now() * 1e-9;
                out["hits"] = rig.disk(0).stats().cache_hits;
            });
            return out;
        });
    };
    json base = elapsed({});
    json any = elapsed({{"disk.readahead_stop", "command"}});
    json none = elapsed({{"disk.readahead", false}});
    // With read-ahead stopped by every command, or no read-ahead, each request
    // waits for the platter to come round again.
    BOOST_TEST(any["ms"].get<double>() > 1.5 * base["ms"].get<double>());
    BOOST_TEST(none["ms"].get<double>() > 1.5 * base["ms"].get<double>());
    BOOST_TEST(base["hits"].get<int>() >= 199);
}

BOOST_AUTO_TEST_CASE(more_segments_keep_an_earlier_stream_cached) {
    auto reread = [](int segments) {
        return sim::run_isolated([segments] {
            config::Config cfg = default_config();
            cfg.set("disk.cache_segments", segments, "test");
            // A segment keeps the window it read, so going back to it can hit.
            cfg.set("disk.cache_keep", "window", "test");
            json out;
            run_rig(cfg, 1, [&](DiskRig &rig) {
                rig.run(0, HW_SCSI_OP_READ10, 0, 100000, 16, DiskRig::kBufferBase);
                rig.run(0, HW_SCSI_OP_READ10, 0, 900000, 16, DiskRig::kBufferBase);
                uint64_t t0 = rig.now();
                rig.run(0, HW_SCSI_OP_READ10, 0, 100000, 16, DiskRig::kBufferBase);
                out["reread"] = rig.now() - t0;
            });
            return out;
        });
    };
    uint64_t one = reread(1)["reread"], two = reread(2)["reread"];
    BOOST_TEST(two == 21000000ull + 2200000000ull + 791250000ull); // a hit
    BOOST_TEST(one > two + 1000000000ull);                         // a miss: seek back
}

BOOST_AUTO_TEST_CASE(cache_keep_ahead_releases_what_a_read_skipped) {
    // Read block 0, then block 4 (the stream has read blocks 1-3 meanwhile), then go
    // back to block 2: kept by the ring-buffer window, released under "ahead".
    auto back = [](const std::string &keep) {
        return with_setting("disk.cache_keep", keep, [](DiskRig &rig, json &out) {
            rig.run(0, HW_SCSI_OP_READ10, 0, 5000, 16, DiskRig::kBufferBase);
            rig.run(0, HW_SCSI_OP_READ10, 0, 5000 + 4 * 16, 16, DiskRig::kBufferBase);
            uint64_t t0 = rig.now();
            rig.run(0, HW_SCSI_OP_READ10, 0, 5000 + 2 * 16, 16, DiskRig::kBufferBase);
            out["back"] = rig.now() - t0;
            out["movements"] = rig.disk(0).stats().movements;
        });
    };
    json window = back("window"), ahead = back("ahead");
    BOOST_TEST(window["back"].get<uint64_t>() == 21000000ull + 2200000000ull + 791250000ull);
    BOOST_TEST(ahead["back"].get<uint64_t>() > window["back"].get<uint64_t>() + 1000000000ull);
    BOOST_TEST(ahead["movements"].get<uint64_t>() > window["movements"].get<uint64_t>());
}

BOOST_AUTO_TEST_CASE(the_arm_starts_on_disk_start_cylinder) {
    // The first READ of LBA 0 (cylinder 0): from cylinder 0 no seek; from cylinder
    // 100 one seek of 100 cylinders before the rotational wait.
    auto first_read = [](int start) {
        return with_setting("disk.start_cylinder", start, [](DiskRig &rig, json &out) {
            rig.run(0, HW_SCSI_OP_READ10, 0, 0, 16, DiskRig::kBufferBase);
            storage::DiskStats st = rig.disk(0).stats();
            out = {{"seeks", st.seeks}, {"positioning_ps", st.positioning_ps}};
        });
    };
    const double revolution_ps = 60e12 / 4002.0;
    const double seek100_ps = (3.24 + 0.400 * 10.0) * 1e9; // short-seek curve at d = 100
    json from0 = first_read(0);
    json from100 = first_read(100);
    BOOST_TEST(from0["seeks"] == 0);
    BOOST_TEST(from0["positioning_ps"].get<double>() < revolution_ps);
    BOOST_TEST(from100["seeks"] == 1);
    BOOST_TEST(from100["positioning_ps"].get<double>() >= seek100_ps);
    BOOST_TEST(from100["positioning_ps"].get<double>() < seek100_ps + revolution_ps);
    // A cylinder the drive does not have is refused, naming the key.
    config::Config bad = default_config();
    bad.set("disk.start_cylinder", 1962, "test");
    std::string error;
    try {
        bad.validate();
    } catch (const std::exception &e) {
        error = e.what();
    }
    BOOST_TEST(error.find("disk.start_cylinder = 1962 is not a cylinder") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(results_are_deterministic_and_trials_differ) {
    auto times = [](uint64_t trial, bool trace) {
        return sim::run_isolated([trial, trace] {
            json out = json::array();
            config::Config cfg = default_config();
            DiskRig rig(
                "rig", cfg, 2,
                [&](DiskRig &r) {
                    for (uint32_t i = 0; i < 20; ++i) {
                        uint32_t a = r.submit(i % 2, HW_SCSI_OP_READ10, 0, (i * 104729u) % 2600000,
                                              16, DiskRig::kBufferBase + (i % 2) * 8192);
                        out.push_back(r.wait(a).time_ps);
                    }
                },
                3, trial);
            if (trace) {
                char dir[] = "/tmp/starfish_vcd_XXXXXX";
                std::string path = std::string(::mkdtemp(dir)) + "/disk.vcd";
                RigTrace observed(rig, path);
                sc_core::sc_start();
                observed.finish();
                VcdFile vcd(path);
                // The bus's phases and each drive's mechanism state and cylinder move.
                bool shown = vcd.changes("rig.scsi", "phase").size() > 20;
                for (const char *disk : {"rig.disk0", "rig.disk1"}) {
                    shown = shown && vcd.changes(disk, "state").size() > 10 &&
                            vcd.changes(disk, "cylinder").size() > 5;
                }
                out.push_back(shown);
                std::remove(path.c_str());
            } else {
                sc_core::sc_start();
            }
            return out;
        });
    };
    json a = times(0, false), b = times(0, false), c = times(1, false), t = times(0, true);
    BOOST_TEST(a == b);
    BOOST_TEST(a != c);
    // Observing changes no result; the VCD shows the bus and the drives moving.
    BOOST_TEST(t.back() == true);
    t.erase(t.size() - 1);
    BOOST_TEST(a == t);
}

BOOST_AUTO_TEST_SUITE_END()
