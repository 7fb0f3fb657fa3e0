#pragma once
// Runs a program and captures its exit status and output (for CLI tests).

#include <string>
#include <vector>

namespace starfish::testing {

struct ProcessResult {
    int exit_status = -1; // -1 when killed by a signal
    std::string out;
    std::string err;
};

ProcessResult run_process(const std::vector<std::string> &argv);

} // namespace starfish::testing
