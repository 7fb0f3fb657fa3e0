#pragma once
// Reading an input file that must be a regular file: configuration and study
// files, manifests, cached and study-directory results. A directory, FIFO,
// device or socket in its place is refused without a blocking read (a FIFO
// would hang the command, /dev/zero would fill its memory), and so is a file
// larger than the caller allows.

#include <cstddef>
#include <string>

namespace starfish::config {

struct InputFile {
    bool ok = false;
    std::string text;    // the whole file when ok
    std::string problem; // otherwise why not: "is a directory", "does not exist", ...
};

// Reads `path` (symbolic links followed) when it is a regular file of at most
// max_bytes. `problem` is a phrase to put after the file's name.
InputFile read_regular_file(const std::string &path, size_t max_bytes);

// "" when `path` names a regular file (links followed), else the same phrase
// read_regular_file would give ("is a FIFO", "is a symbolic link loop", ...).
std::string regular_file_problem(const std::string &path);

// What a file mode is, as a phrase ("is a directory", "is a character device").
std::string file_type_phrase(unsigned mode);

} // namespace starfish::config
