#pragma once
// Parameters of the DMA network interface (tlm_models/node/network_interface.h):
// its queues and buffers, DMA bandwidth and set-up cycles (ni.*). docs/node.md
// explains each one's place in the NI's timing.

#include "hw/config/config.h"
#include "hw/config/key.h"
#include "hw/config/registry.h"

#include <cstdint>
#include <string>

// The keys of the NI's parameters (hw/config/key.h).
namespace starfish::keys {
inline constexpr config::IntKey ni_tx_queue_depth{"ni.tx_queue_depth"};
inline constexpr config::IntKey ni_rx_buffer_bytes{"ni.rx_buffer_bytes"};
inline constexpr config::IntKey ni_max_packet_payload_bytes{"ni.max_packet_payload_bytes"};
inline constexpr config::IntKey ni_dma_bytes_per_cycle{"ni.dma_bytes_per_cycle"};
inline constexpr config::IntKey ni_descriptor_setup_cycles{"ni.descriptor_setup_cycles"};
inline constexpr config::IntKey ni_packet_setup_cycles{"ni.packet_setup_cycles"};
inline constexpr config::StringKey ni_model{"ni.model"};
inline constexpr config::BoolKey speed_ni_irq_batching{"speed.ni_irq_batching"};
} // namespace starfish::keys

namespace starfish::node {

// ni.* parameters, and speed.ni_irq_batching.
void declare_network_interface_params(config::Registry &registry);

struct NetworkInterfaceParams {
    uint64_t cycle_ps = 20000;
    uint32_t tx_queue_depth = 16;
    uint32_t rx_buffer_bytes = 32768;
    uint32_t max_packet_payload_bytes = 8272;
    uint32_t dma_bytes_per_cycle = 4;
    uint32_t descriptor_setup_cycles = 0;
    uint32_t packet_setup_cycles = 0;
    uint32_t flit_bytes = 4;   // net.flit_bytes: the link's bytes per cycle
    std::string model = "tlm"; // ni.model: "tlm" or "rtl" (sim/platform/node.cpp picks)
    bool irq_batching = true;  // speed.ni_irq_batching (tlm_models/node/ni_irq_batch.h)

    uint64_t cycles_ps(uint64_t cycles) const { return cycles * cycle_ps; }
    // DMA cycles to move `bytes` between node memory and the NI.
    uint64_t dma_cycles(uint32_t bytes) const {
        return (bytes + dma_bytes_per_cycle - 1) / dma_bytes_per_cycle;
    }

    static NetworkInterfaceParams from(const config::Config &cfg);
};

} // namespace starfish::node
