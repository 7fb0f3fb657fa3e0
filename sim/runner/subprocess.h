#pragma once
// Running a helper program (the report scripts of `starfish reproduce`, the
// Slurm commands of `starfish study submit`) and waiting for it.

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

// What a program with captured output did (the Slurm commands: sbatch, squeue).
struct CapturedRun {
    bool started = false; // false: argv[0] not found or not executable
    int exit_status = -1; // -1 when killed by a signal
    std::string out;
    std::string err;
};

// Runs argv like run_program, standard input from /dev/null, and returns its
// standard output and error (meant for short outputs: both are held in memory).
CapturedRun run_program_captured(const std::vector<std::string> &argv);

} // namespace starfish::sim
