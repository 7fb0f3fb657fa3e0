#pragma once
// `starfish disk replay` and `starfish disk demerit`: validating the HP 97560
// model against request traces and other disk models (docs/disk.md).
//
// replay feeds a request trace (CSV: time_ms,disk,lba,sectors,op) through HP 97560
// drives on SCSI buses driven by host adapters, exactly as firmware would drive
// them (descriptors and registers), and records each request's response time.
// demerit compares two response-time distributions (Ruemmler & Wilkes 1994).

#include "hw/config/config.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace starfish::sim {

// Bad input file: the message starts with "FILE:LINE: ". Exit status 2.
class DiskInputError : public std::runtime_error {
public:
    explicit DiskInputError(const std::string &what) : std::runtime_error(what) {}
};

struct DiskTraceRequest {
    uint64_t time_ps = 0; // issue time
    uint32_t disk = 0;    // index 0 .. disks-1
    uint32_t lba = 0;
    uint32_t sectors = 0; // 1 .. 65535 (READ(10)/WRITE(10))
    bool write = false;
    int line = 0; // line in the trace file
};

struct DiskTrace {
    std::string path;
    std::vector<std::string> header;            // columns as in the file
    std::vector<std::vector<std::string>> rows; // fields as in the file
    std::vector<DiskTraceRequest> requests;     // one per row
    int response_column = -1;                   // index of an existing response_ms column
};

// Reads and checks a trace. disks = 0 accepts any disk index; capacity = 0 skips
// the LBA range check. Throws DiskInputError naming the file and line.
DiskTrace read_disk_trace(const std::string &path, uint32_t disks, uint64_t capacity_sectors);

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

// Root-mean-square horizontal distance between the empirical cumulative
// distributions of a and b (in their unit): sqrt(integral over p in (0,1) of
// (Qa(p) - Qb(p))^2), Q the quantile functions. Both must be non-empty.
double demerit(std::vector<double> a, std::vector<double> b);

// Reads the response_ms column of a replay output (or of a measured trace).
std::vector<double> read_response_column(const std::string &path);

void add_disk_command(CLI::App &app, int &exit_status);

} // namespace starfish::sim
