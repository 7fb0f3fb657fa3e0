#include "tests/support/child_process.h"

#include "tests/support/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace starfish::testing {

namespace {

std::string file_text(const std::string &path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

long resident_kb(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("VmRSS:", 0) == 0) {
            return std::strtol(line.c_str() + 6, nullptr, 10);
        }
    }
    return 0;
}

ChildProcess::ChildProcess(const std::vector<std::string> &argv, const std::string &work_dir,
                           const ChildOptions &options)
    : rss_limit_kb_(options.rss_limit_kb) {
    static int serial = 0;
    std::string stem = work_dir + "/child" + std::to_string(serial++);
    out_path_ = stem + ".out";
    err_path_ = stem + ".err";
    pid_ = ::fork();
    if (pid_ < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid_ == 0) {
        for (int sig : {SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE}) {
            ::signal(sig, SIG_DFL);
        }
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (options.file_size_limit >= 0) {
            rlimit r{static_cast<rlim_t>(options.file_size_limit),
                     static_cast<rlim_t>(options.file_size_limit)};
            ::setrlimit(RLIMIT_FSIZE, &r);
            ::signal(SIGXFSZ, SIG_IGN); // kept across exec: writes fail with EFBIG
        }
        int out = ::open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = ::open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = ::open("/dev/null", O_RDONLY);
        ::dup2(in, 0);
        ::dup2(out, 1);
        ::dup2(err, 2);
        if (!options.cwd.empty() && ::chdir(options.cwd.c_str()) != 0) {
            ::_exit(126);
        }
        for (const auto &e : options.env) {
            ::putenv(const_cast<char *>(e.c_str()));
        }
        exec_argv(argv);
    }
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
}

std::vector<pid_t> ChildProcess::children() const {
    std::vector<pid_t> kids;
    if (pid_ <= 0) {
        return kids;
    }
    std::ifstream in("/proc/" + std::to_string(pid_) + "/task/" + std::to_string(pid_) +
                     "/children");
    for (long k; in >> k;) {
        kids.push_back(static_cast<pid_t>(k));
    }
    return kids;
}

void ChildProcess::signal(int sig) const {
    if (pid_ > 0) {
        ::kill(pid_, sig);
    }
}

bool ChildProcess::wait(double timeout_s) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (pid_ > 0) {
        int status = 0;
        rusage ru{};
        pid_t done = ::wait4(pid_, &status, WNOHANG, &ru);
        if (done == pid_) {
            max_rss_kb = ru.ru_maxrss;
            exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            pid_ = -1;
            return true;
        }
        if (rss_limit_kb_ > 0 && resident_kb(pid_) > rss_limit_kb_) {
            rss_exceeded = true;
            ::kill(pid_, SIGKILL);
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

std::string ChildProcess::out() const {
    return file_text(out_path_);
}

std::string ChildProcess::err() const {
    return file_text(err_path_);
}

} // namespace starfish::testing
