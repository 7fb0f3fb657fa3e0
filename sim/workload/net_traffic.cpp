#include "sim/workload/net_traffic.h"

#include "fw/param_keys.h"
#include "hw/config/config_error.h"
#include "sim/platform/network_factory.h"
#include "sim/runner/host_clock.h"
#include "sim/runner/isolated_run.h"
#include "tlm_models/net/net_params.h"
#include "tlm_models/net/torus_base.h"
#include "tlm_models/net/torus_topology.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace starfish::sim {

using nlohmann::json;

json run_traffic_point(const config::Config &cfg, const net::TrafficSpec &spec, uint64_t trial,
                       bool with_channels, const std::string &rtl_fst) {
    HostClock clock;
    net::NetParams params = net::NetParams::from(cfg);
    auto seed = static_cast<uint64_t>(cfg.get_int(keys::workload_seed));
    auto network = platform::make_network("net", params, seed, trial, rtl_fst);
    net::TrafficGenerator gen("traffic", *network, spec, seed, trial);
    sc_core::sc_start();
    json result = gen.result();
    json stats = network->stats_json();
    if (!with_channels) {
        stats.erase("channels");
    }
    stats.erase("latencies");
    uint64_t events = network->events_processed();
    double wall = clock.elapsed_s();
    double sim_s = double(network->now_cycle()) * double(params.cycle_ps()) * 1e-12;
    result["network"] = stats;
    result["host"] = json{{"wall_s", wall},
                          {"sim_s", sim_s},
                          {"events", events},
                          {"flits", stats["flits_delivered"]},
                          {"packets", stats["packets_delivered"]}};
    return result;
}

std::vector<double> default_sweep_loads() {
    std::vector<double> loads;
    for (int i = 1; i <= 20; ++i) {
        loads.push_back(i * 0.05);
    }
    return loads;
}

net::TrafficSpec resolve_traffic_spec(const config::Config &cfg, net::TrafficSpec spec,
                                      int64_t warmup_cycles, int64_t drain_cycles) {
    spec.warmup_cycles = warmup_cycles >= 0 ? warmup_cycles : spec.measure_cycles / 5;
    spec.drain_cycles = drain_cycles >= 0 ? drain_cycles : 4 * spec.measure_cycles;
    net::NetParams params = net::NetParams::from(cfg);
    try {
        spec.validate(net::TorusTopology(params.width, params.height, params.vcs_per_class));
    } catch (const std::invalid_argument &e) {
        throw config::ConfigError(e.what()); // bad options: exit status 2
    }
    return spec;
}

std::vector<double> traffic_loads(bool sweep, const std::vector<double> &loads, double spec_load) {
    std::vector<double> out =
        sweep ? (loads.empty() ? default_sweep_loads() : loads) : std::vector<double>{spec_load};
    for (double load : out) {
        if (!(load > 0 && load <= 1)) {
            throw config::ConfigError("--loads: " + std::to_string(load) +
                                      " outside (0, 1] flits per node per cycle");
        }
    }
    return out;
}

std::vector<json> run_traffic_points(const config::Config &cfg, const net::TrafficSpec &spec,
                                     const std::vector<double> &loads, uint64_t trial, bool sweep,
                                     int jobs, const std::function<void(const json &)> &on_point,
                                     const std::string &rtl_fst) {
    std::vector<IsolatedJob> points;
    for (double load : loads) {
        net::TrafficSpec s = spec;
        s.load = load;
        bool channels = !sweep;
        points.push_back([cfg, s, trial, channels, rtl_fst] {
            return run_traffic_point(cfg, s, trial, channels, rtl_fst);
        });
    }
    return run_isolated_all(points, std::max(1, jobs), [&](size_t, const json &p) {
        if (on_point) {
            on_point(p);
        }
    });
}

TrafficTotals traffic_totals(const std::vector<json> &points, int jobs) {
    TrafficTotals t;
    for (const json &p : points) {
        t.host.sim_s += p["host"]["sim_s"].get<double>();
        t.host.cpu_s += p["host"]["wall_s"].get<double>();
        t.host.events += p["host"]["events"].get<uint64_t>();
        t.errors += p["errors"].get<uint64_t>();
    }
    t.host.parallel = std::max(1, jobs);
    if (!points.empty()) {
        t.saturation = points.front();
        for (const json &p : points) {
            if (p["accepted_load"].get<double>() > t.saturation["accepted_load"].get<double>()) {
                t.saturation = p;
            }
        }
    }
    std::vector<const json *> by_load;
    for (const json &p : points) {
        by_load.push_back(&p);
    }
    std::stable_sort(by_load.begin(), by_load.end(), [](const json *a, const json *b) {
        return (*a)["offered_load"].get<double>() < (*b)["offered_load"].get<double>();
    });
    for (const json *p : by_load) {
        const double limit = 3 * (*p)["zero_load_latency_cycles"].get<double>();
        if (!(*p)["complete"].get<bool>() || (*p)["mean_latency_cycles"].get<double>() > limit) {
            break;
        }
        if (t.saturation_3t0.is_null() ||
            (*p)["accepted_load"].get<double>() > t.saturation_3t0["accepted_load"].get<double>()) {
            t.saturation_3t0 = *p;
        }
    }
    return t;
}

} // namespace starfish::sim
