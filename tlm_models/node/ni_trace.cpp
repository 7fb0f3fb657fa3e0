#include "tlm_models/node/ni_trace.h"

namespace starfish::node {

void NiTrace::open(trace::TraceHub *hub, const std::string &scope) {
    hub_ = hub;
    scope_ = scope;
    using trace::SignalKind;
    using trace::TimelineRole;
    const trace::Value none{trace::kNoValue, {}};
    sig_tx_msg_ = hub->signal({scope, "tx_msg", SignalKind::Int, 64, TimelineRole::None, ""}, none);
    sig_rx_msg_ = hub->signal({scope, "rx_msg", SignalKind::Int, 64, TimelineRole::None, ""}, none);
    sig_tx_dma_ = hub->signal({scope, "tx_dma", SignalKind::Bit, 1, TimelineRole::None, ""});
    sig_rx_dma_ = hub->signal({scope, "rx_dma", SignalKind::Bit, 1, TimelineRole::None, ""});
    sig_rx_ring_ = hub->signal({scope, "rx_ring", SignalKind::Int, 16, TimelineRole::Counter, ""});
}

void NiTrace::message_send_begins(uint64_t now, uint64_t message_id, uint32_t dest,
                                  uint32_t header_bytes, uint32_t body_bytes) {
    hub_->set(sig_tx_msg_, now, static_cast<int64_t>(message_id));
    hub_->log({now, "NET", scope_, trace::Direction::Begin, "MSG", message_id,
               "src=" + std::to_string(node_id_) + " dst=" + std::to_string(dest) + " header=" +
                   std::to_string(header_bytes) + " bytes=" + std::to_string(body_bytes)});
}

void NiTrace::message_send_ends(uint64_t now) {
    hub_->set(sig_tx_msg_, now, trace::kNoValue);
}

void NiTrace::tx_dma(uint64_t start, uint64_t done) {
    hub_->set(sig_tx_dma_, start, 1);
    hub_->set(sig_tx_dma_, done, 0);
}

void NiTrace::rx_dma(uint64_t start, uint64_t done) {
    hub_->set(sig_rx_dma_, start, 1);
    hub_->set(sig_rx_dma_, done, 0);
}

void NiTrace::message_received(uint64_t now, uint64_t message_id, bool last, uint32_t src,
                               uint32_t body_bytes, uint32_t rx_records) {
    hub_->set(sig_rx_msg_, now, last ? trace::kNoValue : static_cast<int64_t>(message_id));
    if (last) {
        hub_->log({now, "NET", scope_, trace::Direction::End, "MSG", message_id,
                   "src=" + std::to_string(src) + " dst=" + std::to_string(node_id_) +
                       " bytes=" + std::to_string(body_bytes)});
    }
    rx_ring(now, rx_records);
}

void NiTrace::rx_ring(uint64_t now, uint32_t rx_records) {
    hub_->set(sig_rx_ring_, now, rx_records);
}

} // namespace starfish::node
