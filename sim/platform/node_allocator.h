#pragma once
// First-fit allocator with coalescing over a node's memory addresses: the
// bookkeeping behind hal_mem_alloc/hal_mem_free. It hands out address ranges;
// the bytes stay in NodeMemory.

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>

namespace starfish::platform {

class NodeAllocator {
public:
    // Manages [0, size). Blocks are multiples of kGranule bytes, aligned to at least it.
    static constexpr uint32_t kGranule = 8;

    explicit NodeAllocator(uint32_t size);

    // Start of a block of at least `bytes` aligned to `align` (a power of two; 0
    // means no requirement), or nothing when no free range fits.
    std::optional<uint32_t> allocate(uint32_t bytes, uint32_t align);
    // Frees the block starting at addr; false if no block starts there.
    bool release(uint32_t addr);

    uint64_t free_bytes() const { return free_bytes_; }
    size_t free_ranges() const { return free_.size(); }
    size_t allocated_blocks() const { return used_.size(); }

private:
    std::map<uint32_t, uint64_t> free_;           // start -> length, non-adjacent
    std::unordered_map<uint32_t, uint64_t> used_; // start -> length
    uint64_t free_bytes_ = 0;
};

} // namespace starfish::platform
