#include "tlm_models/storage/disk_fault_params.h"
#include "hw/machine_keys.h"

#include <cstdlib>

namespace starfish::storage {

namespace {

bool parse_u32(const std::string &text, uint32_t *out) {
    if (text.empty() || text.size() > 10 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
        return false;
    }
    unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    if (v > 0xffffffffull) {
        return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
}

} // namespace

bool parse_bad_sectors(const std::string &text, std::vector<std::pair<uint32_t, uint32_t>> *out,
                       std::string *error) {
    out->clear();
    if (text.empty()) {
        return true;
    }
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t comma = text.find(',', pos);
        std::string item =
            text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        size_t colon = item.find(':');
        uint32_t disk = 0, lba = 0;
        if (colon == std::string::npos || !parse_u32(item.substr(0, colon), &disk) ||
            !parse_u32(item.substr(colon + 1), &lba)) {
            *error = "\"" + item + "\" is not DISK:LBA (global disk id and sector, whole numbers)";
            return false;
        }
        out->emplace_back(disk, lba);
        if (comma == std::string::npos) {
            break;
        }
        pos = comma + 1;
    }
    return true;
}

void declare_disk_fault_params(config::Registry &reg) {
    const std::string off = "convention: no injected faults (docs/faults.md)";
    reg.add_real(keys::fault_read_error_rate, 0, "", {0, 1},
                 "probability that a READ(10) ends in a MEDIUM ERROR at a sector drawn from its "
                 "range (transient: a retry draws again)",
                 off);
    reg.add_real(keys::fault_write_error_rate, 0, "", {0, 1},
                 "probability that a WRITE(10) ends in a MEDIUM ERROR at a sector drawn from its "
                 "range (transient: a retry draws again)",
                 off);
    reg.add_string(keys::fault_bad_sectors, "", {},
                   "bad sectors, DISK:LBA,...: every READ(10) or WRITE(10) covering one fails "
                   "there with a MEDIUM ERROR (global disk id = IOP x disks_per_iop + target)",
                   off);
    reg.add_int(keys::fault_silent_disk, -1, "disk", {-1, 1 << 20},
                "global id of a drive that stops answering (takes commands, never returns "
                "status); -1: none",
                off);
    reg.add_int(keys::fault_silent_after, 0, "commands", {0, 1LL << 40},
                "commands the silent drive completes before it stops answering", off);
    reg.add_check([](const config::Config &cfg) -> std::string {
        std::vector<std::pair<uint32_t, uint32_t>> sectors;
        std::string error;
        if (!parse_bad_sectors(cfg.get_string(keys::fault_bad_sectors), &sectors, &error)) {
            return "fault.bad_sectors: " + error;
        }
        long long disks =
            cfg.get_int(keys::machine_iop_count) * cfg.get_int(keys::machine_disks_per_iop);
        for (const auto &[disk, lba] : sectors) {
            if (disk >= disks) {
                return "fault.bad_sectors names disk " + std::to_string(disk) +
                       "; the machine has " + std::to_string(disks) +
                       " (machine.iop_count x machine.disks_per_iop)";
            }
        }
        if (cfg.get_int(keys::fault_silent_disk) >= disks) {
            return "fault.silent_disk = " + std::to_string(cfg.get_int(keys::fault_silent_disk)) +
                   " but the machine has " + std::to_string(disks) +
                   " disks (machine.iop_count x machine.disks_per_iop)";
        }
        return "";
    });
}

DiskFaultParams DiskFaultParams::from(const config::Config &cfg) {
    DiskFaultParams p;
    p.read_error_rate = cfg.get_real(keys::fault_read_error_rate);
    p.write_error_rate = cfg.get_real(keys::fault_write_error_rate);
    std::string error;
    parse_bad_sectors(cfg.get_string(keys::fault_bad_sectors), &p.bad_sectors, &error);
    p.silent_disk = cfg.get_int(keys::fault_silent_disk);
    p.silent_after = static_cast<uint64_t>(cfg.get_int(keys::fault_silent_after));
    return p;
}

} // namespace starfish::storage
