#pragma once
// The drive's media contents: the bytes written to it, kept sparse in 8 KB pages;
// never-written sectors read as hw_disk_fill_sector(global disk id, lba). No time:
// the drive decides when data reaches the media, this only holds it.

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace starfish::storage {

class MediaStore {
public:
    // Sectors [lba, lba + count) into `out`; `disk_id` names the fill pattern of
    // sectors never written.
    void read(uint32_t lba, uint32_t count, uint8_t *out, uint32_t disk_id) const;
    void write(uint32_t lba, uint32_t count, const uint8_t *in);
    uint64_t written_sectors() const; // distinct sectors ever written

private:
    static constexpr uint32_t kPageSectors = 16;
    struct Page {
        uint16_t written = 0; // bit i: sector i of the page holds host data
        std::array<uint8_t, 16 * 512> bytes;
    };
    std::unordered_map<uint32_t, std::unique_ptr<Page>> pages_;
};

} // namespace starfish::storage
