// SPFS firmware logic that lives in threads, on the fake HAL: the CP client's K
// limit per disk, its chunk-to-request splitting and reply deposit against a fake
// IOP service, the write and Memget-write paths, and the IOP's two request
// structures (a server-thread pool vs a thread per request) in the messaging
// library. The cache, disk-queue and plan bookkeeping have their own tests
// (test_spfs_cache, test_spfs_diskq, test_spfs_plan); the whole IOP with real
// disks is in tests/sim/test_spfs_system.cpp.
#include "fw/msg.h"
#include "fw/pattern.h"
#include "fw/spfs.h"
#include "fw/spfs_plan.h"
#include "sim/parameters.h"
#include "tests/fw/msg_env.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace starfish;
using namespace starfish::fwtest;

namespace {

const config::Registry &spfs_registry() {
    return sim::parameter_registry();
}

// What the client reads besides fw/spfs parameters: the file and its striping.
std::unique_ptr<FakeMachine> spfs_machine(const FakeOptions &o, const std::string &pattern,
                                          int record_bytes, double file_mb, int k) {
    auto fm = std::make_unique<FakeMachine>(o);
    fm->set_defaults(spfs_registry());
    fm->set_string("workload.layout", "contiguous");
    fm->set_string("workload.pattern", pattern);
    fm->set_int("workload.record_bytes", record_bytes);
    fm->set_int("workload.cols", 0);
    fm->set_real("workload.file_mb", file_mb);
    fm->set_int("disk.sector_bytes", 512);
    fm->set_int("disk.sectors_per_track", 72);
    fm->set_int("disk.cylinders", 1962);
    fm->set_int("disk.heads", 19);
    fm->set_int("spfs.outstanding", k);
    return fm;
}

uint8_t file_byte(uint64_t offset) {
    return static_cast<uint8_t>((offset * 131u) ^ (offset >> 9));
}

// A fake IOP: answers READ with file_byte() data and checks WRITE data, after
// `delay` cycles so that requests pile up; records the most requests any CP had
// in service at once for each file disk.
struct FakeIop {
    uint32_t block_bytes = 8192;
    uint32_t disks = 1; // file disks D
    uint64_t delay = 20000;
    std::map<uint32_t, uint64_t> disk_delay; // per file disk, instead of delay
    std::vector<uint32_t> started;           // file disk of each request, in service order
    std::map<std::pair<unsigned, uint32_t>, int> in_service, most;
    int served = 0;
    int bad_writes = 0;
    int memgets = 0;
};

void fake_serve(fw_msg_t *m, const fw_request_t *req, void *arg) {
    auto *io = static_cast<FakeIop *>(arg);
    hal_t *h = fw_msg_hal(m);
    uint64_t block = req->hdr.arg[0];
    uint32_t off = req->hdr.arg[1], len = req->hdr.arg[2];
    uint32_t disk = static_cast<uint32_t>(block % io->disks);
    auto key = std::make_pair(req->src, disk);
    int now = ++io->in_service[key];
    io->most[key] = std::max(io->most[key], now);
    io->started.push_back(disk);
    auto slow = io->disk_delay.find(disk);
    hal_sleep_cycles(h, slow != io->disk_delay.end() ? slow->second : io->delay);
    uint64_t at = block * io->block_bytes + off;
    std::vector<uint8_t> data(len);
    if (req->hdr.type == FW_SPFS_READ_TYPE) {
        auto *body = static_cast<uint8_t *>(hal_mem_alloc(h, len, 8));
        for (uint32_t i = 0; i < len; ++i) {
            body[i] = file_byte(at + i);
        }
        --io->in_service[key];
        ++io->served;
        fw_msg_reply(m, req, FW_MSG_OK, nullptr, body, len);
        hal_mem_free(h, body);
        return;
    }
    const uint8_t *got = static_cast<const uint8_t *>(req->body);
    if (req->hdr.type == FW_SPFS_WRITE_GET_TYPE) {
        uint32_t cp_offset;
        std::memcpy(&cp_offset, req->body, sizeof cp_offset);
        auto *dst = static_cast<uint8_t *>(hal_mem_alloc(h, len, 8));
        if (fw_memget(m, req->src, cp_offset, dst, len) != FW_MSG_OK) {
            ++io->bad_writes;
        }
        std::memcpy(data.data(), dst, len);
        hal_mem_free(h, dst);
        got = data.data();
        ++io->memgets;
    }
    for (uint32_t i = 0; i < len; ++i) {
        if (got[i] != file_byte(at + i)) {
            ++io->bad_writes;
            break;
        }
    }
    --io->in_service[key];
    ++io->served;
    fw_msg_reply(m, req, FW_MSG_OK, nullptr, nullptr, 0);
}

struct ClientRun {
    int status = -99;
    fw_spfs_client_stats_t stats{};
    std::vector<uint8_t> buffer;
};

// Runs pattern `name` on `cps` CPs against `iops` fake IOPs; returns per-CP results.
std::vector<ClientRun> run_client(const std::string &name, int record, double file_mb, int k,
                                  unsigned cps, unsigned iops, bool memget_writes, FakeIop &io,
                                  std::string *failure, const std::string &flow = "per-disk") {
    FakeOptions o;
    o.cp_count = cps;
    o.iop_count = iops;
    o.memory_bytes = 8u << 20;
    o.max_threads = 256;
    auto fm = spfs_machine(o, name, record, file_mb, k);
    fm->set_int("spfs.memget_writes", memget_writes ? 1 : 0);
    fm->set_string("spfs.client_flow", flow);
    io.disks = iops;
    std::vector<ClientRun> runs(cps);
    std::vector<NodeEnv> envs;
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        if (node >= cps) {
            fw_msg_set_server_threads(e.m, 64);
            for (unsigned t : {FW_SPFS_READ_TYPE, FW_SPFS_WRITE_TYPE, FW_SPFS_WRITE_GET_TYPE}) {
                fw_msg_register_service(e.m, t, fake_serve, &io);
            }
            fw_msg_barrier_wait(e.m, e.all);
            return;
        }
        fw_pattern_t p;
        char msg[200];
        uint64_t file = static_cast<uint64_t>(file_mb * 1048576.0);
        if (fw_pattern_init(&p, name.c_str(), static_cast<uint64_t>(record), file, cps, 0, msg,
                            sizeof msg) != FW_PATTERN_OK) {
            hal_fail(e.h, msg);
            return;
        }
        uint64_t bytes = fw_pattern_cp_bytes(&p, node);
        auto *buf = static_cast<uint8_t *>(hal_mem_alloc(e.h, static_cast<uint32_t>(bytes + 8), 8));
        std::memset(buf, 0, bytes);
        if (p.is_write) {
            std::vector<uint8_t> part = expected_cp_buffer(p, node, file_byte);
            if (!part.empty()) { // a CP with no part: data() may be null (UBSan)
                std::memcpy(buf, part.data(), part.size());
            }
        }
        fw_msg_set_base(e.m, buf, static_cast<uint32_t>(bytes));
        fw_spfs_client_t *c = fw_spfs_client_init(e.m);
        fw_msg_barrier_wait(e.m, e.all); // the IOPs' services exist
        runs[node].status = fw_spfs_client_run(c, &p, node, buf);
        runs[node].stats = *fw_spfs_client_stats(c);
        runs[node].buffer.assign(buf, buf + bytes);
    });
    bool ok = fm->run();
    *failure = ok ? "" : fm->failure();
    return runs;
}

// The CP's expected buffer for a read pattern.
std::vector<uint8_t> expected(const std::string &name, int record, double file_mb, unsigned cps,
                              unsigned cp) {
    fw_pattern_t p;
    char msg[200];
    fw_pattern_init(&p, name.c_str(), static_cast<uint64_t>(record),
                    static_cast<uint64_t>(file_mb * 1048576.0), cps, 0, msg, sizeof msg);
    return expected_cp_buffer(p, cp, file_byte);
}

uint64_t planned(const std::string &name, int record, double file_mb, unsigned cps, unsigned cp) {
    fw_pattern_t p;
    char msg[200];
    fw_pattern_init(&p, name.c_str(), static_cast<uint64_t>(record),
                    static_cast<uint64_t>(file_mb * 1048576.0), cps, 0, msg, sizeof msg);
    fw_spfs_plan_iter_t it;
    fw_spfs_piece_t pc;
    fw_spfs_plan_begin(&it, &p, cp, 8192);
    uint64_t n = 0;
    while (fw_spfs_plan_next(&it, &pc)) {
        ++n;
    }
    return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fw_spfs)

BOOST_AUTO_TEST_CASE(client_keeps_k_requests_per_disk_in_flight_and_no_more) {
    // rn: CP 0 reads the whole 256 KB file in one call: 32 blocks, 16 per disk of
    // 2. The fake IOP holds each request 20000 cycles, so the client fills K per
    // disk and then waits for replies.
    for (int k : {1, 3, 4, 8}) {
        FakeIop io;
        std::string failure;
        auto runs = run_client("rn", 8192, 0.25, k, 1, 2, false, io, &failure);
        BOOST_TEST_CONTEXT("K = " << k) {
            BOOST_TEST_REQUIRE(failure.empty(), failure);
            BOOST_TEST(runs[0].status == FW_MSG_OK);
            BOOST_TEST(runs[0].stats.calls == 1u);
            BOOST_TEST(runs[0].stats.requests == 32u);
            BOOST_TEST(runs[0].stats.max_outstanding == static_cast<uint32_t>(k));
            BOOST_TEST(runs[0].stats.flow_waits > 0u);
            for (uint32_t d = 0; d < 2; ++d) {
                BOOST_TEST(io.most[std::make_pair(0u, d)] == k);
            }
            BOOST_TEST(io.served == 32);
            BOOST_TEST((runs[0].buffer == expected("rn", 8192, 0.25, 1, 0)));
        }
    }
}

BOOST_AUTO_TEST_CASE(per_disk_flow_refills_a_disk_as_soon_as_it_replies) {
    // rn on one CP, K = 1, two file disks: disk 0 takes 100 times longer than disk 1.
    // Per-disk flow (the tuning report's "as soon as a disk replies ... another IOP
    // request is sent to that disk") keeps disk 1 busy while disk 0 works on one
    // block; strict file order makes disk 1 wait behind each of disk 0's blocks.
    for (const std::string flow : {"per-disk", "file-order"}) {
        FakeIop io;
        io.disk_delay = {{0u, 200000u}, {1u, 2000u}};
        std::string failure;
        auto runs = run_client("rn", 8192, 0.25, 1, 1, 2, false, io, &failure, flow);
        BOOST_TEST_CONTEXT(flow) {
            BOOST_TEST_REQUIRE(failure.empty(), failure);
            BOOST_TEST(runs[0].status == FW_MSG_OK);
            BOOST_TEST(runs[0].stats.requests == 32u);
            BOOST_TEST(runs[0].stats.max_outstanding == 1u);
            BOOST_TEST((runs[0].buffer == expected("rn", 8192, 0.25, 1, 0)));
            // Disk-1 requests served before disk 0's second one started.
            auto second0 = std::find(std::find(io.started.begin(), io.started.end(), 0u) + 1,
                                     io.started.end(), 0u);
            auto early = std::count(io.started.begin(), second0, 1u);
            if (flow == "per-disk") {
                BOOST_TEST(early == 16);
            } else {
                BOOST_TEST(early == 1);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(one_call_per_chunk_waits_for_its_replies) {
    // 8-byte rc: every chunk is one record, so each call has one request and the
    // next call starts only after its reply: never more than one outstanding.
    // rbb on 4 CPs: 2-D chunks spanning blocks. Each CP's buffer must hold exactly
    // its part of the file.
    for (const auto &[name, record] : std::vector<std::pair<std::string, int>>{
             {"rc", 8}, {"rbb", 8}, {"rcc", 8192}, {"ra", 8192}, {"rb", 8192}}) {
        FakeIop io;
        io.delay = 500;
        std::string failure;
        const unsigned cps = 4;
        auto runs = run_client(name, record, 0.0625, 4, cps, 2, false, io, &failure);
        BOOST_TEST_CONTEXT(name << " " << record) {
            BOOST_TEST_REQUIRE(failure.empty(), failure);
            uint64_t total = 0;
            for (unsigned cp = 0; cp < cps; ++cp) {
                BOOST_TEST(runs[cp].status == FW_MSG_OK);
                BOOST_TEST(runs[cp].stats.requests == planned(name, record, 0.0625, cps, cp));
                BOOST_TEST((runs[cp].buffer == expected(name, record, 0.0625, cps, cp)));
                total += runs[cp].stats.requests;
                if (name == "rc") {
                    BOOST_TEST(runs[cp].stats.max_outstanding == 1u);
                    BOOST_TEST(runs[cp].stats.calls == runs[cp].stats.requests);
                }
            }
            BOOST_TEST(io.served == static_cast<int>(total));
        }
    }
}

BOOST_AUTO_TEST_CASE(writes_carry_their_data_or_let_the_iop_fetch_it) {
    for (bool memget : {false, true}) {
        for (const auto &[name, record] :
             std::vector<std::pair<std::string, int>>{{"wc", 8}, {"wbb", 8192}, {"wn", 8192}}) {
            FakeIop io;
            io.delay = 500;
            std::string failure;
            auto runs = run_client(name, record, 0.0625, 4, 4, 2, memget, io, &failure);
            BOOST_TEST_CONTEXT(name << " " << record << (memget ? " Memget writes" : "")) {
                BOOST_TEST_REQUIRE(failure.empty(), failure);
                uint64_t total = 0;
                for (const auto &r : runs) {
                    BOOST_TEST(r.status == FW_MSG_OK);
                    total += r.stats.requests;
                }
                BOOST_TEST(io.served == static_cast<int>(total));
                BOOST_TEST(io.bad_writes == 0);
                BOOST_TEST(io.memgets == (memget ? static_cast<int>(total) : 0));
            }
        }
    }
}

namespace {

struct EchoStats {
    int served = 0;
    int bad = 0;
};

// Replies with the request's body, bytes reversed, after a short sleep.
void echo_reversed(fw_msg_t *m, const fw_request_t *req, void *arg) {
    auto *s = static_cast<EchoStats *>(arg);
    hal_t *h = fw_msg_hal(m);
    hal_sleep_cycles(h, 3000);
    auto *out = static_cast<uint8_t *>(hal_mem_alloc(h, req->body_bytes + 8, 8));
    const auto *in = static_cast<const uint8_t *>(req->body);
    for (uint32_t i = 0; i < req->body_bytes; ++i) {
        out[i] = in[req->body_bytes - 1 - i];
    }
    if (req->hdr.arg[0] != req->body_bytes) {
        ++s->bad;
    }
    ++s->served;
    fw_msg_reply(m, req, FW_MSG_OK, nullptr, out, req->body_bytes);
    hal_mem_free(h, out);
}

struct PathRun {
    bool ok = false;
    std::string failure;
    int wrong = 0;
    EchoStats echo;
    uint64_t thread_create_cycles = 0;
    uint64_t server_activity = 0, request_activity = 0;
};

// CP 0 sends `n` requests at once (bodies of 1..n*37 bytes) to IOP 1's echo
// service registered as a pooled service or as a thread service.
PathRun run_path(bool thread_requests, int n) {
    FakeOptions o;
    o.cp_count = 1;
    o.iop_count = 1;
    o.max_threads = 256;
    auto fm = make_machine(o);
    PathRun r;
    std::vector<NodeEnv> envs;
    const unsigned kType = FW_MSG_TYPE_USER + 9;
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        if (node == 1) {
            if (thread_requests) {
                fw_msg_register_thread_service(e.m, kType, echo_reversed, &r.echo);
            } else {
                fw_msg_set_server_threads(e.m, 16);
                fw_msg_register_service(e.m, kType, echo_reversed, &r.echo);
            }
            fw_msg_barrier_wait(e.m, e.all);
            return;
        }
        fw_msg_barrier_wait(e.m, e.all);
        std::vector<uint8_t *> bodies, replies;
        std::vector<fw_reply_t> results(static_cast<size_t>(n));
        fw_group_t g;
        fw_group_init(e.m, &g);
        for (int i = 0; i < n; ++i) {
            uint32_t len = static_cast<uint32_t>(1 + i * 37);
            auto *b = static_cast<uint8_t *>(hal_mem_alloc(e.h, len, 8));
            auto *rb = static_cast<uint8_t *>(hal_mem_alloc(e.h, len, 8));
            for (uint32_t j = 0; j < len; ++j) {
                b[j] = pattern_byte(static_cast<uint32_t>(i), j);
            }
            uint32_t args[FW_MSG_ARGS] = {len, 0, 0};
            fw_msg_request_async(e.m, 1, kType, args, b, len, rb, len, &results[i], &g);
            bodies.push_back(b);
            replies.push_back(rb);
        }
        if (fw_group_wait(e.m, &g) != FW_MSG_OK) {
            ++r.wrong;
        }
        for (int i = 0; i < n; ++i) {
            uint32_t len = static_cast<uint32_t>(1 + i * 37);
            for (uint32_t j = 0; j < len; ++j) {
                if (replies[i][j] != pattern_byte(static_cast<uint32_t>(i), len - 1 - j)) {
                    ++r.wrong;
                    break;
                }
            }
        }
    });
    r.ok = fm->run();
    r.failure = fm->failure();
    r.thread_create_cycles = fm->charged(1, "", "thread_create");
    r.server_activity = fm->charged(1, "msg_server");
    r.request_activity = fm->charged(1, "msg_request");
    return r;
}

} // namespace

BOOST_AUTO_TEST_CASE(queued_and_thread_requests_serve_the_same_requests) {
    // Queued: the handler queues each request for a fixed pool of server threads
    // (created once). Thread: the handler creates a thread per request and copies
    // the message onto its stack; the request buffer is free at once.
    const int n = 40;
    PathRun queued = run_path(false, n), thread = run_path(true, n);
    BOOST_TEST_REQUIRE(queued.ok, queued.failure);
    BOOST_TEST_REQUIRE(thread.ok, thread.failure);
    BOOST_TEST(queued.wrong == 0);
    BOOST_TEST(thread.wrong == 0);
    BOOST_TEST(queued.echo.served == n);
    BOOST_TEST(thread.echo.served == n);
    BOOST_TEST(queued.echo.bad == 0);
    BOOST_TEST(thread.echo.bad == 0);
    const uint64_t create = 100; // the fake HAL's cost.thread_create_cycles
    // The pool's 16 threads (plus the test's own) vs one more thread per request.
    BOOST_TEST(thread.thread_create_cycles >= static_cast<uint64_t>(n) * create);
    BOOST_TEST(queued.thread_create_cycles < static_cast<uint64_t>(n) * create);
    BOOST_TEST(queued.server_activity > 0u);
    BOOST_TEST(queued.request_activity == 0u);
    BOOST_TEST(thread.request_activity > 0u);
    BOOST_TEST(thread.server_activity == 0u);
}

BOOST_AUTO_TEST_CASE(flow_control_wait_returns_at_the_limit) {
    // fw_group_wait_at_most: with 5 Memputs in flight, waiting for "at most 3"
    // returns after two acknowledgements, before the group is empty.
    FakeOptions o;
    o.cp_count = 1;
    o.iop_count = 1;
    auto fm = make_machine(o);
    std::vector<NodeEnv> envs;
    uint32_t left_after_wait = 99, left_at_end = 99;
    spawn_all(*fm, envs, [&](unsigned node, NodeEnv &e) {
        if (node != 1) {
            return;
        }
        fw_group_t g;
        fw_group_init(e.m, &g);
        auto *src = static_cast<uint8_t *>(hal_mem_alloc(e.h, 4096, 8));
        for (int i = 0; i < 5; ++i) {
            fw_memput_async(e.m, 0, static_cast<uint32_t>(i * 4096), src, 4096, &g);
        }
        fw_group_wait_at_most(e.m, &g, 3);
        left_after_wait = g.outstanding;
        fw_group_wait(e.m, &g);
        left_at_end = g.outstanding;
    });
    BOOST_TEST_REQUIRE(fm->run(), fm->failure());
    BOOST_TEST(left_after_wait <= 3u);
    BOOST_TEST(left_after_wait >= 1u);
    BOOST_TEST(left_at_end == 0u);
}

BOOST_AUTO_TEST_CASE(cache_and_server_sizes) {
    // 2 x K per CP per local disk by default; the pool never exceeds the requests
    // that can be outstanding at once (K per CP per local disk, and a SYNC).
    BOOST_TEST(fw_spfs_cache_buffers(0, 4, 16, 1) == 128u);
    BOOST_TEST(fw_spfs_cache_buffers(0, 1, 16, 2) == 64u);
    BOOST_TEST(fw_spfs_cache_buffers(5, 4, 16, 1) == 80u);
    BOOST_TEST(fw_spfs_server_threads(128, 4, 16, 1) == 65u);
    BOOST_TEST(fw_spfs_server_threads(16, 4, 4, 1) == 16u);
    BOOST_TEST(fw_spfs_server_threads(4, 1, 4, 1) == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
