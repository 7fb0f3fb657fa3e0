// What the command may cost the host (issue 34 items 7, 8 and 9;
// docs/studies.md and docs/configuration.md, "Host memory"): trial processes die
// with the command whatever signal ends it (checked by pid: this test is their
// subreaper, so it reaps them and sees how they ended); a huge study grid is
// refused before it is expanded (its memory is measured while it runs); a run
// that needs more memory than the machine has is refused before it starts.
// Arguments (after --): path of the starfish binary, source directory.
#include "tests/support/child_process.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

using starfish::testing::ChildOptions;
using starfish::testing::ChildProcess;
using starfish::testing::contains;
using starfish::testing::ProcessResult;
using starfish::testing::run_starfish;
using starfish::testing::starfish_binary;
using starfish::testing::TempDir;

namespace {

// Two trials that each take tens of seconds (SPFS, 8-byte cyclic records, 16 MB),
// both running at once.
const std::vector<std::string> kLongTrials{"--set", "fs.kind=spfs",
                                           "--set", "workload.pattern=rc",
                                           "--set", "workload.record_bytes=8",
                                           "--set", "workload.file_mb=16",
                                           "--set", "workload.trials=2",
                                           "--set", "workload.jobs=2"};

// How a reaped process ended: the signal that killed it (0 when it exited), or -1
// if it still runs after `timeout_s` (it is then killed, by pid, and reaped).
int reap(pid_t pid, double timeout_s) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
        int status = 0;
        pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        }
        if (done < 0) {
            return -2; // not our child: it was never reparented here
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

// Orphans of the processes this test starts are reparented to it, so it can
// reap them and see whether they died with their parent.
struct Subreaper {
    Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }
    ~Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 0); }
};

} // namespace

BOOST_AUTO_TEST_CASE(trial_processes_die_with_the_command) {
    Subreaper subreaper;
    TempDir d("starfish_limits");
    std::ofstream(d / "long.json") << R"({"vary": [{"workload.layout": ["contiguous"]}]})";
    struct Case {
        std::vector<std::string> command;
        int sig;
    };
    std::vector<Case> cases;
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGKILL}) {
        cases.push_back({{"run"}, sig});
    }
    for (int sig : {SIGTERM, SIGKILL}) {
        cases.push_back({{"study", d / "long.json", "--no-cache"}, sig});
    }
    for (const auto &c : cases) {
        std::vector<std::string> argv{starfish_binary()};
        argv.insert(argv.end(), c.command.begin(), c.command.end());
        argv.insert(argv.end(), kLongTrials.begin(), kLongTrials.end());
        ChildProcess parent(argv, d.path);
        std::vector<pid_t> trials;
        for (int i = 0; i < 1500 && trials.size() < 2; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            trials = parent.children();
        }
        BOOST_REQUIRE_MESSAGE(trials.size() == 2u,
                              c.command[0] << ": the trials did not start: " << parent.err());
        parent.signal(c.sig);
        BOOST_REQUIRE(parent.wait(30));
        BOOST_TEST(parent.term_signal == c.sig, c.command[0] << " " << strsignal(c.sig));
        for (pid_t trial : trials) {
            // Gone within moments, never running on to the end of its trial (tens of
            // seconds): killed by the command (INT, TERM, HUP) or by the kernel when
            // the command died (KILL); a trial process forked an instant before finds
            // its parent gone and exits at once.
            int ended = reap(trial, 5.0);
            BOOST_TEST((ended == SIGKILL || ended == 0), c.command[0] << " " << strsignal(c.sig)
                                                                      << ": trial process " << trial
                                                                      << " ended by " << ended);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_huge_grid_is_refused_before_it_is_expanded) {
    TempDir d("starfish_limits");
    // 1000 x 1000 cells: expanded, about 90 GB of configurations.
    std::string values;
    for (int i = 1; i <= 1000; ++i) {
        values += (i > 1 ? ", " : "") + std::to_string(i);
    }
    std::ofstream(d / "huge.json") << R"({"vary": [{"spfs.outstanding": [)" << values
                                   << R"(]}, {"workload.seed": [)" << values << "]}]}";
    ChildOptions watched;
    watched.rss_limit_kb = 1 << 20; // killed at 1 GB: the unbounded expansion passes it in seconds
    for (std::vector<std::string> command :
         {std::vector<std::string>{"study", "plan", d / "huge.json", "--dir", d / "plan"},
          std::vector<std::string>{"study", d / "huge.json", "--no-cache"},
          std::vector<std::string>{"reproduce", d / "huge.json", "--out", d / "report"}}) {
        command.insert(command.begin(), starfish_binary());
        ChildProcess p(command, d.path, watched);
        BOOST_REQUIRE_MESSAGE(p.wait(120), command[1] << " still runs after 120 s");
        BOOST_TEST(!p.rss_exceeded, command[1]);
        BOOST_TEST(p.exit_status == 2, command[1] << ": " << p.err());
        BOOST_TEST(contains(p.err(), "its grid has 1000000 cells (1000 x 1000"), p.err());
        BOOST_TEST(p.max_rss_kb < 300 * 1024, command[1] << ": peak " << p.max_rss_kb << " KB");
    }
}

BOOST_AUTO_TEST_CASE(a_run_larger_than_the_host_memory_is_refused_before_it_starts) {
    TempDir d("starfish_limits");
    // The machine as this test says it is: 64 MB.
    ChildOptions small_host;
    small_host.env = {"STARFISH_HOST_MEMORY_MB=64"};
    auto starfish = [&](std::vector<std::string> args) {
        args.insert(args.begin(), starfish_binary());
        auto p = std::make_unique<ChildProcess>(args, d.path, small_host);
        BOOST_REQUIRE(p->wait(120));
        return p;
    };
    // A 64 MB file is read into the CPs' buffers: more than the 64 MB there are.
    auto refused = starfish({"run", "--set", "workload.file_mb=64", "--set", "workload.trials=1"});
    BOOST_TEST(refused->exit_status == 2, refused->err());
    BOOST_TEST(contains(refused->err(), "workload.file_mb = 64"), refused->err());
    BOOST_TEST(contains(refused->err(), "this machine has 64 MB ($STARFISH_HOST_MEMORY_MB)"),
               refused->err());
    BOOST_TEST(!contains(refused->out(), "trial 0"), refused->out());
    // Every CP of `ra` holds the whole file; trials at once add up.
    auto ra = starfish({"run", "--set", "workload.file_mb=4", "--set", "workload.pattern=ra",
                        "--set", "workload.trials=2", "--set", "workload.jobs=2"});
    BOOST_TEST(ra->exit_status == 2, ra->err());
    BOOST_TEST(contains(ra->err(), "2 trials at once"), ra->err());
    BOOST_TEST(contains(ra->err(), "each of the machine.cp_count = 16 CPs holds the whole file"),
               ra->err());
    // The same for a study, before its first trial.
    std::ofstream(d / "s.json") << R"({"vary": [{"workload.file_mb": [1, 64]}]})";
    auto study = starfish({"study", d / "s.json", "--no-cache"});
    BOOST_TEST(study->exit_status == 2, study->err());
    BOOST_TEST(!contains(study->out(), "[1/"), study->out());
    // --no-memory-check runs it anyway.
    auto forced = starfish(
        {"run", "--set", "workload.file_mb=64", "--set", "workload.trials=1", "--no-memory-check"});
    BOOST_TEST(forced->exit_status == 0, forced->err());
}
