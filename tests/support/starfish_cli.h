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

// How many times `part` occurs in `text`.
size_t count(const std::string &text, const std::string &part);

// A file's whole text ("" when it cannot be read).
std::string read_file(const std::string &path);

// Replaces a file's text.
void write_file(const std::string &path, const std::string &text);

// A temporary directory (/tmp/<prefix>_XXXXXX), removed with everything in it.
struct TempDir {
    explicit TempDir(const std::string &prefix);
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    std::string path;
    std::string operator/(const std::string &name) const { return path + "/" + name; }
};

// `run` on the four-CP machine (--config small) with a 64 KB file, one trial:
// a few milliseconds; `extra` appended.
std::vector<std::string> tiny_run(const std::vector<std::string> &extra = {});

} // namespace starfish::testing
