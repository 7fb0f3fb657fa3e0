#include "tests/support/slurm_cluster.h"

#include "tests/support/process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace starfish::testing {

namespace fs = std::filesystem;

namespace {

// Daemons live in /usr/sbin, which a non-login PATH may lack.
std::string find_program(const std::string &name) {
    std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    path += ":/usr/sbin:/sbin:/usr/bin:/bin";
    std::istringstream dirs(path);
    for (std::string d; std::getline(dirs, d, ':');) {
        std::string candidate = d + "/" + name;
        if (!d.empty() && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
    }
    return "";
}

const char *const kPrograms[] = {"munged", "slurmctld", "slurmd", "sbatch",
                                 "squeue", "scancel",   "sinfo"};

// Two ports on 127.0.0.1 that are free now (held open together, so distinct).
std::vector<int> free_ports(int count) {
    std::vector<int> fds, ports;
    for (int i = 0; i < count; ++i) {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
            ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) != 0) {
            throw std::runtime_error("cannot find a free port on 127.0.0.1");
        }
        fds.push_back(fd);
        ports.push_back(ntohs(addr.sin_port));
    }
    for (int fd : fds) {
        ::close(fd);
    }
    return ports;
}

bool alive(pid_t pid) {
    return ::waitpid(pid, nullptr, WNOHANG) == 0;
}

template <typename Ready> bool wait_until(double seconds, Ready ready) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        if (ready()) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return ready();
}

std::string tail_of(const std::string &path, size_t bytes = 3000) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    return s.size() > bytes ? s.substr(s.size() - bytes) : s;
}

} // namespace

std::string SlurmCluster::unavailable_reason() {
    std::string missing;
    for (const char *p : kPrograms) {
        if (find_program(p).empty()) {
            missing += std::string(missing.empty() ? "" : ", ") + p;
        }
    }
    if (!missing.empty()) {
        return "not found: " + missing +
               " (Debian packages munge slurmctld slurmd slurm-client; scripts/install-deps.sh "
               "installs them)";
    }
    if (::geteuid() != 0) {
        return "the test cluster's slurmd runs jobs as root: run the test as root";
    }
    return "";
}

pid_t SlurmCluster::start(const std::vector<std::string> &argv, const std::string &log) {
    std::string program = find_program(argv[0]);
    pid_t pid = ::fork();
    if (pid < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        // If the test dies without its destructor, the daemon goes too.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        int in = ::open("/dev/null", O_RDONLY);
        int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        ::dup2(in, 0);
        ::dup2(out, 1);
        ::dup2(out, 2);
        std::vector<char *> args;
        args.push_back(const_cast<char *>(program.c_str()));
        for (size_t i = 1; i < argv.size(); ++i) {
            args.push_back(const_cast<char *>(argv[i].c_str()));
        }
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    pids_.push_back(pid);
    return pid;
}

SlurmCluster::SlurmCluster() {
    char name[] = "/tmp/starfish_slurm_XXXXXX";
    if (::mkdtemp(name) == nullptr) {
        throw std::runtime_error("mkdtemp failed");
    }
    dir_ = name;
    try {
        // munged wants its socket's directory (and the path to it) open to all,
        // and its key private.
        ::chmod(dir_.c_str(), 0755);
        for (const char *sub : {"munge", "key", "state", "spool", "log"}) {
            fs::create_directory(dir_ + "/" + sub);
        }
        ::chmod((dir_ + "/munge").c_str(), 0755);
        ::chmod((dir_ + "/key").c_str(), 0700);
        const std::string key = dir_ + "/key/munge.key";
        {
            std::ifstream random("/dev/urandom", std::ios::binary);
            std::vector<char> bytes(1024);
            random.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            std::ofstream(key, std::ios::binary)
                .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            ::chmod(key.c_str(), 0600);
        }
        const std::string socket = dir_ + "/munge/munge.socket";
        pid_t munged = start({"munged", "--foreground", "--socket=" + socket, "--key-file=" + key,
                              "--log-file=" + dir_ + "/log/munged.log",
                              "--pid-file=" + dir_ + "/munge/munged.pid",
                              "--seed-file=" + dir_ + "/key/munged.seed"},
                             dir_ + "/log/munged.out");
        if (!wait_until(10, [&] { return fs::exists(socket) || !alive(munged); }) ||
            !fs::exists(socket)) {
            throw std::runtime_error("munged did not start:\n" + logs());
        }

        std::vector<int> ports = free_ports(2);
        long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
        const std::string conf = dir_ + "/slurm.conf";
        std::ofstream(conf) << "ClusterName=starfishtest\n"
                            << "SlurmctldHost=localhost\n"
                            << "SlurmUser=root\nSlurmdUser=root\n"
                            << "SlurmctldPort=" << ports[0] << "\nSlurmdPort=" << ports[1] << "\n"
                            << "CommunicationParameters=NoCtldInAddrAny,NoInAddrAny\n"
                            << "AuthType=auth/munge\nCredType=cred/munge\n"
                            << "AuthInfo=socket=" << socket << "\n"
                            << "StateSaveLocation=" << dir_ << "/state\n"
                            << "SlurmdSpoolDir=" << dir_ << "/spool\n"
                            << "SlurmctldPidFile=" << dir_ << "/slurmctld.pid\n"
                            << "SlurmdPidFile=" << dir_ << "/slurmd.pid\n"
                            << "SlurmctldLogFile=" << dir_ << "/log/slurmctld.log\n"
                            << "SlurmdLogFile=" << dir_ << "/log/slurmd.log\n"
                            << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
                            << "JobAcctGatherType=jobacct_gather/none\n"
                            << "AccountingStorageType=accounting_storage/none\n"
                            << "JobCompType=jobcomp/none\nMpiDefault=none\n"
                            << "SwitchType=switch/none\nMailProg=/bin/true\n"
                            << "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
                            << "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0\n"
                            << "ReturnToService=2\n"
                            << "NodeName=localhost NodeAddr=127.0.0.1 CPUs=" << cpus
                            << " State=UNKNOWN\n"
                            << "PartitionName=debug Nodes=localhost Default=YES "
                               "MaxTime=INFINITE State=UP\n";
        ::setenv("SLURM_CONF", conf.c_str(), 1);
        start({"slurmctld", "-D", "-i"}, dir_ + "/log/slurmctld.out");
        start({"slurmd", "-D", "-N", "localhost"}, dir_ + "/log/slurmd.out");
        std::string sinfo = find_program("sinfo");
        bool idle = wait_until(30, [&] {
            ProcessResult r = run_process({sinfo, "--noheader", "--format=%T"}, 10);
            return r.exit_status == 0 && r.out.find("idle") != std::string::npos;
        });
        if (!idle) {
            throw std::runtime_error("the Slurm node did not become idle within 30 s:\n" + logs());
        }
    } catch (...) {
        stop();
        throw;
    }
}

SlurmCluster::~SlurmCluster() {
    stop();
}

void SlurmCluster::stop() {
    if (std::getenv("SLURM_CONF") != nullptr && !pids_.empty()) {
        // Cancel what is left (a failed test), so no job step outlives the cluster.
        std::string squeue = find_program("squeue");
        std::string scancel = find_program("scancel");
        ProcessResult q = run_process({squeue, "--noheader", "--format=%A"}, 10);
        std::istringstream ids(q.out);
        bool cancelled = false;
        for (std::string id; ids >> id;) {
            run_process({scancel, id}, 10);
            cancelled = true;
        }
        if (cancelled) {
            wait_until(10, [&] {
                return run_process({squeue, "--noheader", "--format=%A"}, 10).out.empty();
            });
        }
    }
    for (auto it = pids_.rbegin(); it != pids_.rend(); ++it) {
        pid_t pid = *it;
        ::kill(pid, SIGTERM);
        if (!wait_until(10, [&] { return !alive(pid); })) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
    }
    pids_.clear();
    ::unsetenv("SLURM_CONF");
    if (!dir_.empty()) {
        std::error_code ec;
        fs::remove_all(dir_, ec);
        dir_.clear();
    }
}

std::string SlurmCluster::logs() const {
    std::string out;
    for (const char *log : {"munged.out", "munged.log", "slurmctld.out", "slurmctld.log",
                            "slurmd.out", "slurmd.log"}) {
        std::string path = dir_ + "/log/" + log;
        if (fs::exists(path)) {
            out += "--- " + path + "\n" + tail_of(path) + "\n";
        }
    }
    return out;
}

} // namespace starfish::testing
