#pragma once
// Parameters of the HP 97560 drive model (disk.*), docs/reference.md §3 and docs/disk.md.

#include "hw/config/config.h"
#include "hw/config/key.h"
#include "hw/config/registry.h"
#include "hw/machine_keys.h"

#include <cmath>
#include <cstdint>

// The keys of the drive parameters; the geometry's are spelt in hw/machine_keys.h,
// which the firmware reads too.
namespace starfish::keys {
inline constexpr config::IntKey disk_cylinders{HW_KEY_DISK_CYLINDERS};
inline constexpr config::IntKey disk_heads{HW_KEY_DISK_HEADS};
inline constexpr config::IntKey disk_sectors_per_track{HW_KEY_DISK_SECTORS_PER_TRACK};
inline constexpr config::IntKey disk_sector_bytes{HW_KEY_DISK_SECTOR_BYTES};
inline constexpr config::RealKey disk_rpm{"disk.rpm"};
inline constexpr config::RealKey disk_seek_short_base_ms{"disk.seek_short_base_ms"};
inline constexpr config::RealKey disk_seek_short_sqrt_ms{"disk.seek_short_sqrt_ms"};
inline constexpr config::IntKey disk_seek_long_from_cylinders{"disk.seek_long_from_cylinders"};
inline constexpr config::RealKey disk_seek_long_base_ms{"disk.seek_long_base_ms"};
inline constexpr config::RealKey disk_seek_long_per_cylinder_ms{"disk.seek_long_per_cylinder_ms"};
inline constexpr config::RealKey disk_head_switch_ms{"disk.head_switch_ms"};
inline constexpr config::IntKey disk_track_skew_sectors{"disk.track_skew_sectors"};
inline constexpr config::IntKey disk_cylinder_skew_sectors{"disk.cylinder_skew_sectors"};
inline constexpr config::RealKey disk_controller_overhead_ms{"disk.controller_overhead_ms"};
inline constexpr config::IntKey disk_cache_kb{"disk.cache_kb"};
inline constexpr config::IntKey disk_cache_segments{"disk.cache_segments"};
inline constexpr config::StringKey disk_cache_keep{"disk.cache_keep"};
inline constexpr config::BoolKey disk_readahead{"disk.readahead"};
inline constexpr config::StringKey disk_readahead_stop{"disk.readahead_stop"};
inline constexpr config::BoolKey disk_readahead_after_hit{"disk.readahead_after_hit"};
inline constexpr config::StringKey disk_write_report{"disk.write_report"};
inline constexpr config::IntKey disk_write_behind_kb{"disk.write_behind_kb"};
inline constexpr config::IntKey disk_read_fence_kb{"disk.read_fence_kb"};
inline constexpr config::IntKey disk_write_fence_kb{"disk.write_fence_kb"};
inline constexpr config::IntKey disk_start_cylinder{"disk.start_cylinder"};
inline constexpr config::BoolKey speed_disk_stream_anchor{"speed.disk_stream_anchor"};
} // namespace starfish::keys

namespace starfish::storage {

// Drive parameters (disk.*).
struct DiskParams {
    uint32_t cylinders = 0;
    uint32_t heads = 0;
    uint32_t sectors_per_track = 0;
    uint32_t sector_bytes = 0;
    double rpm = 0;
    double seek_short_base_ms = 0; // seek(d) = base + sqrt_coef * sqrt(d), 0 < d < long_from
    double seek_short_sqrt_ms = 0;
    double seek_long_base_ms = 0; // seek(d) = base + per_cyl * d, d >= long_from
    double seek_long_per_cyl_ms = 0;
    uint32_t seek_long_from_cyl = 0;
    double head_switch_ms = 0;
    uint32_t track_skew = 0;    // sectors
    uint32_t cylinder_skew = 0; // sectors
    double controller_overhead_ms = 0;
    uint32_t cache_bytes = 0;
    uint32_t cache_segments = 0;
    bool cache_keeps_only_ahead = false; // disk.cache_keep = ahead
    bool readahead = true;
    bool readahead_stop_on_any_command = false; // disk.readahead_stop = command
    bool readahead_after_hit = true;            // disk.readahead_after_hit
    bool immediate_report = true;               // disk.write_report = immediate
    uint64_t write_behind_bytes = 0;            // disk.write_behind_kb
    uint32_t read_fence_bytes = 0;
    uint32_t write_fence_bytes = 0;
    uint32_t start_cylinder = 0; // where the arm rests when a trial starts (head 0)
    // Host speed-up (speed.disk_stream_anchor): the read stream's movable anchor
    // (stream_anchor.h). Exact: off gives the same results, only slower.
    bool stream_anchor = true;

    static DiskParams from(const config::Config &cfg);
};

void declare_disk_params(config::Registry &registry);

inline uint64_t ms_to_ps(double ms) {
    return static_cast<uint64_t>(std::llround(ms * 1e9));
}

} // namespace starfish::storage
