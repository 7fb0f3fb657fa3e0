#include "sim/cli/cmd_net.h"

#include "hw/config/config_error.h"
#include "hw/packet.h"
#include "sim/cli/common.h"
#include "sim/report/run_result.h"
#include "sim/report/safe_output.h"
#include "sim/runner/host_clock.h"
#include "sim/workload/net_traffic.h"
#include "tlm_models/net/net_params.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

namespace starfish::sim {

using nlohmann::json;

namespace {

// --warmup and --drain not given (any negative number given is refused).
constexpr int64_t kDefaultCycles = INT64_MIN;

struct NetTrafficOptions {
    CommonOptions common;
    net::TrafficSpec spec;
    bool sweep = false;
    std::vector<double> loads;
    int jobs = 1;
    uint64_t trial = 0;
    int64_t warmup = kDefaultCycles; // not given: cycles / 5
    int64_t drain = kDefaultCycles;  // not given: 4 x cycles
    std::string csv_path;
    std::string rtl_fst;
};

// The latency-load curve, one row per load point, for comparison with other
// simulators' output.
void write_curve_csv(std::ostream &f, const std::vector<json> &points) {
    f << "offered_load,accepted_load,accepted_bytes_per_s,mean_latency_cycles,"
         "p99_latency_cycles,zero_load_latency_cycles,complete\n";
    for (const json &p : points) {
        f << p["offered_load"].get<double>() << "," << p["accepted_load"].get<double>() << ","
          << p["accepted_bytes_per_s"].get<double>() << ","
          << p["mean_latency_cycles"].get<double>() << "," << p["p99_latency_cycles"] << ","
          << p["zero_load_latency_cycles"].get<double>() << ","
          << (p["complete"].get<bool>() ? 1 : 0) << "\n";
    }
}

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
    for (const auto &[name, value] :
         {std::pair<const char *, int64_t>{"--warmup", opts.warmup}, {"--drain", opts.drain}}) {
        if (value < 0 && value != kDefaultCycles) {
            throw config::ConfigError(std::string(name) + " " + std::to_string(value) +
                                      ": a number of cycles, 0 or more");
        }
    }
    net::TrafficSpec spec = resolve_traffic_spec(cfg, opts.spec, opts.warmup, opts.drain);
    net::NetParams params = net::NetParams::from(cfg);
    std::ostream &out = opts.common.human();
    out << "net traffic: " << spec.pattern << ", " << params.width << "x" << params.height
        << " torus (" << params.model << " model), " << spec.packet_bytes << "-byte packets ("
        << params.packet_flits(spec.packet_bytes) << " flits), " << spec.measure_cycles
        << " cycles measured after " << spec.warmup_cycles << " warm-up\n";

    std::vector<double> loads = traffic_loads(opts.sweep, opts.loads, spec.load);
    if (!opts.csv_path.empty() && !opts.sweep) {
        throw config::ConfigError("--csv: the latency-load curve needs --sweep");
    }
    if (!opts.rtl_fst.empty() && (opts.sweep || params.model != "rtl")) {
        throw config::ConfigError("--rtl-fst: the waveforms of the Verilog routers need "
                                  "net.model=rtl and a single load point (no --sweep)");
    }
    // Every output is checked before anything runs (sim/report/safe_output.h).
    OutputTarget json_out = check_output(opts.common.json_path, "--json");
    OutputTarget csv_out = check_output(opts.csv_path, "--csv", false);
    std::optional<StagedOutput> fst;
    if (!opts.rtl_fst.empty()) {
        fst.emplace(check_output(opts.rtl_fst, "--rtl-fst", false));
    }
    if (opts.sweep) {
        out << "  offered  accepted   accepted B/s   mean lat  p99 lat  complete\n"
            << "  (flits/node/cycle)    (payload)    (cycles)  (cycles)\n";
    }
    std::vector<json> points = run_traffic_points(
        cfg, spec, loads, opts.trial, opts.sweep, opts.jobs,
        [&](const json &p) {
            if (opts.sweep) {
                print_point_row(out, p);
            }
        },
        fst ? fst->write_path() : std::string());
    if (fst) {
        fst->commit();
    }

    RunResult result(opts.sweep ? "net traffic --sweep" : "net traffic", cfg);
    TrafficTotals totals = traffic_totals(points, opts.jobs);
    HostStats host = totals.host;
    if (opts.sweep) {
        const json &best = totals.saturation;
        result.doc()["points"] = points;
        result.doc()["saturation"] = json{{"accepted_load", best["accepted_load"]},
                                          {"accepted_bytes_per_s", best["accepted_bytes_per_s"]},
                                          {"offered_load", best["offered_load"]}};
        out << "saturation throughput: " << fmt(best["accepted_load"].get<double>(), 3)
            << " flits/node/cycle (" << fmt(best["accepted_bytes_per_s"].get<double>() / 1e9, 3)
            << "e9 payload B/s in all) at offered load " << fmt(best["offered_load"], 2) << "\n";
        const json &rule = totals.saturation_3t0;
        const double t0 = points.front()["zero_load_latency_cycles"].get<double>();
        if (rule.is_null()) {
            result.doc()["saturation_3t0"] = nullptr;
            out << "saturation (latency <= 3 x T0 = " << fmt(3 * t0, 1)
                << " cycles): beyond the lowest load\n";
        } else {
            result.doc()["saturation_3t0"] = json{{"accepted_load", rule["accepted_load"]},
                                                  {"offered_load", rule["offered_load"]},
                                                  {"zero_load_latency_cycles", t0},
                                                  {"latency_limit_cycles", 3 * t0}};
            out << "saturation (latency <= 3 x T0 = " << fmt(3 * t0, 1)
                << " cycles): " << fmt(rule["accepted_load"].get<double>(), 3)
                << " flits/node/cycle at offered load " << fmt(rule["offered_load"], 2) << "\n";
        }
        if (!opts.csv_path.empty()) {
            std::vector<json> sorted = points;
            std::stable_sort(sorted.begin(), sorted.end(), [](const json &a, const json &b) {
                return a["offered_load"].get<double>() < b["offered_load"].get<double>();
            });
            write_output(csv_out, [&](std::ostream &o) { write_curve_csv(o, sorted); });
        }
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
    result.write(json_out);
    if (totals.errors > 0) {
        std::cerr << "starfish: net traffic: " << totals.errors << " packets arrived corrupted\n";
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
    cmd->add_flag("--include-self", opts->spec.include_self,
                  "uniform and hotspot may pick the source itself, transpose's diagonal "
                  "routers send to themselves (other simulators' convention)");
    cmd->add_option("--rtl-fst", opts->rtl_fst,
                    "with net.model=rtl: write every signal of the Verilog routers to this FST "
                    "(docs/rtl.md; open with gtkwave -a sim/waves/router.gtkw)");
    cmd->add_option("--csv", opts->csv_path,
                    "with --sweep: write the latency-load curve as CSV to FILE");
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
