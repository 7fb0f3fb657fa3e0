#pragma once
// Checks of the injected faults (fault.*, docs/faults.md) against the disks of
// the machine that the fault parameters' own checks do not make: a bad sector
// must lie on the disk (LBA below cylinders x heads x sectors per track).

#include "hw/config/registry.h"

namespace starfish::platform {

void declare_fault_checks(config::Registry &registry);

} // namespace starfish::platform
