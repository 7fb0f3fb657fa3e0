// NetworkInterface::queue_report: the NI's queues in words for the deadlock
// watchdog (docs/watchdog.md). Kept apart from the data path in
// network_interface.cpp; it reads state only.
#include "tlm_models/node/network_interface.h"

namespace starfish::node {

std::string NetworkInterface::queue_report() const {
    uint32_t tx_queued = params_.tx_queue_depth - core_.tx_free();
    uint64_t buffered = params_.rx_buffer_bytes - core_.buffer_free();
    uint32_t records = core_.rx_records();
    if (tx_queued == 0 && buffered == 0 && records == 0 && dma_jobs_.empty() &&
        reassembly_.empty()) {
        return "";
    }
    return "send queue " + std::to_string(tx_queued) + "/" +
           std::to_string(params_.tx_queue_depth) + " descriptors, receive ring " +
           std::to_string(records) + " records not popped, receive buffer " +
           std::to_string(buffered) + "/" + std::to_string(params_.rx_buffer_bytes) +
           " bytes held, " + std::to_string(dma_jobs_.size()) + " deposits queued, " +
           std::to_string(reassembly_.size()) + " messages arriving";
}

} // namespace starfish::node
