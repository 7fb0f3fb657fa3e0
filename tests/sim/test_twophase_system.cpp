// Whole-machine two-phase I/O transfers (fs.kind = 2pio) on small files: every
// pattern at both record sizes on contiguous and random-blocks layouts with the
// paper's defaults, aggregators 1 / 4 / all x collective buffer 64 KB / whole
// share x overlap off / on, the other intermediate distributions, configuration
// errors, and determinism; every trial byte-verified by the harness. Each trial builds its
// machine in a forked child (run_isolated).
#include "sim/platform/machine.h"
#include "tests/support/transfer_cells.h"
#include "tests/support/transfer_checks.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace starfish;
using namespace starfish::testing;
using nlohmann::json;

namespace {

// 4 CPs + 4 IOPs on a 3 x 3 torus, a 256 KB file (32 blocks, 8 per disk).
const Settings kSmall = {{"fs.kind", "2pio"},        {"machine.cp_count", "4"},
                         {"machine.iop_count", "4"}, {"net.width", "3"},
                         {"net.height", "3"},        {"workload.file_mb", "0.25"}};

// A request that is the conforming distribution itself (rb, wb and their aliases,
// the block intermediate over all CPs in one round) skips the permutation unless
// twophase.direct is off (fw_twophase_plan_conforming).
bool direct_conforming(const Cell &c, uint64_t rounds, uint64_t aggregators, uint64_t cps) {
    std::string p = c.get("workload.pattern", "");
    bool block_1d = p == "rb" || p == "wb" || p == "rbn" || p == "wbn";
    return block_1d && c.get("twophase.intermediate", "block") == "block" && aggregators == cps &&
           rounds == 1 && c.get("twophase.direct", "true") != "false";
}

// Every byte verified; the permutation moved the file once (ra: once per CP), or
// not at all for a conforming request; the rounds and the SPFS traffic underneath
// consistent.
void expect_verified(const Cell &c, const json &t) {
    BOOST_TEST_CONTEXT(c.label()) {
        uint64_t copies = expect_bytes_verified(c, t);
        uint64_t file = t["file_bytes"].get<uint64_t>();
        const json &fs = t["fs"];
        BOOST_TEST(fs["kind"].get<std::string>() == "2pio");
        uint64_t buffer = std::stoull(c.get("twophase.buffer_kb", "0")) * 1024;
        uint64_t aggregators = std::stoull(c.get("twophase.aggregators", "0"));
        if (aggregators == 0) {
            aggregators = t["cp_count"].get<uint64_t>();
        }
        uint64_t share = (file + aggregators - 1) / aggregators;
        uint64_t rounds = buffer ? (share + buffer - 1) / buffer : 1;
        if (direct_conforming(c, rounds, aggregators, t["cp_count"].get<uint64_t>())) {
            BOOST_TEST(fs["bytes_permuted"].get<uint64_t>() == 0u);
            BOOST_TEST(fs["local_pieces"].get<uint64_t>() + fs["remote_pieces"].get<uint64_t>() ==
                       0u);
            BOOST_TEST(fs["permute_phase_s"]["max"].get<double>() == 0.0);
        } else {
            BOOST_TEST(fs["bytes_permuted"].get<uint64_t>() == file * copies);
            BOOST_TEST(fs["local_pieces"].get<uint64_t>() + fs["remote_pieces"].get<uint64_t>() >
                       0u);
        }
        if (c.get("twophase.intermediate", "block") == "block") {
            BOOST_TEST(fs["rounds"].get<uint64_t>() == rounds);
        }
        bool write = c.get("workload.pattern", "")[0] == 'w';
        uint64_t blocks = (file + 8191) / 8192;
        // The aggregators' SPFS requests cover the file exactly once.
        BOOST_TEST(fs[write ? "writes" : "reads"].get<uint64_t>() ==
                   fs["requests"].get<uint64_t>());
        BOOST_TEST(fs["requests"].get<uint64_t>() >= blocks);
        if (write) {
            BOOST_TEST(fs["disk_writes"].get<uint64_t>() == blocks);
            BOOST_TEST(fs["disk_reads"].get<uint64_t>() == 0u);
        } else {
            BOOST_TEST(fs["disk_writes"].get<uint64_t>() == 0u);
            BOOST_TEST(fs["disk_reads"].get<uint64_t>() >= blocks);
        }
        BOOST_TEST(fs["io_phase_s"]["max"].get<double>() > 0);
        BOOST_TEST(fs["io_phase_s"]["max"].get<double>() >= fs["io_phase_s"]["mean"].get<double>());
        BOOST_TEST(fs["permute_phase_s"]["max"].get<double>() >=
                   fs["permute_phase_s"]["mean"].get<double>());
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(twophase_system)

BOOST_AUTO_TEST_CASE(every_pattern_with_the_papers_defaults) {
    // 19 patterns x 2 record sizes x 2 layouts = 76 trials.
    std::vector<Cell> cells = every_pattern_cells(
        kSmall, {{{"workload.layout", "contiguous"}}, {{"workload.layout", "random-blocks"}}}, 2);
    check_each(cells, run_cells(cells), expect_verified);
}

BOOST_AUTO_TEST_CASE(aggregators_and_collective_buffer) {
    // Overlap off / on x aggregators 1, 2, 4, all x buffer 64 KB / whole share, on
    // small- and large-record reads and writes; 64 KB with one aggregator is 4
    // rounds.
    const std::vector<Settings> shapes = {
        {{"workload.pattern", "rc"}, {"workload.record_bytes", "8"}},
        {{"workload.pattern", "wcc"}, {"workload.record_bytes", "8"}},
        {{"workload.pattern", "rbc"},
         {"workload.record_bytes", "8192"},
         {"workload.layout", "random-blocks"}},
        {{"workload.pattern", "wb"}, {"workload.record_bytes", "8192"}},
        {{"workload.pattern", "ra"}, {"workload.record_bytes", "8192"}},
    };
    std::vector<Cell> cells;
    for (const char *overlap : {"false", "true"}) {
        for (const char *aggregators : {"1", "2", "4", "0"}) {
            for (const char *buffer : {"64", "0"}) {
                for (const Settings &shape : shapes) {
                    Cell c = cell(kSmall, shape);
                    c.settings.insert(c.settings.end(), {{"twophase.aggregators", aggregators},
                                                         {"twophase.buffer_kb", buffer},
                                                         {"twophase.overlap", overlap}});
                    cells.push_back(c);
                }
            }
        }
    }
    auto r = run_cells(cells);
    check_each(cells, r, expect_verified);
    // Overlap changes the phases of multi-round cells (one aggregator, 64 KB: 4
    // rounds; a write's elapsed time may still be the IOPs' write-behind) and
    // nothing with one round.
    const size_t half = cells.size() / 2;
    auto permute_max = [](const json &t) {
        return t["fs"]["permute_phase_s"]["max"].get<double>();
    };
    for (size_t i = 0; i < shapes.size(); ++i) {
        BOOST_TEST_CONTEXT(cells[i].label()) {
            BOOST_TEST(permute_max(r[i]) != permute_max(r[half + i]));
            size_t one_round = shapes.size() * 7 + i; // all aggregators, whole share
            BOOST_TEST(r[one_round]["elapsed_s"].get<double>() ==
                       r[half + one_round]["elapsed_s"].get<double>());
        }
    }
}

BOOST_AUTO_TEST_CASE(every_pattern_with_collective_buffering) {
    // Every pattern x 2 record sizes x 2 layouts again, under three collective-
    // buffering variants that together cover aggregators 1 / 2 / all, a 64 KB
    // buffer (4, 2 and 1 rounds) and overlap on and off: 228 trials.
    const std::vector<Settings> variants = {
        {{"twophase.aggregators", "1"}, {"twophase.buffer_kb", "64"}},
        {{"twophase.aggregators", "2"}, {"twophase.buffer_kb", "64"}, {"twophase.overlap", "true"}},
        {{"twophase.aggregators", "0"}, {"twophase.buffer_kb", "64"}, {"twophase.overlap", "true"}},
    };
    std::vector<Cell> cells;
    for (const Settings &variant : variants) {
        for (const char *layout : {"contiguous", "random-blocks"}) {
            for (const char *record : {"8", "8192"}) {
                for (const char *pattern : kAllPatterns) {
                    Cell c = cell(kSmall,
                                  {{"workload.pattern", pattern},
                                   {"workload.record_bytes", record},
                                   {"workload.layout", layout}},
                                  static_cast<int>(cells.size() % 2));
                    c.settings.insert(c.settings.end(), variant.begin(), variant.end());
                    cells.push_back(c);
                }
            }
        }
    }
    check_each(cells, run_cells(cells), expect_verified);
}

BOOST_AUTO_TEST_CASE(intermediate_distributions_and_queued_switch) {
    std::vector<Cell> cells;
    for (const char *dist : {"file-layout", "cyclic"}) {
        for (const char *pattern : {"rc", "wbc", "rb"}) {
            for (const char *buffer : {"0", "16"}) {
                for (const char *overlap : {"false", "true"}) {
                    cells.push_back(cell(kSmall, {{"workload.pattern", pattern},
                                                  {"workload.record_bytes", "8"},
                                                  {"twophase.intermediate", dist},
                                                  {"twophase.cyclic_kb", "16"},
                                                  {"twophase.aggregators", "3"},
                                                  {"twophase.buffer_kb", buffer},
                                                  {"twophase.overlap", overlap}}));
                }
            }
        }
    }
    for (const char *queued : {"on", "off"}) {
        cells.push_back(cell(kSmall, {{"workload.pattern", "wcb"},
                                      {"workload.record_bytes", "8192"},
                                      {"twophase.queued", queued}}));
        cells.push_back(cell(kSmall, {{"workload.pattern", "rcc"},
                                      {"workload.record_bytes", "8"},
                                      {"twophase.queued", queued}}));
    }
    check_each(cells, run_cells(cells), expect_verified);
}

BOOST_AUTO_TEST_CASE(a_conforming_request_runs_as_spfs_does) {
    // twophase.direct: rb and wb are the conforming distribution itself, so 2PIO is
    // SPFS's transfer to the cycle (the published 2PIO rb and wb equal SPFS's in all
    // eight cells); with the switch off it reads into the collective buffer and
    // copies. With one CP every pattern's map is the identity, but only rb and wb
    // skip the permutation: TOCS §6 has 2PIO permuting rn and rc locally there.
    std::vector<Cell> cells;
    for (const char *layout : {"contiguous", "random-blocks"}) {
        for (const char *pattern : {"rb", "wb"}) {
            const Settings shape = {{"workload.pattern", pattern},
                                    {"workload.record_bytes", "8192"},
                                    {"workload.layout", layout}};
            Cell spfs = cell(kSmall, shape);
            spfs.settings.push_back({"fs.kind", "spfs"});
            Cell permuted = cell(kSmall, shape);
            permuted.settings.push_back({"twophase.direct", "false"});
            cells.insert(cells.end(), {cell(kSmall, shape), spfs, permuted});
        }
    }
    for (const char *pattern : {"rb", "rc"}) {
        cells.push_back(cell(kSmall, {{"workload.pattern", pattern},
                                      {"workload.record_bytes", "8192"},
                                      {"machine.cp_count", "1"}}));
    }
    auto r = run_cells(cells);
    BOOST_REQUIRE(r.size() == cells.size());
    for (size_t i = 0; i + 2 < cells.size(); i += 3) {
        BOOST_TEST_CONTEXT(cells[i].label()) {
            expect_verified(cells[i], r[i]);
            expect_verified(cells[i + 2], r[i + 2]);
            BOOST_TEST(r[i + 1]["verified"].get<bool>());
            BOOST_TEST(r[i]["elapsed_s"].get<double>() == r[i + 1]["elapsed_s"].get<double>());
            BOOST_TEST(r[i + 2]["fs"]["local_pieces"].get<uint64_t>() == 4u);
            BOOST_TEST(r[i + 2]["fs"]["permute_phase_s"]["max"].get<double>() > 0.0);
            // A read copies after its I/O and ends later; a write copies before it, and
            // its first requests may still meet the same sectors under the heads.
            if (cells[i].get("workload.pattern", "")[0] == 'r') {
                BOOST_TEST(r[i + 2]["elapsed_s"].get<double>() > r[i]["elapsed_s"].get<double>());
            } else {
                BOOST_TEST(r[i + 2]["elapsed_s"].get<double>() >= r[i]["elapsed_s"].get<double>());
            }
        }
    }
    const size_t one_cp = cells.size() - 2;
    for (size_t i = one_cp; i < cells.size(); ++i) {
        expect_verified(cells[i], r[i]);
    }
    BOOST_TEST(r[one_cp]["fs"]["bytes_permuted"].get<uint64_t>() == 0u);
    BOOST_TEST(r[one_cp + 1]["fs"]["local_pieces"].get<uint64_t>() == 1u);
}

BOOST_AUTO_TEST_CASE(same_seed_same_result) {
    const Settings rbc = {{"workload.pattern", "rbc"},
                          {"workload.record_bytes", "8"},
                          {"workload.layout", "random-blocks"}};
    const Settings wb = {{"workload.pattern", "wb"},
                         {"workload.record_bytes", "8192"},
                         {"twophase.buffer_kb", "64"},
                         {"workload.layout", "random-blocks"}};
    std::vector<Cell> cells = {cell(kSmall, rbc, 0), cell(kSmall, rbc, 0), cell(kSmall, rbc, 1),
                               cell(kSmall, wb, 0), cell(kSmall, wb, 0)};
    auto r = run_cells(cells);
    check_each(cells, r, expect_verified);
    auto simulated = [](const json &t) { return simulated_part(t).dump(); };
    BOOST_TEST(simulated(r[0]) == simulated(r[1]));
    BOOST_TEST(simulated(r[3]) == simulated(r[4]));
    BOOST_TEST(r[0]["elapsed_s"].get<double>() != r[2]["elapsed_s"].get<double>());
}

BOOST_AUTO_TEST_CASE(impossible_combinations_are_configuration_errors) {
    auto error_of = [](const Settings &more) { return config_error(kSmall, more); };
    // A 4 MB file on one aggregator: a 4 MB collective buffer in 4 MB of node memory.
    std::string e = error_of({{"workload.file_mb", "4"},
                              {"twophase.aggregators", "1"},
                              {"machine.node_memory_kb", "4096"}});
    BOOST_TEST(e.find("twophase.buffer_kb") != std::string::npos, e);
    e = error_of({{"twophase.aggregators", "5"}});
    BOOST_TEST(e.find("twophase.aggregators") != std::string::npos, e);
    BOOST_TEST(error_of({{"workload.file_mb", "4"},
                         {"twophase.aggregators", "1"},
                         {"twophase.buffer_kb", "64"},
                         {"machine.node_memory_kb", "4096"}})
                   .empty());
    // 8 MB over 4 CPs in 4 MB nodes: a 2 MB part fits in 3.5 MB, a 2 MB collective
    // buffer beside it does not. A conforming request under twophase.direct has
    // none; with the switch off, or for any other pattern, it is refused.
    const Settings eight = {{"workload.file_mb", "8"}, {"machine.node_memory_kb", "4096"}};
    auto with = [&eight](Settings more) {
        more.insert(more.begin(), eight.begin(), eight.end());
        return more;
    };
    BOOST_TEST(error_of(with({{"workload.pattern", "rb"}})).empty());
    BOOST_TEST(error_of(with({{"workload.pattern", "wb"}})).empty());
    for (const Settings &refused :
         {Settings{{"workload.pattern", "rb"}, {"twophase.direct", "false"}},
          Settings{{"workload.pattern", "rc"}}}) {
        e = error_of(with(refused));
        BOOST_TEST(e.find("twophase.buffer_kb") != std::string::npos, e);
    }
}

BOOST_AUTO_TEST_SUITE_END()
