#include "sim/runner/isolated_run.h"

#include "sim/runner/fd_write.h"
#include "sim/runner/process_guard.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <exception>

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer builds (-DSTARFISH_SANITIZE=ON). SystemC annotates its
// coroutine switches for ASan but leaves the main stack's bounds unknown after a
// run ("ASan is ignoring requested __asan_handle_no_return", google/sanitizers
// issue 189), so the C++ throw that reports a failed trial makes ASan's runtime
// check its own sigaltstack() call against stale poison and report it (GCC 12's
// libsanitizer). Only that interceptor's reports are suppressed.
extern "C" const char *__asan_default_suppressions() {
    return "interceptor_name:sigaltstack\n";
}
#endif

namespace starfish::sim {

using nlohmann::json;

namespace {

struct Child {
    pid_t pid = -1;
    int fd = -1;
    size_t index = 0;
    std::string output;
};

Child start_child(const IsolatedJob &job, size_t index) {
    int fds[2];
    if (::pipe(fds) != 0) {
        throw IsolatedRunError(std::string("pipe failed: ") + std::strerror(errno));
    }
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t parent = ::getpid();
    pid_t pid = ::fork();
    if (pid < 0) {
        throw IsolatedRunError(std::string("fork failed: ") + std::strerror(errno));
    }
    if (pid == 0) {
        die_with_parent(parent);
        ::close(fds[0]);
        // A crash must kill the child so the parent can report it; handlers
        // inherited from the parent (Boost.Test installs some) would catch it.
        for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT}) {
            ::signal(sig, SIG_DFL);
        }
        restore_default_signals();
        int status = 0;
        json envelope;
        try {
            envelope["result"] = job();
        } catch (const std::exception &e) {
            envelope = json{{"error", e.what()}};
            status = 1;
        } catch (...) {
            envelope = json{{"error", "unknown exception"}};
            status = 1;
        }
        // A failed write shows in the parent as output that does not parse.
        (void)write_fully(fds[1], envelope.dump());
        ::close(fds[1]);
        std::fflush(stdout);
        std::fflush(stderr);
        // _exit: the child must not run the parent's atexit handlers or the
        // SystemC kernel's destructors a second time.
        ::_exit(status);
    }
    ::close(fds[1]);
    track_child(pid);
    Child c;
    c.pid = pid;
    c.fd = fds[0];
    c.index = index;
    return c;
}

// Returns the child's result or throws with the reason it failed.
json finish_child(Child &c) {
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    untrack_child(c.pid);
    if (WIFSIGNALED(status)) {
        throw IsolatedRunError("simulation process died on signal " +
                               std::to_string(WTERMSIG(status)) + " (" +
                               strsignal(WTERMSIG(status)) + ")");
    }
    json envelope;
    try {
        envelope = json::parse(c.output);
    } catch (const json::exception &) {
        throw IsolatedRunError("simulation process exited with status " +
                               std::to_string(WEXITSTATUS(status)) + " without a result");
    }
    if (envelope.contains("error")) {
        throw IsolatedRunError(envelope["error"].get<std::string>());
    }
    return envelope["result"];
}

// Runs the jobs; with stop_on_error no job starts after the first failure.
std::vector<IsolatedOutcome>
run_jobs(const std::vector<IsolatedJob> &jobs, int parallel, bool stop_on_error,
         const std::function<void(size_t, const IsolatedOutcome &)> &on_done) {
    if (parallel < 1) {
        parallel = 1;
    }
    std::vector<IsolatedOutcome> outcomes(jobs.size());
    std::vector<Child> running;
    size_t next = 0;
    bool failed = false;
    while (next < jobs.size() || !running.empty()) {
        while (next < jobs.size() && static_cast<int>(running.size()) < parallel &&
               !(stop_on_error && failed)) {
            running.push_back(start_child(jobs[next], next));
            ++next;
        }
        if (running.empty()) {
            break;
        }
        std::vector<pollfd> fds(running.size());
        for (size_t i = 0; i < running.size(); ++i) {
            fds[i] = pollfd{running[i].fd, POLLIN, 0};
        }
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw IsolatedRunError(std::string("poll failed: ") + std::strerror(errno));
        }
        for (size_t i = running.size(); i-- > 0;) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            char buf[65536];
            ssize_t n = ::read(running[i].fd, buf, sizeof buf);
            if (n > 0) {
                running[i].output.append(buf, static_cast<size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR) {
                continue;
            }
            ::close(running[i].fd);
            Child done = std::move(running[i]);
            running.erase(running.begin() + static_cast<long>(i));
            IsolatedOutcome &outcome = outcomes[done.index];
            try {
                outcome.result = finish_child(done);
            } catch (const IsolatedRunError &e) {
                outcome.error = e.what();
                failed = true;
            }
            if (on_done) {
                on_done(done.index, outcome);
            }
        }
    }
    return outcomes;
}

} // namespace

json run_isolated(const IsolatedJob &job) {
    return run_isolated_all({job}, 1).at(0);
}

std::vector<json> run_isolated_all(const std::vector<IsolatedJob> &jobs, int parallel,
                                   const std::function<void(size_t, const json &)> &on_done) {
    auto outcomes = run_jobs(jobs, parallel, true, [&](size_t index, const IsolatedOutcome &o) {
        if (o.ok() && on_done) {
            on_done(index, o.result);
        }
    });
    std::vector<json> results;
    for (auto &o : outcomes) {
        if (!o.ok()) {
            throw IsolatedRunError(o.error);
        }
        results.push_back(std::move(o.result));
    }
    return results;
}

std::vector<IsolatedOutcome>
run_isolated_each(const std::vector<IsolatedJob> &jobs, int parallel,
                  const std::function<void(size_t, const IsolatedOutcome &)> &on_done) {
    return run_jobs(jobs, parallel, false, on_done);
}

} // namespace starfish::sim
