#include "tests/net/net_harness.h"

#include "sim/platform/network_factory.h"
#include "sim/trace/vcd_writer.h"
#include "tlm_models/common/trace_hub.h"
#include "tlm_models/net/flit_torus.h"
#include "tlm_models/net/packet_torus.h"
#include "tlm_models/net/torus_base.h"

#include <systemc>

#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace starfish::net::testing {

using nlohmann::json;

namespace {

struct Record {
    int src = 0, dst = 0, lane = 0;
    uint64_t seq = 0;
    uint32_t bytes = 0;
    uint32_t early_flits = 0;
    int64_t accepted = -1, injected = -1, delivered = -1, arriving = -1;
};

class Bench;

// One router's network interface stand-in: offers its scripted packets in order,
// and receives, checks and (sometimes) refuses packets.
class Port : public sc_core::sc_module, public PacketEndpoint {
public:
    SC_HAS_PROCESS(Port);
    Port(sc_core::sc_module_name name, Bench &bench, int router);

    void add(uint64_t id, const ScriptedPacket &p) { script_.push_back({id, p}); }
    void start();
    bool deliver(PacketPtr &pkt) override;
    void injected(uint64_t tag) override;
    void arriving(const Packet &pkt) override;

private:
    void pump();
    void ready();

    Bench &bench_;
    int router_;
    std::vector<std::pair<uint64_t, ScriptedPacket>> script_;
    size_t next_ = 0;
    uint64_t attempts_ = 0;
    sc_core::sc_event wake_, ready_event_;
};

class Bench {
public:
    explicit Bench(const Scenario &s)
        : scenario(s), net(starfish::platform::make_network("net", s.params, s.seed, s.trial)) {
        for (int r = 0; r < net->router_count(); ++r) {
            ports.push_back(std::make_unique<Port>(("port" + std::to_string(r)).c_str(), *this, r));
            net->attach(r, ports.back().get());
        }
        std::map<std::tuple<int, int, int>, uint64_t> seqs;
        for (size_t i = 0; i < s.packets.size(); ++i) {
            const ScriptedPacket &p = s.packets[i];
            Record rec;
            rec.src = p.src;
            rec.dst = p.dst;
            rec.lane = p.lane;
            rec.bytes = p.payload_bytes;
            rec.early_flits = p.early_flits;
            rec.seq = seqs[{p.src, p.dst, p.lane % s.params.vcs_per_class}]++;
            records.push_back(rec);
            ports[p.src]->add(i, p);
        }
    }

    void error(const std::string &e) {
        if (errors.size() < 20) {
            errors.push_back(e);
        }
    }

    const Scenario &scenario;
    std::unique_ptr<TorusBase> net;
    std::vector<std::unique_ptr<Port>> ports;
    std::vector<Record> records;
    std::map<std::tuple<int, int, int>, uint64_t> expected_seq;
    std::vector<std::string> errors;
    uint64_t accepted = 0;
    uint64_t delivered = 0;
};

Port::Port(sc_core::sc_module_name name, Bench &bench, int router)
    : sc_core::sc_module(name), bench_(bench), router_(router) {
    SC_METHOD(pump);
    sensitive << wake_ << bench.net->injection_ready(router);
    dont_initialize();
    SC_METHOD(ready);
    sensitive << ready_event_;
    dont_initialize();
}

void Port::start() {
    if (!script_.empty()) {
        wake_.notify(bench_.net->time_of(script_[0].second.cycle) +
                     sc_core::sc_time::from_value(bench_.scenario.offset_ps));
    }
}

void Port::pump() {
    TorusBase &net = *bench_.net;
    while (next_ < script_.size()) {
        auto &[id, p] = script_[next_];
        int64_t now = net.now_cycle();
        sc_core::sc_time due =
            net.time_of(p.cycle) + sc_core::sc_time::from_value(bench_.scenario.offset_ps);
        if (due > sc_core::sc_time_stamp()) {
            wake_.notify(due - sc_core::sc_time_stamp());
            return;
        }
        auto pkt = std::make_unique<Packet>();
        pkt->id = id;
        pkt->src_router = p.src;
        pkt->dst_router = p.dst;
        pkt->tag = id + 1000000;
        pkt->lane = static_cast<uint8_t>(p.lane);
        pkt->early_flits = p.early_flits;
        pkt->payload.resize(p.payload_bytes);
        for (size_t i = 0; i < pkt->payload.size(); ++i) {
            pkt->payload[i] = payload_byte(id, i);
        }
        if (!net.try_inject(router_, pkt)) {
            if (!pkt) {
                bench_.error("try_inject refused packet " + std::to_string(id) + " but took it");
            }
            return; // injection_ready wakes us
        }
        bench_.records[id].accepted = now;
        bench_.accepted += 1;
        ++next_;
    }
}

void Port::injected(uint64_t tag) {
    if (tag < 1000000 || tag - 1000000 >= bench_.records.size()) {
        bench_.error("injected() with unknown tag " + std::to_string(tag));
        return;
    }
    Record &r = bench_.records[tag - 1000000];
    if (r.injected >= 0 || r.src != router_) {
        bench_.error("injected() twice or at the wrong router for tag " + std::to_string(tag));
    }
    r.injected = bench_.net->now_cycle();
}

// Exactly once per packet that asked for it, at its destination, before its
// delivery, with the packet intact.
void Port::arriving(const Packet &pkt) {
    std::string what = "packet " + std::to_string(pkt.id);
    if (pkt.id >= bench_.records.size()) {
        bench_.error("arriving() for unknown " + what);
        return;
    }
    Record &r = bench_.records[pkt.id];
    const uint32_t flits = bench_.scenario.params.packet_flits(r.bytes);
    if (r.arriving >= 0 || r.delivered >= 0 || r.dst != router_ || pkt.early_flits == 0 ||
        pkt.early_flits >= flits || pkt.payload.size() != r.bytes) {
        bench_.error("arriving() twice, after delivery, unasked or at the wrong router for " +
                     what);
    }
    r.arriving = bench_.net->now_cycle();
}

bool Port::deliver(PacketPtr &pkt) {
    TorusBase &net = *bench_.net;
    uint64_t attempt = attempts_++;
    const Scenario &s = bench_.scenario;
    if (s.refuse_every > 0 && attempt % uint64_t(s.refuse_every) == uint64_t(s.refuse_every) - 1) {
        if (s.ready_after == 0) {
            net.endpoint_ready(router_);
        } else {
            ready_event_.notify(net.time_of(net.now_cycle() + s.ready_after) +
                                sc_core::sc_time::from_value(s.offset_ps) -
                                sc_core::sc_time_stamp());
        }
        return false;
    }
    PacketPtr p = std::move(pkt);
    std::string what = "packet " + std::to_string(p->id);
    if (p->id >= bench_.records.size()) {
        bench_.error("unknown " + what);
        return true;
    }
    Record &r = bench_.records[p->id];
    if (r.delivered >= 0) {
        bench_.error(what + " delivered twice");
    }
    const uint32_t flits = s.params.packet_flits(r.bytes);
    if ((r.arriving >= 0) != (p->early_flits > 0 && p->early_flits < flits)) {
        bench_.error(what + " delivered without the arriving() it asked for (or with one unasked)");
    }
    if (p->dst_router != router_ || r.dst != router_ || p->src_router != r.src) {
        bench_.error(what + " delivered at router " + std::to_string(router_));
    }
    if (p->payload.size() != r.bytes) {
        bench_.error(what + " payload size " + std::to_string(p->payload.size()));
    } else {
        for (size_t i = 0; i < p->payload.size(); ++i) {
            if (p->payload[i] != payload_byte(p->id, i)) {
                bench_.error(what + " payload byte " + std::to_string(i) + " wrong");
                break;
            }
        }
    }
    auto key = std::make_tuple(r.src, r.dst, r.lane % s.params.vcs_per_class);
    uint64_t &expect = bench_.expected_seq[key];
    if (r.seq != expect) {
        bench_.error(what + " out of order: sequence " + std::to_string(r.seq) + ", expected " +
                     std::to_string(expect));
    }
    expect = r.seq + 1;
    r.delivered = net.now_cycle();
    bench_.delivered += 1;
    return true;
}

void Port::ready() {
    bench_.net->endpoint_ready(router_);
}

// Stops the run when packets are in the network and none arrived for a whole period.
class Watchdog : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Watchdog);
    Watchdog(sc_core::sc_module_name name, Bench &bench) : sc_core::sc_module(name), bench_(bench) {
        SC_METHOD(check);
        sensitive << tick_;
        dont_initialize();
        tick_.notify(period());
    }
    bool fired = false;

private:
    sc_core::sc_time period() const { return bench_.net->time_of(bench_.scenario.watchdog_cycles); }
    void check() {
        if (bench_.delivered == bench_.records.size()) {
            return; // done: let the simulation end
        }
        if (bench_.delivered == last_ && bench_.accepted == last_accepted_ &&
            bench_.accepted > bench_.delivered) {
            fired = true;
            sc_core::sc_stop();
            return;
        }
        last_ = bench_.delivered;
        last_accepted_ = bench_.accepted;
        tick_.notify(period());
    }
    Bench &bench_;
    uint64_t last_ = UINT64_MAX, last_accepted_ = UINT64_MAX;
    sc_core::sc_event tick_;
};

} // namespace

json run_scenario(const Scenario &scenario) {
    Bench bench(scenario);
    Watchdog watchdog("watchdog", bench);
    for (auto &p : bench.ports) {
        p->start();
    }
    // The observation layer with its VCD sink, as `starfish run --vcd` attaches it
    // (sim/trace/trace_session.cpp): every channel.
    std::unique_ptr<trace::TraceHub> hub;
    if (!scenario.vcd_path.empty()) {
        hub = std::make_unique<trace::TraceHub>(0, UINT64_MAX);
        hub->add_sink(std::make_unique<trace::VcdWriter>(scenario.vcd_path, trace::ScopeFilter()));
        bench.net->observe(hub.get(), [](const std::string &) { return true; });
    }
    sc_core::sc_start(bench.net->time_of(scenario.limit_cycles), sc_core::SC_EXIT_ON_STARVATION);
    if (hub) {
        hub->finish(sc_core::sc_time_stamp().value());
    }
    json packets = json::array();
    if (scenario.record_packets) {
        for (size_t i = 0; i < bench.records.size(); ++i) {
            const Record &r = bench.records[i];
            packets.push_back(json::array({i, r.accepted, r.injected, r.delivered, r.arriving}));
        }
    }
    for (size_t i = 0; i < bench.records.size(); ++i) {
        const Record &r = bench.records[i];
        if (r.delivered >= 0 && r.injected < 0) {
            bench.error("packet " + std::to_string(i) + " delivered without injected()");
        }
    }
    uint64_t work = bench.net->events_processed(); // events (packet) or cycles (flit)
    json run_ahead = {{"packets", 0}, {"replays", 0}, {"closed_form", 0}};
    if (const auto *packet = dynamic_cast<const PacketTorus *>(bench.net.get())) {
        run_ahead = {{"packets", packet->run_ahead_packets()},
                     {"replays", packet->run_ahead_replays()},
                     {"closed_form", packet->run_ahead_closed_form()}};
    }
    return json{{"delivered", bench.delivered},
                {"work", work},
                {"expected", bench.records.size()},
                {"deadlock", watchdog.fired},
                {"errors", bench.errors},
                {"packets", packets},
                {"stats", bench.net->stats_json()},
                {"end_cycle", bench.net->now_cycle()},
                {"run_ahead", run_ahead}};
}

} // namespace starfish::net::testing
