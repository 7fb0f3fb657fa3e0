#include "sim/cli/cmd_run.h"

#include "sim/cli/common.h"
#include "sim/platform/machine_params.h"
#include "sim/report/run_result.h"
#include "sim/runner/host_clock.h"
#include "sim/runner/isolated_run.h"
#include "sim/trace/trace_outputs.h"
#include "sim/trace/trace_session.h"
#include "sim/workload/host_memory.h"
#include "sim/workload/workload.h"
#include "sim/workload_params.h"
#include "tlm_models/net/net_params.h"
#include "tlm_models/node/network_interface_params.h"

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
    bool no_memory_check = false; // run even when the estimate exceeds the host's memory
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
            auto status = std::filesystem::status(path, ec);
            auto bytes = std::filesystem::file_size(path, ec);
            std::string written = std::to_string(bytes) + " bytes";
            if (status.type() == std::filesystem::file_type::not_found) {
                written = "not written";
            } else if (status.type() != std::filesystem::file_type::regular) {
                written = "written in place (a FIFO or device)";
            }
            out << what << " (trial 0): " << path << ", " << written << "\n";
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
    bool trace_late = false; // --trace-from after the end of trial 0
    try {
        tracing = trace_request(opts, shape);
    } catch (const std::invalid_argument &e) {
        std::cerr << "starfish: configuration error: " << e.what() << "\n";
        return kExitUsage;
    }
    if (!tracing.ni_dma_fst_path.empty() && cfg.get_string(keys::ni_model) != "rtl") {
        std::cerr << "starfish: configuration error: --ni-dma-fst needs ni.model = rtl\n";
        return kExitUsage;
    }
    if (!tracing.rtl_fst_path.empty() && cfg.get_string(keys::net_model) != "rtl") {
        std::cerr << "starfish: configuration error: --rtl-fst needs net.model = rtl\n";
        return kExitUsage;
    }
    auto sites = shape.sites();
    std::vector<std::string> node_names;
    for (const auto &s : sites) {
        node_names.push_back((s.role == platform::NodeRole::Compute ? "cp" : "iop") +
                             std::to_string(s.index));
    }
    // Every output is checked before anything runs; nothing is created or truncated.
    OutputTarget json_out = check_output(opts.common.json_path, "--json");
    trace::TraceOutputs trace_files(tracing, node_names);
    trace::set_request(tracing);
    const WorkloadKind &kind = workload_kind(cfg.get_string(keys::workload_kind));
    int trials = static_cast<int>(cfg.get_int(keys::workload_trials));
    HostStats host;
    host.parallel = std::min(trial_parallelism(cfg), trials);
    check_host_memory(
        std::vector<HostMemory>(static_cast<size_t>(trials), host_memory_estimate(cfg)),
        host.parallel, opts.no_memory_check);
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

    out << kind.describe(cfg) << "\n"
        << trials << " trial" << (trials == 1 ? "" : "s") << ", " << host.parallel << " at once\n"
        << std::flush;

    std::vector<IsolatedJob> jobs;
    for (int t = 0; t < trials; ++t) {
        jobs.push_back([&cfg, t] { return run_checked_trial(cfg, t); });
    }
    size_t finished = 0;
    auto outcomes = run_isolated_each(jobs, host.parallel, [&](size_t index, const auto &o) {
        ++finished;
        out << "  [" << finished << "/" << trials << "] trial " << index << ": "
            << (o.ok() ? kind.trial_line(o.result) : "FAILED") << "\n"
            << std::flush;
    });
    if (!outcomes.front().ok()) {
        for (const auto &kept : trace_files.keep_partial()) {
            std::cerr << "starfish: trial 0 failed: its incomplete trace is kept as " << kept
                      << " (the file named in the option is as it was)\n";
        }
    } else if (tracing.from_ps > 0 && outcomes.front().result.value("sim_s", 0.0) * 1e12 <=
                                          static_cast<double>(tracing.from_ps)) {
        // Nothing was traced: the empty files do not replace earlier ones.
        std::cerr << "starfish: configuration error: --trace-from " << opts.trace_from
                  << " is after the end of trial 0 (" << outcomes.front().result.value("sim_s", 0.0)
                  << " s simulated): nothing was traced and no trace file was written\n";
        trace_late = true;
    } else {
        trace_files.commit();
    }
    std::vector<json> results;
    bool all_ran = true;
    for (size_t t = 0; t < outcomes.size(); ++t) {
        if (!outcomes[t].ok()) {
            all_ran = false;
            std::cerr << "starfish: run failed: trial " << t << ": " << outcomes[t].error << "\n";
        }
        results.push_back(outcomes[t].result);
    }
    if (!all_ran) {
        return kExitRunFailed;
    }

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
    result.write(json_out);
    if (!trace_late) {
        print_trace_files(out, tracing, sites);
    }
    out << host.line() << "\n";
    if (trace_late) {
        return kExitUsage;
    }
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
    add_memory_check_option(cmd, opts->no_memory_check);
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
