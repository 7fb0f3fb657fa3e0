#include "sim/workload/transfer_check.h"

#include "hw/data_pattern.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace starfish::sim {

using nlohmann::json;

json TransferCheckResult::to_json() const {
    json j{{"verified", verified}, {"checked_bytes", checked_bytes}, {"bad_bytes", bad_bytes}};
    if (!first_error.empty()) {
        j["first_error"] = first_error;
    }
    return j;
}

TransferCheck::TransferCheck(const fw_pattern_t &pattern, const fw_layout_t &layout,
                             const std::vector<std::vector<uint32_t>> &tables,
                             DiskNumbering numbering, uint64_t data_seed)
    : pattern_(pattern), layout_(layout), tables_(tables), numbering_(numbering),
      data_seed_(data_seed) {}

uint64_t TransferCheck::block_bytes(uint64_t block) const {
    uint64_t bb = layout_.params.block_bytes;
    uint64_t start = block * bb;
    return std::min(bb, pattern_.file_bytes - start);
}

fw_block_location_t TransferCheck::locate(uint64_t block) const {
    std::vector<const uint32_t *> ptrs(tables_.size());
    for (size_t d = 0; d < tables_.size(); ++d) {
        ptrs[d] = tables_[d].empty() ? nullptr : tables_[d].data();
    }
    return fw_layout_locate(&layout_, tables_.empty() ? nullptr : ptrs.data(), block);
}

void TransferCheck::original_block(uint64_t block, std::vector<uint8_t> &out) const {
    uint64_t n = block_bytes(block);
    out.resize(n);
    fw_block_location_t loc = locate(block);
    uint32_t disk = numbering_.global_id(loc.disk);
    uint8_t sector[HW_SECTOR_BYTES];
    for (uint64_t off = 0; off < n; off += HW_SECTOR_BYTES) {
        hw_disk_fill_sector(disk, loc.lba + static_cast<uint32_t>(off / HW_SECTOR_BYTES), sector);
        std::memcpy(out.data() + off, sector, std::min<uint64_t>(HW_SECTOR_BYTES, n - off));
    }
}

void TransferCheck::written_block(uint64_t block, std::vector<uint8_t> &out) const {
    uint64_t n = block_bytes(block);
    out.resize(n);
    uint64_t base = block * layout_.params.block_bytes;
    for (uint64_t i = 0; i < n; ++i) {
        out[i] = hw_file_byte(data_seed_, base + i);
    }
}

namespace {
// Counts differing bytes; records the first one.
uint64_t compare(const uint8_t *expected, const uint8_t *found, uint64_t n, uint64_t *first) {
    if (std::memcmp(expected, found, n) == 0) {
        return 0;
    }
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (expected[i] != found[i]) {
            if (bad == 0) {
                *first = i;
            }
            ++bad;
        }
    }
    return bad;
}

std::string hex(uint8_t v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", v);
    return buf;
}
} // namespace

TransferCheckResult TransferCheck::check_read(const CpBufferReader &cp_buffer) const {
    TransferCheckResult r;
    std::vector<uint8_t> block;
    uint64_t bb = layout_.params.block_bytes;
    for (uint64_t b = 0; b < file_blocks(); ++b) {
        original_block(b, block);
        fw_pattern_piece_iter_t it;
        fw_pattern_piece_t piece;
        fw_pattern_pieces_begin(&it, &pattern_, b * bb, block.size());
        while (fw_pattern_pieces_next(&it, &piece)) {
            const uint8_t *expected = block.data() + (piece.file_offset - b * bb);
            const uint8_t *found = cp_buffer(piece.cp, piece.cp_offset, piece.length);
            r.checked_bytes += piece.length;
            if (!found) {
                r.bad_bytes += piece.length;
                if (r.first_error.empty()) {
                    std::ostringstream os;
                    os << "CP " << piece.cp << " has no buffer bytes [" << piece.cp_offset << ", "
                       << piece.cp_offset + piece.length << ") for file offset "
                       << piece.file_offset;
                    r.first_error = os.str();
                }
                continue;
            }
            uint64_t first = 0;
            uint64_t bad = compare(expected, found, piece.length, &first);
            if (bad && r.first_error.empty()) {
                fw_block_location_t loc = locate(b);
                std::ostringstream os;
                os << "CP " << piece.cp << " buffer offset " << piece.cp_offset + first
                   << " (file offset " << piece.file_offset + first << ", file block " << b
                   << " on disk " << numbering_.global_id(loc.disk) << " LBA " << loc.lba
                   << "): expected " << hex(expected[first]) << ", found " << hex(found[first]);
                r.first_error = os.str();
            }
            r.bad_bytes += bad;
        }
    }
    r.verified = r.bad_bytes == 0;
    return r;
}

TransferCheckResult TransferCheck::check_write(const DiskReader &disk) const {
    TransferCheckResult r;
    std::vector<uint8_t> expected, found;
    uint32_t spb = layout_.sectors_per_block;
    for (uint64_t b = 0; b < file_blocks(); ++b) {
        written_block(b, expected);
        fw_block_location_t loc = locate(b);
        uint32_t id = numbering_.global_id(loc.disk);
        found.assign(static_cast<size_t>(spb) * HW_SECTOR_BYTES, 0);
        disk(id, loc.lba, spb, found.data());
        r.checked_bytes += expected.size();
        uint64_t first = 0;
        uint64_t bad = compare(expected.data(), found.data(), expected.size(), &first);
        if (bad && r.first_error.empty()) {
            std::ostringstream os;
            os << "file offset " << b * layout_.params.block_bytes + first << " (file block " << b
               << ", disk " << id << " LBA " << loc.lba + first / HW_SECTOR_BYTES << " byte "
               << first % HW_SECTOR_BYTES << "): expected " << hex(expected[first]) << ", found "
               << hex(found[first]);
            r.first_error = os.str();
        }
        r.bad_bytes += bad;
    }
    r.verified = r.bad_bytes == 0;
    return r;
}

void TransferCheck::for_each_chunk(
    uint32_t cp, const std::function<void(uint64_t, uint64_t, uint64_t)> &fn) const {
    fw_pattern_chunk_iter_t it;
    fw_pattern_chunk_t c;
    fw_pattern_chunks_begin(&it, &pattern_, cp);
    while (fw_pattern_chunks_next(&it, &c)) {
        fn(c.cp_offset, c.file_offset, c.length);
    }
}

} // namespace starfish::sim
