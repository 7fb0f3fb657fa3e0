#pragma once
// A one-node Slurm cluster on loopback for tests (docs/cluster.md, "Testing"):
// munged with a private key and socket, slurmctld and slurmd from the Debian
// packages, run in the foreground as children of the test (no systemd), with a
// minimal slurm.conf, state, spool and logs in a temporary directory and both
// ports on 127.0.0.1. SLURM_CONF is set in this process's environment while the
// cluster is up, so sbatch, squeue and every starfish command the test runs use
// it. The destructor cancels what is still queued and stops every daemon it
// started, by pid, on every path (the daemons also get SIGTERM if the test dies).

#include <string>
#include <sys/types.h>
#include <vector>

namespace starfish::testing {

class SlurmCluster {
public:
    // Why a cluster cannot be started here ("" when it can): a missing program
    // (the Debian packages munge slurmctld slurmd slurm-client, installed by
    // scripts/install-deps.sh) or not running as root.
    static std::string unavailable_reason();

    // Starts the daemons and waits until the node is idle; throws
    // std::runtime_error with the daemons' logs when they do not come up.
    SlurmCluster();
    ~SlurmCluster();
    SlurmCluster(const SlurmCluster &) = delete;
    SlurmCluster &operator=(const SlurmCluster &) = delete;

    const std::string &dir() const { return dir_; }
    // The tails of the daemons' logs, for failure messages.
    std::string logs() const;

private:
    pid_t start(const std::vector<std::string> &argv, const std::string &log);
    void stop();

    std::string dir_;
    std::vector<pid_t> pids_; // in start order; stopped in reverse
};

} // namespace starfish::testing
