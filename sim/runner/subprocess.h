#pragma once
// Running a helper program (the report scripts of `starfish reproduce`) and
// waiting for it.

#include <string>
#include <vector>

namespace starfish::sim {

// Runs argv[0] (looked up on PATH when it has no '/') with the given arguments,
// standard input from /dev/null, and waits for it. With `quiet` its standard
// output and error go to /dev/null, else to ours. Returns its exit status, or -1
// when it could not be started or was killed by a signal.
int run_program(const std::vector<std::string> &argv, bool quiet = false);

} // namespace starfish::sim
