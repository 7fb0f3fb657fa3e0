#include "tlm_models/storage/scsi_bus_params.h"

#include <cmath>
#include <string>

namespace starfish::storage {

namespace {
uint64_t us_to_ps(double us) {
    return static_cast<uint64_t>(std::llround(us * 1e6));
}
} // namespace

void declare_scsi_bus_params(config::Registry &reg) {
    reg.add_real(keys::scsi_bus_mb_s, 10.0, "MB/s", {0.1, 1000},
                 "SCSI bus data rate (MB = 2^20 bytes), shared by the disks of one IOP",
                 "given: docs/reference.md §3 (10 MB/s peak)");
    reg.add_real(keys::scsi_arbitration_us, 6.0, "us", {0, 10000},
                 "per bus tenure: arbitration, (re)selection and the IDENTIFY message",
                 "estimate: SCSI-2 arbitration delay 2.4 us + bus settle/selection handshakes "
                 "(~2 us) + one asynchronous message byte (~1.5 us)");
    reg.add_real(keys::scsi_command_us, 15.0, "us", {0, 10000},
                 "command phase: transferring a 10-byte CDB",
                 "estimate: 10 asynchronous bytes at ~1.5 us per byte (SCSI-2 handshake)");
    reg.add_real(keys::scsi_status_us, 4.0, "us", {0, 10000},
                 "status phase and COMMAND COMPLETE message, then bus free",
                 "estimate: two asynchronous bytes at ~1.5 us plus bus release");
    reg.add_real(keys::scsi_message_us, 4.0, "us", {0, 10000},
                 "SAVE DATA POINTERS and DISCONNECT messages when a drive disconnects",
                 "estimate: two asynchronous bytes at ~1.5 us plus bus release");
    reg.add_string(keys::scsi_arbitration, "fair", {"fair", "fifo", "priority"},
                   "who wins the bus among waiting devices: fair (the host adapter, SCSI id 7, "
                   "first; targets first come), fifo (everyone first come) or priority (SCSI "
                   "id order: host adapter, then higher target ids)",
                   "estimate: SCSI-2 id priority lets the host adapter win, as in fair; pure "
                   "id priority starves low target ids on a saturated bus (docs/disk.md)");
}

ScsiBusParams ScsiBusParams::from(const config::Config &cfg) {
    ScsiBusParams p;
    p.bytes_per_s = cfg.get_real(keys::scsi_bus_mb_s) * 1048576.0;
    p.arbitration_ps = us_to_ps(cfg.get_real(keys::scsi_arbitration_us));
    p.command_ps = us_to_ps(cfg.get_real(keys::scsi_command_us));
    p.status_ps = us_to_ps(cfg.get_real(keys::scsi_status_us));
    p.message_ps = us_to_ps(cfg.get_real(keys::scsi_message_us));
    const std::string &arb = cfg.get_string(keys::scsi_arbitration);
    p.arbitration = arb == "priority" ? ScsiArbitration::Priority
                    : arb == "fifo"   ? ScsiArbitration::FirstCome
                                      : ScsiArbitration::Fair;
    return p;
}

uint64_t ScsiBusParams::transfer_ps(uint64_t bytes) const {
    return static_cast<uint64_t>(std::llround(static_cast<double>(bytes) * 1e12 / bytes_per_s));
}

} // namespace starfish::storage
