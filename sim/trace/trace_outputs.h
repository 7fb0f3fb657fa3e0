#pragma once
// The files of a trace request (--vcd, --log, --timeline, --rtl-fst,
// --ni-dma-fst; docs/observe.md) are written by trial 0's process through
// temporary files (sim/report/safe_output.h): checked and staged before any
// trial starts, moved into place when trial 0 has run to its end, and kept as
// FILE.partial when it failed. A refused or failed run thus never empties or
// replaces the files of an earlier one; a FIFO or device is written in place.

#include "sim/report/safe_output.h"
#include "sim/trace/trace_session.h"

#include <memory>
#include <string>
#include <vector>

namespace starfish::trace {

class TraceOutputs {
public:
    // Checks every file of the request (config::ConfigError naming the option and
    // the file; nothing is created or truncated) and sets req.write_paths. `nodes`
    // are the machine's node names ("cp0", "iop3") for --ni-dma-fst.
    TraceOutputs(TraceRequest &req, const std::vector<std::string> &nodes);

    // Trial 0 ended: every file into place. Throws std::runtime_error naming a file
    // that cannot be.
    void commit();
    // Trial 0 failed: the incomplete files are kept as FILE.partial (their names
    // returned); the files themselves stay as they were.
    std::vector<std::string> keep_partial();

private:
    std::vector<std::unique_ptr<sim::StagedOutput>> files_;
};

} // namespace starfish::trace
