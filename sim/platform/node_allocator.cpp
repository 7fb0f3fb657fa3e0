#include "sim/platform/node_allocator.h"

#include <iterator>

namespace starfish::platform {

NodeAllocator::NodeAllocator(uint32_t size) {
    uint64_t usable = size / kGranule * kGranule;
    if (usable > 0) {
        free_[0] = usable;
        free_bytes_ = usable;
    }
}

std::optional<uint32_t> NodeAllocator::allocate(uint32_t bytes, uint32_t align) {
    uint64_t length = (uint64_t(bytes == 0 ? 1 : bytes) + kGranule - 1) / kGranule * kGranule;
    uint64_t alignment = align < kGranule ? kGranule : align;
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        uint64_t start = it->first;
        uint64_t end = start + it->second;
        uint64_t aligned = (start + alignment - 1) / alignment * alignment;
        if (aligned + length > end) {
            continue;
        }
        // Split [start, end) into a leading free piece, the block, a trailing free piece.
        free_.erase(it);
        if (aligned > start) {
            free_[static_cast<uint32_t>(start)] = aligned - start;
        }
        if (aligned + length < end) {
            free_[static_cast<uint32_t>(aligned + length)] = end - aligned - length;
        }
        used_[static_cast<uint32_t>(aligned)] = length;
        free_bytes_ -= length;
        return static_cast<uint32_t>(aligned);
    }
    return std::nullopt;
}

bool NodeAllocator::release(uint32_t addr) {
    auto used = used_.find(addr);
    if (used == used_.end()) {
        return false;
    }
    uint64_t start = addr;
    uint64_t length = used->second;
    used_.erase(used);
    free_bytes_ += length;
    auto next = free_.lower_bound(addr);
    if (next != free_.end() && start + length == next->first) {
        length += next->second;
        next = free_.erase(next);
    }
    if (next != free_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == start) {
            prev->second += length;
            return true;
        }
    }
    free_[addr] = length;
    return true;
}

} // namespace starfish::platform
