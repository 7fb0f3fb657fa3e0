#pragma once
// Observation of the network interface (docs/observe.md): messages sent and
// received (a message's id is its first packet's), the send and receive DMA
// engines and the receive ring's fill, reported to a TraceHub under the NI's
// scope. Off (no hub) every hook is one pointer test in its caller (on()).

#include "tlm_models/common/trace_hub.h"

#include <cstdint>
#include <string>

namespace starfish::node {

class NiTrace {
public:
    explicit NiTrace(int node_id) : node_id_(node_id) {}

    // Declares the NI's signals. Before sc_start.
    void open(trace::TraceHub *hub, const std::string &scope);
    bool on() const { return hub_ != nullptr; }

    // The hooks below are called only when on().
    void message_send_begins(uint64_t now, uint64_t message_id, uint32_t dest,
                             uint32_t header_bytes, uint32_t body_bytes);
    void message_send_ends(uint64_t now);
    // A DMA engine busy from `start` to `done` (stamped ahead of now: the engine's
    // timing is known in advance).
    void tx_dma(uint64_t start, uint64_t done);
    void rx_dma(uint64_t start, uint64_t done);
    // A packet of message `message_id` was taken; `last` ends the message.
    void message_received(uint64_t now, uint64_t message_id, bool last, uint32_t src,
                          uint32_t body_bytes, uint32_t rx_records);
    void rx_ring(uint64_t now, uint32_t rx_records);

    // A DMA engine's signal from `now` on, for the RTL DMA engine's wrapper, which
    // knows its engines' spans only as they happen.
    void tx_dma_busy(uint64_t now, bool busy) { hub_->set(sig_tx_dma_, now, busy ? 1 : 0); }
    void rx_dma_busy(uint64_t now, bool busy) { hub_->set(sig_rx_dma_, now, busy ? 1 : 0); }

private:
    const int node_id_;
    trace::TraceHub *hub_ = nullptr;
    std::string scope_;
    uint32_t sig_tx_msg_ = 0, sig_rx_msg_ = 0, sig_tx_dma_ = 0, sig_rx_dma_ = 0, sig_rx_ring_ = 0;
};

} // namespace starfish::node
