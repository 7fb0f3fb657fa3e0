#include "tlm_models/common/register_block.h"

#include <cstdio>
#include <stdexcept>

namespace starfish::common {

namespace {

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

} // namespace

RegisterBlock::RegisterBlock(const hw_reg_info_t *table, size_t count, uint32_t window_bytes)
    : window_bytes_(window_bytes), slots_(window_bytes / 4), handlers_(count), table_(table) {
    for (size_t row = 0; row < count; ++row) {
        const hw_reg_info_t &r = table[row];
        const uint64_t end = uint64_t(r.offset) + 4 * uint64_t(r.count);
        if (r.offset % 4 != 0 || r.count == 0 || end > window_bytes ||
            (r.access & HW_REG_ACCESS_RW) == 0) {
            throw std::logic_error(std::string("register table: ") + r.name + " at " +
                                   hex(r.offset) + " is misplaced or has no access");
        }
        for (unsigned i = 0; i < r.count; ++i) {
            Slot &s = slots_[r.offset / 4 + i];
            if (s.row != kNoRegister) {
                throw std::logic_error(std::string("register table: ") + r.name + " overlaps " +
                                       table[s.row].name);
            }
            s.row = row;
            s.index = i;
            s.value = r.reset == HW_REG_RESET_INSTANCE ? 0 : static_cast<uint32_t>(r.reset);
        }
    }
}

RegisterBlock::Slot *RegisterBlock::slot(uint32_t offset) {
    return const_cast<Slot *>(static_cast<const RegisterBlock *>(this)->slot(offset));
}

const RegisterBlock::Slot *RegisterBlock::slot(uint32_t offset) const {
    if (offset % 4 != 0 || offset / 4 >= slots_.size() || slots_[offset / 4].row == kNoRegister) {
        return nullptr;
    }
    return &slots_[offset / 4];
}

RegisterBlock::Slot &RegisterBlock::register_slot(uint32_t offset, const char *what) {
    Slot *s = slot(offset);
    if (s == nullptr || s->index != 0) {
        throw std::logic_error(std::string("RegisterBlock::") + what + ": no register at " +
                               hex(offset));
    }
    return *s;
}

void RegisterBlock::on_read(uint32_t offset, ReadHandler handler) {
    handlers_[register_slot(offset, "on_read").row].read = std::move(handler);
}

void RegisterBlock::on_write(uint32_t offset, WriteHandler handler) {
    handlers_[register_slot(offset, "on_write").row].write = std::move(handler);
}

uint32_t RegisterBlock::value(uint32_t offset) const {
    const Slot *s = slot(offset);
    if (s == nullptr) {
        throw std::logic_error("RegisterBlock::value: no register at " + hex(offset));
    }
    return s->value;
}

void RegisterBlock::set_value(uint32_t offset, uint32_t value) {
    storage(offset) = value;
}

uint32_t &RegisterBlock::storage(uint32_t offset) {
    Slot *s = slot(offset);
    if (s == nullptr) {
        throw std::logic_error("RegisterBlock::storage: no register at " + hex(offset));
    }
    return s->value;
}

void RegisterBlock::report(RegisterViolation kind, uint32_t offset, const std::string &what) {
    if (!violation_) {
        throw std::logic_error("register " + hex(offset) + ": " + what +
                               " (the device set no violation handler)");
    }
    violation_(kind, offset, what);
}

bool RegisterBlock::check_access(uint64_t offset, unsigned bytes, bool byte_enables,
                                 unsigned streaming_width) {
    if (bytes == 4 && offset % 4 == 0 && offset < window_bytes_ && !byte_enables &&
        streaming_width >= 4) {
        return true;
    }
    report(RegisterViolation::BadAccess, static_cast<uint32_t>(offset),
           "access of " + std::to_string(bytes) + " bytes at offset " + hex(offset) +
               " (registers are 32-bit, word aligned)");
    return false;
}

bool RegisterBlock::read(uint32_t offset, uint32_t &value) {
    Slot *s = slot(offset);
    if (s == nullptr) {
        report(RegisterViolation::Undefined, offset, "read of an undefined register");
        return false;
    }
    if ((table_[s->row].access & HW_REG_ACCESS_RO) == 0) {
        if (write_only_reads_zero_) {
            value = 0;
            return true;
        }
        report(RegisterViolation::ReadWriteOnly, offset, "read of a write-only register");
        return false;
    }
    const ReadHandler &handler = handlers_[s->row].read;
    value = handler ? handler(s->index) : s->value;
    return true;
}

bool RegisterBlock::write(uint32_t offset, uint32_t value) {
    Slot *s = slot(offset);
    if (s == nullptr) {
        report(RegisterViolation::Undefined, offset, "write to an undefined register");
        return false;
    }
    if ((table_[s->row].access & HW_REG_ACCESS_WO) == 0) {
        report(RegisterViolation::WriteReadOnly, offset, "write to a read-only register");
        return false;
    }
    const WriteHandler &handler = handlers_[s->row].write;
    if (handler) {
        handler(value, s->index);
    } else {
        s->value = value;
    }
    return true;
}

const hw_reg_info_t *RegisterBlock::find(uint32_t offset, unsigned *index) const {
    const Slot *s = slot(offset);
    if (s == nullptr) {
        return nullptr;
    }
    if (index != nullptr) {
        *index = s->index;
    }
    return &table_[s->row];
}

std::string RegisterBlock::name(uint32_t offset) const {
    unsigned index = 0;
    const hw_reg_info_t *r = find(offset, &index);
    if (r == nullptr) {
        return "";
    }
    return r->count > 1 ? std::string(r->name) + "(" + std::to_string(index) + ")" : r->name;
}

} // namespace starfish::common
