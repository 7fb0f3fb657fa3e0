// Outputs that never destroy what they replace (issue 34 items 1, 3, 11 and the
// `--csv -` of item 19; docs/configuration.md, "Outputs"): --json, --csv,
// --markdown and the trace files of `starfish run`, aimed at real FIFOs, device
// nodes (made with mknod), sockets and symbolic links in a temporary directory,
// at a missing directory, and at a file on a "full disk" (a file-size limit).
// Arguments (after --): path of the starfish binary, source directory.
#include "tests/support/child_process.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>

using nlohmann::json;
using starfish::testing::ChildOptions;
using starfish::testing::ChildProcess;
using starfish::testing::contains;
using starfish::testing::ProcessResult;
using starfish::testing::read_file;
using starfish::testing::run_starfish;
using starfish::testing::starfish_binary;
using starfish::testing::TempDir;
using starfish::testing::tiny_run;
using starfish::testing::write_file;

namespace {

// The same run failing in its first simulated milliseconds: a disk that never
// answers, found by the watchdog.
std::vector<std::string> failing_run(std::vector<std::string> extra) {
    auto args = tiny_run({"--set", "fault.silent_disk=0", "--set", "sim.watchdog_ms=100"});
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

mode_t type_of(const std::string &path) {
    struct stat st {};
    BOOST_REQUIRE(::lstat(path.c_str(), &st) == 0);
    return st.st_mode & S_IFMT;
}

// Names of the directory's entries holding `part` (temporary files left behind).
std::vector<std::string> entries_with(const std::string &dir, const std::string &part) {
    std::vector<std::string> names;
    for (const auto &e : std::filesystem::directory_iterator(dir)) {
        std::string name = e.path().filename().string();
        if (name.find(part) != std::string::npos) {
            names.push_back(name);
        }
    }
    return names;
}

// Reads a FIFO in another thread until its writer closes it, or "" after 30 s (a
// FIFO that was replaced never gets a writer). Opened at once, without waiting for
// the writer, which blocks until a reader is there.
std::future<std::string> read_fifo(const std::string &path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
    BOOST_REQUIRE(fd >= 0);
    return std::async(std::launch::async, [fd] {
        std::string text;
        bool connected = false;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline) {
            pollfd p{fd, POLLIN, 0};
            ::poll(&p, 1, 100);
            char buf[65536];
            ssize_t n = ::read(fd, buf, sizeof buf);
            if (n > 0) {
                text.append(buf, static_cast<size_t>(n));
                connected = true;
            } else if (n == 0 && (connected || (p.revents & POLLHUP))) {
                break; // the writer has closed it
            }
        }
        ::close(fd);
        return text;
    });
}

bool is_json(const std::string &text) {
    try {
        return json::parse(text).is_object();
    } catch (const json::exception &) {
        return false;
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(devices_fifos_and_links_are_written_through_never_replaced) {
    TempDir d("starfish_outputs");
    // A device that is always full (the node of /dev/full), one that takes anything
    // (/dev/null), a FIFO, a link to a regular file and a dangling link.
    BOOST_REQUIRE(::mknod((d / "full").c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0);
    BOOST_REQUIRE(::mknod((d / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    BOOST_REQUIRE(::mkfifo((d / "fifo").c_str(), 0644) == 0);
    write_file(d / "target.json", "old");
    std::filesystem::create_symlink("target.json", d / "link.json");
    std::filesystem::create_symlink("made.json", d / "dangling.json");

    // ENOSPC on the device: an error naming it, and the device is still the device.
    ProcessResult full = run_starfish(tiny_run({"--json", d / "full"}));
    BOOST_TEST(full.exit_status == 1, full.err);
    BOOST_TEST(contains(full.err, "No space left on device"), full.err);
    BOOST_TEST(contains(full.err, d / "full"), full.err);
    BOOST_TEST(type_of(d / "full") == S_IFCHR);

    ProcessResult null = run_starfish(tiny_run({"--json", d / "null"}));
    BOOST_TEST(null.exit_status == 0, null.err);
    BOOST_TEST(type_of(d / "null") == S_IFCHR);

    auto from_fifo = read_fifo(d / "fifo");
    ProcessResult fifo = run_starfish(tiny_run({"--json", d / "fifo"}));
    BOOST_TEST(fifo.exit_status == 0, fifo.err);
    BOOST_TEST(is_json(from_fifo.get()));
    BOOST_TEST(type_of(d / "fifo") == S_IFIFO);

    // A link is followed: its target gets the result, the link stays a link.
    ProcessResult link = run_starfish(tiny_run({"--json", d / "link.json"}));
    BOOST_TEST(link.exit_status == 0, link.err);
    BOOST_TEST(type_of(d / "link.json") == S_IFLNK);
    BOOST_TEST(is_json(read_file(d / "target.json")));
    ProcessResult dangling = run_starfish(tiny_run({"--json", d / "dangling.json"}));
    BOOST_TEST(dangling.exit_status == 0, dangling.err);
    BOOST_TEST(type_of(d / "dangling.json") == S_IFLNK);
    BOOST_TEST(is_json(read_file(d / "made.json")));

    // The study's tables too: CSV into a FIFO, Markdown into the null device.
    write_file(d / "s.json", R"({"vary": [{"fs.kind": ["ddio", "spfs"]}]})");
    auto csv = read_fifo(d / "fifo");
    ProcessResult study = run_starfish(
        {"study", d / "s.json", "--config", "small", "--set", "workload.file_mb=0.0625", "--set",
         "workload.trials=1", "--no-cache", "--csv", d / "fifo", "--markdown", d / "null"});
    BOOST_TEST(study.exit_status == 0, study.err);
    BOOST_TEST(contains(csv.get(), "fs.kind,mean"));
    BOOST_TEST(type_of(d / "fifo") == S_IFIFO);
    BOOST_TEST(type_of(d / "null") == S_IFCHR);
    BOOST_TEST(entries_with(d.path, ".tmp").empty());
}

BOOST_AUTO_TEST_CASE(a_failed_write_keeps_the_old_file_and_leaves_no_temporary) {
    TempDir d("starfish_outputs");
    write_file(d / "result.json", "the previous result");
    // A file-size limit makes every write past 4 KB fail, as a full disk would.
    ChildOptions full_disk;
    full_disk.file_size_limit = 4096;
    std::vector<std::string> argv = tiny_run({"--json", d / "result.json"});
    argv.insert(argv.begin(), starfish_binary());
    ChildProcess run(argv, d.path, full_disk);
    BOOST_REQUIRE(run.wait(60));
    BOOST_TEST(run.exit_status == 1, run.err());
    BOOST_TEST(contains(run.err(), "result.json"), run.err());
    BOOST_TEST(contains(run.err(), "the file is as it was"), run.err());
    BOOST_TEST(read_file(d / "result.json") == "the previous result");
    BOOST_TEST(entries_with(d.path, "result.json.tmp").empty());
}

BOOST_AUTO_TEST_CASE(output_paths_are_checked_before_anything_runs) {
    TempDir d("starfish_outputs");
    // A Unix socket: nothing can be written into one with open().
    int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::string sock_path = d / "sock";
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock_path.c_str());
    BOOST_REQUIRE(::bind(sock, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0);
    write_file(d / "s.json", R"({"vary": [{"fs.kind": ["ddio"]}]})");
    std::filesystem::create_symlink("loop", d / "loop");

    struct Case {
        std::vector<std::string> args;
        std::string says;
    };
    std::vector<Case> cases{
        {tiny_run({"--json", d / "missing/x.json"}), "does not exist"},
        {tiny_run({"--json", d.path}), "is a directory"},
        {tiny_run({"--json", sock_path}), "is a socket"},
        {tiny_run({"--json", d / "loop"}), "symbolic link loop"},
        {tiny_run({"--json", d / "s.json/x"}), "not a directory"},
        {tiny_run({"--vcd", d / "missing/x.vcd"}), "does not exist"},
        {{"study", d / "s.json", "--config", "small", "--no-cache", "--csv", d / "missing/t.csv"},
         "does not exist"},
        {{"study", d / "s.json", "--config", "small", "--no-cache", "--markdown", d.path},
         "is a directory"},
        {{"study", d / "s.json", "--config", "small", "--no-cache", "--json", "-", "--csv", "-"},
         "only one of"},
    };
    for (const auto &c : cases) {
        ProcessResult r = run_starfish(c.args);
        BOOST_TEST(r.exit_status == 2, c.args.back() << ": " << r.err);
        BOOST_TEST(contains(r.err, c.says), c.args.back() << ": " << r.err);
        // Nothing ran: no trial line, nothing created.
        BOOST_TEST(!contains(r.out + r.err, "trial 0"), r.out);
    }
    BOOST_TEST(!std::filesystem::exists(d / "missing"));
    ::close(sock);
}

BOOST_AUTO_TEST_CASE(a_refused_or_failed_run_keeps_earlier_trace_files) {
    TempDir d("starfish_outputs");
    // Refused (the log path is a directory): the VCD named first stays as it was.
    write_file(d / "p.vcd", "x\n");
    ProcessResult refused = run_starfish(tiny_run({"--vcd", d / "p.vcd", "--log", d.path}));
    BOOST_TEST(refused.exit_status == 2, refused.err);
    BOOST_TEST(read_file(d / "p.vcd") == "x\n");

    // Failed (the watchdog stops trial 0): the earlier files stay, the incomplete
    // ones are kept beside them as FILE.partial.
    write_file(d / "p.vcd", "good vcd");
    write_file(d / "p.log", "good log");
    ProcessResult failed = run_starfish(failing_run({"--vcd", d / "p.vcd", "--log", d / "p.log"}));
    BOOST_TEST(failed.exit_status == 1, failed.err);
    BOOST_TEST(read_file(d / "p.vcd") == "good vcd");
    BOOST_TEST(read_file(d / "p.log") == "good log");
    BOOST_TEST(contains(read_file(d / "p.vcd.partial"), "$timescale"));
    BOOST_TEST(contains(failed.err, "p.vcd.partial"), failed.err);

    // --trace-from after the end of the run: nothing traced, nothing replaced.
    ProcessResult late = run_starfish(tiny_run({"--vcd", d / "p.vcd", "--trace-from", "100s"}));
    BOOST_TEST(late.exit_status == 2, late.err);
    BOOST_TEST(contains(late.err, "after the end of trial 0"), late.err);
    BOOST_TEST(read_file(d / "p.vcd") == "good vcd");

    // A complete run replaces them; a FIFO is written in place.
    BOOST_REQUIRE(::mkfifo((d / "log.fifo").c_str(), 0644) == 0);
    auto log = read_fifo(d / "log.fifo");
    ProcessResult ok = run_starfish(tiny_run({"--vcd", d / "p.vcd", "--log", d / "log.fifo"}));
    BOOST_TEST(ok.exit_status == 0, ok.err);
    BOOST_TEST(contains(read_file(d / "p.vcd"), "$timescale"));
    BOOST_TEST(!log.get().empty());
    BOOST_TEST(type_of(d / "log.fifo") == S_IFIFO);
    BOOST_TEST(entries_with(d.path, ".tmp").empty());
}

BOOST_AUTO_TEST_CASE(a_dash_is_standard_output_for_every_table) {
    TempDir d("starfish_outputs");
    write_file(d / "s.json", R"({"vary": [{"fs.kind": ["ddio"]}]})");
    std::vector<std::string> argv{
        starfish_binary(),         "study", d / "s.json",        "--config",   "small", "--set",
        "workload.file_mb=0.0625", "--set", "workload.trials=1", "--no-cache", "--csv", "-"};
    ChildOptions in_dir;
    in_dir.cwd = d.path;
    ChildProcess study(argv, d.path, in_dir);
    BOOST_REQUIRE(study.wait(60));
    BOOST_TEST(study.exit_status == 0, study.err());
    BOOST_TEST(study.out().rfind("fs.kind,mean", 0) == 0, study.out()); // only the table
    BOOST_TEST(contains(study.err(), "study s:"), study.err());         // the rest on stderr
    BOOST_TEST(!std::filesystem::exists(d / "-"));
}
