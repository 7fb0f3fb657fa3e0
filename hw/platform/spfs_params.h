#pragma once
// SPFS parameters (spfs.*, cost.spfs_*): the simple parallel file system's switches
// and the CPU costs of its CP client and IOP server (fw/include/fw/spfs.h,
// docs/spfs.md), with the checks that reject impossible combinations.

#include "hw/config/registry.h"

namespace starfish::platform {

void declare_spfs_params(config::Registry &registry);

} // namespace starfish::platform
