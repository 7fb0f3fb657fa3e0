#include "hw/platform/fs_params.h"

namespace starfish::platform {

void declare_fs_params(config::Registry &reg) {
    reg.add_string("fs.kind", "ddio", {"ddio", "spfs"},
                   "file system that moves the data: ddio = disk-directed I/O (docs/ddio.md)",
                   "given: SPEC.md §6 (SPFS and 2PIO follow in later versions)");
    reg.add_bool("fs.presort", true,
                 "DDIO: each IOP sorts its block list by physical disk address before "
                 "transferring (\"DDIO sort\")",
                 "given: SPEC.md §6-§7 (the paper's best variant)");
    reg.add_int("ddio.buffers_per_disk", 2, "blocks", {1, 64},
                "one-block IOP buffers (each with its own thread) per local disk",
                "given: SPEC.md §2 (two one-block buffers per local disk)");
    reg.add_bool("ddio.yield_to_ready", true,
                 "DDIO buffer thread: while moving a block's pieces, give the CPU to another "
                 "buffer thread whose pieces have all arrived, so it can start its disk write "
                 "at once",
                 "estimate: firmware design choice (threads are not preempted, SPEC.md §2); "
                 "without it two buffers per disk leave the drive idle on small-record writes "
                 "(docs/calibration.md)");
    reg.add_bool("ddio.prefetch", true,
                 "DDIO reads: when every buffer of a disk is busy, ask the drive to start "
                 "reading the next block into its own cache (SCSI PRE-FETCH)",
                 "given: SPEC.md §6 (helps normally, hurts on a congested bus)");
    reg.add_string("ddio.queued", "auto", {"auto", "on", "off"},
                   "batch small Memput/Memget pieces per destination CP (queued Memput/Memget); "
                   "auto = on when records are smaller than a file-system block",
                   "given: SPEC.md §7 and Kotz TOCS 1997 §4 (batched when the record is "
                   "smaller than a message)");
    reg.add_int("cost.scsi_submit_cycles", 60, "cycles", {0, 100000},
                "firmware SCSI driver: build a descriptor and submit it (besides the HAL's "
                "register-write charge)",
                "estimate: a short driver path on a 50 MHz RISC; calibrated with the other "
                "cost.* on the contiguous tables (docs/calibration.md)");
    reg.add_int("cost.scsi_complete_cycles", 40, "cycles", {0, 100000},
                "firmware SCSI driver: completion handling per command in the interrupt "
                "handler (besides interrupt entry/exit and the DONE register read)",
                "estimate: as cost.scsi_submit_cycles");
    reg.add_int("cost.ddio_plan_block_cycles", 20, "cycles", {0, 1000000},
                "DDIO IOP: per block of the request's plan (list entry and its share of the "
                "presort)",
                "estimate: calibrated on the contiguous DDIO table (docs/calibration.md)");
    reg.add_int("cost.ddio_block_cycles", 100, "cycles", {0, 1000000},
                "DDIO IOP buffer thread: per block moved (claim, bookkeeping)",
                "estimate: calibrated on the contiguous DDIO table (docs/calibration.md)");
    reg.add_int("cost.ddio_piece_cycles", 260, "cycles", {0, 1000000},
                "DDIO IOP buffer thread: per piece (a run of a block for one CP): computing "
                "its CP and offset from the pattern",
                "estimate: calibrated on the contiguous DDIO table, chiefly rc/wc with 8-byte "
                "records (20.4/20.5 MB/s; docs/calibration.md)");
    reg.add_int("cost.ddio_piece_2d_cycles", 100, "cycles", {0, 1000000},
                "DDIO IOP buffer thread: extra per piece of a two-dimensional pattern (the "
                "record's row and column, then the CP-grid position)",
                "estimate: calibrated on the contiguous DDIO table, chiefly rbc/rcc/wbc/wcc "
                "with 8-byte records (15.2-15.7 MB/s; docs/calibration.md)");
    reg.add_int("ddio.stagger", 0, "", {0, 1},
                "1 = each IOP rotates its block list by a different amount so the CPs are not "
                "all served in the same order (SPEC.md §12, never measured in the paper)",
                "convention: off, as in the paper");
}

} // namespace starfish::platform
