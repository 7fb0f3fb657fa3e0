#include "tlm_models/storage/scsi_host_adapter_params.h"

namespace starfish::storage {

void declare_scsi_adapter_params(config::Registry &reg) {
    reg.add_int(keys::scsi_queue_depth, 4, "commands", {1, 64},
                "commands the host adapter queues per target (including the one in progress); "
                "submitting more is a programming error",
                "estimate: 4 covers DDIO's prefetch + read per buffer pair and SPFS's one "
                "request per disk thread; firmware keeps deeper queues itself (docs/disk.md)");
}

ScsiAdapterParams ScsiAdapterParams::from(const config::Config &cfg) {
    ScsiAdapterParams p;
    p.queue_depth = static_cast<uint32_t>(cfg.get_int(keys::scsi_queue_depth));
    return p;
}

} // namespace starfish::storage
