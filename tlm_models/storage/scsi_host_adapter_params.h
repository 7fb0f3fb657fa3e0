#pragma once
// Parameter of the SCSI host adapter (tlm_models/storage/scsi_host_adapter.h): the
// depth of its per-target command queues (scsi.queue_depth).

#include "hw/config/config.h"
#include "hw/config/key.h"
#include "hw/config/registry.h"

#include <cstdint>

// The key of the adapter's parameter (hw/config/key.h).
namespace starfish::keys {
inline constexpr config::IntKey scsi_queue_depth{"scsi.queue_depth"};
} // namespace starfish::keys

namespace starfish::storage {

struct ScsiAdapterParams {
    uint32_t queue_depth = 1; // commands per target queue, including the active one

    static ScsiAdapterParams from(const config::Config &cfg);
};

void declare_scsi_adapter_params(config::Registry &registry);

} // namespace starfish::storage
