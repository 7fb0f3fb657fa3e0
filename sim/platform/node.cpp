#include "sim/platform/node.h"

#include "hw/config/config_error.h"
#include "hw/machine_keys.h"
#include "hw/node_map.h"
#include "rtl/wrappers/rtl_build.h"
#ifdef STARFISH_HAVE_RTL_NI_DMA
#include "rtl/ni_dma/ni_dma_rtl.h"
#endif

#include <stdexcept>

namespace starfish::platform {

namespace {
uint32_t memory_size(const NodeSetup &setup, const config::Config &cfg) {
    return setup.memory_bytes != 0 ? setup.memory_bytes : node::node_memory_bytes(cfg);
}

NodeIdentity identity_of(const NodeSetup &s) {
    NodeIdentity id;
    id.node_id = static_cast<unsigned>(s.node_id);
    id.role = s.role == NodeRole::Io ? HAL_ROLE_IOP : HAL_ROLE_CP;
    id.role_index = static_cast<unsigned>(s.role_index);
    id.cp_count = static_cast<unsigned>(s.cp_count);
    id.iop_count = static_cast<unsigned>(s.iop_count);
    id.disks_per_iop = static_cast<unsigned>(s.disks_per_iop);
    id.trial = static_cast<unsigned>(s.trial);
    return id;
}
} // namespace

namespace {
// ni.model picks the DMA engine: the TLM model, or the Verilog RTL behind its
// wrapper (docs/rtl.md), in a build with the RTL engines (rtl/wrappers/rtl_build.h).
std::unique_ptr<node::NetworkInterface> make_network_interface(const NodeSetup &setup,
                                                               const config::Config &cfg,
                                                               node::NodeMemory &memory,
                                                               net::Network &network) {
    const node::NetworkInterfaceParams params = node::NetworkInterfaceParams::from(cfg);
    if (params.model == "rtl") {
#ifdef STARFISH_HAVE_RTL_NI_DMA
        return std::make_unique<rtl::NiDmaRtl>("ni", params, setup.node_id, memory, network,
                                               setup.router, setup.node_routers,
                                               static_cast<int>(cfg.get_int(keys::net_width)));
#else
        throw config::ConfigError(rtl::rtl_missing_message("ni.model = rtl", rtl::rtl_build()));
#endif
    }
    return std::make_unique<node::NetworkInterface>("ni", params, setup.node_id, memory, network,
                                                    setup.router, setup.node_routers);
}
} // namespace

Node::Node(sc_core::sc_module_name name, const NodeSetup &setup, const config::Config &cfg,
           net::Network &network)
    : sc_core::sc_module(name), setup_(setup), memory_("memory", memory_size(setup, cfg)),
      cpu_("cpu", node::NodeCpuParams::from(cfg), setup.node_id),
      ni_(make_network_interface(setup, cfg, memory_, network)),
      irq_lines_("irq_line", HW_IRQ_LINES), memory_port_("memory_port"),
      hal_(std::make_unique<NodeHal>(identity_of(setup), cfg, cpu_, memory_)) {
    memory_port_.bind(memory_.socket);
    for (unsigned line = 0; line < HW_IRQ_LINES; ++line) {
        cpu_.irq[line](irq_lines_[line]);
    }
    ni_->irq_rx(irq_lines_[HW_IRQ_NI_RX]);
    ni_->irq_tx(irq_lines_[HW_IRQ_NI_TX]);
    attach_device("ni", HW_NI_BASE, HW_NI_SIZE, ni_->regs, &ni_->fault,
                  node::NiCore::postable_registers(), node::NiCore::postable_when_quiet_registers(),
                  ni_.get());
    if (setup.main != nullptr) {
        FirmwareMain main = setup.main;
        hal_t *h = hal_->handle();
        cpu_.start([main, h] { main(h); }, "main");
    }
}

Node::IrqLine &Node::irq_line(unsigned line) {
    if (line >= HW_IRQ_LINES) {
        throw std::out_of_range(std::string(name()) + ": no interrupt line " +
                                std::to_string(line));
    }
    return irq_lines_[line];
}

void Node::attach_device(const std::string &dev_name, uint32_t base, uint32_t size,
                         TargetSocket &regs, common::DeviceFaultPort *fault,
                         const std::vector<uint32_t> &postable,
                         const std::vector<uint32_t> &postable_when_quiet,
                         common::OperandPort *operands) {
    hal_->attach_device(dev_name, base, size, regs, postable, postable_when_quiet, operands);
    if (fault != nullptr) {
        fault->bind(device_faults_);
    }
}

std::vector<uint8_t> Node::read_memory(uint32_t addr, uint32_t len) {
    std::vector<uint8_t> bytes(len);
    tlm::tlm_generic_payload trans;
    trans.set_read();
    trans.set_address(addr);
    trans.set_data_ptr(bytes.data());
    trans.set_data_length(len);
    trans.set_streaming_width(len);
    if (memory_port_->transport_dbg(trans) != len) {
        throw std::out_of_range(std::string(name()) + ": read_memory [" + std::to_string(addr) +
                                ", +" + std::to_string(len) + ") lies outside node memory");
    }
    return bytes;
}

std::string Node::failure() const {
    // A device fault comes first: the firmware's failure that follows it (the
    // failed access) only says that the device answered with an error.
    if (!device_faults_.empty()) {
        return device_faults_.failure();
    }
    return cpu_.failure();
}

nlohmann::json Node::stats_json() const {
    return nlohmann::json{{"cpu", cpu_.stats().to_json()}, {"ni", ni_->stats().to_json()}};
}

} // namespace starfish::platform
