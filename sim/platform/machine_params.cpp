#include "sim/platform/machine_params.h"
#include "hw/machine_keys.h"

#include <stdexcept>

namespace starfish::platform {

void declare_machine_params(config::Registry &reg) {
    reg.add_int(keys::machine_cp_count, 16, "nodes", {1, 4096},
                "number of compute processors (CPs)", "given: docs/reference.md §2 (16 CPs)");
    reg.add_int(keys::machine_iop_count, 16, "nodes", {1, 4096}, "number of I/O processors (IOPs)",
                "given: docs/reference.md §2 (16 IOPs)");
    reg.add_int(keys::machine_disks_per_iop, 1, "disks", {1, 64},
                "HP 97560 disks on each IOP's SCSI bus",
                "given: docs/reference.md §2 (one per IOP)");
    reg.add_real(keys::machine_cpu_mhz, 50.0, "MHz", {1, 10000}, "clock of every CP and IOP",
                 "given: docs/reference.md §2 (50 MHz RISC)");
    reg.add_string(
        keys::machine_placement, "interleaved", {"interleaved", "split"},
        "how CPs and IOPs are placed on the torus routers (docs/machine.md)",
        "estimate: not published (docs/reference.md §2); interleaved spreads IOP traffic");
    reg.add_int(keys::net_width, 6, "routers", {2, 64}, "torus routers along X",
                "given: docs/reference.md §2 (6x6 torus)");
    reg.add_int(keys::net_height, 6, "routers", {2, 64}, "torus routers along Y",
                "given: docs/reference.md §2 (6x6 torus)");
    reg.add_check([](const config::Config &cfg) -> std::string {
        long long nodes =
            cfg.get_int(keys::machine_cp_count) + cfg.get_int(keys::machine_iop_count);
        long long routers = cfg.get_int(keys::net_width) * cfg.get_int(keys::net_height);
        if (nodes > routers) {
            return "machine.cp_count + machine.iop_count = " + std::to_string(nodes) +
                   " nodes do not fit on the " + std::to_string(cfg.get_int(keys::net_width)) +
                   "x" + std::to_string(cfg.get_int(keys::net_height)) + " torus (" +
                   std::to_string(routers) + " routers); raise net.width/net.height";
        }
        return "";
    });
}

MachineShape MachineShape::from(const config::Config &cfg) {
    MachineShape m;
    m.cp_count = static_cast<int>(cfg.get_int(keys::machine_cp_count));
    m.iop_count = static_cast<int>(cfg.get_int(keys::machine_iop_count));
    m.disks_per_iop = static_cast<int>(cfg.get_int(keys::machine_disks_per_iop));
    m.cpu_hz = cfg.get_real(keys::machine_cpu_mhz) * 1e6;
    m.torus_width = static_cast<int>(cfg.get_int(keys::net_width));
    m.torus_height = static_cast<int>(cfg.get_int(keys::net_height));
    m.placement = cfg.get_string(keys::machine_placement);
    return m;
}

std::vector<NodeSite> MachineShape::sites() const {
    return place_nodes(cp_count, iop_count, torus_width, torus_height, placement);
}

} // namespace starfish::platform
