#pragma once
// Machine-level parameters (machine.*, net.width, net.height): node counts, clock,
// placement and the torus size.

#include "hw/config/config.h"
#include "hw/config/registry.h"
#include "sim/platform/placement.h"

#include <vector>

namespace starfish::platform {

void declare_machine_params(config::Registry &registry);

struct MachineShape {
    int cp_count;
    int iop_count;
    int disks_per_iop;
    double cpu_hz;
    int torus_width;
    int torus_height;
    std::string placement;

    static MachineShape from(const config::Config &cfg);
    std::vector<NodeSite> sites() const;
};

} // namespace starfish::platform
