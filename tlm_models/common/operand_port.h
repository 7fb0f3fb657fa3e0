#pragma once
// A device's direct entry for posted operand writes (docs/node.md, "Posted
// register writes"). A posted register holds an operand that the device reads only
// at a later access from the CPU; writing it has no side effect, no delay and no
// response but "ok" or a register error. Such a write needs nothing of a TLM
// transaction, so a device may offer this port and the node applies posted writes
// through it (a device without one gets them through its target socket).

#include <cstdint>

namespace starfish::common {

class OperandPort {
public:
    virtual ~OperandPort() = default;
    // Writes the register at `offset` in the device's window; false if the device
    // reported a register error (as the TLM write would have).
    virtual bool write_operand(uint32_t offset, uint32_t value) = 0;
};

} // namespace starfish::common
