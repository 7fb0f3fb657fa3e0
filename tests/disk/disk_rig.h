#pragma once
// A test bench for the disk subsystem: one SCSI chain (host adapter, bus, N
// HP 97560 drives) as the machine builds it for an IOP, a node memory, and a
// scenario thread that drives the adapter through its TLM register socket the way
// firmware does. Build it inside run_isolated (SystemC elaborates once per
// process).

#include "hw/config/config.h"
#include "hw/scsi_regs.h"
#include "sim/parameters.h"
#include "sim/platform/scsi_chain.h"
#include "sim/trace/vcd_writer.h"
#include "tlm_models/common/trace_hub.h"
#include "tlm_models/node/node_memory.h"

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace starfish::testing {

using namespace starfish::storage;
using starfish::node::NodeMemory;

// The configuration every scenario starts from: the registered defaults.
inline config::Config default_config() {
    return config::Config(sim::parameter_registry());
}

struct Completion {
    uint64_t time_ps = 0;
    hw_scsi_desc_t desc{};
};

class DiskRig : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(DiskRig);
    static constexpr uint32_t kMemoryBytes = 4u << 20;
    static constexpr uint32_t kDescBase = 0; // 256 descriptors of 64 bytes
    static constexpr uint32_t kDescSlots = 256;
    static constexpr uint32_t kBufferBase = 64u << 10;

    using Scenario = std::function<void(DiskRig &)>;

    DiskRig(sc_core::sc_module_name name, const config::Config &cfg, unsigned disks,
            Scenario scenario, uint64_t seed = 1, uint64_t trial = 0)
        : sc_core::sc_module(name), memory("memory", kMemoryBytes), irq("irq"),
          chain(chain_setup(disks, seed, trial), platform::ScsiChainParams::from(cfg), memory, irq),
          regs("regs"), memory_port("memory_port"), scenario_(std::move(scenario)) {
        regs.bind(chain.adapter().regs);
        memory_port.bind(memory.socket);
        SC_THREAD(run);
        SC_METHOD(on_irq);
        sensitive << irq;
        dont_initialize();
    }

    NodeMemory memory;
    sc_core::sc_signal<bool> irq;
    platform::ScsiChain chain; // node 7, adapter 0; disk d is target d
    tlm_utils::simple_initiator_socket<DiskRig> regs;
    tlm_utils::simple_initiator_socket<DiskRig> memory_port;

    Hp97560Disk &disk(unsigned target) { return chain.disk(target); }

    uint64_t now() const { return sc_core::sc_time_stamp().value(); }
    uint8_t *mem(uint32_t addr, uint32_t len = 1) { return memory.span(addr, len); }

    uint32_t reg_read(uint32_t offset) { return access(tlm::TLM_READ_COMMAND, offset, 0); }
    void reg_write(uint32_t offset, uint32_t value) {
        access(tlm::TLM_WRITE_COMMAND, offset, value);
    }

    // Builds a descriptor for a 10-byte command in the next descriptor slot and
    // submits it; the tag is returned (unique per submission).
    uint32_t submit(uint32_t target, uint8_t opcode, uint8_t flags, uint32_t lba, uint32_t blocks,
                    uint32_t buffer) {
        uint32_t tag = next_tag_++;
        uint32_t addr = kDescBase + (tag % kDescSlots) * sizeof(hw_scsi_desc_t);
        auto *d = reinterpret_cast<hw_scsi_desc_t *>(mem(addr, sizeof(hw_scsi_desc_t)));
        std::memset(d, 0, sizeof *d);
        hw_scsi_desc_init10(d, tag, target, opcode, flags, lba, static_cast<uint16_t>(blocks),
                            buffer);
        reg_write(HW_SCSI_REG_SUBMIT, addr);
        desc_of_[tag] = addr;
        return tag;
    }
    // Submits a prepared descriptor image (for malformed ones) at a slot address.
    uint32_t submit_raw(const hw_scsi_desc_t &image) {
        uint32_t tag = image.tag;
        uint32_t addr = kDescBase + (tag % kDescSlots) * sizeof(hw_scsi_desc_t);
        std::memcpy(mem(addr, sizeof image), &image, sizeof image);
        reg_write(HW_SCSI_REG_SUBMIT, addr);
        desc_of_[tag] = addr;
        return tag;
    }
    // Waits (in the scenario thread) until the tag has come out of DONE.
    Completion wait(uint32_t tag) {
        while (done_.find(tag) == done_.end()) {
            sc_core::wait(done_event_);
        }
        Completion c = done_[tag];
        done_.erase(tag);
        return c;
    }
    Completion run(uint32_t target, uint8_t opcode, uint8_t flags, uint32_t lba, uint32_t blocks,
                   uint32_t buffer) {
        return wait(submit(target, opcode, flags, lba, blocks, buffer));
    }
    // Tags in the order DONE returned them.
    const std::vector<uint32_t> &done_order() const { return done_order_; }
    bool scenario_finished() const { return finished_; }
    std::string error() const { return error_; }

private:
    static platform::ScsiChainSetup chain_setup(unsigned disks, uint64_t seed, uint64_t trial) {
        platform::ScsiChainSetup setup;
        setup.prefix = "iop";
        setup.node_id = 7;
        for (unsigned d = 0; d < disks; ++d) {
            setup.disk_ids.push_back(d);
        }
        setup.seed = seed;
        setup.trial = trial;
        return setup;
    }

    uint32_t access(tlm::tlm_command cmd, uint32_t offset, uint32_t value) {
        tlm::tlm_generic_payload trans;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        trans.set_command(cmd);
        trans.set_address(HW_SCSI_BASE + offset);
        trans.set_data_ptr(reinterpret_cast<unsigned char *>(&value));
        trans.set_data_length(4);
        trans.set_streaming_width(4);
        regs->b_transport(trans, delay);
        return value;
    }

    void run() {
        reg_write(HW_SCSI_REG_CTRL, HW_SCSI_CTRL_IRQ_ENABLE);
        try {
            scenario_(*this);
        } catch (const std::exception &e) {
            error_ = e.what();
        }
        finished_ = true;
    }

    void on_irq() {
        if (!irq.read()) {
            return;
        }
        for (;;) {
            uint32_t tag = reg_read(HW_SCSI_REG_DONE);
            if (tag == HW_SCSI_NONE) {
                break;
            }
            Completion c;
            c.time_ps = now();
            std::memcpy(&c.desc, mem(desc_of_.at(tag), sizeof c.desc), sizeof c.desc);
            done_[tag] = c;
            done_order_.push_back(tag);
        }
        done_event_.notify(sc_core::SC_ZERO_TIME);
    }

    Scenario scenario_;
    uint32_t next_tag_ = 1;
    std::map<uint32_t, uint32_t> desc_of_;
    std::map<uint32_t, Completion> done_;
    std::vector<uint32_t> done_order_;
    sc_core::sc_event done_event_;
    bool finished_ = false;
    std::string error_;
};

// The observation layer on a rig's chain with its VCD sink, as `starfish run
// --vcd` attaches it to an IOP's chain (sim/trace/trace_session.cpp): the bus as
// "rig.scsi", target t as "rig.disk<t>". Attach before sc_start, finish() after.
class RigTrace {
public:
    RigTrace(DiskRig &rig, const std::string &vcd_path) : hub_(0, UINT64_MAX) {
        hub_.add_sink(std::make_unique<trace::VcdWriter>(vcd_path, trace::ScopeFilter()));
        rig.chain.bus().observe(&hub_, "rig.scsi");
        for (unsigned t = 0; t < rig.chain.disk_count(); ++t) {
            rig.chain.disk(t).observe(&hub_, "rig.disk" + std::to_string(t));
        }
    }
    void finish() { hub_.finish(sc_core::sc_time_stamp().value()); }

private:
    trace::TraceHub hub_;
};

// Elaborates a rig, runs the scenario to the end of simulated activity, and
// throws if the scenario threw or did not finish.
inline void run_rig(const config::Config &cfg, unsigned disks, const DiskRig::Scenario &scenario,
                    uint64_t seed = 1, uint64_t trial = 0) {
    DiskRig rig("rig", cfg, disks, scenario, seed, trial);
    sc_core::sc_start();
    if (!rig.error().empty()) {
        throw std::runtime_error(rig.error());
    }
    if (!rig.scenario_finished()) {
        throw std::runtime_error(
            "scenario did not finish (waiting for a completion that never came)");
    }
}

} // namespace starfish::testing
