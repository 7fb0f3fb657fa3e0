#include "hw/config/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace starfish::config {

namespace {

std::string errno_phrase(int err) {
    switch (err) {
    case ENOENT:
        return "does not exist";
    case ELOOP:
        return "is a symbolic link loop (or a chain of too many links)";
    case ENOTDIR:
        return "does not exist (a part of the path is not a directory)";
    case EACCES:
        return "cannot be read (permission denied)";
    default:
        return std::string("cannot be read (") + std::strerror(err) + ")";
    }
}

} // namespace

std::string file_type_phrase(unsigned mode) {
    switch (mode & S_IFMT) {
    case S_IFREG:
        return "is a regular file";
    case S_IFDIR:
        return "is a directory";
    case S_IFIFO:
        return "is a FIFO (named pipe)";
    case S_IFCHR:
        return "is a character device";
    case S_IFBLK:
        return "is a block device";
    case S_IFSOCK:
        return "is a socket";
    default:
        return "is not a regular file";
    }
}

std::string regular_file_problem(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        return errno_phrase(errno);
    }
    return S_ISREG(st.st_mode) ? "" : file_type_phrase(st.st_mode) + ", not a regular file";
}

InputFile read_regular_file(const std::string &path, size_t max_bytes) {
    InputFile in;
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        in.problem = errno_phrase(errno);
        return in;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        in.problem = errno_phrase(errno);
    } else if (!S_ISREG(st.st_mode)) {
        in.problem = file_type_phrase(st.st_mode) + ", not a regular file";
    } else if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
        in.problem = "is " + std::to_string(st.st_size) + " bytes, more than the " +
                     std::to_string(max_bytes) + " allowed";
    }
    if (!in.problem.empty()) {
        ::close(fd);
        return in;
    }
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            in.problem = errno_phrase(errno);
            break;
        }
        if (n == 0) {
            in.ok = true;
            break;
        }
        in.text.append(buf, static_cast<size_t>(n));
        if (in.text.size() > max_bytes) { // grew while being read
            in.problem = "grew beyond the " + std::to_string(max_bytes) + " bytes allowed";
            break;
        }
    }
    ::close(fd);
    if (!in.ok) {
        in.text.clear();
    }
    return in;
}

} // namespace starfish::config
