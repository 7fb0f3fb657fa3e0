#pragma once
// Output files that never destroy what they replace (docs/configuration.md,
// "Outputs"). A path given for an output (--json, --csv, --markdown, the trace
// files of `starfish run`, the files of `starfish reproduce --out`) is checked
// before anything runs, without creating or truncating anything, and is written
// according to what it names:
//   * "-": standard output;
//   * a regular file, or nothing yet: the text goes to a temporary file in the
//     same directory, is flushed to the disk (fsync) and renamed over the file,
//     so the old content stays whole until the new one is complete; a symbolic
//     link is followed (its target is replaced, the link stays); a failure (a
//     full disk, a failed rename) removes the temporary file and leaves the old
//     file as it was;
//   * anything else that can be written (a FIFO, a character or block device):
//     written in place, never replaced or truncated.
// Files the command owns (cache entries, study-directory results, manifests) are
// written the same way with replace_file_atomically.

#include <functional>
#include <iosfwd>
#include <string>

namespace starfish::sim {

struct OutputTarget {
    enum class Kind {
        None,   // no path given: nothing is written
        Stdout, // "-"
        File,   // a regular file (existing or new): temporary file + rename
        Stream, // a FIFO or device: written in place
    };
    Kind kind = Kind::None;
    std::string path; // as given, for messages
    std::string file; // File: the regular file to replace (links resolved); Stream: the path
    std::string what; // the option, for messages ("--json")

    bool given() const { return kind != Kind::None; }
};

// Decides how `path` will be written, or throws config::ConfigError (exit status
// 2) naming `what`, the path and the problem: a directory, a missing directory, a
// path through something that is not a directory, a symbolic link loop, a socket,
// no permission to write. Creates and truncates nothing. "" gives Kind::None; "-"
// gives Stdout when allow_stdout, else an error.
OutputTarget check_output(const std::string &path, const std::string &what,
                          bool allow_stdout = true);

// A directory the command will create files in (`reproduce --out`): one that
// exists and is writable, or one that can be created (its nearest existing
// ancestor is a writable directory). Throws config::ConfigError otherwise.
void check_output_directory(const std::string &path, const std::string &what);

// Writes the text as the target's kind says (nothing for None). Throws
// std::runtime_error naming the path and the reason (exit status 1).
void write_output(const OutputTarget &target, const std::string &text);
void write_output(const OutputTarget &target, const std::function<void(std::ostream &)> &fill);

// check_output then write_output, for files whose path the command made itself
// (the report directory's files): a check failure is an error like any other.
void write_output_file(const std::string &path, const std::string &what,
                       const std::function<void(std::ostream &)> &fill);

// Writes `text` to `path` through a temporary file beside it (fsync, rename),
// replacing whatever is there. Returns "" or why it failed (the temporary file
// is removed then).
std::string replace_file_atomically(const std::string &path, const std::string &text);

// An output written by another process (trace files are written by the trial
// process): write_path() is where that process writes, a temporary file beside a
// File target, the path itself for a Stream. commit() moves a complete file into
// place; keep_partial() renames an incomplete one to FILE.partial, leaving the
// file itself untouched; the destructor removes a temporary file still there.
class StagedOutput {
public:
    explicit StagedOutput(OutputTarget target);
    ~StagedOutput();
    StagedOutput(const StagedOutput &) = delete;
    StagedOutput &operator=(const StagedOutput &) = delete;

    const OutputTarget &target() const { return target_; }
    const std::string &write_path() const { return write_path_; }
    // Throws std::runtime_error naming the file when the temporary file is missing
    // or cannot be synced or renamed.
    void commit();
    // The name the incomplete file was kept under ("" when there was none, or the
    // target is written in place).
    std::string keep_partial();

private:
    OutputTarget target_;
    std::string write_path_;
    bool temporary_ = false; // write_path_ is a temporary file not yet renamed
};

} // namespace starfish::sim
