#pragma once
// What `starfish run --vcd/--log/--timeline` asks for, checked before the run
// (configuration errors, exit 2), and the session that attaches the observation
// layer to a machine (docs/observe.md).
//
// Component scopes: cp<k>.cpu, cp<k>.ni, iop<k>.cpu, iop<k>.ni, iop<k>.scsi (the
// SCSI bus), iop<k>.disk<t> (target t of IOP k's bus), net.r<router>.

#include "sim/platform/machine.h"
#include "sim/platform/machine_params.h"
#include "sim/trace/scope_filter.h"
#include "tlm_models/common/trace_hub.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace starfish::trace {

struct TraceRequest {
    std::string vcd_path, log_path, timeline_path; // "" = not asked for
    uint64_t from_ps = 0;
    uint64_t to_ps = UINT64_MAX;
    std::vector<std::string> components;     // --trace (VCD and timeline)
    std::vector<std::string> log_components; // --log-components
    // --ni-dma-fst: FST of every node's DMA-engine RTL (ni.model = rtl), one file
    // per node: "<stem>.<node>.fst" (ni_dma_fst_file).
    std::string ni_dma_fst_path;
    // --rtl-fst: FST of every router of the RTL network (net.model = rtl). The
    // machine opens it when it builds its network (rtl_fst_for_trial).
    std::string rtl_fst_path;
    // Where trial 0's process writes each file: a temporary file beside it until
    // the trial has ended (sim/trace/trace_outputs.h); a file not listed is
    // written at its own path.
    std::map<std::string, std::string> write_paths;
    const std::string &write_path(const std::string &file) const {
        auto it = write_paths.find(file);
        return it == write_paths.end() ? file : it->second;
    }
    bool any() const {
        return !vcd_path.empty() || !log_path.empty() || !timeline_path.empty() ||
               !ni_dma_fst_path.empty() || !rtl_fst_path.empty();
    }
};

// "2ms", "150us", "1.5s", "4000ns", "12ps", or plain seconds; false if malformed.
bool parse_time_ps(const std::string &text, uint64_t &ps);

// Throws std::invalid_argument naming the problem: a window that ends before it
// begins, a component the machine does not have, an option that needs another.
// The files are checked by TraceOutputs (sim/trace/trace_outputs.h).
void check_request(const TraceRequest &req, const platform::MachineShape &shape);

// The request of this process (set by the CLI before trials are forked); the
// workloads trace trial 0 only.
void set_request(const TraceRequest &req);
const TraceRequest &request();

// The --rtl-fst file of this trial ("" but for trial 0 of a run that asked).
std::string rtl_fst_for_trial(int trial);

// The FST file of node `node` ("cp0", "iop1") for --ni-dma-fst PATH.
std::string ni_dma_fst_file(const std::string &path, const std::string &node);

class TraceSession {
public:
    // Attaches the hub and its sinks to the machine (before it runs) when a trace
    // was requested for this trial; nullptr otherwise.
    static std::unique_ptr<TraceSession> attach_requested(platform::Machine &m, int trial);
    TraceSession(platform::Machine &m, const TraceRequest &req);
    // Flushes the records and closes the files (after the run).
    void finish();

private:
    TraceHub hub_;
    std::vector<platform::Node *> rtl_waves_; // nodes writing --ni-dma-fst
};

// Runs the machine with the trace this trial was asked for (trial 0 only) attached
// and finished: every workload's trial runs its machine through this, so none can
// forget the trace. Returns Machine::run()'s failure ("" on success).
std::string run_traced(platform::Machine &m, int trial);

} // namespace starfish::trace
