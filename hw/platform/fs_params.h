#pragma once
// File-system parameters (fs.*, ddio.*): which file system moves the data and how.
// The firmware reads them with hal_config_*; they are declared here, beside the
// platform that runs that firmware.

#include "hw/config/registry.h"

namespace starfish::platform {

void declare_fs_params(config::Registry &registry);

} // namespace starfish::platform
