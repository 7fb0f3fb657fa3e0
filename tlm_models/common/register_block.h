#pragma once
// The register decoding every device model shares, built from a device's register
// table (hw/reg_table.h): which offsets are registers, which may be read or
// written, and what happens on an access. Each register holds a value (its reset
// value at first) that reads return and writes replace, unless the device gives
// the register a read or write handler (VCML's reg<T> with on_read()/on_write()).
//
// Violations — an unknown offset, a write to a read-only register, a read of a
// write-only one, an access that is not 32 bits wide and aligned — are reported
// through the one callback the device supplies, and the access does nothing else.
//
// No SystemC: the fake HAL of the firmware tests decodes with the same block; a
// device model serves its TLM-2.0 register socket with transport().

#include "hw/reg_table.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace starfish::common {

enum class RegisterViolation {
    BadAccess,     // not a 32-bit aligned access inside the window
    Undefined,     // no register at that offset
    WriteReadOnly, // write to a read-only register
    ReadWriteOnly, // read of a write-only register (unless they read as 0)
};

class RegisterBlock {
public:
    // index: the element of a register array (0 for a single register).
    using ReadHandler = std::function<uint32_t(unsigned index)>;
    using WriteHandler = std::function<void(uint32_t value, unsigned index)>;
    // what: a sentence for the error message, e.g. "write to a read-only register".
    using ViolationHandler =
        std::function<void(RegisterViolation kind, uint32_t offset, const std::string &what)>;

    // The table must outlive the block. window_bytes: the device's register window.
    RegisterBlock(const hw_reg_info_t *table, size_t count, uint32_t window_bytes);
    template <size_t N>
    RegisterBlock(const hw_reg_info_t (&table)[N], uint32_t window_bytes)
        : RegisterBlock(table, N, window_bytes) {}

    // Handlers by the offset of a register (of an array's first element).
    void on_read(uint32_t offset, ReadHandler handler);
    void on_write(uint32_t offset, WriteHandler handler);
    void on_violation(ViolationHandler handler) { violation_ = std::move(handler); }
    // Reads of write-only registers return 0 instead of being violations.
    void write_only_reads_zero(bool yes) { write_only_reads_zero_ = yes; }

    // The value a register without handlers holds (per element of an array).
    uint32_t value(uint32_t offset) const;
    void set_value(uint32_t offset, uint32_t value);
    // A reference to it, valid as long as the block.
    uint32_t &storage(uint32_t offset);

    // One 32-bit access at a byte offset in the window. False when it was a
    // violation (reported; nothing else happened).
    bool read(uint32_t offset, uint32_t &value);
    bool write(uint32_t offset, uint32_t value);
    // Checks the shape of a bus access (bytes wide, byte enables, streaming width)
    // at `offset`; reports BadAccess and returns false if it is not one register.
    bool check_access(uint64_t offset, unsigned bytes, bool byte_enables, unsigned streaming_width);

    // Serves one TLM-2.0 b_transport on the register window; `offset` is the
    // address inside the window. The access must be one aligned 32-bit word. Sets
    // TLM_OK_RESPONSE, or for a violation (already reported to the handler)
    // TLM_BURST_ERROR_RESPONSE (shape), TLM_ADDRESS_ERROR_RESPONSE (no register) or
    // TLM_COMMAND_ERROR_RESPONSE (read-only / write-only). A programming error found
    // by a handler is the device's to answer. Payload is tlm::tlm_generic_payload:
    // a template, so that the block itself needs no SystemC.
    template <class Payload> void transport(Payload &trans, uint64_t offset);

    // "TX_PUSH", "QFREE(3)", or "" for an offset that is no register.
    std::string name(uint32_t offset) const;
    // The table row of the register at `offset` (nullptr if none); *index gets the
    // array element.
    const hw_reg_info_t *find(uint32_t offset, unsigned *index = nullptr) const;
    uint32_t window_bytes() const { return window_bytes_; }

private:
    static constexpr size_t kNoRegister = ~size_t(0);
    struct Slot {
        size_t row = kNoRegister; // in the table
        unsigned index = 0;       // array element
        uint32_t value = 0;
    };
    struct Handlers {
        ReadHandler read;
        WriteHandler write;
    };

    Slot *slot(uint32_t offset);
    const Slot *slot(uint32_t offset) const;
    Slot &register_slot(uint32_t offset, const char *what);
    void report(RegisterViolation kind, uint32_t offset, const std::string &what);

    const uint32_t window_bytes_;
    std::vector<Slot> slots_;        // one per word of the window
    std::vector<Handlers> handlers_; // per table row
    const hw_reg_info_t *table_;
    ViolationHandler violation_;
    bool write_only_reads_zero_ = false;
};

template <class Payload> void RegisterBlock::transport(Payload &trans, uint64_t offset) {
    using Status = decltype(trans.get_response_status()); // tlm::tlm_response_status
    if (!check_access(offset, trans.get_data_length(), trans.get_byte_enable_ptr() != nullptr,
                      trans.get_streaming_width())) {
        trans.set_response_status(Status::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    const uint32_t off = static_cast<uint32_t>(offset);
    uint32_t value = 0;
    bool ok = true;
    if (trans.is_read()) {
        ok = read(off, value);
        if (ok) {
            std::memcpy(trans.get_data_ptr(), &value, 4);
        }
    } else if (trans.is_write()) {
        std::memcpy(&value, trans.get_data_ptr(), 4);
        ok = write(off, value);
    }
    if (ok) {
        trans.set_response_status(Status::TLM_OK_RESPONSE);
    } else {
        trans.set_response_status(find(off) == nullptr ? Status::TLM_ADDRESS_ERROR_RESPONSE
                                                       : Status::TLM_COMMAND_ERROR_RESPONSE);
    }
}

} // namespace starfish::common
