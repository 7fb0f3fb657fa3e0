// The DMA engine's RTL (rtl/ni_dma/ni_dma.v) at its ports, edge by edge, against
// the cycle-by-cycle contract of docs/node.md ("Timing of one message") computed
// here independently: when a packet is built and offered (the offer delay found
// by trying every flit, not the model's three tightest), which body word the send
// DMA reads from which address at which edge, the frame and header words, the
// route and length flits; when each deposited word is written and when a deposit
// (arrived, or still arriving) completes; the receive records against
// hw_ni_rx_record_t byte for byte; the frame parser against hw/ni_regs.h's macros;
// the interrupt lines; and the internal checks that raise `error`. Half the
// cases put an edge with every clock enable low before each edge, which must
// change nothing.
#include "Vni_dma.h"
#include <verilated.h>

#include "hw/ni_regs.h"
#include "hw/packet.h"
#include "hw/rng.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

namespace {

uint32_t le32(const std::vector<uint8_t> &bytes, uint64_t offset) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) {
        v = v << 8 | (offset + i < bytes.size() ? bytes[offset + i] : 0u);
    }
    return v;
}

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

// Least delay after the build that keeps every flit behind the DMA: flit i
// (head 0) crosses 1 + i cycles after the offer at the earliest and needs the
// body bytes up to the end of its payload slice.
uint64_t reference_offer_delay(uint32_t hdr, uint32_t frag, uint32_t d) {
    const uint64_t body_start = HW_NI_FRAME_BYTES + hdr;
    const uint64_t flits = hw_packet_flits(static_cast<uint32_t>(body_start + frag));
    uint64_t delay = 0;
    for (uint64_t i = 2; i < flits; ++i) {
        const uint64_t end = std::min<uint64_t>((i - 1) * 4, body_start + frag);
        const uint64_t need = end > body_start ? end - body_start : 0;
        const uint64_t ready = ceil_div(need, d);
        if (ready > 1 + i) {
            delay = std::max(delay, ready - 1 - i);
        }
    }
    return delay;
}

struct Dut {
    VerilatedContext context;
    std::unique_ptr<Vni_dma> m;
    std::vector<uint8_t> memory;   // node memory behind the read port
    std::vector<uint8_t> fragment; // receive buffer behind the fragment read port
    uint64_t edge = 0;
    // Before every edge, one with all clock enables low, which must change
    // nothing (in the machine, the edges of the other parts).
    bool idle_edges = false;

    Dut(uint32_t d, uint32_t packet_setup, bool idle = false)
        : m(std::make_unique<Vni_dma>(&context)) {
        memory.resize(1 << 16);
        hw_rng r;
        hw_rng_seed(&r, 42);
        for (auto &b : memory) {
            b = static_cast<uint8_t>(hw_rng_next(&r));
        }
        m->cfg_dma_shift = d == 1 ? 0 : d == 2 ? 1 : 2;
        m->cfg_packet_setup_cycles = static_cast<uint16_t>(packet_setup);
        m->clk = 0;
        m->rst = 1;
        m->eval();
        clock();
        m->rst = 0;
        m->eval();
        edge = 0;
        idle_edges = idle;
    }
    void clock() {
        if (idle_edges) {
            m->tx_ce = m->rx_ce = m->rx_tail_ce = 0;
            m->eval();
            m->clk = 1;
            m->eval();
            m->clk = 0;
            m->eval();
        }
        m->eval();
        m->tx_ce = m->rx_ce = m->rx_tail_ce = 1; // every edge is every part's here
        m->eval();
        m->mem_rd_data = m->mem_rd_en ? le32(memory, m->mem_rd_addr) : 0;
        m->rx_frag_rd_data = m->rx_frag_rd_en ? le32(fragment, m->rx_frag_rd_offset) : 0;
        m->eval();
        m->clk = 1;
        m->eval();
        m->clk = 0;
        m->tx_cmd_valid = 0;
        m->tx_offer_taken = 0;
        m->rx_load_valid = 0;
        m->rx_tail_valid = 0;
        m->reg_we = 0;
        m->eval();
        ++edge;
    }
};

struct TxCommand {
    uint32_t setup = 1, hdr = 0, frag = 0, addr = 0, body_bytes = 0, offset = 0;
    bool first = true, last = true;
    uint16_t seq = 7, src = 3;
    uint32_t route = HW_ROUTE_FLIT(1, 2, 3, 0);
};

void apply(Dut &dut, const TxCommand &c) {
    Vni_dma &m = *dut.m;
    m.tx_cmd_valid = 1;
    m.tx_cmd_setup_cycles = static_cast<uint16_t>(c.setup);
    m.tx_cmd_route = c.route;
    m.tx_cmd_src_node = c.src;
    m.tx_cmd_seq = c.seq;
    m.tx_cmd_first = c.first;
    m.tx_cmd_last = c.last;
    m.tx_cmd_hdr_bytes = static_cast<uint8_t>(c.hdr);
    for (uint32_t w = 0; w < 16; ++w) {
        m.tx_cmd_header[w] = 0xa0000000u | w;
    }
    m.tx_cmd_body_bytes = c.body_bytes;
    m.tx_cmd_offset = c.offset;
    m.tx_cmd_frag_addr = c.addr;
    m.tx_cmd_frag_bytes = c.frag;
}

// What the send side did, edge by edge, until it offered and its DMA ended.
struct TxTrace {
    uint64_t built = 0, offered = 0, dma_idle = 0;
    std::vector<uint32_t> head;
    uint32_t route = 0, length = 0;
    std::map<uint32_t, std::pair<uint64_t, uint32_t>> body; // index -> (edge, word)
};

TxTrace run_tx(Dut &dut, uint64_t limit) {
    TxTrace t;
    bool dma_seen = false;
    while (dut.edge < limit) {
        dut.clock();
        Vni_dma &m = *dut.m;
        BOOST_REQUIRE(!m.error);
        if (m.tx_head_we) {
            t.built = dut.edge;
            t.route = m.tx_offer_route;
            t.length = m.tx_offer_length;
            for (uint32_t w = 0; w < m.tx_head_count; ++w) {
                t.head.push_back(m.tx_head_words[w]);
            }
        }
        if (m.tx_body_we) {
            t.body[m.tx_body_index] = {dut.edge, m.tx_body_word};
        }
        if (m.tx_offer_valid && t.offered == 0) {
            t.offered = dut.edge;
        }
        dma_seen = dma_seen || (m.busy & 4u);
        if (t.built != 0 && !(m.busy & 4u) && t.dma_idle == 0) {
            t.dma_idle = dut.edge;
        }
        if (t.offered != 0 && t.dma_idle != 0) {
            break;
        }
    }
    return t;
}

void check_tx(const TxTrace &t, const TxCommand &c, uint32_t d, uint64_t start_edge,
              const std::vector<uint8_t> &memory) {
    const uint64_t built = start_edge + c.setup;
    BOOST_TEST(t.built == built);
    BOOST_TEST(t.offered == built + reference_offer_delay(c.first ? c.hdr : 0, c.frag, d));
    BOOST_TEST(t.dma_idle == built + ceil_div(c.frag, d));
    const uint32_t hdr = c.first ? c.hdr : 0;
    BOOST_TEST(t.route == c.route);
    BOOST_TEST(t.length == HW_LENGTH_FLIT(HW_NI_FRAME_BYTES + hdr + c.frag));
    BOOST_REQUIRE(t.head.size() == 4 + hdr / 4);
    BOOST_TEST(t.head[0] == HW_NI_FRAME_W0(c.src, c.seq));
    BOOST_TEST(t.head[1] ==
               (hdr | (c.first ? HW_NI_FRAME_FIRST : 0u) | (c.last ? HW_NI_FRAME_LAST : 0u)));
    BOOST_TEST(t.head[2] == c.body_bytes);
    BOOST_TEST(t.head[3] == c.offset);
    for (uint32_t w = 0; w < hdr / 4; ++w) {
        BOOST_TEST(t.head[4 + w] == (0xa0000000u | w));
    }
    BOOST_REQUIRE(t.body.size() == ceil_div(c.frag, 4));
    for (uint32_t j = 0; j < t.body.size(); ++j) {
        const auto it = t.body.find(4 + hdr / 4 + j);
        BOOST_REQUIRE(it != t.body.end());
        BOOST_TEST(it->second.first ==
                   built + ceil_div(std::min<uint64_t>(4 * (j + 1), c.frag), d));
        const uint32_t want = le32(memory, c.addr + 4 * j);
        const uint32_t mask = 4 * (j + 1) <= c.frag ? ~0u : (1u << (8 * (c.frag % 4))) - 1;
        BOOST_TEST((it->second.second & mask) == (want & mask));
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(ni_dma_ports)

BOOST_AUTO_TEST_CASE(send_packet_build_offer_and_dma_edges) {
    for (uint32_t d : {1u, 2u, 4u}) {
        for (uint32_t hdr : {0u, 16u, 64u}) {
            for (uint32_t frag : {0u, 1u, 3u, 4u, 5u, 63u, 1000u, 8192u}) {
                if (hdr == 0 && frag == 0) {
                    continue;
                }
                for (uint32_t setup : {1u, 5u}) {
                    const bool idle = (frag + setup) % 2 == 1;
                    BOOST_TEST_CONTEXT("D " << d << ", header " << hdr << ", fragment " << frag
                                            << ", setup " << setup << ", idle edges " << idle) {
                        Dut dut(d, 1, idle);
                        TxCommand c;
                        c.setup = setup;
                        c.hdr = hdr;
                        c.frag = frag;
                        c.addr = 0x1003; // unaligned
                        c.body_bytes = frag;
                        apply(dut, c);
                        TxTrace t = run_tx(dut, 40000);
                        check_tx(t, c, d, 0, dut.memory);
                    }
                }
            }
        }
    }
}

// The next packet's setup counts only edges after the DMA of the one before
// went idle: built = max(command, DMA idle) + setup. And the offer stays up until
// taken.
BOOST_AUTO_TEST_CASE(next_packet_waits_for_the_dma) {
    for (uint32_t d : {1u, 4u}) {
        for (uint64_t wait : {0u, 3u, 2000u}) {
            BOOST_TEST_CONTEXT("D " << d << ", taken " << wait << " edges after the offer") {
                Dut dut(d, 1);
                TxCommand c;
                c.setup = 4;
                c.hdr = 64;
                c.frag = 1000;
                c.addr = 0x2000;
                c.body_bytes = 3000;
                c.last = false;
                apply(dut, c);
                TxTrace t1 = run_tx(dut, 10000);
                check_tx(t1, c, d, 0, dut.memory);
                // run_tx stops at the later of offer and DMA end; wait more.
                const uint64_t take = std::max(t1.offered, t1.dma_idle) + wait;
                while (dut.edge < take) {
                    dut.clock();
                    BOOST_REQUIRE(dut.m->tx_offer_valid);
                }
                TxCommand c2 = c;
                c2.setup = 2;
                c2.first = false;
                c2.last = true;
                c2.offset = 1000;
                c2.addr = 0x2000 + 1000;
                c2.frag = 2000;
                dut.m->tx_offer_taken = 1;
                apply(dut, c2);
                const uint64_t applied = dut.edge;
                TxTrace t2 = run_tx(dut, applied + 20000);
                check_tx(t2, c2, d, std::max(applied, t1.dma_idle), dut.memory);
            }
        }
    }
}

// A command applied while the DMA still runs: the setup starts after it.
BOOST_AUTO_TEST_CASE(setup_counts_from_the_dma_end) {
    Dut dut(1, 1);
    TxCommand c;
    c.setup = 1;
    c.frag = 400; // 400 DMA cycles at 1 byte per cycle
    c.body_bytes = 800;
    c.last = false;
    apply(dut, c);
    dut.clock(); // built at edge 1; at 1 byte per cycle the offer waits for the DMA
    while (!dut.m->tx_offer_valid) {
        dut.clock();
    }
    const uint64_t offered = dut.edge;
    BOOST_TEST(offered == 1 + reference_offer_delay(0, 400, 1));
    TxCommand c2 = c;
    c2.first = false;
    c2.last = true;
    c2.offset = 400;
    c2.addr = 400;
    c2.setup = 3;
    dut.m->tx_offer_taken = 1;
    apply(dut, c2);
    TxTrace t2 = run_tx(dut, 5000);
    check_tx(t2, c2, 1, 1 + 400, dut.memory);
}

BOOST_AUTO_TEST_CASE(deposit_word_edges_and_completion) {
    for (uint32_t d : {1u, 2u, 4u}) {
        for (uint32_t bytes : {1u, 3u, 4u, 7u, 100u, 8192u}) {
            for (int tail_after : {-1, 0, 5, 3000}) { // -1: arrived when loaded
                for (uint32_t setup : {1u, 6u}) {
                    const bool idle = (bytes + setup + d) % 2 == 1;
                    BOOST_TEST_CONTEXT("D " << d << ", " << bytes << " bytes, tail " << tail_after
                                            << ", setup " << setup << ", idle edges " << idle) {
                        Dut dut(d, setup, idle);
                        dut.fragment.resize(80 + bytes);
                        for (size_t i = 0; i < dut.fragment.size(); ++i) {
                            dut.fragment[i] = static_cast<uint8_t>(i * 7 + 1);
                        }
                        Vni_dma &m = *dut.m;
                        m.rx_load_valid = 1;
                        m.rx_load_addr = 0x4001;
                        m.rx_load_bytes = bytes;
                        m.rx_load_start = 80;
                        m.rx_load_arrived = tail_after < 0;
                        std::map<uint32_t, uint64_t> written; // address -> edge
                        uint64_t done = 0;
                        const uint64_t tail_edge = tail_after < 0 ? 0 : uint64_t(tail_after);
                        if (tail_after == 0) {
                            m.rx_tail_valid = 1; // with the load
                        }
                        while (done == 0 && dut.edge < 40000) {
                            dut.clock();
                            BOOST_REQUIRE(!m.error);
                            if (tail_after > 0 && dut.edge == tail_edge) {
                                m.rx_tail_valid = 1;
                            }
                            if (m.mem_wr_en) {
                                const uint32_t off = m.mem_wr_addr - 0x4001;
                                written[m.mem_wr_addr] = dut.edge;
                                BOOST_TEST(m.mem_wr_bytes == std::min(4u, bytes - off));
                                const uint32_t mask =
                                    m.mem_wr_bytes == 4 ? ~0u : (1u << (8 * m.mem_wr_bytes)) - 1;
                                BOOST_TEST((m.mem_wr_data & mask) ==
                                           (le32(dut.fragment, 80 + off) & mask));
                            }
                            if (m.rx_done) {
                                done = dut.edge;
                            }
                        }
                        BOOST_REQUIRE(written.size() == ceil_div(bytes, 4));
                        for (uint32_t j = 0; j < written.size(); ++j) {
                            BOOST_TEST(written[0x4001 + 4 * j] ==
                                       setup + ceil_div(std::min(4 * (j + 1), bytes), d));
                        }
                        uint64_t want = setup + ceil_div(bytes, d);
                        if (tail_after >= 0) {
                            want = std::max(want, tail_edge + ceil_div(std::min(bytes, 4u), d));
                        }
                        BOOST_TEST(done == want);
                        BOOST_TEST((m.busy & 0x70u) == 0u);
                    }
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(records_are_hw_ni_rx_record_t) {
    Dut dut(4, 1);
    hw_rng r;
    hw_rng *s = &r;
    hw_rng_seed(s, 7);
    for (int n = 0; n < 200; ++n) {
        hw_ni_rx_record_t rec;
        std::memset(&rec, 0, sizeof rec);
        rec.kind = n % 2 ? HW_NI_REC_HEADER : HW_NI_REC_DONE;
        rec.src_node = static_cast<uint32_t>(hw_rng_next(s));
        rec.handle = static_cast<uint32_t>(hw_rng_next(s));
        rec.cookie = static_cast<uint32_t>(hw_rng_next(s));
        rec.hdr_bytes = 4 * static_cast<uint32_t>(hw_rng_next(s) % 17);
        rec.body_bytes = static_cast<uint32_t>(hw_rng_next(s));
        for (uint32_t i = 0; i < rec.hdr_bytes; ++i) {
            rec.header[i] = static_cast<uint8_t>(hw_rng_next(s));
        }
        Vni_dma &m = *dut.m;
        m.rec_valid = 1;
        m.rec_kind = static_cast<uint8_t>(rec.kind);
        m.rec_src_node = rec.src_node;
        m.rec_handle = rec.handle;
        m.rec_cookie = rec.cookie;
        m.rec_hdr_bytes = static_cast<uint8_t>(rec.hdr_bytes);
        m.rec_body_bytes = rec.body_bytes;
        for (uint32_t w = 0; w < 16; ++w) {
            // bytes past hdr_bytes are garbage at the port; the record has zeros
            m.rec_header[w] = 4 * w < rec.hdr_bytes
                                  ? le32(std::vector<uint8_t>(rec.header, rec.header + 64), 4 * w)
                                  : 0xdeadbeefu;
        }
        m.eval();
        BOOST_REQUIRE(!m.error);
        uint8_t bytes[HW_NI_RX_RECORD_BYTES];
        for (uint32_t w = 0; w < HW_NI_RX_RECORD_BYTES / 4; ++w) {
            for (int b = 0; b < 4; ++b) {
                bytes[4 * w + b] = static_cast<uint8_t>(m.rec_record[w] >> (8 * b));
            }
        }
        BOOST_TEST(std::memcmp(bytes, &rec, sizeof rec) == 0);
    }
    dut.m->rec_kind = 3; // no such record
    dut.m->eval();
    BOOST_TEST(dut.m->error);
}

BOOST_AUTO_TEST_CASE(frame_parser_matches_the_macros) {
    Dut dut(4, 1);
    hw_rng r;
    hw_rng *s = &r;
    hw_rng_seed(s, 9);
    for (int n = 0; n < 2000; ++n) {
        const uint32_t payload = static_cast<uint32_t>(hw_rng_next(s) % 200);
        const uint32_t w0 = static_cast<uint32_t>(hw_rng_next(s));
        const uint32_t w1 = static_cast<uint32_t>(hw_rng_next(s) & 0x3ffu);
        Vni_dma &m = *dut.m;
        m.rx_length_flit = HW_LENGTH_FLIT_LANE(payload, n % 16);
        m.rx_frame[0] = w0;
        m.rx_frame[1] = w1;
        m.rx_frame[2] = static_cast<uint32_t>(hw_rng_next(s));
        m.rx_frame[3] = static_cast<uint32_t>(hw_rng_next(s));
        m.eval();
        const bool first = (w1 & HW_NI_FRAME_FIRST) != 0;
        const uint32_t hdr = first ? (w1 & 0xffu) : 0;
        const bool malformed = payload < HW_NI_FRAME_BYTES + hdr || hdr > HW_NI_HDR_MAX_BYTES;
        BOOST_TEST(m.rx_src_node == HW_NI_FRAME_SRC(w0));
        BOOST_TEST(m.rx_seq == HW_NI_FRAME_SEQ(w0));
        BOOST_TEST(m.rx_first == first);
        BOOST_TEST(m.rx_last == ((w1 & HW_NI_FRAME_LAST) != 0));
        BOOST_TEST(m.rx_hdr_bytes == hdr);
        BOOST_TEST(m.rx_body_bytes == m.rx_frame[2]);
        BOOST_TEST(m.rx_offset == m.rx_frame[3]);
        BOOST_TEST(m.rx_malformed == malformed);
        BOOST_TEST(m.rx_frag_bytes == (malformed ? 0 : payload - HW_NI_FRAME_BYTES - hdr));
    }
}

BOOST_AUTO_TEST_CASE(interrupt_lines_follow_ctrl_at_once) {
    Dut dut(4, 1);
    Vni_dma &m = *dut.m;
    for (uint32_t ctrl = 0; ctrl < 32; ++ctrl) {
        for (uint32_t status = 0; status < 8; ++status) {
            m.reg_we = 1;
            m.reg_addr = HW_NI_REG_CTRL;
            m.reg_wdata = ctrl | 0xfff00000u; // undefined bits are dropped
            m.st_rx_records = status & 1;
            m.st_tx_done_waiting = (status >> 1) & 1;
            m.st_tx_space = (status >> 2) & 1;
            for (int latched = 0; latched < 2; ++latched) {
                m.eval();
                const bool rx = (status & 1) && (ctrl & HW_NI_CTRL_RX_IRQ);
                const bool tx = (((status >> 1) & 1) && (ctrl & HW_NI_CTRL_TX_IRQ)) ||
                                (((status >> 2) & 1) && (ctrl & HW_NI_CTRL_TX_SPACE_IRQ));
                BOOST_TEST(m.irq_rx == rx);
                BOOST_TEST(m.irq_tx == tx);
                if (latched) {
                    BOOST_TEST(m.ctrl == (ctrl & 0xfu));
                }
                dut.clock(); // the write is latched; the lines keep their level
            }
        }
    }
    // A write to another register leaves CTRL alone.
    m.reg_we = 1;
    m.reg_addr = HW_NI_REG_TX_DEST;
    m.reg_wdata = 0;
    dut.clock();
    BOOST_TEST(m.ctrl == 31u % 16u);
}

BOOST_AUTO_TEST_CASE(internal_checks_raise_error) {
    {
        Dut dut(4, 1); // a command while a packet is being set up
        TxCommand c;
        c.setup = 10;
        c.frag = 100;
        apply(dut, c);
        dut.clock();
        BOOST_TEST(!dut.m->error);
        apply(dut, c);
        dut.clock();
        BOOST_TEST(dut.m->error);
    }
    {
        Dut dut(4, 1); // offer_taken without an offer
        dut.m->tx_offer_taken = 1;
        dut.clock();
        BOOST_TEST(dut.m->error);
    }
    {
        Dut dut(4, 1); // a tail nobody waits for
        dut.m->rx_tail_valid = 1;
        dut.clock();
        BOOST_TEST(dut.m->error);
    }
    {
        Dut dut(4, 1); // an empty deposit
        dut.m->rx_load_valid = 1;
        dut.m->rx_load_bytes = 0;
        dut.clock();
        BOOST_TEST(dut.m->error);
    }
    {
        Dut dut(4, 1); // a deposit loaded while one runs
        dut.fragment.resize(200);
        dut.m->rx_load_valid = 1;
        dut.m->rx_load_bytes = 100;
        dut.m->rx_load_arrived = 1;
        dut.clock();
        dut.m->rx_load_valid = 1;
        dut.clock();
        BOOST_TEST(dut.m->error);
    }
}

BOOST_AUTO_TEST_SUITE_END()
