#include "tlm_models/storage/media_store.h"

#include "hw/data_pattern.h"

#include <cstring>

namespace starfish::storage {

void MediaStore::read(uint32_t lba, uint32_t count, uint8_t *out, uint32_t disk_id) const {
    for (uint32_t i = 0; i < count; ++i, out += HW_SECTOR_BYTES) {
        uint32_t s = lba + i;
        auto it = pages_.find(s / kPageSectors);
        uint32_t k = s % kPageSectors;
        if (it != pages_.end() && (it->second->written >> k & 1u)) {
            std::memcpy(out, it->second->bytes.data() + k * HW_SECTOR_BYTES, HW_SECTOR_BYTES);
        } else {
            hw_disk_fill_sector(disk_id, s, out);
        }
    }
}

void MediaStore::write(uint32_t lba, uint32_t count, const uint8_t *in) {
    for (uint32_t i = 0; i < count; ++i, in += HW_SECTOR_BYTES) {
        uint32_t s = lba + i;
        auto &page = pages_[s / kPageSectors];
        if (!page) {
            page = std::make_unique<Page>();
        }
        uint32_t k = s % kPageSectors;
        std::memcpy(page->bytes.data() + k * HW_SECTOR_BYTES, in, HW_SECTOR_BYTES);
        page->written = static_cast<uint16_t>(page->written | (1u << k));
    }
}

uint64_t MediaStore::written_sectors() const {
    uint64_t n = 0;
    for (const auto &[index, page] : pages_) {
        n += static_cast<uint64_t>(__builtin_popcount(page->written));
    }
    return n;
}

} // namespace starfish::storage
