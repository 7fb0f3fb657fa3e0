#pragma once
// A program started by a test that the test watches while it runs: its pid and
// its children (to signal them and check that none outlives it), its memory
// (resident set polled while it runs, peak from wait4), limits set before it
// starts (file size), and its output (captured in files, so a full pipe never
// blocks it). The destructor kills (SIGKILL, by pid) and reaps it if it still runs.

#include <string>
#include <sys/types.h>
#include <vector>

namespace starfish::testing {

struct ChildOptions {
    std::vector<std::string> env; // NAME=VALUE added to the environment
    // >= 0: RLIMIT_FSIZE in bytes, with SIGXFSZ ignored, so a write beyond it fails
    // with EFBIG as a full disk would fail it.
    long long file_size_limit = -1;
    // > 0: killed (SIGKILL) when its resident set exceeds this while wait() polls.
    long rss_limit_kb = 0;
    std::string cwd; // "" = the test's
};

class ChildProcess {
public:
    // Starts argv with default signal dispositions (SIGINT and SIGQUIT are not
    // inherited as ignored) in the directory `work_dir` holds its output files in.
    ChildProcess(const std::vector<std::string> &argv, const std::string &work_dir,
                 const ChildOptions &options = {});
    ~ChildProcess();
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    pid_t pid() const { return pid_; }
    // Its children now (/proc/PID/task/PID/children).
    std::vector<pid_t> children() const;
    void signal(int sig) const;

    // Waits up to timeout_s for it to end; false when it has not (it still runs).
    bool wait(double timeout_s);
    bool running() const { return pid_ > 0; }

    int exit_status = -1;      // when it exited
    int term_signal = 0;       // when a signal killed it
    long max_rss_kb = 0;       // peak resident set (wait4)
    bool rss_exceeded = false; // killed for options.rss_limit_kb
    std::string out() const;
    std::string err() const;

private:
    pid_t pid_ = -1;
    std::string out_path_, err_path_;
    long rss_limit_kb_ = 0;
};

// Resident set of a process in KB (0 when it is gone).
long resident_kb(pid_t pid);

} // namespace starfish::testing
