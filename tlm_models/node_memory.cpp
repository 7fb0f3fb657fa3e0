#include "tlm_models/node_memory.h"

#include <cstring>
#include <stdexcept>

namespace starfish::tlm_models {

NodeMemory::NodeMemory(sc_core::sc_module_name name, uint32_t size_bytes)
    : sc_core::sc_module(name), socket("socket"), bytes_(size_bytes, 0) {
    socket.register_b_transport(this, &NodeMemory::b_transport);
    socket.register_get_direct_mem_ptr(this, &NodeMemory::get_direct_mem_ptr);
    socket.register_transport_dbg(this, &NodeMemory::transport_dbg);
}

uint8_t *NodeMemory::span(uint32_t addr, uint32_t len) {
    return contains(addr, len) ? bytes_.data() + addr : nullptr;
}

const uint8_t *NodeMemory::span(uint32_t addr, uint32_t len) const {
    return contains(addr, len) ? bytes_.data() + addr : nullptr;
}

uint32_t NodeMemory::address_of(const void *p) const {
    auto *b = static_cast<const uint8_t *>(p);
    if (b < bytes_.data() || b > bytes_.data() + bytes_.size()) {
        throw std::out_of_range(std::string(name()) + ": pointer is not inside node memory");
    }
    return static_cast<uint32_t>(b - bytes_.data());
}

void NodeMemory::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &) {
    transport_dbg(trans);
    if (trans.get_response_status() == tlm::TLM_OK_RESPONSE) {
        trans.set_dmi_allowed(true);
    }
}

unsigned NodeMemory::transport_dbg(tlm::tlm_generic_payload &trans) {
    uint64_t addr = trans.get_address();
    unsigned len = trans.get_data_length();
    if (addr > 0xffffffffull || !contains(static_cast<uint32_t>(addr), len) ||
        trans.get_byte_enable_ptr() != nullptr) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return 0;
    }
    uint8_t *mem = bytes_.data() + addr;
    if (trans.is_read()) {
        std::memcpy(trans.get_data_ptr(), mem, len);
    } else if (trans.is_write()) {
        std::memcpy(mem, trans.get_data_ptr(), len);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return len;
}

bool NodeMemory::get_direct_mem_ptr(tlm::tlm_generic_payload &, tlm::tlm_dmi &dmi) {
    dmi.set_dmi_ptr(bytes_.data());
    dmi.set_start_address(0);
    dmi.set_end_address(bytes_.size() - 1);
    dmi.allow_read_write();
    dmi.set_read_latency(sc_core::SC_ZERO_TIME);
    dmi.set_write_latency(sc_core::SC_ZERO_TIME);
    return true;
}

} // namespace starfish::tlm_models
