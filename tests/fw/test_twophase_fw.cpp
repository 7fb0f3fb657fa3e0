// The two-phase I/O library (fw/src/twophase.c) on the fake HAL, against fake SPFS
// IOPs: that every aggregator sends exactly the SPFS block requests its plan
// (fw/twophase_plan.h) gives, round by round, and no other CP sends any; that the
// permutation moves every byte to (reads) or from (writes) the right CP offset,
// copying local pieces and sending remote ones with Memput/Memget, queued when
// twophase.queued says so; that each remote piece pays cost.twophase_piece_cycles;
// and that twophase.overlap pipelines one round's permutation with the next
// round's I/O. The plan itself is tested in test_twophase_plan; whole machines with
// real IOPs and disks in tests/sim/test_twophase_system.cpp.
#include "fw/msg.h"
#include "fw/param_keys.h"
#include "fw/pattern.h"
#include "fw/spfs.h"
#include "fw/twophase.h"
#include "fw/twophase_plan.h"
#include "tests/fw/msg_env.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace starfish;
using namespace starfish::fwtest;

namespace {

constexpr uint32_t kBlock = 8192;
constexpr unsigned kTwophaseBarrier = 7;

uint8_t file_byte(uint64_t offset) {
    return static_cast<uint8_t>((offset * 131u) ^ (offset >> 9) ^ 0x5a);
}

struct Case {
    std::string pattern;
    int record = 8;
    double file_kb = 64;
    unsigned cps = 4;
    unsigned iops = 2;
    unsigned aggregators = 0; // 0 = all
    int buffer_kb = 0;
    std::string intermediate = "block";
    int cyclic_kb = 64;
    std::string queued = "auto";
    bool overlap = false;
    bool direct = true;    // twophase.direct
    int piece_cycles = -1; // -1: the registered default
    int outstanding = 0;   // twophase.outstanding

    std::string name() const {
        std::ostringstream s;
        s << pattern << " " << record << " P=" << cps << " A=" << aggregators << " B=" << buffer_kb
          << "KB " << intermediate << " queued=" << queued << (overlap ? " overlap" : "")
          << (direct ? "" : " permute-conforming");
        return s.str();
    }
    uint64_t file_bytes() const { return static_cast<uint64_t>(file_kb * 1024.0); }
};

// One SPFS block request as the fake IOP saw it.
struct SeenRequest {
    unsigned src;
    uint64_t block;
    uint32_t offset, length;
    bool write;
    bool operator<(const SeenRequest &o) const {
        return std::tie(block, offset, length, write) <
               std::tie(o.block, o.offset, o.length, o.write);
    }
    bool operator==(const SeenRequest &o) const {
        return src == o.src && block == o.block && offset == o.offset && length == o.length &&
               write == o.write;
    }
};

// Fake SPFS IOPs (one service shared by all of them): READ replies with
// file_byte() data, WRITE stores the data into a file image, counting how often
// each byte is written; every request is logged in the order served.
struct FakeFile {
    uint64_t delay = 500;
    std::vector<uint8_t> image;
    std::vector<uint8_t> writes_per_byte;
    std::vector<SeenRequest> log;
    int bad = 0; // requests outside the file
};

void fake_spfs_serve(fw_msg_t *m, const fw_request_t *req, void *arg) {
    auto *f = static_cast<FakeFile *>(arg);
    hal_t *h = fw_msg_hal(m);
    uint64_t block = req->hdr.arg[0];
    uint32_t off = req->hdr.arg[1], len = req->hdr.arg[2];
    bool write = req->hdr.type == FW_SPFS_WRITE_TYPE;
    f->log.push_back({req->src, block, off, len, write});
    uint64_t at = block * kBlock + off;
    if (off + len > kBlock || at + len > f->image.size()) {
        ++f->bad;
        fw_msg_reply(m, req, FW_MSG_ERANGE, nullptr, nullptr, 0);
        return;
    }
    hal_sleep_cycles(h, f->delay);
    if (!write) {
        auto *body = static_cast<uint8_t *>(hal_mem_alloc(h, len + 8, 8));
        for (uint32_t i = 0; i < len; ++i) {
            body[i] = file_byte(at + i);
        }
        fw_msg_reply(m, req, FW_MSG_OK, nullptr, body, len);
        hal_mem_free(h, body);
        return;
    }
    if (req->body_bytes != len) {
        ++f->bad;
    }
    const auto *data = static_cast<const uint8_t *>(req->body);
    for (uint32_t i = 0; i < len && i < req->body_bytes; ++i) {
        f->image[at + i] = data[i];
        ++f->writes_per_byte[at + i];
    }
    fw_msg_reply(m, req, FW_MSG_OK, nullptr, nullptr, 0);
}

struct CpResult {
    int status = -99;
    fw_twophase_stats_t stats{};
    fw_msg_stats_t msg{};
    uint64_t end_cycles = 0;
    uint64_t fw_cycles = 0; // hal_cycles charges of the CP's thread
    std::vector<uint8_t> buffer;
};

struct Run {
    bool ok = false;
    std::string failure;
    std::vector<CpResult> cps;
    FakeFile file;
};

fw_pattern_t make_pattern(const Case &c) {
    fw_pattern_t p;
    char msg[200];
    BOOST_TEST_REQUIRE(fw_pattern_init(&p, c.pattern.c_str(), static_cast<uint64_t>(c.record),
                                       c.file_bytes(), c.cps, 0, msg, sizeof msg) == FW_PATTERN_OK,
                       msg);
    return p;
}

fw_twophase_plan_t make_plan(const Case &c) {
    fw_pattern_t p = make_pattern(c);
    fw_twophase_config_t cfg = fw_twophase_config_paper();
    BOOST_TEST_REQUIRE(fw_twophase_dist_parse(c.intermediate.c_str(), &cfg.intermediate));
    cfg.aggregators = c.aggregators;
    cfg.buffer_bytes = static_cast<uint64_t>(c.buffer_kb) * 1024u;
    cfg.cyclic_bytes = static_cast<uint64_t>(c.cyclic_kb) * 1024u;
    cfg.stripe_bytes = kBlock;
    fw_twophase_plan_t plan;
    char msg[200];
    BOOST_TEST_REQUIRE(fw_twophase_plan_init(&plan, &p, &cfg, msg, sizeof msg) == FW_TWOPHASE_OK,
                       msg);
    return plan;
}

// The CP's part of the file, laid out in its buffer as the pattern says.
std::vector<uint8_t> expected_buffer(const fw_pattern_t &p, unsigned cp) {
    return expected_cp_buffer(p, cp, file_byte);
}

Run run_case(const Case &c, const FakeOptions &base_opts = FakeOptions(), uint64_t delay = 500) {
    FakeOptions o = base_opts;
    o.cp_count = c.cps;
    o.iop_count = c.iops;
    o.memory_bytes = 8u << 20;
    o.max_threads = 128;
    FakeMachine fm(o);
    fm.set_string("workload.layout", "contiguous");
    fm.set_string("workload.pattern", c.pattern);
    fm.set_int("workload.record_bytes", c.record);
    fm.set_int("workload.cols", 0);
    fm.set_real("workload.file_mb", c.file_kb / 1024.0);
    fm.set_int("fs.block_bytes", kBlock);
    fm.set_int("twophase.aggregators", c.aggregators);
    fm.set_int("twophase.buffer_kb", c.buffer_kb);
    fm.set_string("twophase.intermediate", c.intermediate);
    fm.set_int("twophase.cyclic_kb", c.cyclic_kb);
    fm.set_string("twophase.queued", c.queued);
    fm.set_int("twophase.overlap", c.overlap ? 1 : 0);
    fm.set_int("twophase.direct", c.direct ? 1 : 0);
    fm.set_int("twophase.outstanding", c.outstanding);
    if (c.piece_cycles >= 0) {
        fm.set_int(FW_KEY_COST_TWOPHASE_PIECE, c.piece_cycles);
    }
    Run run;
    run.cps.resize(c.cps);
    run.file.delay = delay;
    run.file.image.assign(c.file_bytes(), 0);
    run.file.writes_per_byte.assign(c.file_bytes(), 0);
    fw_pattern_t pattern = make_pattern(c);
    std::vector<NodeEnv> envs;
    spawn_all(fm, envs, [&](unsigned node, NodeEnv &e) {
        if (node >= c.cps) {
            fw_msg_set_server_threads(e.m, 32);
            for (unsigned t : {FW_SPFS_READ_TYPE, FW_SPFS_WRITE_TYPE}) {
                fw_msg_register_service(e.m, t, fake_spfs_serve, &run.file);
            }
            fw_msg_barrier_wait(e.m, e.all);
            return;
        }
        const unsigned cp = node;
        uint64_t bytes = fw_pattern_cp_bytes(&pattern, cp);
        auto *buf = static_cast<uint8_t *>(hal_mem_alloc(e.h, static_cast<uint32_t>(bytes + 8), 8));
        std::memset(buf, 0, bytes);
        if (pattern.is_write) {
            std::vector<uint8_t> mine = expected_buffer(pattern, cp);
            if (!mine.empty()) { // a CP with no data has no buffer to copy from
                std::memcpy(buf, mine.data(), mine.size());
            }
        }
        fw_msg_set_base(e.m, buf, static_cast<uint32_t>(bytes));
        std::vector<unsigned> cp_nodes;
        for (unsigned k = 0; k < c.cps; ++k) {
            cp_nodes.push_back(hal_cp_node(e.h, k));
        }
        fw_msg_barrier_t *cps =
            fw_msg_barrier_create(e.m, kTwophaseBarrier, cp_nodes.data(), c.cps);
        fw_spfs_client_t *client = fw_spfs_client_init(e.m);
        fw_twophase_t *t = client ? fw_twophase_init(e.m, client, &pattern, cp, cps) : nullptr;
        fw_msg_barrier_wait(e.m, e.all); // the IOPs' services exist
        if (!t) {
            return;
        }
        fw_msg_barrier_wait(e.m, cps);
        CpResult &r = run.cps[cp];
        r.status = fw_twophase_run(t, buf);
        r.end_cycles = hal_now_cycles(e.h);
        r.stats = *fw_twophase_stats(t);
        r.msg = *fw_msg_stats(e.m);
        r.buffer.assign(buf, buf + bytes);
    });
    run.ok = fm.run();
    run.failure = fm.failure();
    for (unsigned cp = 0; cp < c.cps; ++cp) {
        run.cps[cp].fw_cycles = fm.charged(cp, "test", "fw");
    }
    return run;
}

// The SPFS block requests of one aggregator's round, as the plan gives them.
std::vector<SeenRequest> planned_requests(const fw_twophase_plan_t &plan, uint32_t round,
                                          uint32_t aggregator, unsigned node) {
    std::vector<SeenRequest> out;
    fw_twophase_io_iter_t it;
    fw_twophase_io_t r;
    fw_twophase_io_begin(&it, &plan, round, aggregator);
    while (fw_twophase_io_next(&it, &r)) {
        uint64_t at = r.file_offset, end = r.file_offset + r.length;
        while (at < end) {
            uint32_t off = static_cast<uint32_t>(at % kBlock);
            uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kBlock - off, end - at));
            out.push_back({node, at / kBlock, off, len, plan.pattern.is_write});
            at += len;
        }
    }
    return out;
}

// Everything a correct run must show; `queued` is what twophase.queued should
// have resolved to.
void check_run(const Case &c, const Run &run, bool queued) {
    BOOST_TEST_REQUIRE(run.ok, run.failure);
    fw_twophase_plan_t plan = make_plan(c);
    fw_pattern_t pattern = make_pattern(c);
    const uint32_t rounds = fw_twophase_rounds(&plan);
    // twophase.direct on a conforming request: the same SPFS requests, no pieces.
    const bool direct = c.direct && fw_twophase_plan_conforming(&plan);
    BOOST_TEST(run.file.bad == 0);

    // The data: every CP buffer (reads) or every file byte, written once (writes).
    if (pattern.is_write) {
        uint64_t wrong = 0, not_once = 0;
        for (uint64_t i = 0; i < c.file_bytes(); ++i) {
            wrong += run.file.image[i] != file_byte(i);
            not_once += run.file.writes_per_byte[i] != 1;
        }
        BOOST_TEST(wrong == 0u);
        BOOST_TEST(not_once == 0u);
    } else {
        for (unsigned cp = 0; cp < c.cps; ++cp) {
            BOOST_TEST((run.cps[cp].buffer == expected_buffer(pattern, cp)), "CP " << cp);
        }
    }

    // Per CP: statistics and messages against the plan's counts.
    for (unsigned cp = 0; cp < c.cps; ++cp) {
        BOOST_TEST_CONTEXT("CP " << cp) {
            const CpResult &r = run.cps[cp];
            BOOST_TEST(r.status == FW_MSG_OK);
            BOOST_TEST(r.stats.rounds == rounds);
            uint32_t a = fw_twophase_cp_aggregator(&plan.domain, cp);
            fw_twophase_counts_t n{};
            if (a != FW_TWOPHASE_NONE) {
                fw_twophase_count(&plan, FW_TWOPHASE_ALL, a, &n, nullptr);
            }
            if (direct) {
                n.local_pieces = n.remote_pieces = n.bytes = 0;
                BOOST_TEST(r.stats.permute_cycles == 0u);
            }
            BOOST_TEST(r.stats.io_ranges == n.io_ranges);
            BOOST_TEST(r.stats.local_pieces == n.local_pieces);
            BOOST_TEST(r.stats.remote_pieces == n.remote_pieces);
            BOOST_TEST(r.stats.bytes_permuted == n.bytes);
            // Only the permutation sends Memputs/Memgets in this test: one per
            // remote piece, or queued pieces in batches and none of the plain kind.
            uint64_t plain = pattern.is_write ? r.msg.memgets : r.msg.memputs;
            uint64_t other_plain = pattern.is_write ? r.msg.memputs : r.msg.memgets;
            uint64_t qpieces = pattern.is_write ? r.msg.qget_pieces : r.msg.qput_pieces;
            BOOST_TEST(other_plain == 0u);
            if (queued) {
                BOOST_TEST(plain == 0u);
                BOOST_TEST(qpieces >= n.remote_pieces); // a piece may span batches
                BOOST_TEST(r.stats.batches_sent == r.msg.batches_sent);
                BOOST_TEST((r.stats.batches_sent > 0) == (n.remote_pieces > 0));
            } else {
                BOOST_TEST(plain == n.remote_pieces);
                BOOST_TEST(qpieces == 0u);
                BOOST_TEST(r.stats.batches_sent == 0u);
            }
            if (a == FW_TWOPHASE_NONE) {
                BOOST_TEST(r.stats.io_cycles == 0u);
                BOOST_TEST(r.stats.permute_cycles == 0u);
            }
        }
    }

    // SPFS requests: each aggregator's, round after round, exactly the plan's.
    std::map<unsigned, std::vector<SeenRequest>> by_src;
    for (const SeenRequest &s : run.file.log) {
        by_src[s.src].push_back(s);
    }
    for (unsigned cp = 0; cp < c.cps; ++cp) {
        uint32_t a = fw_twophase_cp_aggregator(&plan.domain, cp);
        std::vector<SeenRequest> &seen = by_src[cp];
        BOOST_TEST_CONTEXT("CP " << cp << " (aggregator " << static_cast<int>(a) << ")") {
            if (a == FW_TWOPHASE_NONE) {
                BOOST_TEST(seen.empty());
                continue;
            }
            size_t pos = 0;
            for (uint32_t round = 0; round < rounds; ++round) {
                std::vector<SeenRequest> want = planned_requests(plan, round, a, cp);
                BOOST_TEST_REQUIRE(pos + want.size() <= seen.size());
                std::vector<SeenRequest> got(seen.begin() + static_cast<long>(pos),
                                             seen.begin() + static_cast<long>(pos + want.size()));
                std::sort(want.begin(), want.end());
                std::sort(got.begin(), got.end());
                BOOST_TEST((got == want), "round " << round);
                pos += want.size();
            }
            BOOST_TEST(pos == seen.size());
        }
    }
}

bool resolves_queued(const Case &c) {
    return c.queued == "on" || (c.queued == "auto" && c.record < static_cast<int>(kBlock));
}

} // namespace

BOOST_AUTO_TEST_SUITE(fw_twophase_library)

BOOST_AUTO_TEST_CASE(requests_and_bytes_follow_the_plan) {
    auto mk = [](std::string pattern, int record, unsigned aggregators, int buffer_kb,
                 std::string intermediate = "block") {
        Case c;
        c.pattern = std::move(pattern);
        c.record = record;
        c.aggregators = aggregators;
        c.buffer_kb = buffer_kb;
        c.intermediate = std::move(intermediate);
        return c;
    };
    std::vector<Case> cases = {
        // The paper's 2PIO: every CP reads its rb part in one round.
        mk("rb", 8, 0, 0),  // the conforming distribution: straight to SPFS
        mk("rc", 8, 0, 0),  // 8-byte pieces to every CP, queued
        mk("rbc", 8, 0, 0), // two-dimensional
        mk("wcc", 8, 0, 0), // writes gather with queued Memgets
        mk("rcb", 8192, 0, 0),
        mk("wc", 8192, 0, 0), // plain Memgets
        mk("ra", 8192, 0, 0), // broadcast: every range to every CP
        mk("rn", 8192, 0, 0), // CP 0 alone wants the file
        // Collective buffering: fewer aggregators, rounds, other intermediates.
        mk("rc", 8, 1, 16),
        mk("wc", 8, 2, 16),
        mk("rcc", 8192, 2, 8),
        mk("wbb", 8192, 3, 0, "file-layout"),
        mk("rc", 8192, 3, 16, "file-layout"),
        mk("ra", 8192, 2, 16),
        mk("wnb", 8, 1, 0),
    };
    Case rb_permuted = mk("rb", 8192, 0, 0);
    rb_permuted.direct = false; // the collective buffer and one local copy per CP
    cases.push_back(rb_permuted);
    cases.push_back(mk("wb", 8192, 0, 0));
    Case cyclic = mk("rbc", 8, 3, 12, "cyclic");
    cyclic.cyclic_kb = 4; // units of 4 KB: one I/O range per unit, requests within blocks
    cases.push_back(cyclic);
    Case wb_odd = mk("wb", 8, 0, 0);
    wb_odd.cps = 3;
    wb_odd.file_kb = 61;
    cases.push_back(wb_odd);
    Case odd = mk("wcb", 8, 0, 0);
    odd.cps = 3; // uneven: shares are not whole blocks
    odd.file_kb = 61;
    cases.push_back(odd);
    Case odd_read = mk("rc", 8192, 0, 12);
    odd_read.cps = 5;
    odd_read.file_kb = 72;
    cases.push_back(odd_read);
    for (const Case &c : cases) {
        BOOST_TEST_CONTEXT(c.name()) {
            Run run = run_case(c);
            check_run(c, run, resolves_queued(c));
        }
    }
}

BOOST_AUTO_TEST_CASE(twophase_queued_chooses_the_permutation_messages) {
    // auto: queued for records smaller than a block (checked above); on and off
    // override it either way, with the same bytes and SPFS requests.
    for (const auto &[pattern, record, queued] :
         std::vector<std::tuple<std::string, int, std::string>>{
             {"rc", 8, "off"}, {"wcc", 8, "off"}, {"rc", 8192, "on"}, {"wbc", 8192, "on"}}) {
        Case c;
        c.pattern = pattern;
        c.record = record;
        c.queued = queued;
        c.buffer_kb = 8;
        BOOST_TEST_CONTEXT(c.name()) {
            Run run = run_case(c);
            check_run(c, run, queued == "on");
        }
    }
}

BOOST_AUTO_TEST_CASE(outstanding_limits_the_plain_permutation_messages) {
    // rn with 8 KB records: every aggregator's share goes to CP 0 as one piece of
    // several blocks. twophase.outstanding = 1 sends it one block per message, one at
    // a time; 0 sends each piece at once as one message. The data are the same.
    for (const std::string pattern : {"rn", "wn"}) {
        Case c;
        c.pattern = pattern;
        c.record = 8192;
        c.queued = "off";
        Case one = c;
        one.outstanding = 1;
        BOOST_TEST_CONTEXT(c.name()) {
            Run all = run_case(c), each = run_case(one);
            BOOST_TEST_REQUIRE(all.ok, all.failure);
            BOOST_TEST_REQUIRE(each.ok, each.failure);
            uint64_t pieces = 0, msgs_all = 0, msgs_each = 0;
            for (unsigned cp = 0; cp < c.cps; ++cp) {
                pieces += all.cps[cp].stats.remote_pieces;
                msgs_all += all.cps[cp].msg.memputs + all.cps[cp].msg.memgets;
                msgs_each += each.cps[cp].msg.memputs + each.cps[cp].msg.memgets;
                BOOST_TEST((all.cps[cp].buffer == each.cps[cp].buffer));
            }
            BOOST_TEST(msgs_all == pieces);
            // 64 KB over 4 CPs: three remote shares of 16 KB, two blocks each.
            BOOST_TEST(msgs_each == 2 * pieces);
            check_run(c, all, false);
        }
    }
}

BOOST_AUTO_TEST_CASE(overlap_keeps_the_plan_and_pipelines_the_rounds) {
    // Four rounds of 32 KB per aggregator. Four fake IOPs hold each request 20000
    // cycles and the network moves one byte per cycle, so a round's I/O (four
    // block requests, one per IOP) and its permutation (three remote 8 KB records
    // out, three in) take about as long. Overlapped, each CP waits far less for its
    // permutation, the whole takes less time (not by the whole permutation: its
    // messages now compete with the I/O replies) and there are fewer barriers (one
    // per round instead of two).
    FakeOptions slow;
    slow.bytes_per_cycle = 1;
    for (const char *pattern : {"rc", "wc"}) {
        Case c;
        c.pattern = pattern;
        c.record = 8192;
        c.file_kb = 512;
        c.buffer_kb = 32;
        c.iops = 4;
        Case o = c;
        o.overlap = true;
        BOOST_TEST_CONTEXT(pattern) {
            Run plain = run_case(c, slow, 20000);
            Run piped = run_case(o, slow, 20000);
            check_run(c, plain, false);
            check_run(o, piped, false);
            uint64_t t_plain = 0, t_piped = 0, b_plain = 0, b_piped = 0;
            for (unsigned cp = 0; cp < c.cps; ++cp) {
                t_plain = std::max(t_plain, plain.cps[cp].end_cycles);
                t_piped = std::max(t_piped, piped.cps[cp].end_cycles);
                b_plain += plain.cps[cp].msg.barrier_messages;
                b_piped += piped.cps[cp].msg.barrier_messages;
            }
            BOOST_TEST(plain.cps[0].stats.rounds == 4u);
            // The permutation's Memputs/Memgets travel while the next round's I/O
            // runs, so a CP waits for them far less.
            for (unsigned cp = 0; cp < c.cps; ++cp) {
                BOOST_TEST(piped.cps[cp].stats.permute_cycles * 2 <
                               plain.cps[cp].stats.permute_cycles,
                           "CP " << cp);
            }
            BOOST_TEST(t_piped < t_plain, t_piped << " vs " << t_plain << " cycles");
            BOOST_TEST(b_piped < b_plain);
        }
    }
}

BOOST_AUTO_TEST_CASE(each_remote_piece_pays_the_piece_cost) {
    // The same run with cost.twophase_piece_cycles 0 and 1000: each aggregator's
    // thread is charged exactly 1000 cycles more per remote piece; local pieces
    // (copies) and non-aggregators pay nothing for it.
    for (const auto &[pattern, aggregators] :
         std::vector<std::pair<std::string, unsigned>>{{"rc", 0}, {"wbc", 2}, {"rb", 0}}) {
        Case c;
        c.pattern = pattern;
        c.aggregators = aggregators;
        c.piece_cycles = 0;
        Case d = c;
        d.piece_cycles = 1000;
        BOOST_TEST_CONTEXT(c.name()) {
            Run free_run = run_case(c), paid = run_case(d);
            check_run(c, free_run, true);
            check_run(d, paid, true);
            for (unsigned cp = 0; cp < c.cps; ++cp) {
                BOOST_TEST(paid.cps[cp].fw_cycles - free_run.cps[cp].fw_cycles ==
                               1000u * paid.cps[cp].stats.remote_pieces,
                           "CP " << cp);
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
