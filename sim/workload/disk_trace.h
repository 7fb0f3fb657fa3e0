#pragma once
// Disk request traces for `starfish disk replay` and `starfish disk demerit`
// (docs/disk.md): CSV files with the columns time_ms,disk,lba,sectors,op (any
// others are carried along) and, in measured traces and replay output,
// response_ms.

#include "sim/report/safe_output.h"

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

// The latest request time a trace may hold: simulated time is 64-bit picoseconds
// (9.2e9 ms); a round bound below that.
constexpr double kMaxTraceTimeMs = 9e9;

// Reads and checks a trace. disks = 0 accepts any disk index; capacity = 0 skips
// the LBA range check. Throws DiskInputError naming the file and line (a negative
// time or one beyond kMaxTraceTimeMs too).
DiskTrace read_disk_trace(const std::string &path, uint32_t disks, uint64_t capacity_sectors);

// Writes the trace back with each request's response time (ms, 6 decimals) in
// its response_ms column, which is added when the trace has none and replaced
// when it has (the model's answer replaces the measured one). response_ps is in
// request order. The output was checked before the replay (safe_output.h);
// throws std::runtime_error when it cannot be written.
void write_trace_with_responses(const OutputTarget &out, const DiskTrace &trace,
                                const std::vector<uint64_t> &response_ps);

// Reads the response_ms column of a replay output (or of a measured trace).
std::vector<double> read_response_column(const std::string &path);

} // namespace starfish::sim
