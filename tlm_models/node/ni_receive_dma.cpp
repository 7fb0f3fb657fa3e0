#include "tlm_models/node/ni_receive_dma.h"

#include "tlm_models/common/sim_time.h"
#include "tlm_models/net/packet_pool.h"

#include <algorithm>
#include <string>

namespace starfish::node {

NiReceiveDma::NiReceiveDma(const NetworkInterfaceParams &params, NiCore &core, NiTrace &trace,
                           common::DeviceFaultPort &fault)
    : params_(params), core_(core), trace_(trace), fault_(fault) {}

void NiReceiveDma::queue(uint32_t handle, NiFragment &&fragment) {
    Job job;
    job.handle = handle;
    job.fragment = std::move(fragment);
    job.queued_ps = common::sim_time().value();
    jobs_.push_back(std::move(job));
    // Never inside this call (NiCore is in the middle of an access): at the earliest
    // when the access is over, in the same evaluation phase.
    due_.notify();
}

void NiReceiveDma::queue_pending(uint32_t handle, uint32_t length) {
    // Deposited as it arrives: the job waits for the tail (arrived()).
    Job job;
    job.handle = handle;
    job.fragment.length = length;
    job.arrived = false;
    job.queued_ps = common::sim_time().value();
    jobs_.push_back(std::move(job));
    due_.notify();
}

void NiReceiveDma::arrived(uint32_t handle, NiFragment &&fragment) {
    auto job = std::find_if(jobs_.begin(), jobs_.end(),
                            [&](const Job &j) { return j.handle == handle && !j.arrived; });
    if (job == jobs_.end()) {
        fault_.fault("no deposit waits for the fragment of handle " + std::to_string(handle));
        return;
    }
    job->fragment = std::move(fragment);
    job->arrived = true;
    job->tail_ps = common::sim_time().value();
    due_.notify();
}

// The receive DMA serves the deposits in order: each starts when the engine is free
// and the firmware has answered, and takes ni.packet_setup_cycles plus its bytes;
// a fragment deposited as it arrives ends no earlier than one DMA step (its last
// flit's bytes) after its tail. A deposit due at a time is complete before the
// packets and register accesses of that time are served, whoever comes first.
void NiReceiveDma::complete_due() {
    if (jobs_.empty()) {
        return; // the usual case: every register access and packet comes here first
    }
    const uint64_t now = common::sim_time().value();
    while (!jobs_.empty()) {
        const Job &job = jobs_.front();
        if (!job.arrived) {
            return; // arrived() re-arms the engine
        }
        const uint32_t length = job.fragment.length;
        const uint64_t start = std::max(free_ps_, job.queued_ps);
        uint64_t done =
            start + params_.cycles_ps(params_.packet_setup_cycles + params_.dma_cycles(length));
        if (job.tail_ps != 0) {
            done = std::max(done, job.tail_ps + params_.cycles_ps(params_.dma_cycles(
                                                    std::min(length, params_.flit_bytes))));
        }
        if (trace_.on() && !job.traced) {
            // Shown from when the engine takes the job (records are never stamped
            // earlier than now).
            jobs_.front().traced = true;
            trace_.rx_dma(std::max(start, now), std::max(done, now));
        }
        if (done > now) {
            due_.notify(sc_core::sc_time::from_value(done - now));
            return;
        }
        free_ps_ = done;
        Job finished = std::move(jobs_.front());
        jobs_.pop_front();
        core_.deposit(finished.handle, finished.fragment);
        net::recycle_buffer(std::move(finished.fragment.bytes));
    }
}

} // namespace starfish::node
