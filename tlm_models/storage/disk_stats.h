#pragma once
// What the HP 97560 drive counts (DiskStats) and the record of one media access
// (MediaOp, for tests and debugging), shared by the drive and its parts.

#include <nlohmann/json.hpp>

#include <cstdint>

namespace starfish::storage {

struct DiskStats {
    uint64_t requests = 0; // commands completed
    uint64_t reads = 0;
    uint64_t writes = 0;
    uint64_t prefetches = 0;
    uint64_t other_commands = 0; // TEST UNIT READY, READ CAPACITY, SYNCHRONIZE CACHE
    uint64_t check_conditions = 0;
    uint64_t bytes_read = 0;         // data sent to the host
    uint64_t bytes_written = 0;      // data received from the host
    uint64_t seeks = 0;              // positionings that moved the arm
    uint64_t movements = 0;          // positionings with a seek or a rotational wait
    uint64_t cache_hits = 0;         // reads/prefetches that needed no positioning
    uint64_t media_sectors_read = 0; // including read-ahead
    uint64_t media_sectors_written = 0;
    uint64_t busy_ps = 0; // mechanism: seeking, rotating and transferring
    // Seeking, switching heads and waiting for the first sector, summed over the
    // accesses that needed it (a statistic only: read-ahead and transfers excluded).
    uint64_t positioning_ps = 0;
    // Command acceptance to status, summed over completed READs and WRITEs: the
    // drive's response time as its host sees it (controller overhead, bus phases,
    // positioning, media, waits behind its own write-behind).
    uint64_t read_response_ps = 0;
    uint64_t write_response_ps = 0;
    uint64_t reads_completed = 0;
    uint64_t writes_completed = 0;
    nlohmann::json to_json() const;
};

// One media access, for tests and debugging (Hp97560Disk::set_media_log).
struct MediaOp {
    bool write;
    uint32_t lba;
    uint32_t sectors;
    uint64_t start_ps; // positioning start
    uint64_t data_ps;  // first sector under the head
    uint64_t end_ps;   // last sector done (for a read stream: when it stopped or will stop)
};

} // namespace starfish::storage
