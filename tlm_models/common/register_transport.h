#pragma once
// Serves a TLM-2.0 access to a device's registers with its RegisterBlock.

#include "tlm_models/common/register_block.h"

#include <tlm>

namespace starfish::common {

// One b_transport on the register window: the access must be one aligned 32-bit
// word. Sets TLM_OK_RESPONSE, or for a violation (already reported to the
// block's handler) TLM_BURST_ERROR_RESPONSE (shape), TLM_ADDRESS_ERROR_RESPONSE
// (no register) or TLM_COMMAND_ERROR_RESPONSE (read-only / write-only). A
// programming error found by a handler is the device's to answer. `offset` is
// the address inside the window.
void transport_registers(RegisterBlock &block, tlm::tlm_generic_payload &trans, uint64_t offset);

} // namespace starfish::common
