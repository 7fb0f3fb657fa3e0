#pragma once
// The whole machine of docs/reference.md §2 built from a configuration: the torus network,
// every CP and IOP node (CPU, memory, DMA network interface) at its placement,
// and on each IOP one SCSI bus with its host adapter and machine.disks_per_iop
// HP 97560 drives. Each node starts the firmware entry of its role.
//
// SystemC elaborates once per process, so a Machine is built once per process (a
// trial runs in its own process, sim/runner/isolated_run.h). docs/machine.md.

#include "hw/config/config.h"
#include "sim/platform/machine_params.h"
#include "sim/platform/node.h"
#include "sim/platform/scsi_chain.h"
#include "tlm_models/net/torus_base.h"

#include <nlohmann/json.hpp>
#include <systemc>

#include <memory>
#include <string>
#include <vector>

namespace starfish::platform {

// The firmware a machine runs: one entry per role (nullptr: the node stays idle).
struct FirmwareSet {
    FirmwareMain cp_main = nullptr;
    FirmwareMain iop_main = nullptr;
};

class Machine {
public:
    // Builds (elaborates) the machine for trial `trial`: random streams (disk
    // rotation, network noise, layouts through the firmware) are seeded by
    // (workload.seed, trial). Throws std::invalid_argument when the configuration
    // cannot be built (nodes that do not fit are caught by validation already).
    // rtl_fst: with net.model = rtl, write every router signal to this FST file
    // (--rtl-fst, docs/rtl.md); empty for none.
    Machine(const config::Config &cfg, int trial, const FirmwareSet &firmware,
            const std::string &rtl_fst = {});
    ~Machine();
    Machine(const Machine &) = delete;
    Machine &operator=(const Machine &) = delete;

    // Runs until no activity is left (every firmware thread has ended or waits
    // forever and every device is idle) or until a node fails, under the deadlock
    // watchdog (sim.watchdog_ms, sim/platform/watchdog.h). Returns the failure text
    // ("" when none): a node's failure, or the watchdog's deadlock or stall report.
    std::string run();

    const MachineShape &shape() const { return shape_; }
    int trial() const { return trial_; }
    Node &cp(int k) { return *nodes_.at(static_cast<size_t>(k)); }
    Node &iop(int k) { return *nodes_.at(static_cast<size_t>(shape_.cp_count + k)); }
    Node &node(int id) { return *nodes_.at(static_cast<size_t>(id)); }
    int node_count() const { return static_cast<int>(nodes_.size()); }
    // Disk by global id (IOP index * disks_per_iop + local index).
    storage::Hp97560Disk &disk(int global_id) { return *disks_.at(static_cast<size_t>(global_id)); }
    int disk_count() const { return static_cast<int>(disks_.size()); }
    // IOP k's SCSI chain (adapter, bus, drives).
    const ScsiChain &scsi_chain(int k) const { return *scsi_chains_.at(static_cast<size_t>(k)); }
    ScsiChain &scsi_chain(int k) { return *scsi_chains_.at(static_cast<size_t>(k)); }
    net::TorusBase &network() { return *network_; }

    // First failure of any node, in node order, or "": a device fault ("node 16:
    // SCSI adapter 0 register SUBMIT (0x020): ... (HW_SCSI_ERR_BUF_ADDR)") before
    // the node's firmware failure (hal_fail, HAL misuse). docs/machine.md.
    std::string failure() const;
    // Threads still alive per node ("cp0: main, msg-server; iop3: ddio-buffer"), for
    // reports on runs that ran out of activity with work left.
    std::string live_threads_report() const;
    // Simulated seconds so far.
    double sim_seconds() const;
    // Events simulated: network packets, disk commands, interrupts and thread
    // switches (the host-speed line's unit of work).
    unsigned long long events() const;

    // Per-node CPU and NI statistics, per-disk and per-bus statistics, network.
    nlohmann::json stats_json() const;
    // Compact summary: CPU busy fraction per role (mean, max), disk movements,
    // bus busy, network latency.
    nlohmann::json summary_json() const;

private:
    const config::Config &cfg_;
    int trial_;
    MachineShape shape_;
    std::unique_ptr<net::TorusBase> network_;
    std::vector<std::unique_ptr<Node>> nodes_;
    std::vector<std::unique_ptr<ScsiChain>> scsi_chains_; // one per IOP
    std::vector<storage::ScsiBus *> buses_;               // of scsi_chains_, by IOP
    std::vector<storage::Hp97560Disk *> disks_;           // of scsi_chains_, by global id
};

} // namespace starfish::platform
