#pragma once
// A CP or IOP: CPU + node memory + DMA network interface + further register
// devices (SCSI host adapters), the HAL binding that reaches them (NodeHal: the
// register bus with the address decode of hw/node_map.h) and the node's interrupt
// lines. Runs a firmware entry function as its first thread.

#include "fw/hal.h"
#include "hw/config/config.h"
#include "sim/platform/node_hal.h"
#include "sim/platform/placement.h"
#include "tlm_models/common/device_fault.h"
#include "tlm_models/common/operand_port.h"
#include "tlm_models/net/net_port.h"
#include "tlm_models/node/network_interface.h"
#include "tlm_models/node/node_cpu.h"
#include "tlm_models/node/node_memory.h"

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace starfish::platform {

// A firmware program: the node's first thread ("main").
using FirmwareMain = void (*)(hal_t *);

struct NodeSetup {
    int node_id = 0;
    NodeRole role = NodeRole::Compute;
    int role_index = 0;
    int cp_count = 1;
    int iop_count = 0;
    int disks_per_iop = 0;
    int trial = 0;                 // trial number (hal_trial)
    int router = 0;                // router whose local port this node's NI uses
    std::vector<int> node_routers; // router of every node id (TX_DEST names node ids)
    FirmwareMain main = nullptr;   // nullptr: no firmware (a passive node)
    uint32_t memory_bytes = 0;     // 0: machine.node_memory_kb
};

class Node : public sc_core::sc_module {
public:
    // A device may drive its line from several processes in one delta cycle (the
    // NI from the register access that moves it and from its own method; the last
    // write is the device's final level), so writers are not checked.
    using IrqLine = sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS>;
    using TargetSocket = NodeHal::TargetSocket;

    Node(sc_core::sc_module_name name, const NodeSetup &setup, const config::Config &cfg,
         net::Network &network);

    node::NodeMemory &memory() { return memory_; }
    node::NodeCpu &cpu() { return cpu_; }
    node::NetworkInterface &ni() { return *ni_; }
    NodeHal &hal() { return *hal_; }
    const NodeSetup &setup() const { return setup_; }

    // Interrupt line `line` of the CPU (hw/node_map.h), for a device's sc_out<bool>.
    IrqLine &irq_line(unsigned line);
    // Maps a device's registers at [base, base + size) (e.g. SCSI host adapter k at
    // HW_SCSI_BASE + k * HW_SCSI_STRIDE); register accesses reach regs with the byte
    // offset within the window. `fault` (optional) is the device's fault port: it is
    // bound to device_faults(). Call during elaboration.
    // postable: offsets (below 256) of the registers whose writes may be posted
    // (the device must guarantee what that asks, NodeHal::Posting);
    // postable_when_quiet: those posted only when nothing happens before the write;
    // operands: where posted writes go, if not through regs.
    void attach_device(const std::string &name, uint32_t base, uint32_t size, TargetSocket &regs,
                       common::DeviceFaultPort *fault = nullptr,
                       const std::vector<uint32_t> &postable = {},
                       const std::vector<uint32_t> &postable_when_quiet = {},
                       common::OperandPort *operands = nullptr);
    // Where this node's devices report faults (the NI's port is bound already).
    common::DeviceFaultSink &device_faults() { return device_faults_; }
    const common::DeviceFaultSink &device_faults() const { return device_faults_; }

    // Debug read of node memory through its TLM socket (transport_dbg; no time),
    // for harnesses that collect firmware results. Throws if outside memory.
    std::vector<uint8_t> read_memory(uint32_t addr, uint32_t len);

    // Why the run stopped on this node ("node N: ...") or "" if it did not fail:
    // the first device fault (naming device and register), else the firmware's
    // failure (hal_fail and HAL misuse; a failed register access shows there too).
    std::string failure() const;
    const std::map<std::string, uint64_t> &exports() const { return hal_->exports(); }
    // {"cpu": CpuStats, "ni": NetworkInterfaceStats}
    nlohmann::json stats_json() const;

private:
    NodeSetup setup_;
    common::DeviceFaultSink device_faults_; // outlives the devices that report into it
    node::NodeMemory memory_;
    node::NodeCpu cpu_;
    std::unique_ptr<node::NetworkInterface> ni_; // ni.model: the TLM model or the RTL's wrapper
    sc_core::sc_vector<IrqLine> irq_lines_;
    tlm_utils::simple_initiator_socket<Node> memory_port_; // debug access to memory
    std::unique_ptr<NodeHal> hal_;
};

} // namespace starfish::platform
