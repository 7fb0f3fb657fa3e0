#include "sim/cli/cmd_net.h"

#include "hw/config/config_error.h"
#include "sim/cli/common.h"
#include "sim/report/run_result.h"
#include "sim/runner/host_clock.h"
#include "sim/runner/isolated_run.h"
#include "tlm_models/net/packet_torus.h"

#include <cstdio>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>

namespace starfish::sim {

using nlohmann::json;

json run_traffic_point(const config::Config &cfg, const net::TrafficSpec &spec, uint64_t trial,
                       bool with_channels) {
    HostClock clock;
    net::NetParams params = net::NetParams::from(cfg);
    auto seed = static_cast<uint64_t>(cfg.get_int("workload.seed"));
    auto network = net::make_torus_network("net", params, seed, trial);
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

namespace {

struct NetTrafficOptions {
    CommonOptions common;
    net::TrafficSpec spec;
    bool sweep = false;
    std::vector<double> loads;
    int jobs = 1;
    uint64_t trial = 0;
    int64_t warmup = -1;
    int64_t drain = -1;
};

std::string fmt(double v, int precision) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(precision) << v;
    return o.str();
}

void print_point_row(std::ostream &out, const json &p) {
    char line[200];
    std::snprintf(line, sizeof line, "  %7.3f %9.3f %14.4g %10.1f %8u %9s%s\n",
                  p["offered_load"].get<double>(), p["accepted_load"].get<double>(),
                  p["accepted_bytes_per_s"].get<double>(), p["mean_latency_cycles"].get<double>(),
                  p["p99_latency_cycles"].get<unsigned>(), p["complete"].get<bool>() ? "yes" : "no",
                  p["errors"].get<uint64_t>() ? "  DATA ERRORS" : "");
    out << line;
}

int run_net_traffic(NetTrafficOptions &opts) {
    HostClock clock;
    config::Config cfg = load_config(opts.common);
    net::TrafficSpec spec = opts.spec;
    spec.warmup_cycles = opts.warmup >= 0 ? opts.warmup : spec.measure_cycles / 5;
    spec.drain_cycles = opts.drain >= 0 ? opts.drain : 4 * spec.measure_cycles;
    net::NetParams params = net::NetParams::from(cfg);
    try {
        spec.validate(net::TorusTopology(params.width, params.height, params.vcs_per_class));
    } catch (const std::invalid_argument &e) {
        throw config::ConfigError(e.what()); // bad options: exit status 2
    }
    std::ostream &out = opts.common.human();
    out << "net traffic: " << spec.pattern << ", " << params.width << "x" << params.height
        << " torus (" << params.model << " model), " << spec.packet_bytes << "-byte packets ("
        << params.packet_flits(spec.packet_bytes) << " flits), " << spec.measure_cycles
        << " cycles measured after " << spec.warmup_cycles << " warm-up\n";

    std::vector<double> loads = opts.sweep
                                    ? (opts.loads.empty() ? default_sweep_loads() : opts.loads)
                                    : std::vector<double>{spec.load};
    std::vector<IsolatedJob> jobs;
    for (double load : loads) {
        net::TrafficSpec s = spec;
        s.load = load;
        if (!(load > 0 && load <= 1)) {
            throw config::ConfigError("--loads: " + std::to_string(load) +
                                      " outside (0, 1] flits per node per cycle");
        }
        uint64_t trial = opts.trial;
        bool channels = !opts.sweep;
        jobs.push_back(
            [cfg, s, trial, channels] { return run_traffic_point(cfg, s, trial, channels); });
    }
    if (opts.sweep) {
        out << "  offered  accepted   accepted B/s   mean lat  p99 lat  complete\n"
            << "  (flits/node/cycle)    (payload)    (cycles)  (cycles)\n";
    }
    std::vector<json> points =
        run_isolated_all(jobs, std::max(1, opts.jobs), [&](size_t, const json &p) {
            if (opts.sweep) {
                print_point_row(out, p);
            }
        });

    RunResult result(opts.sweep ? "net traffic --sweep" : "net traffic", cfg);
    HostStats host;
    uint64_t errors = 0;
    for (const json &p : points) {
        host.sim_s += p["host"]["sim_s"].get<double>();
        host.cpu_s += p["host"]["wall_s"].get<double>();
        host.events += p["host"]["events"].get<uint64_t>();
        errors += p["errors"].get<uint64_t>();
    }
    host.parallel = std::max(1, opts.jobs);
    if (opts.sweep) {
        json best = points.front();
        for (const json &p : points) {
            if (p["accepted_load"].get<double>() > best["accepted_load"].get<double>()) {
                best = p;
            }
        }
        result.doc()["points"] = points;
        result.doc()["saturation"] = json{{"accepted_load", best["accepted_load"]},
                                          {"accepted_bytes_per_s", best["accepted_bytes_per_s"]},
                                          {"offered_load", best["offered_load"]}};
        out << "saturation throughput: " << fmt(best["accepted_load"].get<double>(), 3)
            << " flits/node/cycle (" << fmt(best["accepted_bytes_per_s"].get<double>() / 1e9, 3)
            << "e9 payload B/s in all) at offered load " << fmt(best["offered_load"], 2) << "\n";
    } else {
        const json &p = points.front();
        for (const char *key : {"offered_load", "accepted_load", "accepted_bytes_per_s",
                                "mean_latency_cycles", "p99_latency_cycles"}) {
            result.doc()[key] = p[key];
        }
        result.doc()["traffic"] = p;
        out << "  offered " << fmt(p["offered_load"].get<double>(), 3) << ", accepted "
            << fmt(p["accepted_load"].get<double>(), 3)
            << " flits/node/cycle = " << fmt(p["accepted_bytes_per_s"].get<double>() / 1e9, 3)
            << "e9 payload B/s in all; latency mean "
            << fmt(p["mean_latency_cycles"].get<double>(), 1) << ", p99 " << p["p99_latency_cycles"]
            << " cycles; " << p["measured_packets"] << " packets measured"
            << (p["complete"].get<bool>() ? "" : " (NOT all delivered)") << "\n";
    }
    host.wall_s = clock.elapsed_s();
    result.set_host(host);
    out << host.line() << "\n";
    if (!opts.common.json_path.empty()) {
        result.write(opts.common.json_path);
    }
    if (errors > 0) {
        std::cerr << "starfish: net traffic: " << errors << " packets arrived corrupted\n";
        return kExitRunFailed;
    }
    return kExitOk;
}

} // namespace

void add_net_command(CLI::App &app, int &exit_status) {
    CLI::App *net = app.add_subcommand("net", "the torus interconnect on its own");
    net->require_subcommand(1);
    auto opts = std::make_shared<NetTrafficOptions>();
    CLI::App *cmd = net->add_subcommand(
        "traffic", "synthetic traffic: accepted throughput and latency (docs/network.md)");
    add_common_options(cmd, opts->common);
    cmd->add_option("--pattern", opts->spec.pattern, "uniform | transpose | hotspot | neighbor")
        ->capture_default_str()
        ->check(CLI::IsMember({"uniform", "transpose", "hotspot", "neighbor"}));
    cmd->add_option("--load", opts->spec.load,
                    "offered load: flits per node per cycle, fraction of the injection bandwidth")
        ->capture_default_str()
        ->check(CLI::Range(1e-6, 1.0));
    cmd->add_option("--packet-bytes", opts->spec.packet_bytes, "payload bytes per packet")
        ->capture_default_str()
        ->check(CLI::Range(0u, unsigned(HW_PKT_MAX_PAYLOAD_BYTES)));
    cmd->add_option("--cycles", opts->spec.measure_cycles, "measurement window, cycles")
        ->capture_default_str()
        ->check(CLI::Range(int64_t(1), int64_t(1) << 40));
    cmd->add_option("--warmup", opts->warmup,
                    "warm-up cycles before the window (default cycles/5)");
    cmd->add_option("--drain", opts->drain,
                    "cycles after the window to wait for measured packets (default 4 x cycles)");
    cmd->add_option("--hotspot-fraction", opts->spec.hotspot_fraction,
                    "hotspot: share of packets sent to the hotspot router")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--hotspot-router", opts->spec.hotspot_router, "hotspot: the router")
        ->capture_default_str();
    cmd->add_flag("--sweep", opts->sweep,
                  "sweep the offered load and print the latency-load curve");
    cmd->add_option("--loads", opts->loads, "offered loads of the sweep (default 0.05 ... 1.0)")
        ->delimiter(',');
    cmd->add_option("--jobs", opts->jobs, "load points simulated at once")->capture_default_str();
    cmd->add_option("--trial", opts->trial, "trial number (selects the random streams)")
        ->capture_default_str();
    cmd->callback([opts, &exit_status] { exit_status = run_net_traffic(*opts); });
}

} // namespace starfish::sim
