#include "sim/runner/subprocess.h"

#include "sim/runner/process_guard.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

extern char **environ;

namespace starfish::sim {

namespace {

std::vector<char *> argv_pointers(const std::vector<std::string> &argv) {
    std::vector<char *> args;
    for (const auto &a : argv) {
        args.push_back(const_cast<char *>(a.c_str()));
    }
    args.push_back(nullptr);
    return args;
}

// Waits for a program started by posix_spawn; it is killed with this command if
// the command is interrupted meanwhile (sim/runner/process_guard.h).
int wait_for(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            untrack_child(pid);
            return -1;
        }
    }
    untrack_child(pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

int run_program(const std::vector<std::string> &argv, ProgramOutput output) {
    if (argv.empty()) {
        return -1;
    }
    std::vector<char *> args = argv_pointers(argv);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (output == ProgramOutput::Quiet) {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    } else if (output == ProgramOutput::ToStderr) {
        posix_spawn_file_actions_adddup2(&actions, 2, 1);
    }
    pid_t pid = 0;
    int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        return -1;
    }
    track_child(pid);
    return wait_for(pid);
}

CapturedRun run_program_captured(const std::vector<std::string> &argv) {
    CapturedRun run;
    int out_pipe[2], err_pipe[2];
    if (argv.empty() || ::pipe2(out_pipe, O_CLOEXEC) != 0) {
        return run;
    }
    if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
        ::close(out_pipe[0]);
        ::close(out_pipe[1]);
        return run;
    }
    std::vector<char *> args = argv_pointers(argv);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    pid_t pid = 0;
    int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc == 0) {
        track_child(pid);
    }
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    // Both pipes are read together, so a program filling one never blocks.
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    for (int open = 2; open > 0;) {
        if (::poll(fds, 2, -1) < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            char buf[4096];
            ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                (i == 0 ? run.out : run.err).append(buf, static_cast<size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (auto &f : fds) {
        if (f.fd >= 0) {
            ::close(f.fd);
        }
    }
    if (rc != 0) {
        return run;
    }
    run.started = true;
    run.exit_status = wait_for(pid);
    return run;
}

} // namespace starfish::sim
