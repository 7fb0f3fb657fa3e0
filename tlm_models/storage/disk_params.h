#pragma once
// Parameters of the HP 97560 drive model (disk.*), docs/reference.md §3 and docs/disk.md.

#include "hw/config/config.h"
#include "hw/config/registry.h"

#include <cmath>
#include <cstdint>

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
    bool immediate_report = true;               // disk.write_report = immediate
    uint64_t write_behind_bytes = 0;            // disk.write_behind_kb
    uint32_t read_fence_bytes = 0;
    uint32_t write_fence_bytes = 0;
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
