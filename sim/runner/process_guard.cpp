#include "sim/runner/process_guard.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace starfish::sim {

namespace {

// Fixed-size tables: the signal handler may only read memory and call
// async-signal-safe functions (kill, unlink, sigaction, raise).
constexpr size_t kMaxChildren = 1024;
constexpr size_t kMaxTemporaries = 256;
std::atomic<pid_t> g_children[kMaxChildren];
std::atomic<char *> g_temporaries[kMaxTemporaries];

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
std::once_flag g_installed;

void on_termination(int sig) {
    for (auto &slot : g_children) {
        pid_t pid = slot.load();
        if (pid > 0) {
            ::kill(pid, SIGKILL);
        }
    }
    for (auto &slot : g_temporaries) {
        char *path = slot.load();
        if (path != nullptr) {
            ::unlink(path);
        }
    }
    // Die of the same signal: the default action, delivered when the handler returns.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);
}

void install_handlers() {
    std::call_once(g_installed, [] {
        for (int sig : kSignals) {
            struct sigaction old {};
            if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) {
                continue; // ignored (nohup) or handled by someone else: left alone
            }
            struct sigaction sa {};
            sa.sa_handler = on_termination;
            sigemptyset(&sa.sa_mask);
            for (int other : kSignals) {
                sigaddset(&sa.sa_mask, other);
            }
            ::sigaction(sig, &sa, nullptr);
        }
    });
}

} // namespace

void die_with_parent(pid_t parent) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) {
        ::_exit(1); // the parent died before the request took effect
    }
}

void restore_default_signals() {
    for (int sig : kSignals) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == on_termination) {
            ::signal(sig, SIG_DFL);
        }
    }
}

void track_child(pid_t pid) {
    install_handlers();
    for (auto &slot : g_children) {
        pid_t empty = 0;
        if (slot.compare_exchange_strong(empty, pid)) {
            return;
        }
    }
    // Table full: the child still dies with this process (die_with_parent).
}

void untrack_child(pid_t pid) {
    for (auto &slot : g_children) {
        pid_t expected = pid;
        if (slot.compare_exchange_strong(expected, 0)) {
            return;
        }
    }
}

void track_temporary(const std::string &path) {
    install_handlers();
    char *copy = ::strdup(path.c_str());
    for (auto &slot : g_temporaries) {
        char *empty = nullptr;
        if (slot.compare_exchange_strong(empty, copy)) {
            return;
        }
    }
    ::free(copy); // table full: this one is not removed on a signal
}

void untrack_temporary(const std::string &path) {
    for (auto &slot : g_temporaries) {
        char *p = slot.load();
        if (p != nullptr && path == p && slot.compare_exchange_strong(p, nullptr)) {
            ::free(p);
            return;
        }
    }
}

} // namespace starfish::sim
