#include "rtl/wrappers/rtl_torus.h"

// verilated.h calls sc_time_stamp() unqualified once SystemC is included.
using sc_core::sc_time_stamp;

#include "Vrouter_vcs1.h"
#include "Vrouter_vcs1_fst.h"
#include "Vrouter_vcs2.h"
#include "Vrouter_vcs2_fst.h"

#include "hw/config/config_error.h"
#include "hw/packet.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <stdexcept>

namespace starfish::rtl {

// The ports of one verilated router (rtl/router/router.v), whatever its VC count:
// both variants have the same C++ port types, so the wrapper reaches them through
// pointers into the model.
class RouterModel {
public:
    virtual ~RouterModel() = default;
    virtual void eval() = 0;
    // Adds every signal of the router to the FST (traced variants only).
    virtual void trace(VerilatedFstC *fst) = 0;

    CData *clk, *rst;
    QData *in[4], *out[4];       // link words {valid, vc, tail, head, data}
    CData *cr_in[4], *cr_out[4]; // credit words {tail[V], valid[V]}
    CData *inj_valid, *inj_head, *inj_tail, *inj_lane, *inj_ready;
    IData *inj_data;
    CData *ej_valid, *ej_head, *ej_tail, *ej_lane, *ej_refuse, *ej_hold;
    IData *ej_data;
    CData *error, *busy;
    IData *wait[4], *wait_ej; // a head's wait for its VC and channel (statistics)
    CData *cfg_width, *cfg_height, *cfg_x, *cfg_y, *cfg_buffer_flits, *cfg_router_delay;
    CData *cfg_tail_sent, *cfg_input_speedup;
};

namespace {

template <typename M, bool kTraced> class RouterModelOf : public RouterModel {
public:
    RouterModelOf(VerilatedContext *context, const std::string &name) : m_(context, name.c_str()) {
        clk = &m_.clk;
        rst = &m_.rst;
        in[0] = &m_.in_e, in[1] = &m_.in_w, in[2] = &m_.in_n, in[3] = &m_.in_s;
        out[0] = &m_.out_e, out[1] = &m_.out_w, out[2] = &m_.out_n, out[3] = &m_.out_s;
        cr_in[0] = &m_.cr_in_e, cr_in[1] = &m_.cr_in_w, cr_in[2] = &m_.cr_in_n;
        cr_in[3] = &m_.cr_in_s;
        cr_out[0] = &m_.cr_out_e, cr_out[1] = &m_.cr_out_w, cr_out[2] = &m_.cr_out_n;
        cr_out[3] = &m_.cr_out_s;
        inj_valid = &m_.inj_valid;
        inj_head = &m_.inj_head;
        inj_tail = &m_.inj_tail;
        inj_lane = &m_.inj_lane;
        inj_ready = &m_.inj_ready;
        inj_data = &m_.inj_data;
        ej_valid = &m_.ej_valid;
        ej_head = &m_.ej_head;
        ej_tail = &m_.ej_tail;
        ej_lane = &m_.ej_lane;
        ej_refuse = &m_.ej_refuse;
        ej_hold = &m_.ej_hold;
        ej_data = &m_.ej_data;
        error = &m_.error;
        wait[0] = &m_.wait_e, wait[1] = &m_.wait_w, wait[2] = &m_.wait_n, wait[3] = &m_.wait_s;
        wait_ej = &m_.wait_ej;
        busy = &m_.busy;
        cfg_width = &m_.cfg_width;
        cfg_height = &m_.cfg_height;
        cfg_x = &m_.cfg_x;
        cfg_y = &m_.cfg_y;
        cfg_buffer_flits = &m_.cfg_buffer_flits;
        cfg_router_delay = &m_.cfg_router_delay;
        cfg_tail_sent = &m_.cfg_tail_sent;
        cfg_input_speedup = &m_.cfg_input_speedup;
    }
    ~RouterModelOf() override { m_.final(); }
    void eval() override { m_.eval(); }
    void trace(VerilatedFstC *fst) override {
        if constexpr (kTraced) {
            m_.trace(fst, 99);
        } else {
            (void)fst;
        }
    }

private:
    M m_;
};

// The link word of router.v: {valid, vc[VW], tail, head, data[32]}.
constexpr int kVcShift = 34;

std::unique_ptr<RouterModel> make_router(VerilatedContext *context, int vcs, bool traced,
                                         const std::string &name) {
    if (traced) {
        if (vcs == 1) {
            return std::make_unique<RouterModelOf<Vrouter_vcs1_fst, true>>(context, name);
        }
        return std::make_unique<RouterModelOf<Vrouter_vcs2_fst, true>>(context, name);
    }
    if (vcs == 1) {
        return std::make_unique<RouterModelOf<Vrouter_vcs1, false>>(context, name);
    }
    return std::make_unique<RouterModelOf<Vrouter_vcs2, false>>(context, name);
}

} // namespace

RtlTorus::RtlTorus(sc_core::sc_module_name name, const net::NetParams &params, uint64_t seed,
                   uint64_t trial, const std::string &fst_path)
    : TorusBase(name, params, seed, trial), context_(std::make_unique<VerilatedContext>()) {
    auto limit = [](const std::string &what) {
        throw config::ConfigError("net.model = rtl: " + what);
    };
    if (params_.flit_bytes != int(HW_FLIT_BYTES)) {
        limit("the Verilog router moves the 32-bit flits of hw/packet.h; net.flit_bytes must be " +
              std::to_string(HW_FLIT_BYTES) + " (is " + std::to_string(params_.flit_bytes) + ")");
    }
    if (params_.vcs_per_class > kMaxVcsPerClass) {
        limit("net.vcs must be at most " + std::to_string(kMaxVcsPerClass) + " (is " +
              std::to_string(params_.vcs_per_class) +
              "): routers with 1 and 2 VCs per class "
              "are verilated");
    }
    if (params_.buffer_flits > kMaxBufferFlits) {
        limit("net.buffer_flits must be at most " + std::to_string(kMaxBufferFlits) + " (is " +
              std::to_string(params_.buffer_flits) + "): the verilated buffers' depth");
    }
    if (params_.router_delay_cycles > kMaxRouterDelay) {
        limit("net.router_delay_cycles must be at most " + std::to_string(kMaxRouterDelay) +
              " (is " + std::to_string(params_.router_delay_cycles) + ")");
    }
    if (params_.width > 255 || params_.height > 255) {
        limit("the route flit carries 8-bit coordinates; the torus must be at most 255 x 255");
    }
    const int n = topo_.routers();
    ports_.resize(size_t(n));
    evaluated_.assign(size_t(n), false);
    busy_flits_.assign(size_t(topo_.channel_count() * topo_.vcs_total()), 0);
    if (!fst_path.empty()) {
        context_->traceEverOn(true); // before the traced models are built
    }
    const size_t wire = size_t(params_.link_delay_cycles);
    flit_wire_.assign(size_t(n) * 4 * wire, 0);
    credit_wire_.assign(size_t(n) * 4 * wire, 0);
    for (int r = 0; r < n; ++r) {
        routers_.push_back(make_router(context_.get(), params_.vcs_per_class, !fst_path.empty(),
                                       "r" + std::to_string(r)));
        RouterModel &m = *routers_.back();
        *m.cfg_width = CData(params_.width);
        *m.cfg_height = CData(params_.height);
        *m.cfg_x = CData(topo_.x_of(r));
        *m.cfg_y = CData(topo_.y_of(r));
        *m.cfg_buffer_flits = CData(params_.buffer_flits);
        *m.cfg_router_delay = CData(params_.router_delay_cycles);
        *m.cfg_tail_sent = params_.vc_realloc_tail_sent ? 1 : 0;
        *m.cfg_input_speedup = CData(params_.input_speedup);
        *m.rst = 1;
        *m.clk = 0;
        m.eval();
        *m.clk = 1;
        m.eval();
        *m.clk = 0;
        *m.rst = 0;
        m.eval();
        if (*m.error) {
            fail("router " + std::to_string(r) + " reports an error after reset");
        }
    }
    if (!fst_path.empty()) {
        context_->timeunit(-12);
        context_->timeprecision(-12);
        fst_ = std::make_unique<VerilatedFstC>();
        for (auto &m : routers_) {
            m->trace(fst_.get());
        }
        fst_->open(fst_path.c_str());
        if (!fst_->isOpen()) {
            throw config::ConfigError("--rtl-fst " + fst_path + ": cannot open it for writing");
        }
    }
    SC_METHOD(tick);
    sensitive << tick_;
    dont_initialize();
}

RtlTorus::~RtlTorus() {
    if (fst_) {
        fst_->close();
    }
}

void RtlTorus::dump_fst(int64_t cycle, bool edge) {
    if (fst_) {
        // The cycle's decisions at its start, the clock edge half way through.
        const uint64_t ps =
            uint64_t(cycle) * params_.cycle_ps() + (edge ? params_.cycle_ps() / 2 : 0);
        fst_->dump(ps);
    }
}

void RtlTorus::fail(const std::string &what) const {
    throw std::runtime_error(std::string(name()) + " (net.model = rtl): " + what);
}

namespace {

// Body word k of a packet (flit k + 2), little-endian, zero-padded.
uint32_t payload_word(const net::Packet &p, size_t k) {
    uint32_t word = 0;
    for (size_t b = 0; b < 4 && 4 * k + b < p.payload.size(); ++b) {
        word |= uint32_t(p.payload[4 * k + b]) << (8 * b);
    }
    return word;
}

} // namespace

void RtlTorus::accept(int router, Injection &&inj) {
    auto f = std::make_shared<Flight>();
    const net::Packet &p = *inj.pkt;
    f->flits.push_back(HW_ROUTE_FLIT(topo_.x_of(p.dst_router), topo_.y_of(p.dst_router),
                                     topo_.x_of(p.src_router), topo_.y_of(p.src_router)));
    f->flits.push_back(
        HW_LENGTH_FLIT_LANE(static_cast<uint32_t>(p.payload.size()), p.lane % HW_PKT_MAX_LANES));
    // Body flits take the packet's bytes as they enter the router (offer below).
    f->flits.resize(2 + (p.payload.size() + 3) / 4);
    f->inj = std::move(inj);
    const int64_t eligible = f->inj.eligible_cycle;
    ports_[size_t(router)].queue.push_back(std::move(f));
    // Asleep or not, the next tick is no later than the cycle this packet may enter
    // (a pending earlier notification stays).
    tick_.notify(time_of(std::max(eligible, now_cycle() + 1)) - sc_core::sc_time_stamp());
}

void RtlTorus::endpoint_ready_at(int router, int64_t cycle) {
    Port &pt = ports_[size_t(router)];
    if (pt.refused && pt.retry == kNever) {
        pt.retry = cycle;
    }
}

void RtlTorus::tick() {
    const int64_t now = now_cycle();
    if (edge_pending_) {
        if (evaluated_cycle_ != now - 1) {
            fail("internal: cycle " + std::to_string(evaluated_cycle_) +
                 " was not clocked before cycle " + std::to_string(now));
        }
        start_of_cycle_reports();
        clock_edge();
        edge_pending_ = false;
    } else if (evaluated_cycle_ >= now) {
        return; // a second notification for a cycle already evaluated
    }
    int64_t next_eligible = kNever;
    if (!busy(now, next_eligible)) {
        if (next_eligible != kNever) {
            tick_.notify(time_of(next_eligible) - sc_core::sc_time_stamp());
        }
        return;
    }
    evaluate_cycle(now);
    edge_pending_ = true;
    evaluated_cycle_ = now;
    tick_.notify(time_of(now + 1) - sc_core::sc_time_stamp());
}

// What the previous cycle did, reported in the order of docs/network.md: tails
// that left injection ports, then deliveries, then early arrivals, each in router
// order.
void RtlTorus::start_of_cycle_reports() {
    const int n = topo_.routers();
    for (int r = 0; r < n; ++r) {
        Port &pt = ports_[size_t(r)];
        if (pt.tail_injected) {
            pt.tail_injected = false;
            pt.next_flit = 0;
            std::shared_ptr<Flight> f = std::move(pt.queue.front());
            pt.queue.pop_front();
            report_injected(r, f->inj.pkt->tag);
        }
    }
    for (int r = 0; r < n; ++r) {
        if (ports_[size_t(r)].tail_ejected) {
            deliver_packet(r);
        }
    }
    for (int r = 0; r < n; ++r) {
        Port &pt = ports_[size_t(r)];
        if (pt.arrived) {
            pt.arrived = false;
            report_arriving(r, *pt.ejecting->inj.pkt);
        }
    }
}

void RtlTorus::deliver_packet(int router) {
    Port &pt = ports_[size_t(router)];
    pt.tail_ejected = false;
    Flight &f = *pt.ejecting;
    net::Packet &p = *f.inj.pkt;
    // The bytes that crossed the routers must be the bytes that were sent.
    const std::vector<uint32_t> &w = pt.received;
    bool same = w.size() == f.flits.size() && w[0] == f.flits[0] && w[1] == f.flits[1];
    for (size_t i = 0; same && i < p.payload.size(); ++i) {
        same = uint8_t(w[2 + i / 4] >> (8 * (i % 4))) == p.payload[i];
    }
    if (!same) {
        fail("packet " + std::to_string(p.id) + " from router " + std::to_string(p.src_router) +
             " reached router " + std::to_string(router) + " with different flits than it left");
    }
    int64_t retry = kNever;
    const int hops = int(f.inj.path.size()) - 2;
    if (deliver(router, f.inj.pkt, f.inj, hops, retry) == Delivery::Accepted) {
        record_flits(topo_.eject_channel(router), f.inj.flits);
        pt.ejecting.reset();
        pt.received.clear();
    } else {
        pt.refused = true;
        pt.retry = retry;
        pt.refuse_edge = true;
    }
}

// A word put on wire `index` in cycle `now` arrives net.link_delay_cycles later:
// returns what arrives now and keeps `word` in its place.
template <typename Word>
Word RtlTorus::through_wire(std::vector<Word> &wires, int index, int64_t now, Word word) {
    const int delay = params_.link_delay_cycles;
    if (delay == 0) {
        return word;
    }
    Word &slot = wires[size_t(index * delay + now % delay)];
    const Word arriving = slot;
    on_wires_ += size_t(word != 0) - size_t(arriving != 0);
    slot = word;
    return arriving;
}

void RtlTorus::clock_edge() {
    const int n = topo_.routers();
    for (int r = 0; r < n; ++r) {
        RouterModel &m = *routers_[size_t(r)];
        Port &pt = ports_[size_t(r)];
        if (!evaluated_[size_t(r)]) {
            // A quiet router whose comb evaluation was skipped: it only needs the
            // edge when a flit arrives (its state is a fixed point otherwise).
            if (*m.in[0] == 0 && *m.in[1] == 0 && *m.in[2] == 0 && *m.in[3] == 0) {
                continue;
            }
            m.eval(); // with the clock low, so that the edge is seen as one
        }
        *m.ej_refuse = pt.refuse_edge ? 1 : 0;
        pt.refuse_edge = false;
        *m.clk = 1;
        m.eval();
        *m.clk = 0;
        *m.ej_refuse = 0;
        if (*m.error) {
            fail("router " + std::to_string(r) + " raised its error output at the edge of cycle " +
                 std::to_string(evaluated_cycle_));
        }
    }
    dump_fst(evaluated_cycle_, true);
    // Credits for the cycle now starting: router r's output port d hears from the
    // input port d of its neighbour in direction d, net.link_delay_cycles later.
    const int64_t now = evaluated_cycle_ + 1;
    for (int r = 0; r < n; ++r) {
        for (int d = 0; d < 4; ++d) {
            const uint32_t word = *routers_[size_t(topo_.neighbour(r, d))]->cr_out[d];
            *routers_[size_t(r)]->cr_in[d] =
                CData(through_wire(credit_wire_, r * 4 + d, now, word));
        }
    }
}

bool RtlTorus::busy(int64_t now, int64_t &next_eligible) const {
    next_eligible = kNever;
    bool any = on_wires_ > 0;
    for (size_t r = 0; r < routers_.size() && !any; ++r) {
        any = *routers_[r]->busy != 0;
    }
    for (const Port &pt : ports_) {
        if (pt.queue.empty()) {
            continue;
        }
        const int64_t e = pt.next_flit > 0 ? now : pt.queue.front()->inj.eligible_cycle;
        if (e <= now) {
            return true;
        }
        next_eligible = std::min(next_eligible, e);
    }
    return any;
}

void RtlTorus::evaluate_cycle(int64_t now) {
    ++cycles_simulated_;
    const int n = topo_.routers();
    for (int r = 0; r < n; ++r) {
        RouterModel &m = *routers_[size_t(r)];
        Port &pt = ports_[size_t(r)];
        *m.inj_valid = 0;
        if (!pt.queue.empty() && !pt.tail_injected) {
            Flight &f = *pt.queue.front();
            const size_t k = pt.next_flit;
            if (k > 0 || f.inj.eligible_cycle <= now) {
                if (k == 0 && pt.head_ready == kNever) {
                    pt.head_ready = now;
                }
                *m.inj_valid = 1;
                *m.inj_head = k == 0;
                *m.inj_tail = k + 1 == f.flits.size();
                // A body flit carries the packet's bytes as they are when it enters:
                // the DMA engine RTL (ni.model = rtl) fills a packet's body while
                // the network already holds it, each word before its flit leaves.
                if (k >= 2) {
                    f.flits[k] = payload_word(*f.inj.pkt, k - 2);
                }
                *m.inj_data = f.flits[k];
                *m.inj_lane = CData(f.inj.pkt->lane % HW_PKT_MAX_LANES);
            }
        }
        *m.ej_hold = pt.refused && now < pt.retry;
        // An idle router with nothing offered and no credit arriving sends nothing
        // (all are evaluated while the FST is written, so it shows every cycle).
        const bool quiet = !fst_ && !*m.busy && !*m.inj_valid && *m.cr_in[0] == 0 &&
                           *m.cr_in[1] == 0 && *m.cr_in[2] == 0 && *m.cr_in[3] == 0;
        evaluated_[size_t(r)] = !quiet;
        if (!quiet) {
            m.eval();
        }
    }
    dump_fst(now, false);
    const int vcs = topo_.vcs_total();
    for (int r = 0; r < n; ++r) {
        RouterModel &m = *routers_[size_t(r)];
        Port &pt = ports_[size_t(r)];
        const bool on = evaluated_[size_t(r)];
        const int inject = topo_.inject_channel(r);
        const bool injected = on && *m.inj_valid && *m.inj_ready;
        trace_channel(inject, injected, injected ? 0 : -1);
        if (injected) {
            std::shared_ptr<Flight> &f = pt.queue.front();
            if (pt.next_flit == 0) {
                record_head(inject, now - pt.head_ready);
                pt.head_ready = kNever;
                const net::Packet &p = *f->inj.pkt;
                const int lane = p.src_router == p.dst_router ? 0 : p.lane % params_.vcs_per_class;
                in_network_[{p.src_router, p.dst_router, lane}].push_back(f);
            }
            if (++pt.next_flit == f->flits.size()) {
                pt.tail_injected = true;
                record_flits(inject, f->inj.flits);
            }
        }
        const bool ejected = on && *m.ej_valid;
        trace_channel(topo_.eject_channel(r), ejected, ejected ? 0 : -1);
        if (ejected) {
            if (*m.ej_head) {
                record_head(topo_.eject_channel(r), *m.wait_ej);
            }
            eject_flit(r, *m.ej_data, *m.ej_head != 0, *m.ej_tail != 0);
        }
        for (int d = 0; d < 4; ++d) {
            const uint64_t word = on ? *m.out[d] : 0;
            const int ch = topo_.link_channel(r, d);
            const bool valid = (word >> (kVcShift + (vcs > 2 ? 2 : 1))) & 1;
            const int vc = int((word >> kVcShift) & uint64_t(vcs - 1));
            trace_channel(ch, valid, valid ? vc : -1);
            if (valid) {
                uint32_t &count = busy_flits_[size_t(ch * vcs + vc)];
                if ((word >> 32) & 1) {
                    record_head(ch, *m.wait[d]);
                }
                ++count;
                if ((word >> 33) & 1) {
                    record_flits(ch, count);
                    count = 0;
                }
            }
            // The neighbour in direction d receives it on its input port d.
            *routers_[size_t(topo_.neighbour(r, d))]->in[d] =
                through_wire(flit_wire_, r * 4 + d, now, word);
        }
    }
}

void RtlTorus::eject_flit(int router, uint32_t word, bool head, bool tail) {
    Port &pt = ports_[size_t(router)];
    if (pt.refused) { // the held tail, crossing again
        if (!tail) {
            fail("router " + std::to_string(router) + " ejected a body flit while it held a tail");
        }
        pt.refused = false;
        pt.retry = kNever;
        pt.tail_ejected = true;
        return;
    }
    if (head) {
        if (pt.ejecting) {
            fail("router " + std::to_string(router) + " ejected a head inside a packet");
        }
        const int src = topo_.router_at(int(HW_ROUTE_SRC_X(word)), int(HW_ROUTE_SRC_Y(word)));
        const int dst = topo_.router_at(int(HW_ROUTE_DEST_X(word)), int(HW_ROUTE_DEST_Y(word)));
        auto it =
            in_network_.find({src, dst, src == dst ? 0 : int(*routers_[size_t(router)]->ej_lane)});
        if (dst != router || it == in_network_.end() || it->second.empty()) {
            fail("router " + std::to_string(router) + " ejected a packet from router " +
                 std::to_string(src) + " to router " + std::to_string(dst) +
                 " that is not in the network");
        }
        pt.ejecting = std::move(it->second.front());
        it->second.pop_front();
        if (it->second.empty()) {
            in_network_.erase(it);
        }
        pt.received.clear();
    } else if (!pt.ejecting) {
        fail("router " + std::to_string(router) + " ejected a body flit outside a packet");
    }
    pt.received.push_back(word);
    const net::Packet &p = *pt.ejecting->inj.pkt;
    const uint32_t count = uint32_t(pt.received.size());
    if (wants_arriving(p, pt.ejecting->inj.flits) && count == p.early_flits) {
        pt.arrived = true;
    }
    if (tail != (count == pt.ejecting->inj.flits)) {
        fail("router " + std::to_string(router) + " ejected packet " + std::to_string(p.id) +
             "'s tail after " + std::to_string(count) + " of its " +
             std::to_string(pt.ejecting->inj.flits) + " flits");
    }
    pt.tail_ejected = tail;
}

} // namespace starfish::rtl
