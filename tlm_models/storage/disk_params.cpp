#include "tlm_models/storage/disk_params.h"

#include <string>

namespace starfish::storage {

// ---- parameters -------------------------------------------------------------

void declare_disk_params(config::Registry &reg) {
    const std::string given = "given: docs/reference.md §3 (HP 97560, Ruemmler & Wilkes 1994)";
    reg.add_int(keys::disk_cylinders, 1962, "cylinders", {1, 100000}, "cylinders per drive", given);
    reg.add_int(keys::disk_heads, 19, "surfaces", {1, 255}, "data surfaces (tracks per cylinder)",
                given);
    reg.add_int(keys::disk_sectors_per_track, 72, "sectors", {1, 4096},
                "sectors per track (no zoning)", given);
    reg.add_int(keys::disk_sector_bytes, 512, "bytes", {512, 512},
                "sector size (fixed: hw/data_pattern.h defines 512-byte sector contents)", given);
    reg.add_real(keys::disk_rpm, 4002, "rev/min", {100, 100000},
                 "spindle speed (4002 RPM = 14.9925 ms per revolution)", given);
    reg.add_real(keys::disk_seek_short_base_ms, 3.24, "ms", {0, 1000},
                 "seek of d < seek_long_from_cylinders: base + sqrt_ms * sqrt(d)", given);
    reg.add_real(keys::disk_seek_short_sqrt_ms, 0.400, "ms", {0, 1000},
                 "seek of d < seek_long_from_cylinders: coefficient of sqrt(d)", given);
    reg.add_int(keys::disk_seek_long_from_cylinders, 383, "cylinders", {1, 100000},
                "seek distance from which the linear (long) seek formula applies", given);
    reg.add_real(keys::disk_seek_long_base_ms, 8.00, "ms", {0, 1000},
                 "seek of d >= seek_long_from_cylinders: base + per_cylinder_ms * d", given);
    reg.add_real(keys::disk_seek_long_per_cylinder_ms, 0.008, "ms", {0, 1000},
                 "seek of d >= seek_long_from_cylinders: time per cylinder", given);
    reg.add_real(keys::disk_head_switch_ms, 1.6, "ms", {0, 1000},
                 "switching to another surface of the same cylinder", given);
    reg.add_int(keys::disk_track_skew_sectors, 8, "sectors", {0, 4096},
                "offset of a track's first sector from the previous track's (same cylinder)",
                given);
    reg.add_int(keys::disk_cylinder_skew_sectors, 18, "sectors", {0, 4096},
                "offset of a cylinder's first sector from the previous cylinder's last track",
                given);
    reg.add_real(keys::disk_controller_overhead_ms, 2.2, "ms", {0, 1000},
                 "controller time to process each READ/WRITE/PRE-FETCH/SYNCHRONIZE command, "
                 "bus disconnected; read-ahead continues meanwhile",
                 "given: docs/reference.md §3 (2.2 ms read and write, medium confidence)");
    reg.add_int(keys::disk_cache_kb, 128, "KB", {1, 1048576}, "on-board cache",
                "given: docs/reference.md §3 (128 KB, medium confidence)");
    reg.add_int(
        keys::disk_cache_segments, 1, "segments", {1, 64},
        "read cache segments: one read stream fills one segment, the others keep "
        "earlier streams' data (LRU)",
        "estimate: one segment, the simplest reading of docs/reference.md §3; more only help "
        "interleaved streams (docs/disk.md)");
    reg.add_string(keys::disk_cache_keep, "ahead", {"window", "ahead"},
                   "which read-stream data a segment keeps: window = the last segment-size of "
                   "sectors read (a ring buffer; data the host skipped stays until overwritten), "
                   "ahead = only sectors past the end of the host's last read from the stream "
                   "(a read releases everything before it)",
                   "published: Kotz 1997 (TOCS) §6: several nearby localities on one disk "
                   "'defeated the disk's internal caching and caused extra head movement', which "
                   "ahead reproduces and window does not (SPFS rcc, rbc, rbb with 8 KB records; "
                   "docs/calibration.md). Only reads that go back within a stream tell them "
                   "apart: DDIO's never do");
    reg.add_bool(keys::disk_readahead, true,
                 "after a read, keep reading the following sectors into the cache across "
                 "tracks and cylinders until the segment is full or a command needs the arm",
                 "given: docs/reference.md §3 (read-ahead that continues past the request)");
    reg.add_string(keys::disk_readahead_stop, "miss", {"miss", "command"},
                   "what stops read-ahead early: a command that needs the arm elsewhere "
                   "(miss), or any new command (command)",
                   "estimate: miss; with 'command' every sequential request would lose a "
                   "revolution, which cannot give the published 2.11 MB/s (docs/disk.md)");
    reg.add_bool(keys::disk_readahead_after_hit, true,
                 "a read served wholly from the cache while no read-ahead runs starts "
                 "read-ahead after the cached sectors that follow it, as after a miss",
                 "estimate: on, the read-ahead rule above applied to every read; off is the "
                 "policy of some later drives (docs/disk.md, 'Read-ahead after a hit')");
    reg.add_string(keys::disk_write_report, "immediate", {"immediate", "media"},
                   "when a WRITE reports completion: once its data is in the cache "
                   "(immediate) or once it is on the media",
                   "given: docs/reference.md §3 (immediate report, medium confidence)");
    reg.add_int(keys::disk_write_behind_kb, 128, "KB", {0, 1048576},
                "immediate report: earlier writes' data the drive may still hold unwritten "
                "when it reports a new write done (0: a write is reported once its data is in "
                "the cache and every earlier write is on the media; above disk.cache_kb it "
                "means the whole cache, which holds the unwritten data)",
                "given: docs/reference.md §3 (writes reported complete once their data are in "
                "the 128 KB drive cache). A run ends when the write-behind is on the media "
                "(fs.flush_drives), so it no longer shortens the measured time; an earlier "
                "calibration without that flush had cut it to 8 KB (docs/calibration.md)");
    reg.add_int(keys::disk_read_fence_kb, 64, "KB", {1, 1048576},
                "a READ reconnects to the bus once this much of it (or all of the rest) is in "
                "the cache",
                "given: docs/reference.md §3 (64 KB read fence, medium confidence)");
    reg.add_int(keys::disk_write_fence_kb, 64, "KB", {1, 1048576},
                "a WRITE takes at most this much data per bus connection, and reconnects when "
                "the cache has room for the next such burst",
                "given: docs/reference.md §3 (64 KB write fence, medium confidence)");
    reg.add_int(keys::disk_start_cylinder, 25, "cylinders", {0, 99999},
                "cylinder the arm rests on (head 0) when a trial starts; every layout puts "
                "the file's first block on cylinder 0, so 0 = no seek before a contiguous "
                "file's first access",
                "calibrated estimate (not published: TOCS §5 makes the disks' initial "
                "rotational positions random and says nothing about the arm): "
                "scripts/calibrate.py --method ddio --grid "
                "disk.start_cylinder=0,25,50,75,100,150 on the DDIO contiguous table, RMS "
                "2.39% at 0, 1.31% at 25, 1.38-1.50% from 50 to 150. At 0 every disk-bound "
                "DDIO contiguous cell was 2.0-2.5% fast while 1000 MB runs matched the "
                "paper's 33.5 MB/s (docs/calibration.md, 'Where the arms start')");
    reg.add_bool(keys::speed_disk_stream_anchor, true,
                 "compute a drive's read-stream media position from a sector moved forward as "
                 "the stream progresses, not from the stream's first sector (long streams are "
                 "not walked track by track from their start); an exact speed-up: results are "
                 "identical either way",
                 "exact: a host speed-up only; off gives the same results "
                 "(tests/disk/test_disk_stream_anchor.cpp)");
    reg.add_check([](const config::Config &cfg) -> std::string {
        double sectors = static_cast<double>(cfg.get_int(keys::disk_cylinders)) *
                         static_cast<double>(cfg.get_int(keys::disk_heads)) *
                         static_cast<double>(cfg.get_int(keys::disk_sectors_per_track));
        if (sectors > 4294967295.0) {
            return "disk.cylinders * disk.heads * disk.sectors_per_track exceeds 2^32 sectors "
                   "(the READ(10) address range)";
        }
        long long segment_kb =
            cfg.get_int(keys::disk_cache_kb) / cfg.get_int(keys::disk_cache_segments);
        if (segment_kb < 1) {
            return "disk.cache_kb / disk.cache_segments must be at least 1 KB";
        }
        if (cfg.get_int(keys::disk_read_fence_kb) > segment_kb) {
            return "disk.read_fence_kb = " + std::to_string(cfg.get_int(keys::disk_read_fence_kb)) +
                   " exceeds a cache segment (disk.cache_kb / disk.cache_segments = " +
                   std::to_string(segment_kb) + " KB): a READ would never reconnect";
        }
        if (cfg.get_int(keys::disk_start_cylinder) >= cfg.get_int(keys::disk_cylinders)) {
            return "disk.start_cylinder = " +
                   std::to_string(cfg.get_int(keys::disk_start_cylinder)) +
                   " is not a cylinder of the drive (disk.cylinders = " +
                   std::to_string(cfg.get_int(keys::disk_cylinders)) + ")";
        }
        if (cfg.get_int(keys::disk_write_fence_kb) > cfg.get_int(keys::disk_cache_kb)) {
            return "disk.write_fence_kb = " +
                   std::to_string(cfg.get_int(keys::disk_write_fence_kb)) +
                   " exceeds disk.cache_kb = " + std::to_string(cfg.get_int(keys::disk_cache_kb));
        }
        return "";
    });
}

DiskParams DiskParams::from(const config::Config &cfg) {
    DiskParams p;
    p.cylinders = static_cast<uint32_t>(cfg.get_int(keys::disk_cylinders));
    p.heads = static_cast<uint32_t>(cfg.get_int(keys::disk_heads));
    p.sectors_per_track = static_cast<uint32_t>(cfg.get_int(keys::disk_sectors_per_track));
    p.sector_bytes = static_cast<uint32_t>(cfg.get_int(keys::disk_sector_bytes));
    p.rpm = cfg.get_real(keys::disk_rpm);
    p.seek_short_base_ms = cfg.get_real(keys::disk_seek_short_base_ms);
    p.seek_short_sqrt_ms = cfg.get_real(keys::disk_seek_short_sqrt_ms);
    p.seek_long_from_cyl = static_cast<uint32_t>(cfg.get_int(keys::disk_seek_long_from_cylinders));
    p.seek_long_base_ms = cfg.get_real(keys::disk_seek_long_base_ms);
    p.seek_long_per_cyl_ms = cfg.get_real(keys::disk_seek_long_per_cylinder_ms);
    p.head_switch_ms = cfg.get_real(keys::disk_head_switch_ms);
    p.track_skew = static_cast<uint32_t>(cfg.get_int(keys::disk_track_skew_sectors));
    p.cylinder_skew = static_cast<uint32_t>(cfg.get_int(keys::disk_cylinder_skew_sectors));
    p.controller_overhead_ms = cfg.get_real(keys::disk_controller_overhead_ms);
    p.cache_bytes = static_cast<uint32_t>(cfg.get_int(keys::disk_cache_kb) * 1024);
    p.cache_segments = static_cast<uint32_t>(cfg.get_int(keys::disk_cache_segments));
    p.readahead = cfg.get_bool(keys::disk_readahead);
    p.cache_keeps_only_ahead = cfg.get_string(keys::disk_cache_keep) == "ahead";
    p.readahead_stop_on_any_command = cfg.get_string(keys::disk_readahead_stop) == "command";
    p.readahead_after_hit = cfg.get_bool(keys::disk_readahead_after_hit);
    p.immediate_report = cfg.get_string(keys::disk_write_report) == "immediate";
    p.write_behind_bytes = static_cast<uint64_t>(cfg.get_int(keys::disk_write_behind_kb)) * 1024u;
    p.read_fence_bytes = static_cast<uint32_t>(cfg.get_int(keys::disk_read_fence_kb) * 1024);
    p.write_fence_bytes = static_cast<uint32_t>(cfg.get_int(keys::disk_write_fence_kb) * 1024);
    p.start_cylinder = static_cast<uint32_t>(cfg.get_int(keys::disk_start_cylinder));
    p.stream_anchor = cfg.get_bool(keys::speed_disk_stream_anchor);
    return p;
}

} // namespace starfish::storage
