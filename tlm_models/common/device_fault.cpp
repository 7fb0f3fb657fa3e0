#include "tlm_models/common/device_fault.h"

#include <systemc>

#include <cstdio>
#include <utility>

namespace starfish::common {

std::string DeviceFault::text() const {
    std::string out = node != kNoNode ? "node " + std::to_string(node) + ": " : "";
    out += device;
    if (in_register_access) {
        char off[16];
        std::snprintf(off, sizeof off, "0x%03x", offset);
        out += reg.empty() ? std::string(" register at offset ") + off
                           : " register " + reg + " (" + off + ")";
    }
    out += ": " + message;
    if (!code.empty()) {
        out += " (" + code + ")";
    }
    return out;
}

std::string DeviceFaultSink::failure() const {
    return faults_.empty() ? "" : faults_.front().text();
}

DeviceFaultPort::DeviceFaultPort(int node, std::string device)
    : node_(node), device_(std::move(device)) {}

void DeviceFaultPort::register_fault(uint32_t offset, const std::string &reg,
                                     const std::string &code, const std::string &message) {
    DeviceFault f;
    f.in_register_access = true;
    f.offset = offset;
    f.reg = reg;
    f.code = code;
    f.message = message;
    report(std::move(f));
}

void DeviceFaultPort::fault(const std::string &message) {
    DeviceFault f;
    f.message = message;
    report(std::move(f));
}

std::string DeviceFaultPort::failure() const {
    return first_ ? first_->text() : "";
}

void DeviceFaultPort::report(DeviceFault f) {
    f.node = node_;
    f.device = device_;
    f.time_ps = sc_core::sc_time_stamp().value();
    if (!first_) {
        first_ = f;
    }
    if (sink_ != nullptr) {
        sink_->report(f);
    }
    stop_simulation();
}

void stop_simulation() {
    if (sc_core::sc_get_simulator_status() != sc_core::SC_SIM_USER_STOP) {
        sc_core::sc_stop();
    }
}

} // namespace starfish::common
