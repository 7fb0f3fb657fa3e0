#pragma once
// Injected disk faults (fault.*), docs/faults.md: medium errors on READ(10) and
// WRITE(10) at a rate or at given sectors, and a drive that stops answering. All
// off by default; random choices come from the seeded stream
// HW_RNG_STREAM_DISK_FAULT of each drive, so a faulty run is as reproducible as any.

#include "hw/config/config.h"
#include "hw/config/key.h"
#include "hw/config/registry.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

// The keys of the fault parameters (hw/config/key.h).
namespace starfish::keys {
inline constexpr config::RealKey fault_read_error_rate{"fault.read_error_rate"};
inline constexpr config::RealKey fault_write_error_rate{"fault.write_error_rate"};
inline constexpr config::StringKey fault_bad_sectors{"fault.bad_sectors"};
inline constexpr config::IntKey fault_silent_disk{"fault.silent_disk"};
inline constexpr config::IntKey fault_silent_after{"fault.silent_after"};
} // namespace starfish::keys

namespace starfish::storage {

struct DiskFaultParams {
    double read_error_rate = 0;  // probability that a READ(10) fails (a transient error)
    double write_error_rate = 0; // the same for WRITE(10)
    // (global disk id, LBA): every READ(10) or WRITE(10) covering it fails (a bad sector).
    std::vector<std::pair<uint32_t, uint32_t>> bad_sectors;
    int64_t silent_disk = -1;  // global disk id of a drive that stops answering; -1: none
    uint64_t silent_after = 0; // commands it completes before it stops answering

    bool any() const {
        return read_error_rate > 0 || write_error_rate > 0 || !bad_sectors.empty() ||
               silent_disk >= 0;
    }
    static DiskFaultParams from(const config::Config &cfg);
};

// Parses fault.bad_sectors ("disk:lba,disk:lba"); false with *error set when malformed.
bool parse_bad_sectors(const std::string &text, std::vector<std::pair<uint32_t, uint32_t>> *out,
                       std::string *error);

void declare_disk_fault_params(config::Registry &registry);

} // namespace starfish::storage
