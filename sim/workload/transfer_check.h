#pragma once
// Byte-exact verification of a collective file transfer (docs/developing.md: real bytes
// move and every run checks them).
//
// Reads: the file's contents are the never-written contents of the disk sectors
// its blocks occupy (hw_disk_word), so CP k's buffer must hold, at each chunk's
// CP offset, those bytes. Writes: every CP filled its buffer with the file's
// contents hw_file_byte(data_seed, file offset); afterwards each file block on disk
// must hold exactly those bytes. The check sees memories and disks only through
// the accessors below, so it serves the simulated machine and the unit tests alike.

#include "fw/layout.h"
#include "fw/pattern.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace starfish::sim {

// Which physical disk holds the file's disk index d (file block b is on d = b mod D):
// round-robin over IOPs first, so consecutive blocks go to different IOPs and buses.
struct DiskNumbering {
    uint32_t iop_count = 1;
    uint32_t disks_per_iop = 1;

    uint32_t disk_count() const { return iop_count * disks_per_iop; }
    uint32_t iop_of(uint32_t file_disk) const { return file_disk % iop_count; }
    uint32_t local_of(uint32_t file_disk) const { return file_disk / iop_count; }
    // Global disk id (hw/data_pattern.h): IOP index * disks_per_iop + local index.
    uint32_t global_id(uint32_t file_disk) const {
        return iop_of(file_disk) * disks_per_iop + local_of(file_disk);
    }
};

struct TransferCheckResult {
    bool verified = true;
    uint64_t checked_bytes = 0;
    uint64_t bad_bytes = 0;
    std::string first_error; // where the first wrong byte is, expected and found

    nlohmann::json to_json() const;
};

// A CP's buffer: pointer to [offset, offset + len) of CP cp's user buffer, or nullptr
// if the CP has no such range (a wrong buffer size is itself an error).
using CpBufferReader = std::function<const uint8_t *(uint32_t cp, uint64_t offset, uint64_t len)>;
// Reads `count` sectors of global disk `disk` from `lba` into out (no simulated time).
using DiskReader = std::function<void(uint32_t disk, uint32_t lba, uint32_t count, uint8_t *out)>;

class TransferCheck {
public:
    // tables[d]: the random-layout table of file disk d (unused for contiguous).
    TransferCheck(const fw_pattern_t &pattern, const fw_layout_t &layout,
                  const std::vector<std::vector<uint32_t>> &tables, DiskNumbering numbering,
                  uint64_t data_seed);

    // Bytes the file holds before a read, at file block `block` (never-written disk
    // contents where the layout puts it); out gets the block's file bytes.
    void original_block(uint64_t block, std::vector<uint8_t> &out) const;
    // What a writing CP puts into the file.
    void written_block(uint64_t block, std::vector<uint8_t> &out) const;

    // After a read: every CP's buffer against the file.
    TransferCheckResult check_read(const CpBufferReader &cp_buffer) const;
    // After a write: every file block on disk against what the CPs wrote.
    TransferCheckResult check_write(const DiskReader &disk) const;

    // Fills a CP's buffer (for writes) with its part of the file: calls
    // fill(cp_offset, file_offset, length) once per chunk in memory order.
    void for_each_chunk(uint32_t cp,
                        const std::function<void(uint64_t cp_offset, uint64_t file_offset,
                                                 uint64_t length)> &fn) const;

    uint64_t data_seed() const { return data_seed_; }
    uint64_t file_blocks() const { return layout_.params.file_blocks; }
    uint64_t block_bytes(uint64_t block) const; // the last block may be partial

private:
    fw_block_location_t locate(uint64_t block) const;

    fw_pattern_t pattern_;
    fw_layout_t layout_;
    std::vector<std::vector<uint32_t>> tables_;
    DiskNumbering numbering_;
    uint64_t data_seed_;
};

} // namespace starfish::sim
