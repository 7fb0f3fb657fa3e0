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

// A file's whole text ("" when it cannot be read).
std::string read_file(const std::string &path);

} // namespace starfish::testing
