#pragma once
// Parameters of the SCSI bus (tlm_models/storage/scsi_bus.h): data rate, the
// duration of each bus phase and the arbitration policy (scsi.*). docs/disk.md
// gives each one's provenance.

#include "hw/config/config.h"
#include "hw/config/key.h"
#include "hw/config/registry.h"

#include <cstdint>

// The keys of the bus parameters (hw/config/key.h).
namespace starfish::keys {
inline constexpr config::RealKey scsi_bus_mb_s{"scsi.bus_mb_s"};
inline constexpr config::RealKey scsi_arbitration_us{"scsi.arbitration_us"};
inline constexpr config::RealKey scsi_command_us{"scsi.command_us"};
inline constexpr config::RealKey scsi_status_us{"scsi.status_us"};
inline constexpr config::RealKey scsi_message_us{"scsi.message_us"};
inline constexpr config::StringKey scsi_arbitration{"scsi.arbitration"};
} // namespace starfish::keys

namespace starfish::storage {

// Who wins arbitration among waiting devices.
enum class ScsiArbitration {
    Fair,      // the host adapter first (highest SCSI id), targets in arrival order
    FirstCome, // everyone in arrival order
    Priority   // SCSI id order: host adapter, then higher target ids; ties in arrival order
};

// Bus parameters (scsi.*).
struct ScsiBusParams {
    double bytes_per_s = 0;      // scsi.bus_mb_s in bytes (MB = 2^20)
    uint64_t arbitration_ps = 0; // arbitration + (re)selection + IDENTIFY, per tenure
    uint64_t command_ps = 0;     // command phase of a 6/10-byte CDB
    uint64_t status_ps = 0;      // status + COMMAND COMPLETE message, bus free
    uint64_t message_ps = 0;     // SAVE DATA POINTERS + DISCONNECT messages, bus free
    ScsiArbitration arbitration = ScsiArbitration::Fair;

    static ScsiBusParams from(const config::Config &cfg);
    // Data phase time for n bytes at the bus rate (rounded to the picosecond).
    uint64_t transfer_ps(uint64_t bytes) const;
};

void declare_scsi_bus_params(config::Registry &registry);

} // namespace starfish::storage
