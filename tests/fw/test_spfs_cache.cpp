// SPFS IOP cache bookkeeping (fw/spfs_cache.h): LRU order and victims, busy buffers,
// lookup against a reference model, WriteFull detection whatever the write order,
// the installation-read decision, the prefetch rule and its used/wasted accounting,
// write-back and the parameter checks.
#include "fw/spfs_cache.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <list>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr uint32_t kBlock = 8192;

// A cache in test-owned, 8-byte-aligned storage.
struct Cache {
    std::vector<uint64_t> mem;
    fw_spfs_cache_t *c = nullptr;

    explicit Cache(uint32_t buffers, uint32_t disks = 2, uint32_t granule = 8,
                   uint32_t block = kBlock) {
        fw_spfs_cache_params_t p{buffers, disks, block, granule};
        size_t bytes = fw_spfs_cache_bytes(&p);
        BOOST_TEST_REQUIRE(bytes > 0u);
        mem.assign((bytes + 7) / 8, 0xa5a5a5a5a5a5a5a5ull); // init must not rely on zeroed memory
        c = fw_spfs_cache_init(mem.data(), bytes, &p);
        BOOST_TEST_REQUIRE(c != nullptr);
    }
    const fw_spfs_cache_stats_t &stats() const { return *fw_spfs_cache_stats(c); }
    fw_spfs_buf_state_t state(uint32_t b) const { return fw_spfs_cache_state(c, b); }

    // A read miss whose disk read completes at once.
    uint32_t read_in(uint32_t disk, uint64_t block, bool prefetch = false) {
        uint32_t b = FW_SPFS_NONE;
        BOOST_TEST_REQUIRE(fw_spfs_cache_alloc_read(c, disk, block, kBlock, prefetch, &b) ==
                           FW_SPFS_OK);
        BOOST_TEST_REQUIRE(fw_spfs_cache_fill_done(c, b) == FW_SPFS_OK);
        return b;
    }
    // A write miss on a new file (no installation read), nothing written yet.
    uint32_t new_write_buffer(uint32_t disk, uint64_t block, uint32_t block_len = kBlock) {
        uint32_t b = FW_SPFS_NONE;
        bool install = true;
        BOOST_TEST_REQUIRE(fw_spfs_cache_alloc_write(c, disk, block, block_len, 0, 8, false, &b,
                                                     &install) == FW_SPFS_OK);
        BOOST_TEST_REQUIRE(!install);
        return b;
    }
};

// The LRU order, least recently used first.
std::vector<uint32_t> lru_order(const fw_spfs_cache_t *c) {
    std::vector<uint32_t> order;
    for (uint32_t i = c->lru_head; i != FW_SPFS_NONE; i = c->bufs[i].lru_next) {
        order.push_back(i);
    }
    return order;
}

void check_prefetch_balance(const Cache &k) {
    const auto &s = k.stats();
    BOOST_TEST(s.prefetches_issued ==
               s.prefetches_used + s.prefetches_wasted + fw_spfs_cache_unread_prefetches(k.c));
}

} // namespace

BOOST_AUTO_TEST_SUITE(spfs_cache)

BOOST_AUTO_TEST_CASE(granule_is_largest_common_power_of_two) {
    BOOST_TEST(fw_spfs_cache_granule(8, 8192) == 8u);
    BOOST_TEST(fw_spfs_cache_granule(1024, 8192) == 1024u);
    BOOST_TEST(fw_spfs_cache_granule(8192, 8192) == 8192u);
    BOOST_TEST(fw_spfs_cache_granule(16384, 8192) == 8192u);
    BOOST_TEST(fw_spfs_cache_granule(12, 8192) == 4u);
    BOOST_TEST(fw_spfs_cache_granule(3, 8192) == 1u);
    BOOST_TEST(fw_spfs_cache_granule(8, 1000) == 8u);
}

BOOST_AUTO_TEST_CASE(parameters_and_memory_are_checked) {
    fw_spfs_cache_params_t ok{4, 2, kBlock, 8};
    size_t bytes = fw_spfs_cache_bytes(&ok);
    BOOST_TEST(bytes > 0u);
    // 1024 granules of 8 bytes: a 128-byte bitmap per buffer is part of the memory.
    BOOST_TEST(bytes >= 4u * 128u);
    fw_spfs_cache_params_t bad[] = {
        {0, 2, kBlock, 8}, {4, 0, kBlock, 8},  {4, 2, 0, 8},
        {4, 2, kBlock, 0}, {4, 2, kBlock, 12}, {4, 2, 1000, 16},
    };
    for (const auto &p : bad) {
        BOOST_TEST(fw_spfs_cache_bytes(&p) == 0u);
    }
    std::vector<uint64_t> mem(bytes / 8 + 2);
    BOOST_TEST(fw_spfs_cache_init(mem.data(), bytes - 1, &ok) == nullptr);
    BOOST_TEST(fw_spfs_cache_init(reinterpret_cast<uint8_t *>(mem.data()) + 4, bytes, &ok) ==
               nullptr);
    BOOST_TEST(fw_spfs_cache_init(mem.data(), bytes, &bad[0]) == nullptr);
    fw_spfs_cache_t *c = fw_spfs_cache_init(mem.data(), bytes, &ok);
    BOOST_TEST_REQUIRE(c != nullptr);
    for (uint32_t i = 0; i < 4; ++i) {
        BOOST_TEST(fw_spfs_cache_state(c, i) == FW_SPFS_BUF_FREE);
    }
    BOOST_TEST(lru_order(c) == (std::vector<uint32_t>{0, 1, 2, 3}));
}

BOOST_AUTO_TEST_CASE(lru_order_touch_and_eviction) {
    Cache k(4);
    uint32_t a = k.read_in(0, 10), b = k.read_in(0, 11), c = k.read_in(1, 10), d = k.read_in(1, 11);
    BOOST_TEST(k.stats().misses == 4u);
    BOOST_TEST(k.stats().evictions == 0u); // free buffers are taken first
    BOOST_TEST(lru_order(k.c) == (std::vector<uint32_t>{a, b, c, d}));
    BOOST_TEST(fw_spfs_cache_victim(k.c) == a);

    // A hit makes a buffer most recently used; the victim moves on.
    BOOST_TEST(fw_spfs_cache_lookup(k.c, 0, 10) == a);
    fw_spfs_cache_hit(k.c, a, true);
    BOOST_TEST(k.stats().hits == 1u);
    BOOST_TEST(lru_order(k.c) == (std::vector<uint32_t>{b, c, d, a}));
    BOOST_TEST(fw_spfs_cache_victim(k.c) == b);
    fw_spfs_cache_touch(k.c, c);
    BOOST_TEST(lru_order(k.c) == (std::vector<uint32_t>{b, d, a, c}));

    // The next miss evicts the LRU buffer and forgets its block.
    uint32_t e = k.read_in(0, 12);
    BOOST_TEST(e == b);
    BOOST_TEST(k.stats().evictions == 1u);
    BOOST_TEST(fw_spfs_cache_lookup(k.c, 0, 11) == FW_SPFS_NONE);
    BOOST_TEST(fw_spfs_cache_lookup(k.c, 0, 12) == e);
    BOOST_TEST(lru_order(k.c) == (std::vector<uint32_t>{d, a, c, e}));

    // A dropped buffer becomes the first victim again, and reusing it is no eviction.
    BOOST_TEST(fw_spfs_cache_drop(k.c, a) == FW_SPFS_OK);
    BOOST_TEST(k.state(a) == FW_SPFS_BUF_FREE);
    BOOST_TEST(fw_spfs_cache_lookup(k.c, 0, 10) == FW_SPFS_NONE);
    BOOST_TEST(fw_spfs_cache_victim(k.c) == a);
    k.read_in(1, 99);
    BOOST_TEST(k.stats().evictions == 1u);
}

BOOST_AUTO_TEST_CASE(busy_buffers_are_never_evicted) {
    Cache k(4);
    uint32_t pinned = k.read_in(0, 1);
    fw_spfs_cache_pin(k.c, pinned);
    uint32_t filling = FW_SPFS_NONE;
    BOOST_TEST_REQUIRE(fw_spfs_cache_alloc_read(k.c, 0, 2, kBlock, false, &filling) == FW_SPFS_OK);
    uint32_t dirty = k.new_write_buffer(0, 3);
    BOOST_TEST(fw_spfs_cache_write(k.c, dirty, 0, 8) == FW_SPFS_OK);
    uint32_t flushing = k.new_write_buffer(0, 4);
    BOOST_TEST(fw_spfs_cache_write(k.c, flushing, 0, kBlock) == FW_SPFS_FULL);
    BOOST_TEST(fw_spfs_cache_writeback_begin(k.c, flushing) == FW_SPFS_OK);
    BOOST_TEST(k.state(filling) == FW_SPFS_BUF_FILLING);
    BOOST_TEST(k.state(dirty) == FW_SPFS_BUF_DIRTY);
    BOOST_TEST(k.state(flushing) == FW_SPFS_BUF_WRITEBACK);
    for (uint32_t b : {pinned, filling, dirty, flushing}) {
        BOOST_TEST(fw_spfs_cache_busy(k.c, b));
    }

    // Every buffer busy: "none free", counted, and nothing changes.
    BOOST_TEST(fw_spfs_cache_victim(k.c) == FW_SPFS_NONE);
    auto before = lru_order(k.c);
    uint32_t out = 1234;
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 1, 7, kBlock, false, &out) == FW_SPFS_ENOBUF);
    bool install = false;
    BOOST_TEST(fw_spfs_cache_alloc_write(k.c, 1, 8, kBlock, 0, 8, true, &out, &install) ==
               FW_SPFS_ENOBUF);
    BOOST_TEST(out == 1234u);
    BOOST_TEST(k.stats().no_buffer == 2u);
    BOOST_TEST(k.stats().misses == 4u); // refused allocations are not misses
    BOOST_TEST(k.stats().installation_reads == 0u);
    BOOST_TEST(lru_order(k.c) == before);
    BOOST_TEST(fw_spfs_cache_lookup(k.c, 1, 7) == FW_SPFS_NONE);
    BOOST_TEST(fw_spfs_cache_drop(k.c, pinned) == FW_SPFS_ESTATE);

    // Each buffer becomes a victim only once its reason to be busy ends.
    BOOST_TEST(fw_spfs_cache_writeback_done(k.c, flushing) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_victim(k.c) == flushing);
    fw_spfs_cache_pin(k.c, flushing);
    BOOST_TEST(fw_spfs_cache_victim(k.c) == FW_SPFS_NONE);
    BOOST_TEST(fw_spfs_cache_unpin(k.c, pinned) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_unpin(k.c, pinned) == FW_SPFS_ESTATE);
    BOOST_TEST(fw_spfs_cache_victim(k.c) == pinned); // the least recently used
    fw_spfs_cache_pin(k.c, pinned);
    BOOST_TEST(fw_spfs_cache_fill_done(k.c, filling) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_victim(k.c) == filling);
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 1, 7, kBlock, false, &out) == FW_SPFS_OK);
    BOOST_TEST(out == filling);
    // A partly written buffer is never a victim (it must be written back first).
    BOOST_TEST(k.state(dirty) == FW_SPFS_BUF_DIRTY);
    BOOST_TEST(fw_spfs_cache_lookup(k.c, 0, 3) == dirty);
}

BOOST_AUTO_TEST_CASE(allocation_errors) {
    Cache k(2, 2);
    uint32_t b = k.read_in(0, 5);
    uint32_t out = 77;
    bool install = false;
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 0, 5, kBlock, false, &out) == FW_SPFS_EEXIST);
    BOOST_TEST(fw_spfs_cache_alloc_write(k.c, 0, 5, kBlock, 0, 8, false, &out, &install) ==
               FW_SPFS_EEXIST);
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 2, 5, kBlock, false, &out) == FW_SPFS_ERANGE);
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 1, 5, 0, false, &out) == FW_SPFS_ERANGE);
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 1, 5, kBlock + 1, false, &out) == FW_SPFS_ERANGE);
    BOOST_TEST(fw_spfs_cache_alloc_write(k.c, 1, 5, 4096, 4000, 100, false, &out, &install) ==
               FW_SPFS_ERANGE);
    BOOST_TEST(fw_spfs_cache_alloc_write(k.c, 1, 5, 4096, 0, 0, false, &out, &install) ==
               FW_SPFS_ERANGE);
    BOOST_TEST(out == 77u);
    BOOST_TEST(k.stats().misses == 1u);
    BOOST_TEST(fw_spfs_cache_fill_done(k.c, b) == FW_SPFS_ESTATE);
    BOOST_TEST(fw_spfs_cache_writeback_begin(k.c, b) == FW_SPFS_ESTATE);
    BOOST_TEST(fw_spfs_cache_writeback_done(k.c, b) == FW_SPFS_ESTATE);
}

// Random traffic against a reference LRU: lookups find exactly the cached blocks,
// and victims follow least-recent use, with many blocks per hash bucket.
BOOST_AUTO_TEST_CASE(lookup_and_lru_match_a_reference_model) {
    const uint32_t kBuffers = 24, kDisks = 3;
    Cache k(kBuffers, kDisks);
    std::list<std::pair<uint32_t, uint64_t>> lru; // front = least recently used
    std::mt19937_64 rng(7);
    for (int step = 0; step < 20000; ++step) {
        uint32_t disk = static_cast<uint32_t>(rng() % kDisks);
        uint64_t block = rng() % 40;
        auto key = std::make_pair(disk, block);
        auto it = std::find(lru.begin(), lru.end(), key);
        uint32_t b = fw_spfs_cache_lookup(k.c, disk, block);
        BOOST_TEST_REQUIRE((b != FW_SPFS_NONE) == (it != lru.end()));
        if (b != FW_SPFS_NONE) {
            const fw_spfs_buf_t *buf = fw_spfs_cache_buf(k.c, b);
            BOOST_TEST_REQUIRE(buf->disk == disk);
            BOOST_TEST_REQUIRE(buf->block == block);
            fw_spfs_cache_hit(k.c, b, true);
            lru.erase(it);
        } else {
            if (lru.size() == kBuffers) {
                uint32_t v = fw_spfs_cache_victim(k.c);
                BOOST_TEST_REQUIRE(v != FW_SPFS_NONE);
                BOOST_TEST_REQUIRE(fw_spfs_cache_buf(k.c, v)->disk == lru.front().first);
                BOOST_TEST_REQUIRE(fw_spfs_cache_buf(k.c, v)->block == lru.front().second);
                lru.pop_front();
            }
            k.read_in(disk, block);
        }
        lru.push_back(key);
    }
    BOOST_TEST(k.stats().hits + k.stats().misses == 20000u);
    BOOST_TEST(k.stats().evictions == k.stats().misses - kBuffers);
}

BOOST_AUTO_TEST_CASE(write_full_whatever_the_order) {
    Cache k(2);
    uint32_t b = k.new_write_buffer(0, 0);
    // 1024 records of 8 bytes in a random order: full exactly at the last one.
    std::vector<uint32_t> records(kBlock / 8);
    for (uint32_t i = 0; i < records.size(); ++i) {
        records[i] = i;
    }
    std::shuffle(records.begin(), records.end(), std::mt19937(3));
    for (size_t i = 0; i < records.size(); ++i) {
        int rc = fw_spfs_cache_write(k.c, b, records[i] * 8, 8);
        BOOST_TEST_REQUIRE(rc == (i + 1 == records.size() ? FW_SPFS_FULL : FW_SPFS_OK));
        BOOST_TEST_REQUIRE(fw_spfs_cache_full(k.c, b) == (i + 1 == records.size()));
    }
    BOOST_TEST(k.state(b) == FW_SPFS_BUF_DIRTY); // the caller queues the write-back
    BOOST_TEST(fw_spfs_cache_readable(k.c, b));

    // Backwards in runs of 3 records (24 bytes), the first run short.
    uint32_t r = k.new_write_buffer(0, 1);
    uint32_t end = kBlock;
    int last = FW_SPFS_OK;
    while (end > 0) {
        uint32_t len = std::min<uint32_t>(24, end);
        uint32_t at = end - len;
        last = fw_spfs_cache_write(k.c, r, at, len);
        BOOST_TEST_REQUIRE((last == FW_SPFS_FULL) == (at == 0));
        end = at;
    }
    BOOST_TEST(last == FW_SPFS_FULL);
}

// Like wc with 4 CPs: record i of every block goes to CP i mod 4, and the CPs'
// requests reach the IOP interleaved over four blocks in a scrambled order. Each
// block is reported full once, when its last byte arrives, and not before.
BOOST_AUTO_TEST_CASE(write_full_with_writes_interleaved_over_blocks) {
    const uint32_t kBlocks = 4;
    Cache k(8, 1);
    std::vector<uint32_t> buf(kBlocks);
    for (uint32_t blk = 0; blk < kBlocks; ++blk) {
        buf[blk] = k.new_write_buffer(0, blk);
    }
    struct Write {
        uint32_t block, offset;
    };
    std::vector<Write> writes;
    for (uint32_t cp = 0; cp < 4; ++cp) {
        for (uint32_t blk = 0; blk < kBlocks; ++blk) {
            for (uint32_t rec = cp; rec < kBlock / 8; rec += 4) {
                writes.push_back({blk, rec * 8});
            }
        }
    }
    std::shuffle(writes.begin(), writes.end(), std::mt19937(11));
    std::vector<uint32_t> remaining(kBlocks, kBlock / 8);
    std::vector<int> full_reports(kBlocks, 0);
    for (const Write &w : writes) {
        int rc = fw_spfs_cache_write(k.c, buf[w.block], w.offset, 8);
        --remaining[w.block];
        BOOST_TEST_REQUIRE((rc == FW_SPFS_FULL) == (remaining[w.block] == 0));
        full_reports[w.block] += rc == FW_SPFS_FULL;
        for (uint32_t blk = 0; blk < kBlocks; ++blk) {
            BOOST_TEST_REQUIRE(fw_spfs_cache_full(k.c, buf[blk]) == (remaining[blk] == 0));
        }
    }
    BOOST_TEST(full_reports == std::vector<int>(kBlocks, 1));
}

BOOST_AUTO_TEST_CASE(a_byte_written_twice_counts_once) {
    Cache k(2);
    uint32_t b = k.new_write_buffer(0, 0);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 0, 4096) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 0, 4096) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 2048, 4096) == FW_SPFS_OK); // overlaps both halves
    BOOST_TEST(fw_spfs_cache_buf(k.c, b)->written_granules == 6144u / 8u);
    BOOST_TEST(!fw_spfs_cache_full(k.c, b));
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 6144, 2048) == FW_SPFS_FULL);
    // Writing more into a full buffer keeps it full (still reported, never more).
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 8, 8) == FW_SPFS_FULL);
    BOOST_TEST(fw_spfs_cache_buf(k.c, b)->written_granules == kBlock / 8u);

    // Byte granules: odd offsets and lengths, overlapping, across bitmap words.
    Cache one(1, 1, 1);
    uint32_t o = one.new_write_buffer(0, 0, 1000);
    BOOST_TEST(fw_spfs_cache_write(one.c, o, 3, 61) == FW_SPFS_OK);  // [3, 64)
    BOOST_TEST(fw_spfs_cache_write(one.c, o, 60, 77) == FW_SPFS_OK); // [60, 137)
    BOOST_TEST(fw_spfs_cache_write(one.c, o, 0, 5) == FW_SPFS_OK);   // [0, 5)
    BOOST_TEST(fw_spfs_cache_buf(one.c, o)->written_granules == 137u);
    BOOST_TEST(fw_spfs_cache_write(one.c, o, 137, 862) == FW_SPFS_OK);   // [137, 999)
    BOOST_TEST(fw_spfs_cache_write(one.c, o, 500, 500) == FW_SPFS_FULL); // [500, 1000)
}

BOOST_AUTO_TEST_CASE(writes_must_fit_the_granule_and_the_block) {
    Cache k(2);
    uint32_t b = k.new_write_buffer(0, 0);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 4, 8) == FW_SPFS_EALIGN);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 8, 12) == FW_SPFS_EALIGN);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, kBlock - 8, 16) == FW_SPFS_ERANGE);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 0, 0) == FW_SPFS_ERANGE);
    BOOST_TEST(fw_spfs_cache_buf(k.c, b)->written_granules == 0u);

    // A file's last block may be short and end inside a granule.
    uint32_t last = k.new_write_buffer(0, 1, 100);
    BOOST_TEST(fw_spfs_cache_write(k.c, last, 96, 4) == FW_SPFS_OK); // to the block's end
    BOOST_TEST(fw_spfs_cache_write(k.c, last, 0, 96) == FW_SPFS_FULL);
    BOOST_TEST(fw_spfs_cache_write(k.c, last, 96, 8) == FW_SPFS_ERANGE);

    // Writes wait while a fill or a write-back is in progress.
    uint32_t f = FW_SPFS_NONE;
    BOOST_TEST(fw_spfs_cache_writeback_begin(k.c, b) == FW_SPFS_OK); // no file data: flushable
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 0, 8) == FW_SPFS_ESTATE);
    BOOST_TEST(fw_spfs_cache_writeback_done(k.c, b) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 1, 0, kBlock, false, &f) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_write(k.c, f, 0, 8) == FW_SPFS_ESTATE);
}

BOOST_AUTO_TEST_CASE(partial_last_block_is_full_at_its_length) {
    Cache k(1);
    uint32_t b = k.new_write_buffer(0, 0, 4000);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 2000, 2000) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 0, 2000) == FW_SPFS_FULL);
}

BOOST_AUTO_TEST_CASE(installation_read_decision) {
    // The rule itself.
    BOOST_TEST(fw_spfs_installation_read_needed(kBlock, 0, 4096, true));    // LU's column writes
    BOOST_TEST(fw_spfs_installation_read_needed(kBlock, 4096, 4096, true)); // the other half
    BOOST_TEST(fw_spfs_installation_read_needed(kBlock, 8, 8, true));
    BOOST_TEST(!fw_spfs_installation_read_needed(kBlock, 0, kBlock, true)); // whole block
    BOOST_TEST(!fw_spfs_installation_read_needed(4000, 0, 4000, true));     // whole last block
    BOOST_TEST(!fw_spfs_installation_read_needed(kBlock, 0, 4096, false));  // new file
    BOOST_TEST(!fw_spfs_installation_read_needed(kBlock, 8, 8, false));

    Cache k(8);
    // Partial write to a block holding file data: read it first.
    uint32_t b = FW_SPFS_NONE;
    bool install = false;
    BOOST_TEST(fw_spfs_cache_alloc_write(k.c, 0, 3, kBlock, 0, 4096, true, &b, &install) ==
               FW_SPFS_OK);
    BOOST_TEST(install);
    BOOST_TEST(k.state(b) == FW_SPFS_BUF_FILLING);
    BOOST_TEST(!fw_spfs_cache_readable(k.c, b));
    BOOST_TEST(k.stats().installation_reads == 1u);
    BOOST_TEST(k.stats().misses == 1u);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 0, 4096) == FW_SPFS_ESTATE); // after the fill
    BOOST_TEST(fw_spfs_cache_fill_done(k.c, b) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_write(k.c, b, 0, 4096) == FW_SPFS_OK);
    BOOST_TEST(k.state(b) == FW_SPFS_BUF_DIRTY);
    // Half written over valid data: readable, and may be flushed before it is full.
    BOOST_TEST(fw_spfs_cache_readable(k.c, b));
    BOOST_TEST(fw_spfs_cache_lru_flushable(k.c) == b);

    // The same write to a new file's block: no read.
    uint32_t n = FW_SPFS_NONE;
    BOOST_TEST(fw_spfs_cache_alloc_write(k.c, 0, 4, kBlock, 0, 4096, false, &n, &install) ==
               FW_SPFS_OK);
    BOOST_TEST(!install);
    BOOST_TEST(k.state(n) == FW_SPFS_BUF_DIRTY);
    BOOST_TEST(fw_spfs_cache_readable(k.c, n));

    // A whole-block write over file data: no read, and the buffer holds nothing valid
    // (neither readable nor flushable) until the write lands.
    uint32_t w = FW_SPFS_NONE;
    BOOST_TEST(fw_spfs_cache_alloc_write(k.c, 1, 4, kBlock, 0, kBlock, true, &w, &install) ==
               FW_SPFS_OK);
    BOOST_TEST(!install);
    BOOST_TEST(!fw_spfs_cache_readable(k.c, w));
    BOOST_TEST(fw_spfs_cache_writeback_begin(k.c, w) == FW_SPFS_ESTATE);
    BOOST_TEST(fw_spfs_cache_write(k.c, w, 0, kBlock) == FW_SPFS_FULL);
    BOOST_TEST(fw_spfs_cache_readable(k.c, w));
    BOOST_TEST(k.stats().installation_reads == 1u);
    BOOST_TEST(k.stats().misses == 3u);

    // A write to a cached (read) block needs no read either: it is a hit.
    uint32_t r = k.read_in(1, 5);
    fw_spfs_cache_hit(k.c, r, false);
    BOOST_TEST(fw_spfs_cache_write(k.c, r, 8, 8) == FW_SPFS_OK);
    BOOST_TEST(k.state(r) == FW_SPFS_BUF_DIRTY);
    BOOST_TEST(fw_spfs_cache_readable(k.c, r));
    BOOST_TEST(k.stats().installation_reads == 1u);
}

BOOST_AUTO_TEST_CASE(writeback_cycle_and_flushing) {
    Cache k(4);
    uint32_t full = k.new_write_buffer(0, 0);
    uint32_t part = k.new_write_buffer(0, 1);
    BOOST_TEST(fw_spfs_cache_write(k.c, full, 0, kBlock) == FW_SPFS_FULL);
    BOOST_TEST(fw_spfs_cache_write(k.c, part, 0, 8) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_next_dirty(k.c, 0) == std::min(full, part));
    BOOST_TEST(fw_spfs_cache_next_dirty(k.c, std::min(full, part) + 1) == std::max(full, part));

    BOOST_TEST(fw_spfs_cache_writeback_begin(k.c, full) == FW_SPFS_OK);
    BOOST_TEST(k.state(full) == FW_SPFS_BUF_WRITEBACK);
    BOOST_TEST(fw_spfs_cache_readable(k.c, full)); // readers need not wait
    BOOST_TEST(fw_spfs_cache_writeback_begin(k.c, full) == FW_SPFS_ESTATE);
    BOOST_TEST(fw_spfs_cache_writeback_done(k.c, full) == FW_SPFS_OK);
    BOOST_TEST(k.state(full) == FW_SPFS_BUF_VALID);
    BOOST_TEST(!fw_spfs_cache_full(k.c, full)); // nothing written since
    BOOST_TEST(fw_spfs_cache_buf(k.c, full)->written_granules == 0u);
    BOOST_TEST(fw_spfs_cache_lookup(k.c, 0, 0) == full); // still cached, clean
    BOOST_TEST(!fw_spfs_cache_busy(k.c, full));
    // Written again after its write-back, it fills up again from scratch.
    BOOST_TEST(fw_spfs_cache_write(k.c, full, 0, 4096) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_write(k.c, full, 4096, 4096) == FW_SPFS_FULL);

    // Forced flush of the partial buffer (its other bytes hold no file data).
    BOOST_TEST(fw_spfs_cache_lru_flushable(k.c) == full); // least recently used first
    fw_spfs_cache_touch(k.c, full);
    BOOST_TEST(fw_spfs_cache_lru_flushable(k.c) == part);
    fw_spfs_cache_pin(k.c, part);
    BOOST_TEST(fw_spfs_cache_lru_flushable(k.c) == full);
    BOOST_TEST(fw_spfs_cache_unpin(k.c, part) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_writeback_begin(k.c, part) == FW_SPFS_OK);
    BOOST_TEST(k.stats().writebacks == 2u);
    BOOST_TEST(k.stats().partial_writebacks == 1u);
}

BOOST_AUTO_TEST_CASE(prefetch_rule_stops_at_the_disks_last_block) {
    Cache k(4, 2);
    uint64_t next = 999;
    // A disk holding 5 blocks of the file: 0 … 4.
    BOOST_TEST(fw_spfs_cache_prefetch_candidate(k.c, 0, 2, 5, &next));
    BOOST_TEST(next == 3u);
    BOOST_TEST(fw_spfs_cache_prefetch_candidate(k.c, 0, 3, 5, &next));
    BOOST_TEST(next == 4u);
    next = 999;
    BOOST_TEST(!fw_spfs_cache_prefetch_candidate(k.c, 0, 4, 5, &next)); // last block
    BOOST_TEST(!fw_spfs_cache_prefetch_candidate(k.c, 0, 0, 1, &next)); // only block
    BOOST_TEST(next == 999u);
    // Not when the next block is already cached on that disk, in any state.
    uint32_t b = FW_SPFS_NONE;
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 0, 3, kBlock, true, &b) == FW_SPFS_OK);
    BOOST_TEST(!fw_spfs_cache_prefetch_candidate(k.c, 0, 2, 5, &next));
    // The same block number on another disk is another block.
    BOOST_TEST(fw_spfs_cache_prefetch_candidate(k.c, 1, 2, 5, &next));
    BOOST_TEST(next == 3u);
}

BOOST_AUTO_TEST_CASE(prefetch_used_and_wasted) {
    Cache k(4, 1);
    // Used: a read finds the prefetch (even while it is still filling); only once.
    uint32_t p = FW_SPFS_NONE;
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 0, 1, kBlock, true, &p) == FW_SPFS_OK);
    BOOST_TEST(k.stats().prefetches_issued == 1u);
    BOOST_TEST(k.stats().misses == 0u);
    BOOST_TEST(fw_spfs_cache_unread_prefetches(k.c) == 1u);
    fw_spfs_cache_hit(k.c, p, true);
    BOOST_TEST(k.stats().prefetches_used == 1u);
    BOOST_TEST(fw_spfs_cache_fill_done(k.c, p) == FW_SPFS_OK);
    fw_spfs_cache_hit(k.c, p, true);
    BOOST_TEST(k.stats().prefetches_used == 1u);
    check_prefetch_balance(k);

    // Wasted: evicted unread.
    k.read_in(0, 2, true);
    for (uint64_t blk = 10; blk < 14; ++blk) { // the last two evict blocks 1 (read) and 2
        k.read_in(0, blk);
    }
    BOOST_TEST(fw_spfs_cache_lookup(k.c, 0, 1) == FW_SPFS_NONE);
    BOOST_TEST(fw_spfs_cache_lookup(k.c, 0, 2) == FW_SPFS_NONE);
    BOOST_TEST(k.stats().prefetches_wasted == 1u);
    check_prefetch_balance(k);

    // Wasted: every byte overwritten before any read.
    uint32_t w = k.read_in(0, 20, true);
    fw_spfs_cache_hit(k.c, w, false); // a write hit does not use the prefetch
    BOOST_TEST(fw_spfs_cache_write(k.c, w, 0, 4096) == FW_SPFS_OK);
    BOOST_TEST(k.stats().prefetches_wasted == 1u);
    BOOST_TEST(fw_spfs_cache_write(k.c, w, 4096, 4096) == FW_SPFS_FULL);
    BOOST_TEST(k.stats().prefetches_wasted == 2u);
    check_prefetch_balance(k);

    // Used: partly overwritten, then read.
    uint32_t u = k.read_in(0, 30, true);
    BOOST_TEST(fw_spfs_cache_write(k.c, u, 0, 8) == FW_SPFS_OK);
    fw_spfs_cache_hit(k.c, u, true);
    BOOST_TEST(k.stats().prefetches_used == 2u);

    // Wasted: dropped unread (e.g. its read failed). Left unread: counted as unread.
    uint32_t d = FW_SPFS_NONE;
    BOOST_TEST(fw_spfs_cache_alloc_read(k.c, 0, 40, kBlock, true, &d) == FW_SPFS_OK);
    BOOST_TEST(fw_spfs_cache_drop(k.c, d) == FW_SPFS_OK);
    BOOST_TEST(k.stats().prefetches_wasted == 3u);
    k.read_in(0, 50, true);
    BOOST_TEST(fw_spfs_cache_unread_prefetches(k.c) == 1u);
    BOOST_TEST(k.stats().prefetches_issued == 6u);
    check_prefetch_balance(k);
}

BOOST_AUTO_TEST_CASE(names) {
    BOOST_TEST(std::string(fw_spfs_buf_state_name(FW_SPFS_BUF_WRITEBACK)) == "WRITEBACK");
    BOOST_TEST(std::string(fw_spfs_status_name(FW_SPFS_ENOBUF)) == "FW_SPFS_ENOBUF");
    BOOST_TEST(std::string(fw_spfs_status_name(42)) == "FW_SPFS_UNKNOWN");
}

// The per-state counts (what a traced run shows as the IOP's cache occupancy) equal
// a census of the buffers after every operation of a random workload, and the
// observer hears of every change.
BOOST_AUTO_TEST_CASE(state_counts_match_a_census_and_the_observer_hears_each_change) {
    Cache k(6, 2, 8);
    struct Heard {
        uint64_t calls = 0;
        uint32_t counts[5] = {};
    } heard;
    fw_spfs_cache_observe(
        k.c,
        [](void *arg, const fw_spfs_cache_t *c) {
            auto *h = static_cast<Heard *>(arg);
            ++h->calls;
            for (int s = 0; s < 5; ++s) {
                h->counts[s] = fw_spfs_cache_count(c, static_cast<fw_spfs_buf_state_t>(s));
            }
        },
        &heard);
    BOOST_TEST(fw_spfs_cache_count(k.c, FW_SPFS_BUF_FREE) == 6u);
    std::mt19937 rng(11);
    uint64_t changes = 0;
    for (int step = 0; step < 4000; ++step) {
        std::vector<fw_spfs_buf_state_t> before;
        for (uint32_t b = 0; b < 6; ++b) {
            before.push_back(k.state(b));
        }
        uint32_t disk = rng() % 2;
        uint64_t block = rng() % 10;
        uint32_t b = fw_spfs_cache_lookup(k.c, disk, block);
        switch (rng() % 4) {
        case 0:
            if (b == FW_SPFS_NONE) {
                uint32_t got = FW_SPFS_NONE;
                fw_spfs_cache_alloc_read(k.c, disk, block, kBlock, rng() % 2 == 0, &got);
            } else if (k.state(b) == FW_SPFS_BUF_FILLING) {
                fw_spfs_cache_fill_done(k.c, b);
            }
            break;
        case 1:
            if (b != FW_SPFS_NONE &&
                (k.state(b) == FW_SPFS_BUF_VALID || k.state(b) == FW_SPFS_BUF_DIRTY)) {
                fw_spfs_cache_write(k.c, b, (rng() % 1024) * 8, 8);
            }
            break;
        case 2:
            if (b != FW_SPFS_NONE && k.state(b) == FW_SPFS_BUF_DIRTY) {
                fw_spfs_cache_writeback_begin(k.c, b);
            } else if (b != FW_SPFS_NONE && k.state(b) == FW_SPFS_BUF_WRITEBACK) {
                fw_spfs_cache_writeback_done(k.c, b);
            }
            break;
        default:
            if (b != FW_SPFS_NONE) {
                fw_spfs_cache_drop(k.c, b);
            }
            break;
        }
        uint32_t census[5] = {};
        for (uint32_t i = 0; i < 6; ++i) {
            ++census[k.state(i)];
            changes += k.state(i) != before[i];
        }
        for (int s = 0; s < 5; ++s) {
            BOOST_TEST_REQUIRE(fw_spfs_cache_count(k.c, static_cast<fw_spfs_buf_state_t>(s)) ==
                               census[s]);
            if (heard.calls > 0) {
                BOOST_TEST_REQUIRE(heard.counts[s] == census[s]);
            }
        }
    }
    // Every state that changed was heard (a rebinding of a VALID buffer to a new
    // FILLING block changes state once; nothing changes state silently).
    BOOST_TEST(heard.calls >= changes);
    BOOST_TEST(changes > 500u);
}

BOOST_AUTO_TEST_SUITE_END()
