#include "sim/cli/cmd_disk.h"

#include "sim/cli/common.h"
#include "sim/report/demerit.h"
#include "sim/report/run_result.h"
#include "sim/runner/host_clock.h"
#include "sim/workload/disk_replay.h"
#include "sim/workload/disk_trace.h"

#include <iomanip>
#include <iostream>
#include <memory>
#include <numeric>

namespace starfish::sim {

using nlohmann::json;

namespace {

struct ReplayOptions {
    CommonOptions common;
    std::string trace;
    std::string out;
    uint32_t disks = 0;
    uint32_t buses = 1;
};

struct DemeritOptions {
    std::string a, b, json_path;
};

int run_replay(const ReplayOptions &opt) {
    HostClock clock;
    config::Config cfg = load_config(opt.common);
    OutputTarget json_out = check_output(opt.common.json_path, "--json");
    OutputTarget csv_out = check_output(opt.out, "--out");
    std::ostream &out = opt.common.human();
    TraceReplay replay = replay_trace_file(cfg, opt.trace, csv_out, opt.disks, opt.buses);
    const DiskReplayResult &res = replay.result;

    const json &s = res.summary;
    out << "replayed " << replay.trace.requests.size() << " request(s) on " << replay.disks
        << " disk(s), " << opt.buses << " bus(es): mean response " << std::fixed
        << std::setprecision(3) << s["mean_response_ms"].get<double>() << " ms, max "
        << s["max_response_ms"].get<double>() << " ms, " << s["throughput_mb_s"].get<double>()
        << " MB/s over " << res.sim_s << " simulated s\n";
    out << "wrote " << opt.out << "\n";
    out.unsetf(std::ios::fixed);

    RunResult result("disk replay", cfg);
    result.doc()["trace"] = opt.trace;
    result.doc()["output"] = opt.out;
    result.set_summary(s);
    HostStats host;
    host.wall_s = clock.elapsed_s();
    host.sim_s = res.sim_s;
    host.events = res.events;
    result.set_host(host);
    out << host.line() << "\n";
    result.write(json_out);
    return kExitOk;
}

int run_demerit(const DemeritOptions &opt) {
    OutputTarget json_out = check_output(opt.json_path, "--json");
    std::vector<double> a = read_response_column(opt.a);
    std::vector<double> b = read_response_column(opt.b);
    double d = demerit(a, b);
    double mean_a = std::accumulate(a.begin(), a.end(), 0.0) / a.size();
    double mean_b = std::accumulate(b.begin(), b.end(), 0.0) / b.size();
    double percent = mean_a > 0 ? 100.0 * d / mean_a : 0.0;
    std::ostream &out = opt.json_path == "-" ? std::cerr : std::cout;
    out << std::fixed << std::setprecision(4) << "demerit " << d << " ms = " << percent
        << " % of the mean of " << opt.a << " (" << mean_a << " ms; " << opt.b << ": " << mean_b
        << " ms; " << a.size() << " and " << b.size() << " responses)\n";
    json doc{{"command", "disk demerit"}, {"a", opt.a},          {"b", opt.b},
             {"count_a", a.size()},       {"count_b", b.size()}, {"mean_a_ms", mean_a},
             {"mean_b_ms", mean_b},       {"demerit_ms", d},     {"demerit_percent", percent}};
    write_output(json_out, doc.dump(2) + "\n");
    return kExitOk;
}

template <class F> void guarded(int &exit_status, F f) {
    try {
        exit_status = f();
    } catch (const DiskInputError &e) {
        std::cerr << "starfish: " << e.what() << "\n";
        exit_status = kExitUsage;
    }
}

} // namespace

void add_disk_command(CLI::App &app, int &exit_status) {
    CLI::App *disk = app.add_subcommand("disk", "HP 97560 disk model: trace replay and "
                                                "validation (docs/disk.md)");
    disk->require_subcommand(1);

    auto ro = std::make_shared<ReplayOptions>();
    CLI::App *replay = disk->add_subcommand(
        "replay", "feed a request trace (CSV time_ms,disk,lba,sectors,op) through the disk "
                  "model and write it back with a response_ms column");
    add_common_options(replay, ro->common);
    replay->add_option("--trace", ro->trace, "request trace CSV")->required();
    replay->add_option("--out", ro->out, "output CSV: the trace plus response_ms")->required();
    replay->add_option("--disks", ro->disks, "number of drives (default: largest disk index + 1)");
    replay->add_option("--buses", ro->buses,
                       "SCSI buses, each with its own host adapter; disk d on bus d % buses "
                       "(default 1)");
    replay->callback([ro, &exit_status] { guarded(exit_status, [&] { return run_replay(*ro); }); });

    auto dm = std::make_shared<DemeritOptions>();
    CLI::App *dem = disk->add_subcommand(
        "demerit", "RMS horizontal distance between the response-time distributions of two "
                   "CSV files (column response_ms), in ms and as % of the mean of the first");
    dem->add_option("a", dm->a, "reference CSV (e.g. measured)")->required();
    dem->add_option("b", dm->b, "CSV to compare (e.g. modelled)")->required();
    dem->add_option("--json", dm->json_path, "write the result as JSON to FILE ('-' = stdout)");
    dem->callback([dm, &exit_status] { guarded(exit_status, [&] { return run_demerit(*dm); }); });
}

} // namespace starfish::sim
