#include "sim/workload_params.h"

#include "hw/config/config.h"
#include "hw/config/json_text.h"

#include "fw/param_keys.h"
#include "fw/pattern.h"
#include "fw/transfer.h"
#include "hw/machine_keys.h"
#include "sim/platform/pattern_config.h"
#include "tlm_models/node/node_memory_params.h"
#include "tlm_models/storage/disk_params.h"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

namespace starfish::sim {

void declare_workload_params(config::Registry &reg) {
    reg.add_string(keys::workload_kind, "transfer", {"transfer", "commtest", "lu"},
                   "what `starfish run` does: transfer = one collective file transfer per trial "
                   "(docs/transfer.md); commtest = the communication self-test (docs/machine.md); "
                   "lu = the out-of-core LU decomposition (docs/lu.md)",
                   "convention: the paper's experiment is the default");
    reg.add_int(keys::workload_trials, 5, "trials", {1, 1000},
                "independent trials per configuration (layout, rotation, network noise vary)",
                "given: docs/reference.md §9 (five trials)");
    reg.add_int(keys::workload_seed, 1, "", {0, 4294967295.0},
                "base seed; trial t uses a seed derived from (seed, t)",
                "convention: any fixed value gives reproducible runs");
    reg.add_int(keys::workload_jobs, 0, "processes", {0, 256},
                "trials simulated at once in separate processes; 0 = one per host core",
                "convention: results do not depend on it (each trial is seeded on its own)");

    // The LU program (docs/lu.md) runs on SPFS or DDIO, and each CP holds its slab and
    // two columns of multipliers in its memory.
    reg.add_check([](const config::Config &cfg) -> std::string {
        if (cfg.get_string(keys::workload_kind) != "lu") {
            return "";
        }
        const std::string &fs = cfg.get_string(keys::fs_kind);
        if (fs != "spfs" && fs != "ddio") {
            return "fs.kind = " + fs + ": workload.kind = lu runs on spfs or ddio only";
        }
        uint64_t col_bytes = 4 * static_cast<uint64_t>(cfg.get_int(keys::lu_n));
        uint64_t need = col_bytes * (static_cast<uint64_t>(cfg.get_int(keys::lu_slab_cols)) + 2);
        uint64_t memory = static_cast<uint64_t>(cfg.get_int(keys::machine_node_memory_kb)) * 1024;
        // A quarter of node memory stays for the firmware's own state.
        if (need > memory - memory / 4) {
            return "lu.slab_cols = " + std::to_string(cfg.get_int(keys::lu_slab_cols)) +
                   " columns of lu.n = " + std::to_string(cfg.get_int(keys::lu_n)) +
                   " floats need " + std::to_string(need) +
                   " bytes per CP, more than 3/4 of machine.node_memory_kb = " +
                   std::to_string(cfg.get_int(keys::machine_node_memory_kb)) + " KB";
        }
        return "";
    });

    // The file must be a whole number of records and the pattern must fit the CPs;
    // the firmware library decides, so the message is the same one the IOPs would give.
    reg.add_check([](const config::Config &cfg) -> std::string {
        if (cfg.get_string(keys::workload_kind) != "transfer") {
            return "";
        }
        double file_bytes = cfg.get_real(keys::workload_file_mb) * 1048576.0;
        if (file_bytes != std::floor(file_bytes)) {
            // Name the bytes and the nearest valid sizes: MB is 2^20 here, so a
            // decimal-looking size such as 0.1 is rarely whole.
            double below = std::floor(file_bytes);
            char bytes[64];
            std::snprintf(bytes, sizeof bytes, "%.6f", file_bytes);
            return "workload.file_mb = " +
                   config::exact_number_text(cfg.get_real(keys::workload_file_mb)) + " is " +
                   bytes +
                   " bytes (MB = 2^20 bytes), not a whole number; the nearest whole sizes "
                   "are " +
                   config::exact_number_text(below / 1048576.0) + " MB (" +
                   config::exact_number_text(below) + " bytes) and " +
                   config::exact_number_text((below + 1) / 1048576.0) + " MB (" +
                   config::exact_number_text(below + 1) + " bytes)";
        }
        fw_pattern_t p;
        std::string error;
        if (!platform::pattern_from_config(cfg, &p, &error)) {
            return "workload.pattern/workload.record_bytes/workload.file_mb/machine.cp_count: " +
                   error;
        }
        char msg[256];
        // The file must fit on the disks in the chosen layout (the IOPs build the same
        // layout at boot, fw_transfer_layout).
        fw_disk_geometry_t disk{static_cast<uint32_t>(cfg.get_int(keys::disk_sector_bytes)),
                                static_cast<uint32_t>(cfg.get_int(keys::disk_sectors_per_track)),
                                static_cast<uint32_t>(cfg.get_int(keys::disk_cylinders) *
                                                      cfg.get_int(keys::disk_heads))};
        fw_layout_t layout;
        uint32_t disk_count = static_cast<uint32_t>(cfg.get_int(keys::machine_iop_count) *
                                                    cfg.get_int(keys::machine_disks_per_iop));
        int st = fw_transfer_layout_of(
            &layout, cfg.get_string(keys::workload_layout).c_str(),
            static_cast<uint64_t>(file_bytes),
            static_cast<uint32_t>(cfg.get_int(keys::fs_block_bytes)), disk, disk_count,
            static_cast<uint64_t>(cfg.get_int(keys::workload_seed)), 0, msg, sizeof msg);
        if (st != FW_LAYOUT_OK) {
            std::ostringstream os;
            os << "the file (workload.file_mb = " << cfg.get_real(keys::workload_file_mb)
               << " MB) cannot be placed on the " << disk_count
               << " disks (machine.iop_count x machine.disks_per_iop) "
               << "in workload.layout = " << cfg.get_string(keys::workload_layout)
               << " with fs.block_bytes = " << cfg.get_int(keys::fs_block_bytes)
               << " and the disk.* geometry: " << msg;
            return os.str();
        }
        // Every CP holds its part of the matrix in its own memory (ra: the whole file).
        uint64_t memory = static_cast<uint64_t>(cfg.get_int(keys::machine_node_memory_kb)) * 1024;
        for (uint32_t cp = 0; cp < p.cp_count; ++cp) {
            uint64_t bytes = fw_pattern_cp_bytes(&p, cp);
            if (bytes > memory) {
                return "workload.pattern " + std::string(p.name) + ": CP " + std::to_string(cp) +
                       "'s part of the file is " + std::to_string(bytes) +
                       " bytes, more than its machine.node_memory_kb = " +
                       std::to_string(cfg.get_int(keys::machine_node_memory_kb)) +
                       " KB; raise machine.node_memory_kb or lower workload.file_mb";
            }
        }
        return "";
    });
}

} // namespace starfish::sim
