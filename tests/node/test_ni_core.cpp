// The network interface's untimed core (tlm_models/node/ni_core.h) on its own,
// without SystemC: register values after reset, the send queue with TX_FREE and
// the done FIFO, the receive ring with HEADER and DONE records, ACCEPT /
// ACCEPT_NOTIFY / DISCARD with buffered, later and reserved fragments, handles,
// the interrupt conditions and every programming error's code and register.
#include "hw/ni_regs.h"
#include "tlm_models/node/ni_core.h"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

using starfish::node::NiCore;
using starfish::node::NiFragment;

namespace {

constexpr uint32_t kMemory = 1u << 16;
constexpr uint32_t kRing = 0x1000; // 4 slots
constexpr uint32_t kHeader = 0x2000;
constexpr uint32_t kBody = 0x3000;
constexpr uint32_t kDeposit = 0x8000;

// Records what the core asks of its owner; deposits wait until the test runs them.
struct Bench : NiCore::Client {
    std::vector<uint8_t> memory = std::vector<uint8_t>(kMemory, 0);
    std::vector<std::string> faults; // "code reg: what"
    int irq_changes = 0, pushes = 0, space_returns = 0;
    std::deque<std::pair<uint32_t, NiFragment>> deposits;
    std::vector<std::pair<uint32_t, uint32_t>> pending; // handle, length
    NiCore core;

    explicit Bench(uint32_t depth = 2, uint64_t buffer = 1000)
        : core(NiCore::Config{3, 8, depth, buffer}, *this, memory.data(), kMemory) {}

    void ni_fault(uint32_t code, const std::string &reg, const std::string &what) override {
        faults.push_back(std::to_string(code) + " " + reg + ": " + what);
    }
    void ni_irqs_changed() override { ++irq_changes; }
    void ni_tx_pushed() override { ++pushes; }
    void ni_rx_space_returned() override { ++space_returns; }
    void ni_deposit(uint32_t handle, NiFragment &&f) override {
        deposits.emplace_back(handle, std::move(f));
    }
    void ni_deposit_pending(uint32_t handle, uint32_t length) override {
        pending.emplace_back(handle, length);
    }
    void ni_deposit_arrived(uint32_t handle, NiFragment &&f) override {
        deposits.emplace_back(handle, std::move(f));
    }

    uint32_t r(uint32_t reg) {
        uint32_t v = 0xbad;
        core.registers().read(reg, v);
        return v;
    }
    void w(uint32_t reg, uint32_t v) { core.registers().write(reg, v); }
    void enable(uint32_t bits = 0) {
        w(HW_NI_REG_RX_RING_BASE, kRing);
        w(HW_NI_REG_RX_RING_SLOTS, 4);
        w(HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE | bits);
    }
    void push(uint32_t dest, uint32_t hdr_bytes, uint32_t body_bytes, uint32_t cookie,
              uint32_t flags) {
        w(HW_NI_REG_TX_DEST, dest);
        w(HW_NI_REG_TX_HDR_ADDR, kHeader);
        w(HW_NI_REG_TX_HDR_BYTES, hdr_bytes);
        w(HW_NI_REG_TX_BODY_ADDR, kBody);
        w(HW_NI_REG_TX_BODY_BYTES, body_bytes);
        w(HW_NI_REG_TX_COOKIE, cookie);
        w(HW_NI_REG_TX_PUSH, flags);
    }
    hw_ni_rx_record_t record(uint32_t slot) const {
        hw_ni_rx_record_t rec;
        std::memcpy(&rec, memory.data() + kRing + slot * HW_NI_RX_RECORD_BYTES, sizeof rec);
        return rec;
    }
    void run_deposits() {
        while (!deposits.empty()) {
            auto [handle, f] = std::move(deposits.front());
            deposits.pop_front();
            core.deposit(handle, f);
        }
    }
};

NiFragment fragment(uint32_t offset, std::vector<uint8_t> bytes) {
    NiFragment f;
    f.body_offset = offset;
    f.length = static_cast<uint32_t>(bytes.size());
    f.bytes = std::move(bytes);
    return f;
}

} // namespace

BOOST_AUTO_TEST_SUITE(ni_core)

BOOST_AUTO_TEST_CASE(registers_after_reset) {
    Bench b(5);
    BOOST_TEST(b.r(HW_NI_REG_ID) == HW_NI_ID_VALUE);
    BOOST_TEST(b.r(HW_NI_REG_NODE) == 3u);
    BOOST_TEST(b.r(HW_NI_REG_CTRL) == 0u);
    BOOST_TEST(b.r(HW_NI_REG_ERROR) == 0u);
    BOOST_TEST(b.r(HW_NI_REG_TX_FREE) == 5u);
    BOOST_TEST(b.r(HW_NI_REG_TX_DONE) == HW_NI_NONE);
    BOOST_TEST(b.r(HW_NI_REG_RX_COUNT) == 0u);
    BOOST_TEST(b.r(HW_NI_REG_TX_PUSH) == 0u); // write-only registers read as 0
    b.w(HW_NI_REG_TX_COOKIE, 77);
    BOOST_TEST(b.r(HW_NI_REG_TX_COOKIE) == 77u);
    b.w(HW_NI_REG_CTRL, 0xfffffff0u | HW_NI_CTRL_RX_IRQ); // undefined bits are dropped
    BOOST_TEST(b.r(HW_NI_REG_CTRL) == HW_NI_CTRL_RX_IRQ);
    BOOST_TEST(b.faults.empty());
    BOOST_TEST(!b.core.rx_irq());
    BOOST_TEST(!b.core.tx_irq());
}

BOOST_AUTO_TEST_CASE(send_queue_done_fifo_and_tx_free) {
    Bench b(1);
    const char hdr[] = "HDR-bytes-16-abc";
    std::memcpy(b.memory.data() + kHeader, hdr, 16);
    b.w(HW_NI_REG_CTRL, HW_NI_CTRL_TX_IRQ);
    b.push(2, 16, 100, 41, HW_NI_TX_NOTIFY);
    BOOST_TEST(b.faults.empty());
    BOOST_TEST(b.pushes == 1);
    BOOST_TEST(b.r(HW_NI_REG_TX_FREE) == 0u);
    BOOST_TEST(b.core.tx_pushed() == 1u);
    const auto &d = b.core.tx_descriptor(0);
    BOOST_TEST(d.dest == 2u);
    BOOST_TEST(d.body_addr == kBody);
    BOOST_TEST(d.body_bytes == 100u);
    BOOST_TEST(d.cookie == 41u);
    BOOST_TEST(d.notify);
    BOOST_TEST(std::string(d.header.begin(), d.header.end()) == "HDR-bytes-16-abc");
    // The header is copied at push time: the buffer may be reused at once.
    b.memory[kHeader] = 'X';
    BOOST_TEST(b.core.tx_descriptor(0).header[0] == 'H');

    BOOST_TEST(!b.core.tx_finished(7)); // not queued
    BOOST_TEST(b.core.tx_finished(0));
    BOOST_TEST(b.r(HW_NI_REG_TX_FREE) == 1u);
    BOOST_TEST(b.core.tx_irq());
    BOOST_TEST(b.core.stats().messages_sent == 1u);
    BOOST_TEST(b.r(HW_NI_REG_TX_DONE) == 41u);
    BOOST_TEST(b.r(HW_NI_REG_TX_DONE) == HW_NI_NONE);
    BOOST_TEST(!b.core.tx_irq());
    b.w(HW_NI_REG_CTRL, HW_NI_CTRL_TX_SPACE_IRQ);
    BOOST_TEST(b.core.tx_irq()); // TX_FREE > 0
}

BOOST_AUTO_TEST_CASE(a_full_done_fifo_keeps_the_slot_until_tx_done_is_read) {
    Bench b(1);
    b.push(1, 4, 0, 1, HW_NI_TX_NOTIFY);
    b.core.tx_finished(0);
    b.push(1, 4, 0, 2, HW_NI_TX_NOTIFY);
    b.core.tx_finished(1);
    BOOST_TEST(b.faults.empty());
    BOOST_TEST(b.r(HW_NI_REG_TX_FREE) == 0u); // cookie 2 has no room in the done FIFO
    BOOST_TEST(b.r(HW_NI_REG_TX_DONE) == 1u); // ... until cookie 1 is read
    BOOST_TEST(b.r(HW_NI_REG_TX_FREE) == 1u);
    BOOST_TEST(b.r(HW_NI_REG_TX_DONE) == 2u);
}

BOOST_AUTO_TEST_CASE(push_errors_in_order_and_error_is_sticky) {
    struct Case {
        uint32_t dest, hdr_addr, hdr, body_addr, body;
        uint32_t code;
        const char *text;
    };
    const Case cases[] = {
        {1, kHeader, 6, kBody, 0, HW_NI_ERR_TX_SIZE, "TX_PUSH: TX_HDR_BYTES = 6"},
        {1, kHeader, 4, kBody, HW_NI_MAX_BODY_BYTES + 1, HW_NI_ERR_TX_SIZE,
         "TX_PUSH: TX_BODY_BYTES = 16777217"},
        {1, kHeader, 0, kBody, 0, HW_NI_ERR_TX_SIZE, "TX_PUSH: empty message"},
        {8, kHeader, 4, kBody, 0, HW_NI_ERR_TX_DEST, "TX_PUSH: TX_DEST = 8 names no node"},
        {1, kMemory - 2, 4, kBody, 0, HW_NI_ERR_TX_ADDR, "TX_PUSH: header [0xfffe, +4)"},
        {1, kHeader, 4, kMemory - 10, 64, HW_NI_ERR_TX_ADDR, "TX_PUSH: body [0xfff6, +64)"},
        // A zero-length range is not checked.
        {1, kMemory + 100, 0, kBody, 8, HW_NI_ERR_NONE, ""},
    };
    for (const Case &c : cases) {
        Bench b;
        b.w(HW_NI_REG_TX_DEST, c.dest);
        b.w(HW_NI_REG_TX_HDR_ADDR, c.hdr_addr);
        b.w(HW_NI_REG_TX_HDR_BYTES, c.hdr);
        b.w(HW_NI_REG_TX_BODY_ADDR, c.body_addr);
        b.w(HW_NI_REG_TX_BODY_BYTES, c.body);
        b.w(HW_NI_REG_TX_PUSH, 0);
        BOOST_TEST_CONTEXT(c.text) {
            BOOST_TEST(b.core.error() == c.code);
            if (c.code == HW_NI_ERR_NONE) {
                BOOST_TEST(b.faults.empty());
                BOOST_TEST(b.core.tx_pushed() == 1u);
            } else {
                BOOST_REQUIRE(b.faults.size() == 1u);
                BOOST_TEST(b.faults[0].find(std::to_string(c.code) + " " + c.text) == 0u);
                BOOST_TEST(b.core.tx_pushed() == 0u);
            }
        }
    }
    Bench b(1);
    b.push(1, 4, 0, 0, 0);
    b.push(1, 4, 0, 0, 0);
    BOOST_REQUIRE(b.faults.size() == 1u);
    BOOST_TEST(b.faults[0].find("4 TX_PUSH: push while TX_FREE is 0") == 0u);
    b.w(HW_NI_REG_RX_POP, 1);
    BOOST_TEST(b.faults.size() == 2u);
    BOOST_TEST(b.core.error() == HW_NI_ERR_TX_OVERFLOW); // the first error sticks
}

BOOST_AUTO_TEST_CASE(register_and_ring_errors_name_the_register) {
    Bench b;
    b.w(HW_NI_REG_ID, 1);
    uint32_t v = 0;
    b.core.registers().read(0x100, v);
    b.w(HW_NI_REG_RX_RING_SLOTS, 3);
    b.w(HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE);
    b.w(HW_NI_REG_RX_RING_SLOTS, 4);
    b.w(HW_NI_REG_RX_RING_BASE, kRing + 4);
    b.w(HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE);
    b.w(HW_NI_REG_RX_RING_BASE, kMemory - 128);
    b.w(HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE);
    b.enable();
    b.w(HW_NI_REG_RX_RING_BASE, kRing + 128);
    b.w(HW_NI_REG_RX_CMD, HW_NI_RX_CMD(7, 0));
    b.w(HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT, 5));
    const std::vector<std::string> want = {
        "10 ID: write to a read-only register",
        "10 at offset 0x100: read of an undefined register",
        "5 CTRL: enable with a bad ring: RX_RING_SLOTS = 3",
        "5 CTRL: enable with a bad ring: RX_RING_BASE = 0x1004",
        "5 CTRL: enable with a bad ring: ring [0xff80, 0x10180)",
        "5 RX_RING_BASE: ring changed while CTRL.ENABLE is set",
        "7 RX_CMD: unknown op 7",
        "6 RX_CMD: handle 5 names no message waiting",
    };
    BOOST_REQUIRE(b.faults.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        BOOST_TEST(b.faults[i].find(want[i]) == 0u, b.faults[i]);
    }
    BOOST_TEST(b.core.registers().value(HW_NI_REG_RX_RING_BASE) == kRing); // refused
}

BOOST_AUTO_TEST_CASE(header_records_ring_and_back_pressure) {
    Bench b;
    b.enable(HW_NI_CTRL_RX_IRQ);
    const uint8_t hdr[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    BOOST_TEST(b.core.begin_message(6, hdr, 8, 0) == HW_NI_NONE); // no body: no handle
    BOOST_TEST(b.core.rx_irq());
    const hw_ni_rx_record_t rec = b.record(0);
    BOOST_TEST(rec.kind == HW_NI_REC_HEADER);
    BOOST_TEST(rec.src_node == 6u);
    BOOST_TEST(rec.handle == HW_NI_NONE);
    BOOST_TEST(rec.hdr_bytes == 8u);
    BOOST_TEST(rec.header[7] == 8);
    for (int i = 0; i < 3; ++i) {
        BOOST_TEST(b.core.ring_has_room());
        b.core.begin_message(1, hdr, 4, 0);
    }
    BOOST_TEST(!b.core.ring_has_room()); // 4 records, 4 slots
    BOOST_TEST(b.r(HW_NI_REG_RX_COUNT) == 4u);
    const int before = b.space_returns;
    b.w(HW_NI_REG_RX_POP, 0);
    BOOST_TEST(b.space_returns == before + 1);
    BOOST_TEST(b.r(HW_NI_REG_RX_INDEX) == 1u);
    BOOST_TEST(b.core.ring_has_room());
    BOOST_TEST(b.core.stats().messages_received == 4u);
    // Disabling stops reception; enabling again restarts the ring empty at slot 0.
    b.w(HW_NI_REG_CTRL, 0);
    BOOST_TEST(!b.core.enabled());
    b.w(HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE);
    BOOST_TEST(b.r(HW_NI_REG_RX_COUNT) == 0u);
    BOOST_TEST(b.r(HW_NI_REG_RX_INDEX) == 0u);
}

BOOST_AUTO_TEST_CASE(accept_notify_deposits_buffered_and_later_fragments) {
    Bench b;
    b.enable();
    const uint32_t h = b.core.begin_message(2, nullptr, 0, 6);
    BOOST_TEST(h == 0u);
    b.core.fragment_arrived(h, fragment(0, {10, 11, 12}), false);
    BOOST_TEST(b.core.buffer_free() == 997u);
    BOOST_TEST(b.deposits.empty()); // waits for the answer
    b.w(HW_NI_REG_RX_BODY_ADDR, kDeposit);
    b.w(HW_NI_REG_RX_COOKIE, 99);
    b.w(HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT_NOTIFY, h));
    BOOST_TEST(b.faults.empty());
    BOOST_REQUIRE(b.deposits.size() == 1u);
    b.run_deposits();
    BOOST_TEST(b.memory[kDeposit + 2] == 12);
    BOOST_TEST(b.r(HW_NI_REG_RX_COUNT) == 1u); // no DONE before the whole body is in
    b.core.fragment_arrived(h, fragment(3, {13, 14, 15}), false);
    BOOST_REQUIRE(b.deposits.size() == 1u); // accepted: straight to the DMA
    b.run_deposits();
    BOOST_TEST(b.memory[kDeposit + 5] == 15);
    BOOST_TEST(b.r(HW_NI_REG_RX_COUNT) == 2u);
    const hw_ni_rx_record_t done = b.record(1);
    BOOST_TEST(done.kind == HW_NI_REC_DONE);
    BOOST_TEST(done.handle == h);
    BOOST_TEST(done.cookie == 99u);
    BOOST_TEST(done.src_node == 2u);
    BOOST_TEST(done.body_bytes == 6u);
    BOOST_TEST(b.core.buffer_free() == 1000u);
    BOOST_TEST(b.core.stats().body_bytes_deposited == 6u);
    BOOST_TEST(b.core.stats().rx_buffer_high_water == 3u);
    // The handle is answered: a second answer is an error.
    b.w(HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT, h));
    BOOST_TEST(b.core.error() == HW_NI_ERR_RX_HANDLE);
}

BOOST_AUTO_TEST_CASE(a_done_record_waits_for_a_slot_and_holds_back_new_messages) {
    Bench b;
    b.enable();
    const uint32_t h = b.core.begin_message(2, nullptr, 0, 4);
    b.core.fragment_arrived(h, fragment(0, {1, 2, 3, 4}), false);
    for (int i = 0; i < 3; ++i) {
        b.core.begin_message(1, nullptr, 0, 0);
    }
    b.w(HW_NI_REG_RX_BODY_ADDR, kDeposit);
    b.w(HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT_NOTIFY, h));
    b.run_deposits();
    BOOST_TEST(b.r(HW_NI_REG_RX_COUNT) == 4u);
    b.w(HW_NI_REG_RX_POP, 0);
    BOOST_TEST(b.r(HW_NI_REG_RX_COUNT) == 4u); // the DONE took the freed slot at once
    BOOST_TEST(b.record(0).kind == HW_NI_REC_DONE);
}

BOOST_AUTO_TEST_CASE(discard_drops_buffered_and_reserved_bytes) {
    Bench b;
    b.enable();
    // First fragment (5 bytes) still arriving: its space is reserved now.
    const uint32_t h = b.core.begin_message(4, nullptr, 0, 9, 5);
    BOOST_TEST(b.core.buffer_free() == 995u);
    b.w(HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_DISCARD, h));
    BOOST_TEST(b.faults.empty());
    BOOST_TEST(b.core.buffer_free() == 1000u);
    BOOST_TEST(b.core.discarded(h));
    b.core.fragment_arrived(h, fragment(0, {1, 2, 3, 4, 5}), true);
    b.core.fragment_arrived(h, fragment(5, {6, 7, 8, 9}), false);
    BOOST_TEST(b.deposits.empty());
    BOOST_TEST(b.core.buffer_free() == 1000u);
    BOOST_TEST(b.core.stats().body_bytes_discarded == 9u);
    BOOST_TEST(!b.core.discarded(h)); // complete: the handle is free again
}

BOOST_AUTO_TEST_CASE(accept_while_the_reserved_fragment_arrives) {
    Bench b;
    b.enable();
    const uint32_t h = b.core.begin_message(4, nullptr, 0, 3, 3);
    b.w(HW_NI_REG_RX_BODY_ADDR, kDeposit);
    b.w(HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT, h));
    BOOST_TEST(b.deposits.empty());
    BOOST_REQUIRE(b.pending.size() == 1u);
    BOOST_TEST(b.pending[0].second == 3u);
    b.core.fragment_arrived(h, fragment(0, {7, 8, 9}), true);
    BOOST_REQUIRE(b.deposits.size() == 1u);
    b.run_deposits();
    BOOST_TEST(b.memory[kDeposit] == 7);
    BOOST_TEST(b.r(HW_NI_REG_RX_COUNT) == 1u); // plain ACCEPT: no DONE record
    BOOST_TEST(b.core.buffer_free() == 1000u);
}

BOOST_AUTO_TEST_CASE(handles_are_cyclic_and_never_two_live) {
    Bench b;
    b.enable();
    const uint32_t first = b.core.begin_message(1, nullptr, 0, 8);
    b.w(HW_NI_REG_RX_POP, 0);
    const uint32_t second = b.core.begin_message(1, nullptr, 0, 8);
    BOOST_TEST(first == 0u);
    BOOST_TEST(second == 1u);
    b.w(HW_NI_REG_RX_BODY_ADDR, kMemory - 4);
    b.w(HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT, first));
    BOOST_TEST(b.faults.size() == 1u);
    BOOST_TEST(b.faults[0].find("8 RX_CMD: body [0xfffc, +8) of handle 0") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
