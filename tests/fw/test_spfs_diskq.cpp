// SPFS per-disk request queue (fw/spfs_diskq.h): FCFS order, Cyclical SCAN order
// within a pass, arrivals behind the head waiting for the next pass, the wrap to the
// lowest LBA, the head argument, FIFO ties, depth statistics, capacity, and a
// randomized comparison with a reference C-SCAN.
#include "fw/spfs_diskq.h"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

struct Queue {
    std::vector<uint64_t> mem;
    fw_spfs_diskq_t *q = nullptr;

    Queue(uint32_t capacity, fw_spfs_diskq_discipline_t d) {
        size_t bytes = fw_spfs_diskq_bytes(capacity, d);
        BOOST_TEST_REQUIRE(bytes > 0u);
        mem.assign((bytes + 7) / 8, 0x5a5a5a5a5a5a5a5aull);
        q = fw_spfs_diskq_init(mem.data(), bytes, capacity, d);
        BOOST_TEST_REQUIRE(q != nullptr);
    }
    void push(uint32_t lba, uint64_t cookie) {
        BOOST_TEST_REQUIRE(fw_spfs_diskq_push(q, lba, cookie));
    }
    fw_spfs_diskq_req_t pop(uint32_t head) {
        fw_spfs_diskq_req_t r{};
        BOOST_TEST_REQUIRE(fw_spfs_diskq_pop_next(q, head, &r));
        return r;
    }
    // Pops everything, passing the last popped LBA as the head; returns the LBAs.
    std::vector<uint32_t> drain() {
        std::vector<uint32_t> lbas;
        fw_spfs_diskq_req_t r{};
        while (fw_spfs_diskq_pop_next(q, q->head_lba, &r)) {
            lbas.push_back(r.lba);
        }
        return lbas;
    }
    const fw_spfs_diskq_stats_t &stats() const { return *fw_spfs_diskq_stats(q); }
};

using Lbas = std::vector<uint32_t>;

} // namespace

BOOST_AUTO_TEST_SUITE(spfs_diskq)

BOOST_AUTO_TEST_CASE(sizes_init_and_names) {
    BOOST_TEST(fw_spfs_diskq_bytes(0, FW_SPFS_DISKQ_CSCAN) == 0u);
    BOOST_TEST(fw_spfs_diskq_bytes(4, static_cast<fw_spfs_diskq_discipline_t>(7)) == 0u);
    // C-SCAN keeps two queues, each able to hold every request.
    BOOST_TEST(fw_spfs_diskq_bytes(10, FW_SPFS_DISKQ_CSCAN) >
               fw_spfs_diskq_bytes(10, FW_SPFS_DISKQ_FCFS));
    size_t bytes = fw_spfs_diskq_bytes(4, FW_SPFS_DISKQ_CSCAN);
    std::vector<uint64_t> mem(bytes / 8 + 1);
    BOOST_TEST(fw_spfs_diskq_init(mem.data(), bytes - 1, 4, FW_SPFS_DISKQ_CSCAN) == nullptr);
    BOOST_TEST(fw_spfs_diskq_init(reinterpret_cast<uint8_t *>(mem.data()) + 4, bytes, 4,
                                  FW_SPFS_DISKQ_CSCAN) == nullptr);
    BOOST_TEST(fw_spfs_diskq_init(mem.data(), bytes, 0, FW_SPFS_DISKQ_CSCAN) == nullptr);
    fw_spfs_diskq_t *q = fw_spfs_diskq_init(mem.data(), bytes, 4, FW_SPFS_DISKQ_CSCAN);
    BOOST_TEST_REQUIRE(q != nullptr);
    BOOST_TEST(fw_spfs_diskq_depth(q) == 0u);
    fw_spfs_diskq_req_t r{};
    BOOST_TEST(!fw_spfs_diskq_pop_next(q, 0, &r));

    fw_spfs_diskq_discipline_t d = FW_SPFS_DISKQ_FCFS;
    BOOST_TEST(fw_spfs_diskq_discipline_parse("cscan", &d));
    BOOST_TEST(d == FW_SPFS_DISKQ_CSCAN);
    BOOST_TEST(fw_spfs_diskq_discipline_parse("fcfs", &d));
    BOOST_TEST(d == FW_SPFS_DISKQ_FCFS);
    BOOST_TEST(!fw_spfs_diskq_discipline_parse("scan", &d));
    BOOST_TEST(!fw_spfs_diskq_discipline_parse(nullptr, &d));
    BOOST_TEST(std::string(fw_spfs_diskq_discipline_name(FW_SPFS_DISKQ_CSCAN)) == "cscan");
}

BOOST_AUTO_TEST_CASE(fcfs_is_arrival_order) {
    Queue f(8, FW_SPFS_DISKQ_FCFS);
    for (uint32_t lba : {500u, 10u, 300u, 10u, 0u}) {
        f.push(lba, lba + 1);
    }
    fw_spfs_diskq_req_t r = f.pop(1000); // the head position does not matter
    BOOST_TEST(r.lba == 500u);
    BOOST_TEST(r.cookie == 501u);
    f.push(20, 21); // joins the tail
    BOOST_TEST(f.drain() == (Lbas{10, 300, 10, 0, 20}));
    // The ring wraps around its storage many times.
    for (uint32_t round = 0; round < 50; ++round) {
        for (uint32_t i = 0; i < 5; ++i) {
            f.push(round * 10 + (7 - i), i);
        }
        for (uint32_t i = 0; i < 5; ++i) {
            BOOST_TEST_REQUIRE(f.pop(0).cookie == i);
        }
    }
}

BOOST_AUTO_TEST_CASE(cscan_serves_a_pass_in_lba_order) {
    Queue c(8, FW_SPFS_DISKQ_CSCAN);
    for (uint32_t lba : {300u, 100u, 700u, 200u}) {
        c.push(lba, lba);
    }
    BOOST_TEST(c.drain() == (Lbas{100, 200, 300, 700}));
    BOOST_TEST(c.stats().sweeps == 0u); // one pass from LBA 0 upward, no wrap
}

// The head is at 100 serving a pass; requests arriving behind it wait for the next
// pass, those at or ahead of it join this one; then the head wraps to the lowest.
BOOST_AUTO_TEST_CASE(cscan_arrivals_behind_the_head_wait_for_the_next_pass) {
    Queue c(16, FW_SPFS_DISKQ_CSCAN);
    for (uint32_t lba : {100u, 400u, 800u}) {
        c.push(lba, lba);
    }
    BOOST_TEST(c.pop(0).lba == 100u);
    c.push(50, 50);   // behind
    c.push(600, 600); // ahead
    c.push(100, 101); // at the head: ahead, this pass
    c.push(99, 99);   // behind
    BOOST_TEST(c.pop(100).lba == 100u);
    BOOST_TEST(c.pop(100).lba == 400u);
    c.push(300, 300); // behind 400
    c.push(900, 900); // ahead
    BOOST_TEST(c.pop(400).lba == 600u);
    BOOST_TEST(c.pop(600).lba == 800u);
    BOOST_TEST(c.pop(800).lba == 900u);
    BOOST_TEST(c.stats().sweeps == 0u);
    // Wrap: the next pass starts from the lowest LBA waiting.
    BOOST_TEST(c.pop(900).lba == 50u);
    BOOST_TEST(c.stats().sweeps == 1u);
    c.push(60, 60); // ahead of 50 on the new pass
    c.push(10, 10); // behind: the pass after
    BOOST_TEST(c.drain() == (Lbas{60, 99, 300, 10}));
    BOOST_TEST(c.stats().sweeps == 2u);
    BOOST_TEST(fw_spfs_diskq_depth(c.q) == 0u);
}

// pop_next's head argument: requests the head has moved past (e.g. inside the
// transfer just completed) go to the next pass instead of sending it backwards.
BOOST_AUTO_TEST_CASE(cscan_head_argument_moves_passed_requests_to_the_next_pass) {
    Queue c(8, FW_SPFS_DISKQ_CSCAN);
    for (uint32_t lba : {50u, 100u, 108u, 200u}) {
        c.push(lba, lba);
    }
    BOOST_TEST(c.pop(0).lba == 50u);
    BOOST_TEST(c.pop(150).lba == 200u); // the head is at 150: 100 and 108 are behind it
    BOOST_TEST(c.pop(216).lba == 100u); // wrap
    BOOST_TEST(c.pop(0).lba == 108u);   // a head below the last LBA changes nothing
    BOOST_TEST(c.stats().sweeps == 1u);
}

BOOST_AUTO_TEST_CASE(equal_lbas_leave_in_arrival_order) {
    for (auto d : {FW_SPFS_DISKQ_FCFS, FW_SPFS_DISKQ_CSCAN}) {
        Queue q(32, d);
        for (uint64_t i = 0; i < 10; ++i) {
            q.push(7, i);
            q.push(3, 100 + i);
        }
        std::vector<uint64_t> sevens, threes;
        fw_spfs_diskq_req_t r{};
        while (fw_spfs_diskq_pop_next(q.q, 0, &r)) {
            (r.lba == 7 ? sevens : threes).push_back(r.cookie);
        }
        BOOST_TEST(sevens == (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
        BOOST_TEST(threes ==
                   (std::vector<uint64_t>{100, 101, 102, 103, 104, 105, 106, 107, 108, 109}));
    }
    // Ties in the behind queue keep their order across the swap too.
    Queue c(8, FW_SPFS_DISKQ_CSCAN);
    c.push(500, 0);
    BOOST_TEST(c.pop(0).lba == 500u);
    c.push(20, 1);
    c.push(20, 2);
    c.push(20, 3);
    BOOST_TEST(c.pop(500).cookie == 1u);
    BOOST_TEST(c.pop(20).cookie == 2u);
    BOOST_TEST(c.pop(20).cookie == 3u);
}

BOOST_AUTO_TEST_CASE(depth_statistics_and_capacity) {
    for (auto d : {FW_SPFS_DISKQ_FCFS, FW_SPFS_DISKQ_CSCAN}) {
        Queue q(3, d);
        BOOST_TEST(fw_spfs_diskq_mean_depth(q.q) == 0.0);
        q.push(10, 0); // finds 0 waiting
        q.push(20, 1); // 1
        q.pop(0);
        q.push(30, 2); // 1
        q.push(40, 3); // 2
        BOOST_TEST(fw_spfs_diskq_depth(q.q) == 3u);
        BOOST_TEST(!fw_spfs_diskq_push(q.q, 50, 4)); // full
        BOOST_TEST(fw_spfs_diskq_depth(q.q) == 3u);
        const auto &s = q.stats();
        BOOST_TEST(s.pushes == 4u);
        BOOST_TEST(s.refused == 1u);
        BOOST_TEST(s.pops == 1u);
        BOOST_TEST(s.max_depth == 3u);
        BOOST_TEST(s.depth_sum == 4u);
        BOOST_TEST(fw_spfs_diskq_mean_depth(q.q) == 1.0);
        q.drain();
        BOOST_TEST(fw_spfs_diskq_depth(q.q) == 0u);
        BOOST_TEST(s.pops == 4u);
        BOOST_TEST(s.max_depth == 3u);
    }
}

// Random pushes and pops against a direct statement of C-SCAN: the next request is
// the lowest (LBA, arrival) at or above the head, else the lowest of all, where the
// head is the larger of the last LBA served and the position the caller reports.
BOOST_AUTO_TEST_CASE(cscan_matches_a_reference_on_random_traffic) {
    struct Req {
        uint32_t lba;
        uint64_t seq;
    };
    const uint32_t kCap = 64;
    Queue c(kCap, FW_SPFS_DISKQ_CSCAN);
    std::vector<Req> waiting;
    std::mt19937_64 rng(5);
    uint64_t seq = 0;
    uint32_t last = 0;
    for (int step = 0; step < 50000; ++step) {
        if (waiting.size() < kCap && (waiting.empty() || rng() % 2 == 0)) {
            uint32_t lba = static_cast<uint32_t>(rng() % 2000);
            c.push(lba, seq);
            waiting.push_back({lba, seq++});
            continue;
        }
        uint32_t head = last + static_cast<uint32_t>(rng() % 3 == 0 ? rng() % 50 : 0);
        size_t best = waiting.size();
        for (int wrap = 0; wrap < 2 && best == waiting.size(); ++wrap) {
            for (size_t i = 0; i < waiting.size(); ++i) {
                const Req &r = waiting[i];
                if (wrap == 0 && r.lba < head) {
                    continue;
                }
                if (best == waiting.size() || r.lba < waiting[best].lba ||
                    (r.lba == waiting[best].lba && r.seq < waiting[best].seq)) {
                    best = i;
                }
            }
        }
        fw_spfs_diskq_req_t got = c.pop(head);
        BOOST_TEST_REQUIRE(got.lba == waiting[best].lba);
        BOOST_TEST_REQUIRE(got.cookie == waiting[best].seq);
        last = got.lba;
        waiting.erase(waiting.begin() + static_cast<long>(best));
        BOOST_TEST_REQUIRE(fw_spfs_diskq_depth(c.q) == waiting.size());
    }
}

BOOST_AUTO_TEST_SUITE_END()
