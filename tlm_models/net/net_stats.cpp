#include "tlm_models/net/net_stats.h"

#include <algorithm>
#include <cmath>

namespace starfish::net {

double NetStats::mean_latency() const {
    if (latencies.empty()) {
        return 0;
    }
    double sum = 0;
    for (uint32_t l : latencies) {
        sum += l;
    }
    return sum / double(latencies.size());
}

uint32_t NetStats::latency_percentile(double p) const {
    if (latencies.empty()) {
        return 0;
    }
    std::vector<uint32_t> sorted = latencies;
    size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * double(sorted.size())));
    rank = std::clamp<size_t>(rank, 1, sorted.size());
    std::nth_element(sorted.begin(), sorted.begin() + long(rank - 1), sorted.end());
    return sorted[rank - 1];
}

nlohmann::json NetStats::to_json(const TorusTopology &topo, uint64_t cycle_ps) const {
    using nlohmann::json;
    json links = json::array();
    for (int ch = 0; ch < int(channels.size()); ++ch) {
        const ChannelStats &c = channels[ch];
        links.push_back(json{{"channel", topo.channel_name(ch)},
                             {"busy_cycles", c.busy_cycles},
                             {"packets", c.packets},
                             {"head_wait_cycles", c.head_wait_cycles}});
    }
    uint32_t max_latency =
        latencies.empty() ? 0 : *std::max_element(latencies.begin(), latencies.end());
    return json{{"cycle_ps", cycle_ps},
                {"packets_accepted", packets_accepted},
                {"packets_delivered", packets_delivered},
                {"flits_delivered", flits_delivered},
                {"payload_bytes_delivered", payload_bytes_delivered},
                {"refusals", refusals},
                {"noise_cycles", noise_cycles},
                {"blocked_cycles", blocked_cycles},
                {"last_delivery_cycle", last_delivery_cycle},
                {"mean_latency_cycles", mean_latency()},
                {"p50_latency_cycles", latency_percentile(50)},
                {"p90_latency_cycles", latency_percentile(90)},
                {"p99_latency_cycles", latency_percentile(99)},
                {"max_latency_cycles", max_latency},
                {"channels", links}};
}

} // namespace starfish::net
