#include "sim/report/safe_output.h"

#include "hw/config/config_error.h"
#include "hw/config/input_file.h"
#include "hw/config/json_text.h"
#include "sim/runner/fd_write.h"
#include "sim/runner/process_guard.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace starfish::sim {

namespace {

std::string named(const OutputTarget &t) {
    return t.what + " '" + config::printable(t.path) + "'";
}

[[noreturn]] void refuse(const std::string &what, const std::string &path,
                         const std::string &problem) {
    throw config::ConfigError(what + " '" + config::printable(path) + "': " + problem);
}

std::string parent_of(const std::string &path) {
    auto slash = path.rfind('/');
    if (slash == std::string::npos) {
        return ".";
    }
    return slash == 0 ? "/" : path.substr(0, slash);
}

// Paths that name this process's streams or devices even when they resolve to a
// regular file (/dev/stdout redirected to a file): written in place, appended.
bool names_a_stream(const std::string &path) {
    return path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
}

// The file a path leads to through symbolic links, also when the last link is
// dangling (the file it names is then created). Throws on a loop.
std::string follow_links(const std::string &what, const std::string &path) {
    std::string at = path;
    for (int depth = 0; depth < 40; ++depth) {
        struct stat st {};
        if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
            return at;
        }
        char buf[PATH_MAX];
        ssize_t n = ::readlink(at.c_str(), buf, sizeof buf - 1);
        if (n < 0) {
            return at;
        }
        std::string target(buf, static_cast<size_t>(n));
        at = target[0] == '/' ? target : parent_of(at) + "/" + target;
    }
    refuse(what, path, "is a symbolic link loop (or a chain of too many links)");
}

// `dir` (its stat in st), where the output for `path` goes, must be a directory
// this process may create files in.
void require_writable_directory(const std::string &what, const std::string &path,
                                const std::string &dir, const struct stat &st) {
    if (!S_ISDIR(st.st_mode)) {
        refuse(what, path,
               "'" + config::printable(dir) + "' " + config::file_type_phrase(st.st_mode) +
                   ", not a directory");
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        refuse(what, path,
               "cannot create a file in '" + config::printable(dir) + "' (" + std::strerror(errno) +
                   ")");
    }
}

std::string temporary_name(const std::string &file) {
    static std::atomic<unsigned> serial{0};
    return file + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
}

// The replaced file's mode (and owner, for root) carried over to its replacement.
void keep_attributes(int fd, const std::string &file) {
    struct stat old {};
    if (::stat(file.c_str(), &old) != 0 || !S_ISREG(old.st_mode)) {
        return;
    }
    ::fchmod(fd, old.st_mode & 07777);
    if (::geteuid() == 0) {
        (void)::fchown(fd, old.st_uid, old.st_gid);
    }
}

// The rename itself reaches the disk only with its directory.
void sync_directory(const std::string &file) {
    int dir = ::open(parent_of(file).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

// fsync and rename of a complete temporary file; "" or why not.
std::string move_into_place(const std::string &tmp, const std::string &file) {
    int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return "the temporary file '" + tmp + "' is missing (" + std::strerror(errno) + ")";
    }
    keep_attributes(fd, file);
    if (::fsync(fd) != 0) {
        std::string why = std::strerror(errno);
        ::close(fd);
        return "cannot flush '" + tmp + "' to the disk (" + why + ")";
    }
    ::close(fd);
    if (::rename(tmp.c_str(), file.c_str()) != 0) {
        return "cannot rename '" + tmp + "' to '" + file + "' (" + std::strerror(errno) + ")";
    }
    sync_directory(file);
    return "";
}

} // namespace

OutputTarget check_output(const std::string &path, const std::string &what, bool allow_stdout) {
    OutputTarget t;
    t.path = path;
    t.what = what;
    if (path.empty()) {
        return t;
    }
    if (path == "-") {
        if (!allow_stdout) {
            refuse(what, path, "standard output is not possible here; name a file");
        }
        t.kind = OutputTarget::Kind::Stdout;
        return t;
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            refuse(what, path, "is a directory; name a file in it");
        }
        if (S_ISSOCK(st.st_mode)) {
            refuse(what, path, "is a socket; name a file, a FIFO or a device");
        }
        if (S_ISREG(st.st_mode) && !names_a_stream(path)) {
            char real[PATH_MAX];
            if (::realpath(path.c_str(), real) == nullptr) {
                refuse(what, path,
                       std::string("cannot be resolved (") + std::strerror(errno) + ")");
            }
            t.kind = OutputTarget::Kind::File;
            t.file = real;
            if (::access(t.file.c_str(), W_OK) != 0) {
                refuse(what, path, std::string("is not writable (") + std::strerror(errno) + ")");
            }
            std::string dir = parent_of(t.file);
            if (::access(dir.c_str(), W_OK | X_OK) != 0) {
                refuse(what, path,
                       "cannot be replaced safely: its directory '" + config::printable(dir) +
                           "' is not writable (" + std::strerror(errno) + ")");
            }
            return t;
        }
        if (::access(path.c_str(), W_OK) != 0) {
            refuse(what, path, std::string("is not writable (") + std::strerror(errno) + ")");
        }
        t.kind = OutputTarget::Kind::Stream;
        t.file = path;
        return t;
    }
    int err = errno;
    if (err == ELOOP) {
        refuse(what, path, "is a symbolic link loop (or a chain of too many links)");
    }
    if (err == ENOTDIR) {
        refuse(what, path, "cannot be written: a part of its path is not a directory");
    }
    if (err != ENOENT) {
        refuse(what, path, std::string("cannot be written (") + std::strerror(err) + ")");
    }
    t.kind = OutputTarget::Kind::File;
    t.file = follow_links(what, path);
    std::string dir = parent_of(t.file);
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0) {
        refuse(what, path,
               "the directory '" + config::printable(dir) + "' " +
                   (errno == ENOENT
                        ? std::string("does not exist")
                        : std::string("cannot be used (") + std::strerror(errno) + ")"));
    }
    require_writable_directory(what, path, dir, ds);
    return t;
}

void check_output_directory(const std::string &path, const std::string &what) {
    if (path.empty()) {
        refuse(what, path, "needs a directory");
    }
    std::string at = path;
    struct stat st {};
    while (::stat(at.c_str(), &st) != 0) {
        if (errno != ENOENT) {
            refuse(what, path,
                   "'" + config::printable(at) + "' cannot be used (" + std::strerror(errno) + ")");
        }
        std::string up = parent_of(at);
        if (up == at) {
            break;
        }
        at = up;
    }
    require_writable_directory(what, path, at, st);
}

std::string replace_file_atomically(const std::string &path, const std::string &text) {
    std::string tmp = temporary_name(path);
    track_temporary(tmp);
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        std::string why = std::strerror(errno);
        untrack_temporary(tmp);
        return "cannot create the temporary file '" + tmp + "' (" + why + ")";
    }
    std::string problem;
    if (int err = write_fully(fd, text)) {
        problem = std::string("cannot write '") + tmp + "' (" + std::strerror(err) + ")";
    }
    if (::close(fd) != 0 && problem.empty()) {
        problem = "cannot write '" + tmp + "' (" + std::strerror(errno) + ")";
    }
    if (problem.empty()) {
        problem = move_into_place(tmp, path);
    }
    if (!problem.empty()) {
        ::unlink(tmp.c_str());
    }
    untrack_temporary(tmp);
    return problem;
}

void write_output(const OutputTarget &target, const std::string &text) {
    switch (target.kind) {
    case OutputTarget::Kind::None:
        return;
    case OutputTarget::Kind::Stdout:
        std::cout << text << std::flush;
        if (!std::cout) {
            throw std::runtime_error("cannot write " + target.what + " to standard output");
        }
        return;
    case OutputTarget::Kind::Stream: {
        int fd = ::open(target.file.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
            throw std::runtime_error("cannot open " + named(target) + ": " + std::strerror(errno));
        }
        if (int err = write_fully(fd, text)) {
            ::close(fd);
            throw std::runtime_error("cannot write " + named(target) + ": " + std::strerror(err));
        }
        if (::close(fd) != 0) {
            throw std::runtime_error("cannot write " + named(target) + ": " + std::strerror(errno));
        }
        return;
    }
    case OutputTarget::Kind::File: {
        std::string problem = replace_file_atomically(target.file, text);
        if (!problem.empty()) {
            throw std::runtime_error(named(target) + " not written: " + problem +
                                     "; the file is as it was");
        }
        return;
    }
    }
}

void write_output(const OutputTarget &target, const std::function<void(std::ostream &)> &fill) {
    if (!target.given()) {
        return;
    }
    std::ostringstream text;
    fill(text);
    write_output(target, text.str());
}

void write_output_file(const std::string &path, const std::string &what,
                       const std::function<void(std::ostream &)> &fill) {
    OutputTarget target;
    try {
        target = check_output(path, what, false);
    } catch (const config::ConfigError &e) {
        throw std::runtime_error(e.what());
    }
    write_output(target, fill);
}

StagedOutput::StagedOutput(OutputTarget target) : target_(std::move(target)) {
    if (target_.kind == OutputTarget::Kind::File) {
        write_path_ = temporary_name(target_.file);
        temporary_ = true;
        track_temporary(write_path_);
    } else {
        write_path_ = target_.file;
    }
}

StagedOutput::~StagedOutput() {
    if (temporary_) {
        ::unlink(write_path_.c_str());
        untrack_temporary(write_path_);
    }
}

void StagedOutput::commit() {
    if (!temporary_) {
        return;
    }
    std::string problem = move_into_place(write_path_, target_.file);
    if (!problem.empty()) {
        throw std::runtime_error(named(target_) + " not written: " + problem +
                                 "; the file is as it was");
    }
    untrack_temporary(write_path_);
    temporary_ = false;
}

std::string StagedOutput::keep_partial() {
    if (!temporary_) {
        return "";
    }
    std::string partial = target_.file + ".partial";
    bool kept = ::rename(write_path_.c_str(), partial.c_str()) == 0;
    if (!kept) {
        ::unlink(write_path_.c_str());
    }
    untrack_temporary(write_path_);
    temporary_ = false;
    return kept ? partial : "";
}

} // namespace starfish::sim
