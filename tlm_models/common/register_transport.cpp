#include "tlm_models/common/register_transport.h"

#include <cstring>

namespace starfish::common {

void transport_registers(RegisterBlock &block, tlm::tlm_generic_payload &trans, uint64_t offset) {
    if (!block.check_access(offset, trans.get_data_length(), trans.get_byte_enable_ptr() != nullptr,
                            trans.get_streaming_width())) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    const uint32_t off = static_cast<uint32_t>(offset);
    uint32_t value = 0;
    bool ok = true;
    if (trans.is_read()) {
        ok = block.read(off, value);
        if (ok) {
            std::memcpy(trans.get_data_ptr(), &value, 4);
        }
    } else if (trans.is_write()) {
        std::memcpy(&value, trans.get_data_ptr(), 4);
        ok = block.write(off, value);
    }
    if (ok) {
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
    } else {
        trans.set_response_status(block.find(off) == nullptr ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                                             : tlm::TLM_COMMAND_ERROR_RESPONSE);
    }
}

} // namespace starfish::common
