// Whole-machine SPFS transfers (fs.kind = spfs) on small files: every pattern with
// the defaults at both record sizes and all layouts, the switches pairwise, K = 1,
// 4, 8, node grouping, and determinism; every trial byte-verified and its request
// count checked against the CP request plan. Each trial builds its machine in a
// forked child (run_isolated).
#include "fw/param_keys.h"
#include "fw/pattern.h"
#include "fw/spfs_plan.h"
#include "hw/machine_keys.h"
#include "sim/platform/machine.h"
#include "tests/support/transfer_cells.h"
#include "tests/support/transfer_checks.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

// 4 CPs + 4 IOPs on a 3 x 3 torus, a 128 KB file (16 blocks, 4 per disk): 16384
// 8-byte requests for the record-at-a-time patterns.
const Settings kSmall = {{"fs.kind", "spfs"},        {"machine.cp_count", "4"},
                         {"machine.iop_count", "4"}, {"net.width", "3"},
                         {"net.height", "3"},        {"workload.file_mb", "0.125"}};

// The block requests the CPs' plans make (fw/spfs_plan.h), and the largest
// number of them that any one CP has for one file disk in one call.
uint64_t planned_requests(const config::Config &cfg) {
    fw_pattern_t p;
    char msg[200];
    uint64_t file =
        static_cast<uint64_t>(std::llround(cfg.get_real(keys::workload_file_mb) * 1048576.0));
    if (fw_pattern_init(&p, cfg.get_string(keys::workload_pattern).c_str(),
                        static_cast<uint64_t>(cfg.get_int(keys::workload_record_bytes)), file,
                        static_cast<uint32_t>(cfg.get_int(keys::machine_cp_count)),
                        static_cast<uint64_t>(cfg.get_int(keys::workload_cols)), msg,
                        sizeof msg) != FW_PATTERN_OK) {
        throw std::runtime_error(msg);
    }
    uint64_t n = 0;
    for (uint32_t cp = 0; cp < p.cp_count; ++cp) {
        fw_spfs_plan_iter_t it;
        fw_spfs_piece_t pc;
        fw_spfs_plan_begin(&it, &p, cp, static_cast<uint32_t>(cfg.get_int(keys::fs_block_bytes)));
        while (fw_spfs_plan_next(&it, &pc)) {
            ++n;
        }
    }
    return n;
}

// Each trial document also carries the planned request count.
std::vector<json> run_spfs_cells(const std::vector<Cell> &cells) {
    return testing::run_cells(cells, {}, [](const config::Config &cfg, json &t) {
        t["planned_requests"] = planned_requests(cfg);
    });
}

// Every byte verified, one request per planned piece, the statistics consistent.
void expect_verified(const Cell &c, const json &t) {
    BOOST_TEST_CONTEXT(c.label()) {
        uint64_t copies = expect_bytes_verified(c, t);
        uint64_t file = t["file_bytes"].get<uint64_t>();
        BOOST_TEST(t["elapsed_s"].get<double>() > 0);
        BOOST_TEST(t["mb_s"].get<double>() ==
                       file * copies / 1048576.0 / t["elapsed_s"].get<double>(),
                   boost::test_tools::tolerance(1e-9));
        const json &fs = t["fs"];
        uint64_t requests = fs["requests"].get<uint64_t>();
        BOOST_TEST(requests == t["planned_requests"].get<uint64_t>());
        uint64_t per_iop = 0;
        for (const auto &r : fs["requests_per_iop"]) {
            per_iop += r.get<uint64_t>();
        }
        BOOST_TEST(per_iop == requests);
        bool write = c.get("workload.pattern", "")[0] == 'w';
        BOOST_TEST(fs[write ? "writes" : "reads"].get<uint64_t>() == requests);
        BOOST_TEST(fs["cache_hits"].get<uint64_t>() + fs["cache_misses"].get<uint64_t>() >=
                   requests);
        BOOST_TEST(fs["prefetches_issued"].get<uint64_t>() ==
                   fs["prefetches_used"].get<uint64_t>() + fs["prefetches_wasted"].get<uint64_t>());
        uint64_t blocks = (file + 8191) / 8192;
        if (write) {
            // A new file: every block written back once, whole; nothing read.
            BOOST_TEST(fs["disk_writes"].get<uint64_t>() == blocks);
            BOOST_TEST(fs["partial_writebacks"].get<uint64_t>() == 0u);
            BOOST_TEST(fs["installation_reads"].get<uint64_t>() == 0u);
            BOOST_TEST(fs["disk_reads"].get<uint64_t>() == 0u);
            BOOST_TEST(fs["prefetches_issued"].get<uint64_t>() == 0u);
        } else {
            BOOST_TEST(fs["disk_writes"].get<uint64_t>() == 0u);
            BOOST_TEST(fs["disk_reads"].get<uint64_t>() >= blocks);
        }
        BOOST_TEST(fs["iop_cpu_busy"]["max"].get<double>() > 0);
        BOOST_TEST(fs["iop_cpu_busy"]["max"].get<double>() <= 1.0);
    }
}

// Trial 1 of `base` under every pair of values of two keys (the first key's
// values outer), each verified; the results in that order.
std::vector<json> run_verified_pairs(const Settings &base, const std::string &key_a,
                                     std::initializer_list<const char *> values_a,
                                     const std::string &key_b,
                                     std::initializer_list<const char *> values_b) {
    std::vector<Cell> cells;
    for (const char *a : values_a) {
        for (const char *b : values_b) {
            cells.push_back(cell(base, {{key_a, a}, {key_b, b}}, 1));
        }
    }
    auto r = run_spfs_cells(cells);
    check_each(cells, r, expect_verified);
    return r;
}

// A trial's document without what the host decides (its CPU time) and without
// the named statistics of `fs`: equal when the simulations are.
std::string simulated_except(json t, std::initializer_list<const char *> fs_fields = {}) {
    t = simulated_part(std::move(t));
    for (const char *f : fs_fields) {
        t["fs"].erase(f);
    }
    return t.dump();
}

} // namespace

BOOST_AUTO_TEST_SUITE(spfs_system)

BOOST_AUTO_TEST_CASE(every_pattern_with_the_defaults) {
    // 19 patterns x 2 record sizes x 3 layouts = 114 trials; trials 0-2 in turn, so
    // each random layout is drawn anew.
    std::vector<Cell> cells = every_pattern_cells(kSmall,
                                                  {{{"workload.layout", "contiguous"}},
                                                   {{"workload.layout", "random-blocks"}},
                                                   {{"workload.layout", "random-tracks"}}},
                                                  3);
    check_each(cells, run_spfs_cells(cells), expect_verified);
}

BOOST_AUTO_TEST_CASE(switches_pairwise) {
    // disk queue x request structure x Memget writes: all 8 combinations on
    // small-record writes and reads and large-record writes, contiguous and random.
    const std::vector<Settings> shapes = {
        {{"workload.pattern", "wc"}, {"workload.record_bytes", "8"}},
        {{"workload.pattern", "rbc"}, {"workload.record_bytes", "8"}},
        {{"workload.pattern", "wbb"},
         {"workload.record_bytes", "8192"},
         {"workload.layout", "random-blocks"}},
        {{"workload.pattern", "rb"},
         {"workload.record_bytes", "8192"},
         {"workload.layout", "random-tracks"}},
    };
    std::vector<Cell> cells;
    for (const char *queue : {"cscan", "fcfs"}) {
        for (const char *requests : {"queued", "thread"}) {
            for (const char *memget : {"false", "true"}) {
                for (const Settings &shape : shapes) {
                    Cell c = cell(kSmall, shape, static_cast<int>(cells.size() % 2));
                    c.settings.insert(c.settings.end(), {{"spfs.disk_queue", queue},
                                                         {"spfs.requests", requests},
                                                         {"spfs.memget_writes", memget}});
                    cells.push_back(c);
                }
            }
        }
    }
    auto r = run_spfs_cells(cells);
    check_each(cells, r, expect_verified);
    // Memget writes change write timing, not reads; thread requests change both.
    const size_t n = shapes.size();
    BOOST_TEST(r[0]["elapsed_s"].get<double>() != r[n]["elapsed_s"].get<double>());
    BOOST_TEST(r[1]["elapsed_s"].get<double>() == r[n + 1]["elapsed_s"].get<double>());
    BOOST_TEST(r[0]["elapsed_s"].get<double>() != r[2 * n]["elapsed_s"].get<double>());
}

BOOST_AUTO_TEST_CASE(outstanding_requests_k_1_4_8) {
    // rn / wn: one CP moves the whole 256 KB file in one call, 8 blocks per disk, so
    // it keeps exactly K requests per disk outstanding; rb: each CP's chunk has 2
    // blocks per disk.
    const Settings file = {{"workload.file_mb", "0.25"}, {"workload.record_bytes", "8192"}};
    std::vector<Cell> cells;
    for (const char *pattern : {"rn", "wn", "rb"}) {
        for (const char *k : {"1", "4", "8"}) {
            Cell c = cell(kSmall, file);
            c.settings.insert(c.settings.end(),
                              {{"workload.pattern", pattern}, {"spfs.outstanding", k}});
            cells.push_back(c);
        }
    }
    auto r = run_spfs_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        expect_verified(cells[i], r[i]);
        uint64_t k = std::stoull(cells[i].get("spfs.outstanding", ""));
        uint64_t per_disk = cells[i].get("workload.pattern", "") == "rb" ? 2 : 8;
        BOOST_TEST_CONTEXT(cells[i].label()) {
            BOOST_TEST(r[i]["fs"]["max_outstanding"].get<uint64_t>() == std::min(k, per_disk));
            BOOST_TEST((r[i]["fs"]["flow_waits"].get<uint64_t>() > 0u) == (k < per_disk));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_small_cache_forces_partial_write_backs_and_installation_reads) {
    // One buffer per CP per disk with K = 1 (4 per IOP) and the CPs taking turns
    // (spfs.groups = 1): CP 0 writes every fourth record of all 8 blocks of each
    // disk, so the cache runs out, the least recently used partly written blocks are
    // written back early, and the later CPs' writes to them must first read back
    // what is on disk (installation reads). The file is still exactly right.
    std::vector<Cell> cells;
    for (const char *pattern : {"wc", "wcc"}) {
        cells.push_back(cell(kSmall, {{"workload.pattern", pattern},
                                      {"workload.record_bytes", "8"},
                                      {"workload.file_mb", "0.25"},
                                      {"spfs.outstanding", "1"},
                                      {"spfs.cache_buffers_per_cp_disk", "1"},
                                      {"spfs.groups", "1"}}));
    }
    auto r = run_spfs_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        BOOST_TEST_CONTEXT(cells[i].label()) {
            BOOST_REQUIRE_MESSAGE(!r[i].contains("error"), r[i].value("error", ""));
            BOOST_TEST(r[i]["verified"].get<bool>(), r[i]["check"].value("first_error", ""));
            const json &fs = r[i]["fs"];
            BOOST_TEST(fs["partial_writebacks"].get<uint64_t>() > 0u);
            BOOST_TEST(fs["installation_reads"].get<uint64_t>() > 0u);
            BOOST_TEST(fs["buffer_waits"].get<uint64_t>() > 0u);
            // Early write-backs: more disk writes than the 32 blocks.
            BOOST_TEST(fs["disk_writes"].get<uint64_t>() > 32u);
            BOOST_TEST(fs["disk_reads"].get<uint64_t>() ==
                       fs["installation_reads"].get<uint64_t>());
        }
    }
}

BOOST_AUTO_TEST_CASE(node_grouping) {
    // spfs.groups = G: the CPs take turns in groups of G. Every byte still arrives;
    // with G = 1 the CPs of rc run one after another.
    std::vector<Cell> cells;
    for (const char *g : {"0", "1", "2", "3"}) {
        cells.push_back(
            cell(kSmall,
                 {{"workload.pattern", "rc"}, {"workload.record_bytes", "8"}, {"spfs.groups", g}}));
        cells.push_back(cell(kSmall, {{"workload.pattern", "wbb"},
                                      {"workload.record_bytes", "8192"},
                                      {"workload.layout", "random-blocks"},
                                      {"spfs.groups", g}}));
    }
    auto r = run_spfs_cells(cells);
    check_each(cells, r, expect_verified);
    BOOST_TEST(r[2]["elapsed_s"].get<double>() != r[0]["elapsed_s"].get<double>());
}

BOOST_AUTO_TEST_CASE(cells_on_the_default_machine) {
    // 16 CPs + 16 IOPs on the 6 x 6 torus, 128 cache buffers per IOP.
    const Settings base = {{"fs.kind", "spfs"}, {"workload.file_mb", "0.125"}};
    std::vector<Cell> cells = {
        cell(base, {{"workload.pattern", "ra"}, {"workload.record_bytes", "8192"}}),
        cell(base, {{"workload.pattern", "wcc"}, {"workload.record_bytes", "8"}}),
        cell(base,
             {{"workload.pattern", "rbc"},
              {"workload.record_bytes", "8192"},
              {"workload.file_mb", "1"},
              {"workload.layout", "random-blocks"}},
             1),
    };
    check_each(cells, run_spfs_cells(cells), expect_verified);
}

BOOST_AUTO_TEST_CASE(prefetch_when_request_or_reply) {
    // 8 KB rbc on the default machine: each CP has one one-block request out at a
    // time. Queued after the reply, the prefetch reaches the disk queue after the
    // disk thread took its next request, so the schedule (and the time) changes.
    const Settings base = {{"fs.kind", "spfs"},
                           {"workload.file_mb", "1"},
                           {"workload.pattern", "rbc"},
                           {"workload.record_bytes", "8192"}};
    std::vector<Cell> cells = {cell(base, {{"spfs.prefetch_when", "request"}}),
                               cell(base, {{"spfs.prefetch_when", "reply"}})};
    auto r = run_spfs_cells(cells);
    for (size_t i = 0; i < cells.size(); ++i) {
        expect_verified(cells[i], r[i]);
        BOOST_TEST(r[i]["fs"]["prefetches_issued"].get<uint64_t>() > 0u);
    }
    BOOST_TEST(r[1]["elapsed_s"].get<double>() > r[0]["elapsed_s"].get<double>());
}

BOOST_AUTO_TEST_CASE(next_request_picked_at_completion_or_when_the_disk_thread_runs) {
    // 8 KB wb on the default machine, 10 MB: each CP writes five blocks to every
    // disk, four at once (K) and the fifth after a reply. When the first write
    // completes, the server threads ahead of the disk thread are still queueing
    // requests: picked at completion, C-SCAN chooses from the partial queue and the
    // blocks that arrive behind the head wait for another sweep (more movements, a
    // longer run); picked when the disk thread runs, the queue is complete and each
    // disk is written in one sweep. FCFS takes the same request either way: only
    // the queue depth a request finds on arrival differs.
    const Settings base = {{"fs.kind", "spfs"},
                           {"workload.pattern", "wb"},
                           {"workload.record_bytes", "8192"},
                           {"workload.file_mb", "10"}};
    auto r = run_verified_pairs(base, "spfs.disk_queue", {"cscan", "fcfs"}, "spfs.pick_next",
                                {"completion", "thread"});
    BOOST_TEST(r[0]["elapsed_s"].get<double>() > 1.03 * r[1]["elapsed_s"].get<double>());
    BOOST_TEST(r[0]["fs"]["disk_movements"].get<uint64_t>() >
               r[1]["fs"]["disk_movements"].get<uint64_t>() + 8u);
    BOOST_TEST(simulated_except(r[2], {"diskq_depth_mean"}) ==
               simulated_except(r[3], {"diskq_depth_mean"}));
}

BOOST_AUTO_TEST_CASE(disk_queue_key_logical_or_physical) {
    // rb on the default machine, 1 MB: each disk's 8 blocks requested by 8 CPs at
    // once. On the random-blocks layout the logical key (the file's disk-block
    // number) sweeps the blocks in file order, which is random on the platter, while
    // the physical key sweeps them by LBA: shorter seeks, a shorter run. On the
    // contiguous layout the two orders are one and the results identical.
    const Settings base = {{"fs.kind", "spfs"},
                           {"workload.file_mb", "1"},
                           {"workload.pattern", "rb"},
                           {"workload.record_bytes", "8192"}};
    auto r = run_verified_pairs(base, "workload.layout", {"random-blocks", "contiguous"},
                                "spfs.disk_queue_key", {"logical", "physical"});
    BOOST_TEST(r[0]["elapsed_s"].get<double>() > 1.15 * r[1]["elapsed_s"].get<double>());
    BOOST_TEST(simulated_except(r[2]) == simulated_except(r[3]));
}

BOOST_AUTO_TEST_CASE(same_seed_same_result_other_trials_differ) {
    const Settings rbc = {{"workload.pattern", "rbc"},
                          {"workload.record_bytes", "8"},
                          {"workload.layout", "random-blocks"}};
    const Settings wb = {{"workload.pattern", "wb"},
                         {"workload.record_bytes", "8192"},
                         {"workload.layout", "random-tracks"}};
    std::vector<Cell> cells = {
        cell(kSmall, rbc, 0), cell(kSmall, rbc, 0), cell(kSmall, rbc, 1),
        cell(kSmall, wb, 0),  cell(kSmall, wb, 0),  cell(kSmall, wb, 1),
    };
    auto r = run_spfs_cells(cells);
    check_each(cells, r, expect_verified);
    auto simulated = [](const json &t) { return simulated_part(t).dump(); };
    BOOST_TEST(simulated(r[0]) == simulated(r[1]));
    BOOST_TEST(simulated(r[3]) == simulated(r[4]));
    BOOST_TEST(r[0]["elapsed_s"].get<double>() != r[2]["elapsed_s"].get<double>());
    BOOST_TEST(r[3]["elapsed_s"].get<double>() != r[5]["elapsed_s"].get<double>());
}

BOOST_AUTO_TEST_CASE(impossible_combinations_are_configuration_errors) {
    auto error_of = [](const Settings &more) { return config_error(kSmall, more); };
    std::string e = error_of({{"spfs.outstanding", "0"}});
    BOOST_TEST(e.find("spfs.outstanding") != std::string::npos, e);
    e = error_of({{"spfs.outstanding", "4"}, {"spfs.cache_buffers_per_cp_disk", "3"}});
    BOOST_TEST(e.find("spfs.cache_buffers_per_cp_disk") != std::string::npos, e);
    e = error_of({{"spfs.cache_buffers_per_cp_disk", "1000"}, {"machine.node_memory_kb", "1024"}});
    BOOST_TEST(e.find("machine.node_memory_kb") != std::string::npos, e);
    e = error_of({{"spfs.outstanding", "100"}});
    BOOST_TEST(e.find("machine.node_thread_limit") != std::string::npos, e);
    // The same settings are fine for DDIO, which ignores them.
    Settings ddio = {
        {"fs.kind", "ddio"}, {"spfs.outstanding", "4"}, {"spfs.cache_buffers_per_cp_disk", "3"}};
    BOOST_CHECK_NO_THROW(make_config(ddio));
    BOOST_TEST(error_of({{"spfs.cache_buffers_per_cp_disk", "4"}}).empty());
}

BOOST_AUTO_TEST_SUITE_END()
