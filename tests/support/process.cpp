#include "tests/support/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

namespace starfish::testing {

void exec_argv(const std::vector<std::string> &argv) {
    std::vector<char *> args;
    for (const auto &a : argv) {
        args.push_back(const_cast<char *>(a.c_str()));
    }
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
}

ProcessResult run_process(const std::vector<std::string> &argv, int timeout_s) {
    int out_pipe[2], err_pipe[2];
    if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) {
        throw std::runtime_error("pipe failed");
    }
    pid_t pid = ::fork();
    if (pid < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        if (timeout_s > 0) {
            ::setpgid(0, 0);
        }
        ::dup2(out_pipe[1], 1);
        ::dup2(err_pipe[1], 2);
        ::close(out_pipe[0]);
        ::close(err_pipe[0]);
        exec_argv(argv);
    }
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    if (timeout_s > 0) {
        ::setpgid(pid, pid); // also here: whichever runs first
    }
    ProcessResult r;
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    int open = 2;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    while (open > 0) {
        int wait_ms = -1;
        if (timeout_s > 0) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0 && !r.timed_out) {
                r.timed_out = true;
                ::kill(-pid, SIGKILL); // the group holds the program and its trial processes
            }
            wait_ms = r.timed_out ? -1 : static_cast<int>(left.count());
        }
        ::poll(fds, 2, wait_ms);
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            char buf[4096];
            ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                (i == 0 ? r.out : r.err).append(buf, static_cast<size_t>(n));
            } else {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

} // namespace starfish::testing
