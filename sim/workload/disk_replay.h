#pragma once
// The disk-replay testbench behind `starfish disk replay` (docs/disk.md): a
// request trace fed through HP 97560 drives on SCSI chains (host adapter + bus +
// drives, sim/platform/scsi_chain.h), driven exactly as firmware drives them
// (descriptors and registers), recording each request's response time.

#include "hw/config/config.h"
#include "sim/workload/disk_trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starfish::sim {

struct DiskReplayOptions {
    uint32_t disks = 1; // drives, global ids 0 .. disks-1
    uint32_t buses = 1; // disk d sits on bus d % buses, each bus with its own adapter
    uint64_t trial = 0; // selects the drives' initial rotational positions
};

struct DiskReplayResult {
    std::vector<uint64_t> complete_ps; // per request, in input order
    std::vector<uint64_t> response_ps; // completion - issue time
    nlohmann::json summary;            // requests, responses, per-disk/bus/adapter statistics
    uint64_t events = 0;               // model events (for host speed)
    double sim_s = 0;
};

// Elaborates the drives, buses and adapters in this process, runs every request
// and checks every byte read (against the drive contents) and written. SystemC
// elaborates once per process: call it once (tests use run_isolated).
DiskReplayResult run_disk_replay(const config::Config &cfg,
                                 const std::vector<DiskTraceRequest> &requests,
                                 const DiskReplayOptions &options);

struct TraceReplay {
    DiskTrace trace;
    uint32_t disks = 0; // as given, or the largest disk index in the trace + 1
    DiskReplayResult result;
};

// What `starfish disk replay` does: reads and checks the trace (disks = 0: as
// many drives as the trace names), replays it on `buses` buses, and writes the
// trace with the model's response_ms to `out` (checked before, safe_output.h).
// Bad input (trace, bus count) throws DiskInputError.
TraceReplay replay_trace_file(const config::Config &cfg, const std::string &trace_path,
                              const OutputTarget &out, uint32_t disks, uint32_t buses);

} // namespace starfish::sim
