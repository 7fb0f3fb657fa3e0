// Whole-machine SPFS transfers (fs.kind = spfs) on small files: every pattern with
// the defaults at both record sizes and all layouts, the switches pairwise, K = 1,
// 4, 8, node grouping, and determinism; every trial byte-verified and its request
// count checked against the CP request plan. Each trial builds its machine in a
// forked child (run_isolated).
#include "fw/pattern.h"
#include "fw/spfs_plan.h"
#include "hw/platform/machine.h"
#include "sim/parameters.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/transfer_trial.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace starfish;
using nlohmann::json;

namespace {

using Settings = std::vector<std::pair<std::string, std::string>>;

// 4 CPs + 4 IOPs on a 3 x 3 torus, a 128 KB file (16 blocks, 4 per disk): 16384
// 8-byte requests for the record-at-a-time patterns.
const Settings kSmall = {{"fs.kind", "spfs"},        {"machine.cp_count", "4"},
                         {"machine.iop_count", "4"}, {"net.width", "3"},
                         {"net.height", "3"},        {"workload.file_mb", "0.125"}};

const char *const kPatterns[] = {"ra", "rn", "rb", "rc",  "rnb", "rbb", "rcb", "rbc", "rcc", "rcn",
                                 "wn", "wb", "wc", "wnb", "wbb", "wcb", "wbc", "wcc", "wcn"};

struct Cell {
    Settings settings;
    int trial = 0;

    std::string label() const {
        std::string s = "trial " + std::to_string(trial);
        for (const auto &[k, v] : settings) {
            s += " " + k + "=" + v;
        }
        return s;
    }
    std::string get(const std::string &key, const std::string &def) const {
        std::string v = def;
        for (const auto &[k, val] : settings) {
            if (k == key) {
                v = val;
            }
        }
        return v;
    }
};

Cell cell(Settings base, const Settings &more, int trial = 0) {
    base.insert(base.end(), more.begin(), more.end());
    return Cell{base, trial};
}

config::Config make_config(const Settings &settings) {
    config::Config cfg(sim::parameter_registry());
    for (const auto &[k, v] : settings) {
        cfg.set_from_text(k, v, "test");
    }
    cfg.validate();
    return cfg;
}

// The block requests the CPs' plans make (fw/spfs_plan.h), and the largest
// number of them that any one CP has for one file disk in one call.
uint64_t planned_requests(const config::Config &cfg) {
    fw_pattern_t p;
    char msg[200];
    uint64_t file =
        static_cast<uint64_t>(std::llround(cfg.get_real("workload.file_mb") * 1048576.0));
    if (fw_pattern_init(&p, cfg.get_string("workload.pattern").c_str(),
                        static_cast<uint64_t>(cfg.get_int("workload.record_bytes")), file,
                        static_cast<uint32_t>(cfg.get_int("machine.cp_count")),
                        static_cast<uint64_t>(cfg.get_int("workload.cols")), msg,
                        sizeof msg) != FW_PATTERN_OK) {
        throw std::runtime_error(msg);
    }
    uint64_t n = 0;
    for (uint32_t cp = 0; cp < p.cp_count; ++cp) {
        fw_spfs_plan_iter_t it;
        fw_spfs_piece_t pc;
        fw_spfs_plan_begin(&it, &p, cp, static_cast<uint32_t>(cfg.get_int("fs.block_bytes")));
        while (fw_spfs_plan_next(&it, &pc)) {
            ++n;
        }
    }
    return n;
}

std::vector<json> run_cells(const std::vector<Cell> &cells) {
    std::vector<sim::IsolatedJob> jobs;
    for (const Cell &c : cells) {
        jobs.push_back([c]() -> json {
            try {
                config::Config cfg = make_config(c.settings);
                json t = sim::run_transfer_trial(cfg, c.trial, {});
                t["file_bytes"] = std::llround(cfg.get_real("workload.file_mb") * 1048576.0);
                t["cp_count"] = cfg.get_int("machine.cp_count");
                t["planned_requests"] = planned_requests(cfg);
                return t;
            } catch (const std::exception &e) {
                return json{{"error", e.what()}};
            }
        });
    }
    return sim::run_isolated_all(jobs, 2);
}

// Every byte verified, one request per planned piece, the statistics consistent.
void expect_verified(const Cell &c, const json &t) {
    BOOST_TEST_CONTEXT(c.label()) {
        BOOST_REQUIRE_MESSAGE(!t.contains("error"), t.value("error", ""));
        BOOST_TEST(t["verified"].get<bool>(), t["check"].value("first_error", ""));
        uint64_t file = t["file_bytes"].get<uint64_t>();
        bool all = c.get("workload.pattern", "") == "ra";
        uint64_t copies = all ? t["cp_count"].get<uint64_t>() : 1;
        BOOST_TEST(t["check"]["checked_bytes"].get<uint64_t>() == file * copies);
        BOOST_TEST(t["check"]["bad_bytes"].get<uint64_t>() == 0u);
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

void run_and_expect_verified(const std::vector<Cell> &cells) {
    auto results = run_cells(cells);
    BOOST_REQUIRE(results.size() == cells.size());
    for (size_t i = 0; i < cells.size(); ++i) {
        expect_verified(cells[i], results[i]);
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(spfs_system)

BOOST_AUTO_TEST_CASE(every_pattern_with_the_defaults) {
    // 19 patterns x 2 record sizes x 3 layouts = 114 trials; trials 0-2 in turn, so
    // each random layout is drawn anew.
    std::vector<Cell> cells;
    for (const char *layout : {"contiguous", "random-blocks", "random-tracks"}) {
        for (const char *record : {"8", "8192"}) {
            for (const char *pattern : kPatterns) {
                cells.push_back(cell(kSmall,
                                     {{"workload.pattern", pattern},
                                      {"workload.record_bytes", record},
                                      {"workload.layout", layout}},
                                     static_cast<int>(cells.size() % 3)));
            }
        }
    }
    run_and_expect_verified(cells);
}

BOOST_AUTO_TEST_SUITE_END()
