/* Deterministic data contents, so every byte moved through the simulated machine
 * can be checked.
 *
 * hw_disk_word(): contents of a never-written disk sector, a function of
 *   (disk id, LBA, 32-bit word index within the sector). Disk ids are global
 *   (IOP index * disks_per_iop + local disk index).
 * hw_file_word(): contents a writing program puts into the file, a function of
 *   (seed, 32-bit word index within the file).
 * Both are little-endian 32-bit words; byte i of a word is (w >> 8*i) & 0xff.
 */
#ifndef STARFISH_HW_DATA_PATTERN_H
#define STARFISH_HW_DATA_PATTERN_H

#include <stdint.h>

#define HW_SECTOR_BYTES 512u

static inline uint32_t hw_data_mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (uint32_t)x;
}

static inline uint32_t hw_disk_word(uint32_t disk, uint32_t lba, uint32_t word) {
    return hw_data_mix(((uint64_t)disk << 48) ^ ((uint64_t)lba << 7) ^ (uint64_t)word ^
                       0x5a17d15c00000000ull);
}

static inline uint32_t hw_file_word(uint64_t seed, uint64_t word) {
    return hw_data_mix((seed * 0x9e3779b97f4a7c15ull) ^ (word + 0x243f6a8885a308d3ull));
}

static inline uint8_t hw_disk_byte(uint32_t disk, uint32_t lba, uint32_t byte_in_sector) {
    return (uint8_t)(hw_disk_word(disk, lba, byte_in_sector / 4u) >> (8u * (byte_in_sector % 4u)));
}

static inline uint8_t hw_file_byte(uint64_t seed, uint64_t offset) {
    return (uint8_t)(hw_file_word(seed, offset / 4u) >> (8u * (unsigned)(offset % 4u)));
}

/* Fills a sector buffer with the never-written contents of (disk, lba). */
static inline void hw_disk_fill_sector(uint32_t disk, uint32_t lba, uint8_t *out) {
    for (uint32_t w = 0; w < HW_SECTOR_BYTES / 4u; ++w) {
        uint32_t v = hw_disk_word(disk, lba, w);
        out[4 * w + 0] = (uint8_t)v;
        out[4 * w + 1] = (uint8_t)(v >> 8);
        out[4 * w + 2] = (uint8_t)(v >> 16);
        out[4 * w + 3] = (uint8_t)(v >> 24);
    }
}

#endif /* STARFISH_HW_DATA_PATTERN_H */
