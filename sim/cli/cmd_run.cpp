#include "sim/cli/cmd_run.h"

#include "hw/platform/machine_params.h"
#include "sim/cli/common.h"
#include "sim/report/run_result.h"
#include "sim/runner/host_clock.h"
#include "sim/runner/isolated_run.h"
#include "sim/trace/trace_session.h"
#include "sim/workload/workload.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include <memory>
#include <ostream>

namespace starfish::sim {

using nlohmann::json;

namespace {

struct RunCommandOptions {
    CommonOptions common;
    // Observation (docs/observe.md).
    std::string vcd, log, timeline, trace_from, trace_to;
    std::string ni_dma_fst; // the DMA engine's RTL waveforms (docs/rtl.md)
    std::string rtl_fst;    // the routers' RTL waveforms (docs/rtl.md)
    std::vector<std::string> trace, log_components;
};

// The trace request of the options; throws std::invalid_argument naming what is wrong.
trace::TraceRequest trace_request(const RunCommandOptions &opts,
                                  const platform::MachineShape &shape) {
    trace::TraceRequest req;
    req.vcd_path = opts.vcd;
    req.log_path = opts.log;
    req.timeline_path = opts.timeline;
    req.ni_dma_fst_path = opts.ni_dma_fst;
    req.rtl_fst_path = opts.rtl_fst;
    req.components = opts.trace;
    req.log_components = opts.log_components;
    if (!opts.trace_from.empty() && !trace::parse_time_ps(opts.trace_from, req.from_ps)) {
        throw std::invalid_argument("--trace-from '" + opts.trace_from +
                                    "': expected a time such as 2ms, 150us or 0.5s");
    }
    if (!opts.trace_to.empty() && !trace::parse_time_ps(opts.trace_to, req.to_ps)) {
        throw std::invalid_argument("--trace-to '" + opts.trace_to +
                                    "': expected a time such as 2ms, 150us or 0.5s");
    }
    trace::check_request(req, shape);
    return req;
}

void print_trace_files(std::ostream &out, const trace::TraceRequest &req,
                       const std::vector<platform::NodeSite> &sites) {
    if (!req.rtl_fst_path.empty()) {
        std::error_code ec;
        out << "router RTL FST (trial 0): " << req.rtl_fst_path << ", "
            << std::filesystem::file_size(req.rtl_fst_path, ec) << " bytes\n";
    }
    if (!req.ni_dma_fst_path.empty()) {
        uint64_t bytes = 0;
        for (const auto &s : sites) {
            std::error_code ec;
            bytes += std::filesystem::file_size(
                trace::ni_dma_fst_file(req.ni_dma_fst_path,
                                       (s.role == platform::NodeRole::Compute ? "cp" : "iop") +
                                           std::to_string(s.index)),
                ec);
        }
        out << "DMA engine RTL FST (trial 0, one file per node): "
            << trace::ni_dma_fst_file(req.ni_dma_fst_path, "<node>") << ", " << bytes
            << " bytes in all\n";
    }
    for (const auto &[what, path] : {std::pair<const char *, std::string>{"VCD", req.vcd_path},
                                     {"log", req.log_path},
                                     {"timeline", req.timeline_path}}) {
        if (!path.empty()) {
            std::error_code ec;
            auto bytes = std::filesystem::file_size(path, ec);
            out << what << " (trial 0): " << path << ", "
                << (ec ? std::string("not written") : std::to_string(bytes) + " bytes") << "\n";
        }
    }
}

// The torus as a grid of node labels (C3 = CP 3, I0 = IOP 0, . = empty router).
void print_machine(std::ostream &out, const platform::MachineShape &m,
                   const std::vector<platform::NodeSite> &sites) {
    out << "machine: " << m.cp_count << " CPs + " << m.iop_count << " IOPs at " << m.cpu_hz / 1e6
        << " MHz, " << m.disks_per_iop << " disk(s) per IOP, " << m.torus_width << "x"
        << m.torus_height << " torus, placement " << m.placement << "\n";
    std::vector<std::string> grid(m.torus_width * m.torus_height, ".");
    for (const auto &s : sites) {
        grid[s.router] =
            (s.role == platform::NodeRole::Compute ? "C" : "I") + std::to_string(s.index);
    }
    for (int y = 0; y < m.torus_height; ++y) {
        out << "  ";
        for (int x = 0; x < m.torus_width; ++x) {
            std::string cell = grid[y * m.torus_width + x];
            out << cell << std::string(cell.size() < 5 ? 5 - cell.size() : 1, ' ');
        }
        out << "\n";
    }
}

int run_run(const RunCommandOptions &opts) {
    HostClock clock;
    config::Config cfg = load_config(opts.common);
    auto shape = platform::MachineShape::from(cfg);
    trace::TraceRequest tracing;
    try {
        tracing = trace_request(opts, shape);
    } catch (const std::invalid_argument &e) {
        std::cerr << "starfish: configuration error: " << e.what() << "\n";
        return kExitUsage;
    }
    if (!tracing.ni_dma_fst_path.empty() && cfg.get_string("ni.model") != "rtl") {
        std::cerr << "starfish: configuration error: --ni-dma-fst needs ni.model = rtl\n";
        return kExitUsage;
    }
    if (!tracing.rtl_fst_path.empty() && cfg.get_string("net.model") != "rtl") {
        std::cerr << "starfish: configuration error: --rtl-fst needs net.model = rtl\n";
        return kExitUsage;
    }
    trace::set_request(tracing);
    auto sites = shape.sites();
    std::ostream &out = opts.common.human();
    print_machine(out, shape, sites);

    RunResult result("run", cfg);
    json nodes = json::array();
    for (const auto &s : sites) {
        nodes.push_back(json{{"node", s.node},
                             {"role", platform::role_name(s.role)},
                             {"index", s.index},
                             {"router", s.router},
                             {"x", s.x},
                             {"y", s.y}});
    }
    result.doc()["machine"] = json{{"cp_count", shape.cp_count},
                                   {"iop_count", shape.iop_count},
                                   {"disks_per_iop", shape.disks_per_iop},
                                   {"cpu_hz", shape.cpu_hz},
                                   {"torus", {shape.torus_width, shape.torus_height}},
                                   {"nodes", nodes}};

    const WorkloadKind &kind = workload_kind(cfg.get_string("workload.kind"));
    int trials = static_cast<int>(cfg.get_int("workload.trials"));
    HostStats host;
    host.parallel = std::min(trial_parallelism(cfg), trials);
    out << kind.describe(cfg) << "\n"
        << trials << " trial" << (trials == 1 ? "" : "s") << ", " << host.parallel << " at once\n"
        << std::flush;

    std::vector<IsolatedJob> jobs;
    for (int t = 0; t < trials; ++t) {
        jobs.push_back([&cfg, &kind, t] { return kind.run_trial(cfg, t); });
    }
    size_t finished = 0;
    auto results = run_isolated_all(jobs, host.parallel, [&](size_t index, const json &trial) {
        ++finished;
        out << "  [" << finished << "/" << trials << "] trial " << index << ": "
            << kind.trial_line(trial) << "\n"
            << std::flush;
    });

    bool all_verified = true;
    for (const auto &t : results) {
        result.add_trial(t);
        all_verified = all_verified && t.value("verified", false);
        host.sim_s += t.value("sim_s", 0.0);
        host.cpu_s += t.value("host_cpu_s", 0.0);
        host.events += t.value("events", 0ull);
    }
    json summary = kind.summarize(cfg, results);
    summary["verified"] = all_verified;
    result.set_summary(summary);
    kind.print(out, cfg, results, summary);

    host.wall_s = clock.elapsed_s();
    result.set_host(host);
    if (!opts.common.json_path.empty()) {
        result.write(opts.common.json_path);
    }
    print_trace_files(out, tracing, sites);
    out << host.line() << "\n";
    if (!all_verified) {
        std::cerr << "starfish: run failed: data verification failed (see the trial table)\n";
        return kExitRunFailed;
    }
    return kExitOk;
}

} // namespace

void add_run_command(CLI::App &app, int &exit_status) {
    auto opts = std::make_shared<RunCommandOptions>();
    CLI::App *cmd = app.add_subcommand("run", "run the configured workload on the configured "
                                              "machine (default: sim/configs/default.json)");
    add_common_options(cmd, opts->common);
    cmd->add_option("--ni-dma-fst", opts->ni_dma_fst,
                    "with ni.model=rtl: write FST waveforms of every node's DMA engine RTL in "
                    "trial 0 to FILE with the node inserted (FILE.cp0.fst, ...; docs/rtl.md)");
    cmd->add_option("--rtl-fst", opts->rtl_fst,
                    "with net.model=rtl: write FST waveforms of every router's RTL in trial 0 "
                    "to FILE (docs/rtl.md)");
    cmd->add_option("--vcd", opts->vcd,
                    "write a VCD waveform of trial 0 to FILE (docs/observe.md)");
    cmd->add_option("--trace-from", opts->trace_from,
                    "start the VCD, log and timeline at simulated time T (2ms, 150us, 0.5s)");
    cmd->add_option("--trace-to", opts->trace_to,
                    "end the VCD, log and timeline at simulated time T");
    cmd->add_option("--trace", opts->trace,
                    "trace only these components (cp0, iop1, iop1.disk0, net, net.r7, ...)")
        ->delimiter(',');
    cmd->add_option("--log", opts->log, "write the transaction log of trial 0 to FILE");
    cmd->add_option("--log-components", opts->log_components,
                    "log only these components (as --trace)")
        ->delimiter(',');
    cmd->add_option("--timeline", opts->timeline,
                    "write a Chrome/Perfetto trace-event timeline of trial 0 to FILE");
    cmd->callback([opts, &exit_status] { exit_status = run_run(*opts); });
}

} // namespace starfish::sim
