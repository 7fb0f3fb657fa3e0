#include "sim/platform/machine.h"

#include "fw/param_keys.h"
#include "hw/node_map.h"
#include "hw/scsi_regs.h"
#include "sim/platform/network_factory.h"
#include "sim/platform/watchdog.h"
#include "tlm_models/net/net_params.h"

#include <algorithm>
#include <stdexcept>

namespace starfish::platform {

using nlohmann::json;

Machine::Machine(const config::Config &cfg, int trial, const FirmwareSet &firmware,
                 const std::string &rtl_fst)
    : cfg_(cfg), trial_(trial), shape_(MachineShape::from(cfg)) {
    if (shape_.disks_per_iop > static_cast<int>(HW_SCSI_MAX_TARGETS)) {
        throw std::invalid_argument("machine.disks_per_iop exceeds the SCSI target limit");
    }
    uint64_t seed = static_cast<uint64_t>(cfg.get_int(keys::workload_seed));
    network_ = platform::make_network("net", net::NetParams::from(cfg), seed,
                                      static_cast<uint64_t>(trial), rtl_fst);
    std::vector<NodeSite> sites = shape_.sites();
    std::vector<int> routers(sites.size());
    for (const auto &s : sites) {
        routers[static_cast<size_t>(s.node)] = s.router;
    }
    ScsiChainParams scsi_params = ScsiChainParams::from(cfg);
    for (const auto &s : sites) {
        NodeSetup setup;
        setup.node_id = s.node;
        setup.role = s.role;
        setup.role_index = s.index;
        setup.cp_count = shape_.cp_count;
        setup.iop_count = shape_.iop_count;
        setup.disks_per_iop = shape_.disks_per_iop;
        setup.trial = trial;
        setup.router = s.router;
        setup.node_routers = routers;
        setup.main = s.role == NodeRole::Compute ? firmware.cp_main : firmware.iop_main;
        std::string name = (s.role == NodeRole::Compute ? "cp" : "iop") + std::to_string(s.index);
        nodes_.push_back(std::make_unique<Node>(name.c_str(), setup, cfg, *network_));
    }
    // One SCSI chain per IOP (adapter 0), its disks in target order.
    for (int k = 0; k < shape_.iop_count; ++k) {
        Node &n = iop(k);
        ScsiChainSetup chain;
        chain.prefix = "iop" + std::to_string(k);
        chain.node_id = static_cast<unsigned>(n.setup().node_id);
        chain.adapter_index = 0;
        for (int d = 0; d < shape_.disks_per_iop; ++d) {
            chain.disk_ids.push_back(static_cast<uint32_t>(k * shape_.disks_per_iop + d));
        }
        chain.seed = seed;
        chain.trial = static_cast<uint64_t>(trial);
        scsi_chains_.push_back(
            std::make_unique<ScsiChain>(chain, scsi_params, n.memory(), n.irq_line(HW_IRQ_SCSI0)));
        ScsiChain &c = *scsi_chains_.back();
        n.attach_device("scsi0", HW_SCSI_BASE, HW_SCSI_STRIDE, c.adapter().regs);
        buses_.push_back(&c.bus());
        for (unsigned t = 0; t < c.disk_count(); ++t) {
            disks_.push_back(&c.disk(t));
        }
    }
    // An adapter's programming errors reach its IOP's failure report.
    for (int k = 0; k < shape_.iop_count; ++k) {
        scsi_chains_.at(static_cast<size_t>(k))->adapter().fault.bind(iop(k).device_faults());
    }
}

Machine::~Machine() = default;

std::string Machine::run() {
    return Watchdog(*this, WatchdogParams::from(cfg_)).run();
}

std::string Machine::failure() const {
    for (const auto &n : nodes_) {
        std::string f = n->failure();
        if (!f.empty()) {
            return f;
        }
    }
    return "";
}

std::string Machine::live_threads_report() const {
    std::string out;
    for (const auto &n : nodes_) {
        auto names = n->cpu().live_thread_names();
        if (names.empty()) {
            continue;
        }
        out += (out.empty() ? "" : "; ") + std::string(n->basename()) + ":";
        for (size_t i = 0; i < names.size(); ++i) {
            out += (i ? ", " : " ") + names[i];
        }
    }
    return out.empty() ? "no live threads" : out;
}

double Machine::sim_seconds() const {
    return sc_core::sc_time_stamp().to_seconds();
}

unsigned long long Machine::events() const {
    unsigned long long e = network_->stats().packets_delivered;
    for (const auto &d : disks_) {
        e += d->stats().requests;
    }
    for (const auto &n : nodes_) {
        auto s = n->cpu().stats();
        e += s.interrupts + s.context_switches;
    }
    return e;
}

json Machine::stats_json() const {
    json nodes = json::array();
    for (const auto &n : nodes_) {
        json j = n->stats_json();
        j["node"] = n->setup().node_id;
        j["role"] = role_name(n->setup().role);
        j["index"] = n->setup().role_index;
        nodes.push_back(j);
    }
    json disks = json::array();
    for (const auto &d : disks_) {
        disks.push_back(d->stats().to_json());
    }
    json buses = json::array();
    for (const auto &b : buses_) {
        buses.push_back(b->stats().to_json());
    }
    return json{
        {"nodes", nodes}, {"disks", disks}, {"buses", buses}, {"network", network_->stats_json()}};
}

json Machine::summary_json() const {
    double elapsed = sim_seconds();
    auto busy_fraction = [&](NodeRole role) {
        double sum = 0, max = 0;
        int count = 0;
        for (const auto &n : nodes_) {
            if (n->setup().role != role) {
                continue;
            }
            auto s = n->cpu().stats();
            double f = s.elapsed_ps ? static_cast<double>(s.busy_ps()) / s.elapsed_ps : 0.0;
            sum += f;
            max = std::max(max, f);
            ++count;
        }
        return json{{"mean", count ? sum / count : 0.0}, {"max", max}};
    };
    uint64_t movements = 0, seeks = 0, requests = 0, hits = 0;
    for (const auto &d : disks_) {
        auto s = d->stats();
        movements += s.movements;
        seeks += s.seeks;
        requests += s.requests;
        hits += s.cache_hits;
    }
    double bus_busy = 0;
    for (const auto &b : buses_) {
        bus_busy = std::max(bus_busy, elapsed > 0 ? b->stats().busy_ps * 1e-12 / elapsed : 0.0);
    }
    const auto &ns = network_->stats();
    return json{{"cpu_busy",
                 {{"cp", busy_fraction(NodeRole::Compute)}, {"iop", busy_fraction(NodeRole::Io)}}},
                {"disk",
                 {{"requests", requests},
                  {"movements", movements},
                  {"seeks", seeks},
                  {"cache_hits", hits}}},
                {"bus_busy_max", bus_busy},
                {"network",
                 {{"packets", ns.packets_delivered},
                  {"payload_bytes", ns.payload_bytes_delivered},
                  {"mean_latency_cycles", ns.mean_latency()},
                  {"p99_latency_cycles", ns.latency_percentile(99)},
                  {"blocked_cycles", ns.blocked_cycles}}}};
}

} // namespace starfish::platform
