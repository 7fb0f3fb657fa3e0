#pragma once
// Helpers for tests that run the starfish command: its path comes after `--` on the
// test's command line (ARGS -- $<TARGET_FILE:starfish> [source dir] in CMake).

#include "tests/support/process.h"

#include <string>
#include <vector>

namespace starfish::testing {

// argv[1] of the test process: the starfish binary.
std::string starfish_binary();

// argv[2] of the test process: the source directory.
std::string source_directory();

// Runs starfish with these arguments.
ProcessResult run_starfish(std::vector<std::string> args);

bool contains(const std::string &text, const std::string &part);

} // namespace starfish::testing
