#include "sim/platform/scsi_chain.h"

namespace starfish::platform {

ScsiChainParams ScsiChainParams::from(const config::Config &cfg) {
    return ScsiChainParams{storage::DiskParams::from(cfg), storage::ScsiBusParams::from(cfg),
                           storage::ScsiAdapterParams::from(cfg),
                           storage::DiskFaultParams::from(cfg)};
}

ScsiChain::ScsiChain(const ScsiChainSetup &setup, const ScsiChainParams &params,
                     node::NodeMemory &memory, sc_core::sc_signal_inout_if<bool> &irq) {
    // Always this order: which of several processes ready at once SystemC runs
    // first follows the order they were created in, so results depend on it.
    bus_ = std::make_unique<storage::ScsiBus>((setup.prefix + "_scsi").c_str(), params.bus);
    adapter_ = std::make_unique<storage::ScsiHostAdapter>((setup.prefix + "_hba").c_str(),
                                                          params.adapter, memory, *bus_,
                                                          setup.node_id, setup.adapter_index);
    adapter_->irq(irq);
    for (uint32_t id : setup.disk_ids) {
        // Each drive attaches itself to the bus as the next target.
        disks_.push_back(std::make_unique<storage::Hp97560Disk>(
            ("disk" + std::to_string(id)).c_str(), params.disk, *bus_, id, setup.seed,
            setup.trial));
        if (params.faults.any()) {
            disks_.back()->set_faults(params.faults, setup.seed, setup.trial);
        }
    }
}

} // namespace starfish::platform
