// What the NI reports about itself, read from its parts' state only: the queues
// in words for the deadlock watchdog (docs/watchdog.md), the run's statistics
// and the observation set-up (the hooks themselves are NiTrace's). Kept apart
// from the data path.
#include "tlm_models/node/network_interface.h"

namespace starfish::node {

nlohmann::json NetworkInterfaceStats::to_json() const {
    return nlohmann::json{{"messages_sent", messages_sent},
                          {"packets_sent", packets_sent},
                          {"body_bytes_sent", body_bytes_sent},
                          {"messages_received", messages_received},
                          {"packets_received", packets_received},
                          {"body_bytes_received", body_bytes_received},
                          {"body_bytes_deposited", body_bytes_deposited},
                          {"body_bytes_discarded", body_bytes_discarded},
                          {"rx_buffer_high_water", rx_buffer_high_water},
                          {"refusals", refusals},
                          {"refusals_ring_full", refusals_ring_full},
                          {"refusals_buffer_full", refusals_buffer_full},
                          {"refusals_disabled", refusals_disabled}};
}

NetworkInterfaceStats NetworkInterface::stats() const {
    NetworkInterfaceStats s;
    const NiCoreStats &core = core_.stats();
    s.messages_sent = core.messages_sent;
    s.packets_sent = send_.packets_sent();
    s.body_bytes_sent = send_.body_bytes_sent();
    s.messages_received = core.messages_received;
    const NiPacketReceiver::Counters &rx = receiver_.counters();
    s.packets_received = rx.packets_received;
    s.body_bytes_received = rx.body_bytes_received;
    s.body_bytes_deposited = core.body_bytes_deposited;
    s.body_bytes_discarded = core.body_bytes_discarded;
    s.rx_buffer_high_water = core.rx_buffer_high_water;
    s.refusals = rx.refusals;
    s.refusals_ring_full = rx.refusals_ring_full;
    s.refusals_buffer_full = rx.refusals_buffer_full;
    s.refusals_disabled = rx.refusals_disabled;
    return s;
}

void NetworkInterface::observe(trace::TraceHub *hub, const std::string &scope) {
    trace_.open(hub, scope);
}

std::string NetworkInterface::queue_report() const {
    uint32_t tx_queued = params_.tx_queue_depth - core_.tx_free();
    uint64_t buffered = params_.rx_buffer_bytes - core_.buffer_free();
    uint32_t records = core_.rx_records();
    if (tx_queued == 0 && buffered == 0 && records == 0 && receive_dma_.queued() == 0 &&
        receiver_.messages_arriving() == 0) {
        return "";
    }
    return "send queue " + std::to_string(tx_queued) + "/" +
           std::to_string(params_.tx_queue_depth) + " descriptors, receive ring " +
           std::to_string(records) + " records not popped, receive buffer " +
           std::to_string(buffered) + "/" + std::to_string(params_.rx_buffer_bytes) +
           " bytes held, " + std::to_string(receive_dma_.queued()) + " deposits queued, " +
           std::to_string(receiver_.messages_arriving()) + " messages arriving";
}

} // namespace starfish::node
