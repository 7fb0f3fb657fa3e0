#pragma once
// Running a helper program (the report scripts of `starfish reproduce`) and
// waiting for it.

#include <string>
#include <vector>

namespace starfish::sim {

// Where a helper's standard output and error go.
enum class ProgramOutput {
    Inherit,  // to ours
    Quiet,    // to /dev/null
    ToStderr, // both to our standard error (ours carries a JSON document)
};

// Runs argv[0] (looked up on PATH when it has no '/') with the given arguments,
// standard input from /dev/null, and waits for it. Returns its exit status, or -1
// when it could not be started or was killed by a signal.
int run_program(const std::vector<std::string> &argv,
                ProgramOutput output = ProgramOutput::Inherit);

} // namespace starfish::sim
