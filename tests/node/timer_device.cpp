#include "tests/node/timer_device.h"

#include "tests/node/fw_tests.h"

#include <cstring>

namespace starfish::testing {

TimerDevice::TimerDevice(sc_core::sc_module_name name, uint64_t cycle_ps)
    : sc_core::sc_module(name), regs("regs"), irq("irq"), cycle_ps_(cycle_ps) {
    regs.register_b_transport(this, &TimerDevice::b_transport);
    SC_METHOD(fire);
    sensitive << fire_;
    dont_initialize();
    SC_METHOD(drive);
    sensitive << changed_;
}

void TimerDevice::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &) {
    uint32_t value = 0;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (trans.get_data_length() != 4) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    if (trans.is_read()) {
        value = trans.get_address() == FWT_TIMER_RAISES ? static_cast<uint32_t>(raises_) : 0u;
        std::memcpy(trans.get_data_ptr(), &value, 4);
        return;
    }
    std::memcpy(&value, trans.get_data_ptr(), 4);
    switch (trans.get_address()) {
    case FWT_TIMER_FIRE_IN:
    case FWT_TIMER_PERIOD:
        fire_.cancel();
        period_ = trans.get_address() == FWT_TIMER_PERIOD ? value : 0;
        if (value > 0) {
            fire_.notify(sc_core::sc_time::from_value(value * cycle_ps_));
        }
        break;
    case FWT_TIMER_ACK:
        line_ = false;
        changed_.notify();
        break;
    default:
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
}

void TimerDevice::fire() {
    if (!line_) {
        line_ = true;
        ++raises_;
        changed_.notify();
    }
    if (period_ > 0) {
        fire_.notify(sc_core::sc_time::from_value(period_ * cycle_ps_));
    }
}

void TimerDevice::drive() {
    irq.write(line_);
}

} // namespace starfish::testing
