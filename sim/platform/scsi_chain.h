#pragma once
// One SCSI chain: a host adapter, the SCSI bus it initiates on, and HP 97560
// drives as targets 0, 1, ... of that bus. The machine builds one per IOP; the
// disk replay testbench one per bus; the disk tests one per rig (docs/machine.md,
// docs/disk.md).
//
// The chain is not a module: its parts are named "<prefix>_scsi" (bus),
// "<prefix>_hba" (adapter) and "disk<global id>" inside whatever module is being
// elaborated. It wires the adapter to the bus, the drives to the bus and the
// adapter's interrupt to the given signal; the caller maps the adapter's register
// socket (adapter().regs) and provides the memory the adapter's DMA reaches.

#include "hw/config/config.h"
#include "tlm_models/node/node_memory.h"
#include "tlm_models/storage/disk_fault_params.h"
#include "tlm_models/storage/disk_params.h"
#include "tlm_models/storage/hp97560_disk.h"
#include "tlm_models/storage/scsi_bus.h"
#include "tlm_models/storage/scsi_host_adapter.h"

#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace starfish::platform {

// The parameters of every part (disk.*, scsi.*) and the injected faults (fault.*).
struct ScsiChainParams {
    storage::DiskParams disk;
    storage::ScsiBusParams bus;
    storage::ScsiAdapterParams adapter;
    storage::DiskFaultParams faults;

    static ScsiChainParams from(const config::Config &cfg);
};

struct ScsiChainSetup {
    std::string prefix;         // names the bus and the adapter
    unsigned node_id = 0;       // the adapter's node and index, named in its errors
    unsigned adapter_index = 0; // and registers
    // Global disk id of each target, in target order: it names the drive, its
    // contents and its rotation random stream (seeded by seed and trial).
    std::vector<uint32_t> disk_ids;
    uint64_t seed = 0;
    uint64_t trial = 0;
};

class ScsiChain {
public:
    // Builds the bus, the adapter (interrupt bound to `irq`) and the drives, in
    // that order.
    ScsiChain(const ScsiChainSetup &setup, const ScsiChainParams &params, node::NodeMemory &memory,
              sc_core::sc_signal_inout_if<bool> &irq);
    ScsiChain(const ScsiChain &) = delete;
    ScsiChain &operator=(const ScsiChain &) = delete;

    storage::ScsiBus &bus() { return *bus_; }
    const storage::ScsiBus &bus() const { return *bus_; }
    storage::ScsiHostAdapter &adapter() { return *adapter_; }
    const storage::ScsiHostAdapter &adapter() const { return *adapter_; }
    // The drive at SCSI target `target`.
    storage::Hp97560Disk &disk(unsigned target) { return *disks_.at(target); }
    const storage::Hp97560Disk &disk(unsigned target) const { return *disks_.at(target); }
    unsigned disk_count() const { return static_cast<unsigned>(disks_.size()); }

private:
    std::unique_ptr<storage::ScsiBus> bus_;
    std::unique_ptr<storage::ScsiHostAdapter> adapter_;
    std::vector<std::unique_ptr<storage::Hp97560Disk>> disks_;
};

} // namespace starfish::platform
