#include "tlm_models/node/node_memory.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace starfish::node {

NodeMemory::NodeMemory(sc_core::sc_module_name name, uint32_t size_bytes)
    : sc_core::sc_module(name), socket("socket"), size_(size_bytes) {
    if (size_bytes > 0) {
        void *p = ::mmap(nullptr, size_bytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            throw std::runtime_error(std::string(this->name()) + ": cannot map " +
                                     std::to_string(size_bytes) +
                                     " bytes of node memory: " + std::strerror(errno));
        }
        bytes_ = static_cast<uint8_t *>(p);
    }
    socket.register_b_transport(this, &NodeMemory::b_transport);
    socket.register_get_direct_mem_ptr(this, &NodeMemory::get_direct_mem_ptr);
    socket.register_transport_dbg(this, &NodeMemory::transport_dbg);
}

NodeMemory::~NodeMemory() {
    if (bytes_ != nullptr) {
        ::munmap(bytes_, size_);
    }
}

uint8_t *NodeMemory::span(uint32_t addr, uint32_t len) {
    return contains(addr, len) ? bytes_ + addr : nullptr;
}

const uint8_t *NodeMemory::span(uint32_t addr, uint32_t len) const {
    return contains(addr, len) ? bytes_ + addr : nullptr;
}

bool NodeMemory::owns(const void *p) const {
    auto *b = static_cast<const uint8_t *>(p);
    return bytes_ != nullptr && b >= bytes_ && b <= bytes_ + size_;
}

uint32_t NodeMemory::address_of(const void *p) const {
    if (!owns(p)) {
        throw std::out_of_range(std::string(name()) + ": pointer is not inside node memory");
    }
    return static_cast<uint32_t>(static_cast<const uint8_t *>(p) - bytes_);
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
    uint8_t *mem = bytes_ + addr;
    if (trans.is_read()) {
        std::memcpy(trans.get_data_ptr(), mem, len);
    } else if (trans.is_write()) {
        std::memcpy(mem, trans.get_data_ptr(), len);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return len;
}

bool NodeMemory::get_direct_mem_ptr(tlm::tlm_generic_payload &, tlm::tlm_dmi &dmi) {
    if (bytes_ == nullptr) {
        return false;
    }
    dmi.set_dmi_ptr(bytes_);
    dmi.set_start_address(0);
    dmi.set_end_address(size_ - 1);
    dmi.allow_read_write();
    dmi.set_read_latency(sc_core::SC_ZERO_TIME);
    dmi.set_write_latency(sc_core::SC_ZERO_TIME);
    return true;
}

} // namespace starfish::node
