#pragma once
// A register device for node tests: raises its level interrupt line after a
// programmed number of cycles, once or periodically (registers in fw_tests.h,
// FWT_TIMER_*). Lets tests raise interrupts at known times.

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>

namespace starfish::testing {

class TimerDevice : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(TimerDevice);

    tlm_utils::simple_target_socket<TimerDevice> regs;
    sc_core::sc_out<bool> irq;

    TimerDevice(sc_core::sc_module_name name, uint64_t cycle_ps);

    uint64_t raises() const { return raises_; }

private:
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    void fire();
    void drive();

    const uint64_t cycle_ps_;
    sc_core::sc_event fire_;
    sc_core::sc_event changed_;
    uint64_t period_ = 0;
    bool line_ = false;
    uint64_t raises_ = 0;
};

} // namespace starfish::testing
