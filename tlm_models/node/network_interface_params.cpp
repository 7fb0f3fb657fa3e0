#include "tlm_models/node/network_interface_params.h"

#include "hw/packet.h"
#include "tlm_models/net/net_params.h"
#include "tlm_models/node/node_cpu_params.h"

#include <string>

namespace starfish::node {

namespace {
const char *const kNiProvenance = "estimate: not published; calibrated on the contiguous-layout "
                                  "tables (docs/calibration.md)";
} // namespace

void declare_network_interface_params(config::Registry &reg) {
    reg.add_int(keys::ni_tx_queue_depth, 16, "descriptors", {1, 4096},
                "send-queue slots of the network interface (TX_FREE after reset)",
                std::string(kNiProvenance) +
                    "; a small hardware FIFO, the driver queues more in software");
    reg.add_int(keys::ni_rx_buffer_bytes, 32768, "bytes", {128, 1 << 30},
                "receive buffer for body fragments not yet deposited (back-pressure when full)",
                std::string(kNiProvenance) + "; four block-sized packets");
    reg.add_int(
        keys::ni_max_packet_payload_bytes, 8272, "bytes", {128, HW_PKT_MAX_PAYLOAD_BYTES},
        "largest packet payload (16-byte frame + software header + body fragment)",
        "derived: an 8 KB block (docs/reference.md §2) + 64-byte software header + 16-byte frame, "
        "so a block-sized Memput is one packet as Proteus sent whole messages");
    reg.add_int(keys::ni_dma_bytes_per_cycle, 4, "bytes/cycle", {1, 1024},
                "DMA bandwidth between node memory and the network interface",
                "derived: docs/reference.md §2 Memput end to end costs 1 us more per 50 words, "
                "i.e. 200 bytes per 50 cycles = 4 bytes per cycle");
    reg.add_int(keys::ni_descriptor_setup_cycles, 4, "cycles", {0, 100000},
                "send engine cycles to start a descriptor (fetch it, build the frame)",
                "estimate: not published; a few cycles to fetch the six-word descriptor, "
                "kept small so that the end-to-end Memput constant (call + handler + return "
                "+ two network traversals, docs/machine.md) matches docs/reference.md §2's 5 us");
    reg.add_int(keys::ni_packet_setup_cycles, 1, "cycles", {0, 100000},
                "DMA cycles to start each packet's body transfer (send and receive)",
                "estimate: not published; one cycle to load a DMA address, so that a "
                "deposit started at RX_CMD is done by the handler's RX_POP (one interrupt "
                "per Memput, docs/reference.md §2 handler 91 + 1/word) and the end-to-end Memput "
                "constant matches docs/reference.md §2 (docs/machine.md)");
    reg.add_string(keys::ni_model, "tlm", {"tlm", "rtl"},
                   "implementation of the NI's DMA engine: the TLM model, or the Verilog RTL "
                   "of rtl/ni_dma/ co-simulated through Verilator (docs/rtl.md)",
                   "derived: both keep the timing contract of docs/node.md");
    reg.add_bool(keys::speed_ni_irq_batching, true,
                 "coalesce the interrupt-line updates of one NI entry point (a register access, "
                 "a packet, a network report, the receive DMA's wake-up) into one write at its "
                 "end; off, every update notifies the line driver at once. An exact speed-up: "
                 "the lines take the same values in the same update phase either way",
                 "exact: a host speed-up only; off gives the same results "
                 "(test_ni_irq_batching)");
    // What the RTL's datapath (one 32-bit word per cycle, docs/rtl.md) supports.
    reg.add_check([](const config::Config &cfg) -> std::string {
        if (cfg.get_string(keys::ni_model) != "rtl") {
            return "";
        }
        const long long d = cfg.get_int(keys::ni_dma_bytes_per_cycle);
        if (d != 1 && d != 2 && d != 4) {
            return "ni.model = rtl needs ni.dma_bytes_per_cycle of 1, 2 or 4 (it is " +
                   std::to_string(d) + ")";
        }
        if (cfg.get_int(keys::net_flit_bytes) != 4) {
            return "ni.model = rtl needs net.flit_bytes = 4 (the flits of hw/packet.h)";
        }
        if (cfg.get_int(keys::ni_packet_setup_cycles) < 1 ||
            cfg.get_int(keys::ni_descriptor_setup_cycles) +
                    cfg.get_int(keys::ni_packet_setup_cycles) >
                65535) {
            return "ni.model = rtl needs ni.packet_setup_cycles >= 1 and descriptor plus packet "
                   "setup below 65536 cycles";
        }
        return "";
    });
    reg.add_check([](const config::Config &cfg) -> std::string {
        if (cfg.get_int(keys::ni_rx_buffer_bytes) <
            cfg.get_int(keys::ni_max_packet_payload_bytes)) {
            return "ni.rx_buffer_bytes = " + std::to_string(cfg.get_int(keys::ni_rx_buffer_bytes)) +
                   " is smaller than ni.max_packet_payload_bytes = " +
                   std::to_string(cfg.get_int(keys::ni_max_packet_payload_bytes)) +
                   ": a full packet could never be received";
        }
        return "";
    });
}

NetworkInterfaceParams NetworkInterfaceParams::from(const config::Config &cfg) {
    NetworkInterfaceParams p;
    p.cycle_ps = cpu_cycle_ps(cfg);
    p.tx_queue_depth = static_cast<uint32_t>(cfg.get_int(keys::ni_tx_queue_depth));
    p.rx_buffer_bytes = static_cast<uint32_t>(cfg.get_int(keys::ni_rx_buffer_bytes));
    p.max_packet_payload_bytes =
        static_cast<uint32_t>(cfg.get_int(keys::ni_max_packet_payload_bytes));
    p.dma_bytes_per_cycle = static_cast<uint32_t>(cfg.get_int(keys::ni_dma_bytes_per_cycle));
    p.descriptor_setup_cycles =
        static_cast<uint32_t>(cfg.get_int(keys::ni_descriptor_setup_cycles));
    p.packet_setup_cycles = static_cast<uint32_t>(cfg.get_int(keys::ni_packet_setup_cycles));
    p.flit_bytes = static_cast<uint32_t>(cfg.get_int(keys::net_flit_bytes));
    p.model = cfg.get_string(keys::ni_model);
    p.irq_batching = cfg.get_bool(keys::speed_ni_irq_batching);
    return p;
}

} // namespace starfish::node
