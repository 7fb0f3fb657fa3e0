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
      irq_lines_("irq_line", HW_IRQ_LINES), bus_("bus"), memory_port_("memory_port") {
    memory_port_.bind(memory_.socket);
    for (unsigned line = 0; line < HW_IRQ_LINES; ++line) {
        cpu_.irq[line](irq_lines_[line]);
    }
    ni_->irq_rx(irq_lines_[HW_IRQ_NI_RX]);
    ni_->irq_tx(irq_lines_[HW_IRQ_NI_TX]);
    attach_device("ni", HW_NI_BASE, HW_NI_SIZE, ni_->regs, &ni_->fault,
                  node::NiCore::postable_registers(), node::NiCore::postable_when_quiet_registers(),
                  ni_.get());
    RegisterBus &bus = *this;
    hal_ = std::make_unique<NodeHal>(identity_of(setup), cfg, cpu_, memory_, bus);
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
    auto words = [&](const std::vector<uint32_t> &offsets) {
        uint64_t bits = 0;
        for (uint32_t offset : offsets) {
            if (offset % 4 != 0 || offset >= 256 || offset >= size) {
                throw std::invalid_argument(std::string(name()) + ": device " + dev_name +
                                            ": postable register offsets must be word offsets "
                                            "below 256 inside the window");
            }
            bits |= uint64_t(1) << (offset / 4);
        }
        return bits;
    };
    uint64_t postable_words = words(postable);
    uint64_t quiet_words = words(postable_when_quiet);
    if ((postable_words & quiet_words) != 0) {
        throw std::invalid_argument(std::string(name()) + ": device " + dev_name +
                                    ": a register is listed as postable both always and "
                                    "when quiet");
    }
    if (base < HW_DEV_BASE || size == 0 || uint64_t(base) + size > 0x100000000ull) {
        throw std::invalid_argument(std::string(name()) + ": device " + dev_name +
                                    " window must lie in the device region above HW_DEV_BASE");
    }
    for (const Window &w : windows_) {
        if (base < w.base + w.size && w.base < base + size) {
            throw std::invalid_argument(std::string(name()) + ": device " + dev_name +
                                        " window overlaps " + w.name);
        }
    }
    bus_.bind(regs);
    windows_.push_back(Window{dev_name, base, size, static_cast<unsigned>(windows_.size()),
                              postable_words, quiet_words, operands});
    if (fault != nullptr) {
        fault->bind(device_faults_);
    }
}

const Node::Window *Node::window_of(uint32_t addr) const {
    for (const Window &w : windows_) {
        if (addr - w.base < w.size) {
            return &w;
        }
    }
    return nullptr;
}

RegisterBus::Result Node::access(bool write, uint32_t addr, uint32_t &value,
                                 sc_core::sc_time &delay) {
    const Window *w = window_of(addr);
    if (w == nullptr) {
        return Result::Unmapped;
    }
    // One payload for every access: constructing one allocates its extension
    // array, and accesses never nest (b_transport does not wait).
    tlm::tlm_generic_payload &trans = access_payload_;
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(addr - w->base);
    trans.set_data_ptr(reinterpret_cast<unsigned char *>(&value));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    bus_[w->socket_index]->b_transport(trans, delay);
    return trans.is_response_ok() ? Result::Ok : Result::DeviceError;
}

bool Node::write_posted(uint32_t addr, uint32_t value) {
    const Window *w = window_of(addr);
    if (w == nullptr) {
        return false;
    }
    if (w->operands != nullptr) {
        return w->operands->write_operand(addr - w->base, value);
    }
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    return access(true, addr, value, delay) == Result::Ok && delay == sc_core::SC_ZERO_TIME;
}

RegisterBus::Posting Node::posting(uint32_t addr) const {
    const Window *w = window_of(addr);
    if (w == nullptr || addr - w->base >= 256) {
        return Posting::No;
    }
    const uint32_t word = (addr - w->base) / 4;
    if ((w->postable_words >> word & 1) != 0) {
        return Posting::Always;
    }
    return (w->quiet_words >> word & 1) != 0 ? Posting::WhenQuiet : Posting::No;
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
