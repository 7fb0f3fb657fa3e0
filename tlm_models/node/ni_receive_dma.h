#pragma once
// The receive DMA of the network interface: one engine deposits the accepted
// body fragments into node memory, in order, each costing ni.packet_setup_cycles
// plus its bytes at ni.dma_bytes_per_cycle; a fragment still arriving (committed
// at its head, NiPacketReceiver) finishes no earlier than one DMA step after its
// tail. NiCore hands it the deposits (ni_deposit*) and is told when each is done.

#include "tlm_models/common/device_fault.h"
#include "tlm_models/node/network_interface_params.h"
#include "tlm_models/node/ni_core.h"
#include "tlm_models/node/ni_trace.h"

#include <systemc>

#include <cstddef>
#include <cstdint>
#include <deque>

namespace starfish::node {

class NiReceiveDma {
public:
    struct Job {
        uint32_t handle = 0;
        NiFragment fragment;
        bool arrived = true;    // the fragment's tail is in (its bytes are in `fragment`)
        bool traced = false;    // its DMA time was reported
        uint64_t tail_ps = 0;   // when it arrived
        uint64_t queued_ps = 0; // when the firmware's answer queued it
    };

    NiReceiveDma(const NetworkInterfaceParams &params, NiCore &core, NiTrace &trace,
                 common::DeviceFaultPort &fault);
    NiReceiveDma(const NiReceiveDma &) = delete;
    NiReceiveDma &operator=(const NiReceiveDma &) = delete;

    // NiCore::Client::ni_deposit, ni_deposit_pending, ni_deposit_arrived.
    void queue(uint32_t handle, NiFragment &&fragment);
    void queue_pending(uint32_t handle, uint32_t length);
    void arrived(uint32_t handle, NiFragment &&fragment);
    // Completes every deposit due by now, in order, and arms due() for the next.
    void complete_due();
    // The front deposit may be complete (the NI's rx_dma_engine method waits on it).
    const sc_core::sc_event &due() const { return due_; }
    std::size_t queued() const { return jobs_.size(); }

    // The RTL DMA engine's wrapper (rtl/ni_dma/ni_dma_rtl.h) times the deposits
    // itself and works on this state.
    std::deque<Job> &jobs() { return jobs_; }
    uint64_t &free_ps() { return free_ps_; }

private:
    const NetworkInterfaceParams &params_;
    NiCore &core_;
    NiTrace &trace_;
    common::DeviceFaultPort &fault_;

    std::deque<Job> jobs_;
    uint64_t free_ps_ = 0; // the engine finished the previous deposit then
    sc_core::sc_event due_;
};

} // namespace starfish::node
