#include "tlm_models/net/traffic_generator.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

namespace starfish::net {

using nlohmann::json;

void TrafficSpec::validate(const TorusTopology &topo) const {
    auto bad = [](const std::string &why) { throw std::invalid_argument("traffic: " + why); };
    if (pattern != "uniform" && pattern != "transpose" && pattern != "hotspot" &&
        pattern != "neighbor") {
        bad("pattern '" + pattern + "': expected uniform, transpose, hotspot or neighbor");
    }
    if (!(load > 0 && load <= 1)) {
        bad("load " + std::to_string(load) + " outside (0, 1] flits per node per cycle");
    }
    if (packet_bytes > HW_PKT_MAX_PAYLOAD_BYTES) {
        bad("packet bytes " + std::to_string(packet_bytes) + " above the packet format's maximum");
    }
    if (pattern == "transpose" && topo.width() != topo.height()) {
        bad("transpose needs a square torus (net.width = net.height)");
    }
    if (pattern == "hotspot" && (hotspot_router < 0 || hotspot_router >= topo.routers())) {
        bad("hotspot router " + std::to_string(hotspot_router) + ": no such router");
    }
    if (!(hotspot_fraction >= 0 && hotspot_fraction <= 1)) {
        bad("hotspot fraction outside [0, 1]");
    }
    if (warmup_cycles < 0 || measure_cycles <= 0 || drain_cycles < 0) {
        bad("warmup, measurement and drain cycles must be >= 0 (measurement > 0)");
    }
}

bool TrafficSpec::injects(const TorusTopology &topo, int router) const {
    return include_self || pattern != "transpose" || topo.x_of(router) != topo.y_of(router);
}

double TrafficSpec::zero_load_latency(const NetParams &params) const {
    const TorusTopology topo(params.width, params.height, params.vcs_per_class);
    const uint32_t flits = params.packet_flits(packet_bytes);
    const int n = topo.routers();
    auto t0 = [&](int src, int dst) {
        return double(params.zero_load_cycles(flits, topo.hops(src, dst)));
    };
    // Mean over the uniform choice (every router, or every other one).
    auto uniform = [&](int src) {
        double sum = 0;
        for (int d = 0; d < n; ++d) {
            sum += (d != src || include_self) ? t0(src, d) : 0.0;
        }
        return sum / double(include_self ? n : n - 1);
    };
    double total = 0;
    int sources = 0;
    for (int src = 0; src < n; ++src) {
        if (!injects(topo, src)) {
            continue;
        }
        ++sources;
        if (pattern == "transpose") {
            total += t0(src, topo.router_at(topo.y_of(src), topo.x_of(src)));
        } else if (pattern == "neighbor") {
            double sum = 0;
            for (int port = 0; port < 4; ++port) {
                sum += t0(src, topo.neighbour(src, port));
            }
            total += sum / 4;
        } else if (pattern == "hotspot" && src != hotspot_router) {
            total +=
                hotspot_fraction * t0(src, hotspot_router) + (1 - hotspot_fraction) * uniform(src);
        } else {
            total += uniform(src);
        }
    }
    return sources > 0 ? total / sources : 0.0;
}

namespace {
inline uint8_t pattern_byte(uint64_t id, size_t i) {
    return static_cast<uint8_t>((id * 0x9e3779b9u + i * 13u) >> 3);
}
} // namespace

// One router's traffic source and sink.
class TrafficNode : public sc_core::sc_module, public PacketEndpoint {
public:
    SC_HAS_PROCESS(TrafficNode);
    TrafficNode(sc_core::sc_module_name name, TrafficGenerator &gen, int router, uint64_t seed,
                uint64_t trial)
        : sc_core::sc_module(name), gen_(gen), router_(router) {
        hw_rng_seed(&rng_, hw_rng_stream_seed(seed, trial, HW_RNG_STREAM_TRAFFIC, router));
        SC_METHOD(pump);
        sensitive << wake_ << gen.net_.injection_ready(router);
        dont_initialize();
    }

    void start(bool injecting) {
        if (!injecting) {
            return;
        }
        uint32_t flits = gen_.net_.params().packet_flits(gen_.spec_.packet_bytes);
        p_ = std::min(1.0, gen_.spec_.load / flits);
        next_create_ = gap();
        wake_.notify(gen_.net_.time_of(next_create_));
    }

    bool deliver(PacketPtr &pkt) override {
        const Packet &p = *pkt;
        int64_t created = int64_t(p.tag >> 1);
        for (size_t i = 0; i < p.payload.size(); i += 61) { // sampled: keeps 8 KB packets cheap
            if (p.payload[i] != pattern_byte(p.id, i)) {
                gen_.error("packet " + std::to_string(p.id) + " payload byte " + std::to_string(i) +
                           " wrong");
                break;
            }
        }
        if (p.dst_router != router_) {
            gen_.error("packet " + std::to_string(p.id) + " delivered at router " +
                       std::to_string(router_));
        }
        gen_.delivered(p, created, gen_.net_.now_cycle());
        pkt.reset();
        return true;
    }
    void injected(uint64_t) override {}

private:
    struct Pending {
        int64_t created;
        int dst;
    };

    // Cycles to the next packet: geometric with success probability p_ per cycle.
    int64_t gap() {
        if (p_ >= 1.0) {
            return 1;
        }
        double u = 1.0 - hw_rng_unit(&rng_); // (0, 1]
        return 1 + int64_t(std::floor(std::log(u) / std::log1p(-p_)));
    }

    void pump() {
        TorusBase &net = gen_.net_;
        const TrafficSpec &spec = gen_.spec_;
        int64_t now = net.now_cycle();
        if (gen_.generation_over_) {
            queue_.clear(); // the run is over: the network drains, then the simulation ends
            pkt_.reset();
            return;
        }
        while (next_create_ <= now) {
            queue_.push_back({next_create_, gen_.pick_destination(router_, rng_)});
            if (next_create_ >= spec.warmup_cycles &&
                next_create_ < spec.warmup_cycles + spec.measure_cycles) {
                gen_.measured_created_ += 1;
                gen_.window_flits_created_ += net.params().packet_flits(spec.packet_bytes);
            }
            next_create_ += gap();
        }
        while (!queue_.empty()) {
            if (!pkt_) {
                const Pending &q = queue_.front();
                pkt_ = std::make_unique<Packet>();
                pkt_->id = (uint64_t(router_) << 40) | serial_++;
                pkt_->src_router = router_;
                pkt_->dst_router = q.dst;
                pkt_->tag = uint64_t(q.created) << 1;
                pkt_->lane = static_cast<uint8_t>(hw_rng_below(&rng_, HW_PKT_MAX_LANES));
                pkt_->payload.resize(spec.packet_bytes);
                for (size_t i = 0; i < pkt_->payload.size(); ++i) {
                    pkt_->payload[i] = pattern_byte(pkt_->id, i);
                }
            }
            if (!net.try_inject(router_, pkt_)) {
                break; // injection_ready wakes us
            }
            queue_.pop_front();
        }
        wake_.notify(net.time_of(next_create_) - sc_core::sc_time_stamp());
    }

    TrafficGenerator &gen_;
    int router_;
    hw_rng rng_;
    double p_ = 0;
    int64_t next_create_ = 0;
    uint64_t serial_ = 0;
    std::deque<Pending> queue_;
    PacketPtr pkt_;
    sc_core::sc_event wake_;
};

TrafficGenerator::TrafficGenerator(sc_core::sc_module_name name, TorusBase &net,
                                   const TrafficSpec &spec, uint64_t seed, uint64_t trial)
    : sc_core::sc_module(name), net_(net), spec_(spec) {
    spec_.validate(net.topology());
    const TorusTopology &topo = net.topology();
    for (int r = 0; r < topo.routers(); ++r) {
        nodes_.push_back(std::make_unique<TrafficNode>(("node" + std::to_string(r)).c_str(), *this,
                                                       r, seed, trial));
        net.attach(r, nodes_.back().get());
        bool injecting = spec_.injects(topo, r);
        injecting_nodes_ += injecting ? 1 : 0;
        nodes_.back()->start(injecting);
    }
    SC_METHOD(check_end);
    sensitive << end_check_;
    dont_initialize();
    end_check_.notify(net.time_of(spec_.warmup_cycles + spec_.measure_cycles));
}

// At the end of the window (and at the drain deadline): stop if nothing measured
// is still travelling.
void TrafficGenerator::check_end() {
    int64_t window_end = spec_.warmup_cycles + spec_.measure_cycles;
    int64_t now = net_.now_cycle();
    if (measured_delivered_ == measured_created_ || now >= window_end + spec_.drain_cycles) {
        end();
    } else {
        end_check_.notify(net_.time_of(window_end + spec_.drain_cycles) - sc_core::sc_time_stamp());
    }
}

void TrafficGenerator::end() {
    generation_over_ = true;
}

TrafficGenerator::~TrafficGenerator() = default;

int TrafficGenerator::pick_destination(int src, hw_rng &rng) const {
    const TorusTopology &topo = net_.topology();
    int n = topo.routers();
    auto uniform_other = [&] {
        if (spec_.include_self) {
            return int(hw_rng_below(&rng, uint64_t(n)));
        }
        int d = int(hw_rng_below(&rng, uint64_t(n - 1)));
        return d >= src ? d + 1 : d;
    };
    if (spec_.pattern == "transpose") {
        return topo.router_at(topo.y_of(src), topo.x_of(src));
    }
    if (spec_.pattern == "neighbor") {
        return topo.neighbour(src, int(hw_rng_below(&rng, 4)));
    }
    if (spec_.pattern == "hotspot" && src != spec_.hotspot_router &&
        hw_rng_unit(&rng) < spec_.hotspot_fraction) {
        return spec_.hotspot_router;
    }
    return uniform_other();
}

void TrafficGenerator::error(const std::string &what) {
    if (errors_.size() < 10) {
        errors_.push_back(what);
    }
    error_count_ += 1;
}

void TrafficGenerator::delivered(const Packet &pkt, int64_t created, int64_t now) {
    int64_t window_end = spec_.warmup_cycles + spec_.measure_cycles;
    if (now >= spec_.warmup_cycles && now < window_end) {
        window_flits_delivered_ += net_.params().packet_flits(uint32_t(pkt.payload.size()));
        window_bytes_delivered_ += pkt.payload.size();
    }
    if (created >= spec_.warmup_cycles && created < window_end) {
        measured_delivered_ += 1;
        latencies_.push_back(uint32_t(std::min<int64_t>(now - created, UINT32_MAX)));
    }
    // Stop once every measured packet has arrived, or the drain time is up.
    if ((now >= window_end && measured_delivered_ == measured_created_) ||
        now >= window_end + spec_.drain_cycles) {
        end();
    }
}

bool TrafficGenerator::finished() const {
    return generation_over_ && measured_delivered_ == measured_created_;
}

json TrafficGenerator::result() const {
    NetStats lat;
    lat.latencies = latencies_;
    double window = double(spec_.measure_cycles);
    double nodes = double(std::max(1, injecting_nodes_));
    double seconds = window * double(net_.params().cycle_ps()) * 1e-12;
    return json{{"pattern", spec_.pattern},
                {"offered_load", spec_.load},
                {"packet_bytes", spec_.packet_bytes},
                {"packet_flits", net_.params().packet_flits(spec_.packet_bytes)},
                {"injecting_nodes", injecting_nodes_},
                {"include_self", spec_.include_self},
                {"zero_load_latency_cycles", spec_.zero_load_latency(net_.params())},
                {"generated_load", double(window_flits_created_) / nodes / window},
                {"accepted_load", double(window_flits_delivered_) / nodes / window},
                {"accepted_bytes_per_s", double(window_bytes_delivered_) / seconds},
                {"mean_latency_cycles", lat.mean_latency()},
                {"p50_latency_cycles", lat.latency_percentile(50)},
                {"p99_latency_cycles", lat.latency_percentile(99)},
                {"max_latency_cycles", lat.latency_percentile(100)},
                {"measured_packets", measured_created_},
                {"measured_delivered", measured_delivered_},
                {"complete", measured_delivered_ == measured_created_},
                {"errors", error_count_},
                {"error_messages", errors_}};
}

} // namespace starfish::net
