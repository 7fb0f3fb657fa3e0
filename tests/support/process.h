#pragma once
// Runs a program and captures its exit status and output (for CLI tests).

#include <string>
#include <vector>

namespace starfish::testing {

struct ProcessResult {
    int exit_status = -1; // -1 when killed by a signal
    std::string out;
    std::string err;
    bool timed_out = false; // killed after timeout_s
};

// In a forked child: becomes the program argv[0] (a path) with the arguments;
// exits with status 127 when it cannot be run.
[[noreturn]] void exec_argv(const std::vector<std::string> &argv);

// timeout_s > 0: the program runs in its own process group, which is killed
// (SIGKILL, by its id) when it has not ended after that many seconds.
ProcessResult run_process(const std::vector<std::string> &argv, int timeout_s = 0);

} // namespace starfish::testing
