#include "sim/workload/disk_replay.h"

#include "fw/param_keys.h"
#include "hw/data_pattern.h"
#include "hw/scsi_regs.h"
#include "sim/platform/scsi_chain.h"
#include "tlm_models/node/node_memory.h"

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace starfish::sim {

using nlohmann::json;
using storage::Hp97560Disk;

namespace {

// Plays the role of the IOP firmware: keeps a FIFO of requests per disk, submits
// them through the adapters' registers as queue slots free up, drains the done
// FIFOs on interrupt and checks every byte.
class ReplayHost : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(ReplayHost);

    struct Bus {
        std::unique_ptr<node::NodeMemory> memory;
        std::unique_ptr<sc_core::sc_signal<bool>> irq;
        std::unique_ptr<platform::ScsiChain> chain;
        // Register accesses go through the adapter's TLM socket, as the CPU's do.
        std::unique_ptr<tlm_utils::simple_initiator_socket<ReplayHost>> regs;
        std::unique_ptr<tlm_utils::simple_initiator_socket<ReplayHost>> memory_port; // unused
        std::vector<uint32_t> disks; // global disk index per target id
        uint32_t slot_bytes = 0;
        uint32_t buffers_base = 0;
    };

    ReplayHost(sc_core::sc_module_name name, const config::Config &cfg,
               const std::vector<DiskTraceRequest> &requests, const DiskReplayOptions &opt)
        : sc_core::sc_module(name), requests_(requests), seed_(cfg.get_int(keys::workload_seed)) {
        platform::ScsiChainParams params = platform::ScsiChainParams::from(cfg);
        depth_ = params.adapter.queue_depth;
        uint32_t max_sectors = 1;
        for (const auto &r : requests) {
            max_sectors = std::max(max_sectors, r.sectors);
        }
        buses_.resize(opt.buses);
        disks_.assign(opt.disks, nullptr);
        disk_bus_.resize(opt.disks);
        disk_target_.resize(opt.disks);
        for (uint32_t d = 0; d < opt.disks; ++d) {
            uint32_t b = d % opt.buses;
            disk_bus_[d] = b;
            disk_target_[d] = static_cast<uint32_t>(buses_[b].disks.size());
            buses_[b].disks.push_back(d);
        }
        for (uint32_t b = 0; b < opt.buses; ++b) {
            Bus &bus = buses_[b];
            uint64_t slots = static_cast<uint64_t>(bus.disks.size()) * depth_;
            uint64_t bytes = slots * (sizeof(hw_scsi_desc_t) + max_sectors * HW_SECTOR_BYTES);
            if (bytes > (1ull << 31)) {
                throw DiskInputError("replay: requests of " + std::to_string(max_sectors) +
                                     " sectors need " + std::to_string(bytes >> 20) +
                                     " MB of host buffers per bus; lower scsi.queue_depth");
            }
            std::string suffix = std::to_string(b);
            bus.memory = std::make_unique<node::NodeMemory>(
                ("memory" + suffix).c_str(), static_cast<uint32_t>(std::max<uint64_t>(bytes, 64)));
            bus.irq = std::make_unique<sc_core::sc_signal<bool>>(("irq" + suffix).c_str());
            platform::ScsiChainSetup setup;
            setup.prefix = "chain" + suffix;
            setup.node_id = b;
            setup.disk_ids = bus.disks;
            setup.seed = seed_;
            setup.trial = opt.trial;
            bus.chain = std::make_unique<platform::ScsiChain>(setup, params, *bus.memory, *bus.irq);
            for (uint32_t t = 0; t < bus.disks.size(); ++t) {
                disks_[bus.disks[t]] = &bus.chain->disk(t);
            }
            bus.regs = std::make_unique<tlm_utils::simple_initiator_socket<ReplayHost>>(
                ("regs" + suffix).c_str());
            bus.regs->bind(bus.chain->adapter().regs);
            bus.memory_port = std::make_unique<tlm_utils::simple_initiator_socket<ReplayHost>>(
                ("memory_port" + suffix).c_str());
            bus.memory_port->bind(bus.memory->socket);
            bus.slot_bytes = max_sectors * HW_SECTOR_BYTES;
            bus.buffers_base = static_cast<uint32_t>(slots * sizeof(hw_scsi_desc_t));
            reg_write(b, HW_SCSI_REG_CTRL, HW_SCSI_CTRL_IRQ_ENABLE);
            free_slots_.emplace_back(bus.disks.size());
            for (uint32_t t = 0; t < bus.disks.size(); ++t) {
                for (uint32_t k = 0; k < depth_; ++k) {
                    free_slots_[b][t].push_back(depth_ - 1 - k);
                }
            }
        }
        order_.resize(requests.size());
        std::iota(order_.begin(), order_.end(), 0);
        std::stable_sort(order_.begin(), order_.end(), [&](size_t x, size_t y) {
            return requests[x].time_ps < requests[y].time_ps;
        });
        waiting_.resize(opt.disks);
        complete_ps.assign(requests.size(), 0);
        SC_METHOD(step);
        sensitive << arrival_;
        for (auto &bus : buses_) {
            sensitive << *bus.irq;
        }
    }

    std::vector<uint64_t> complete_ps;
    size_t completed = 0;

    Hp97560Disk &disk(uint32_t d) { return *disks_[d]; }
    std::vector<Bus> &buses() { return buses_; }

private:
    void step() {
        uint64_t now = sc_core::sc_time_stamp().value();
        while (next_ < order_.size() && requests_[order_[next_]].time_ps <= now) {
            size_t i = order_[next_++];
            waiting_[requests_[i].disk].push_back(i);
            submit_waiting(requests_[i].disk);
        }
        for (uint32_t b = 0; b < buses_.size(); ++b) {
            drain(b, now);
        }
        if (next_ < order_.size()) {
            arrival_.notify(sc_core::sc_time::from_value(requests_[order_[next_]].time_ps - now));
        }
    }

    uint32_t reg_access(uint32_t b, tlm::tlm_command cmd, uint32_t offset, uint32_t value) {
        tlm::tlm_generic_payload trans;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        trans.set_command(cmd);
        trans.set_address(offset);
        trans.set_data_ptr(reinterpret_cast<unsigned char *>(&value));
        trans.set_data_length(4);
        trans.set_streaming_width(4);
        (*buses_[b].regs)->b_transport(trans, delay);
        if (trans.get_response_status() != tlm::TLM_OK_RESPONSE) {
            throw std::runtime_error("replay: " + buses_[b].chain->adapter().fault.failure());
        }
        return value;
    }
    uint32_t reg_read(uint32_t b, uint32_t offset) {
        return reg_access(b, tlm::TLM_READ_COMMAND, offset, 0);
    }
    void reg_write(uint32_t b, uint32_t offset, uint32_t value) {
        reg_access(b, tlm::TLM_WRITE_COMMAND, offset, value);
    }

    uint32_t desc_addr(uint32_t, uint32_t target, uint32_t slot) const {
        return (target * depth_ + slot) * static_cast<uint32_t>(sizeof(hw_scsi_desc_t));
    }
    uint32_t buffer_addr(uint32_t b, uint32_t target, uint32_t slot) const {
        const Bus &bus = buses_[b];
        return bus.buffers_base + (target * depth_ + slot) * bus.slot_bytes;
    }

    void submit_waiting(uint32_t d) {
        uint32_t b = disk_bus_[d], t = disk_target_[d];
        Bus &bus = buses_[b];
        while (!waiting_[d].empty() && !free_slots_[b][t].empty()) {
            size_t i = waiting_[d].front();
            waiting_[d].pop_front();
            uint32_t slot = free_slots_[b][t].back();
            free_slots_[b][t].pop_back();
            const DiskTraceRequest &r = requests_[i];
            uint32_t daddr = desc_addr(b, t, slot), baddr = buffer_addr(b, t, slot);
            auto *desc =
                reinterpret_cast<hw_scsi_desc_t *>(bus.memory->span(daddr, sizeof(hw_scsi_desc_t)));
            hw_scsi_desc_init10(desc, static_cast<uint32_t>(i), t,
                                r.write ? HW_SCSI_OP_WRITE10 : HW_SCSI_OP_READ10, 0, r.lba,
                                static_cast<uint16_t>(r.sectors), baddr);
            uint8_t *buf = bus.memory->span(baddr, r.sectors * HW_SECTOR_BYTES);
            if (r.write) {
                // Contents: the file pattern of a file numbered by the request.
                for (uint32_t k = 0; k < r.sectors * HW_SECTOR_BYTES; ++k) {
                    buf[k] = hw_file_byte(seed_ * 1000003u + i, k);
                }
            } else {
                std::memset(buf, 0xee, r.sectors * HW_SECTOR_BYTES);
            }
            slot_of_[i] = slot;
            reg_write(b, HW_SCSI_REG_SUBMIT, daddr);
        }
    }

    void drain(uint32_t b, uint64_t now) {
        Bus &bus = buses_[b];
        for (;;) {
            uint32_t tag = reg_read(b, HW_SCSI_REG_DONE);
            if (tag == HW_SCSI_NONE) {
                return;
            }
            size_t i = tag;
            const DiskTraceRequest &r = requests_[i];
            uint32_t t = disk_target_[r.disk], slot = slot_of_.at(i);
            slot_of_.erase(i);
            const auto *desc = reinterpret_cast<const hw_scsi_desc_t *>(
                bus.memory->span(desc_addr(b, t, slot), sizeof(hw_scsi_desc_t)));
            if (desc->status != HW_SCSI_STATUS_GOOD) {
                throw std::runtime_error("replay: request on line " + std::to_string(r.line) +
                                         " ended with status " + std::to_string(desc->status) +
                                         " sense " + std::to_string(desc->sense_key) + "/" +
                                         std::to_string(desc->asc));
            }
            // The drive must hold, and a read must have returned, exactly these bytes.
            const uint8_t *buf =
                bus.memory->span(buffer_addr(b, t, slot), r.sectors * HW_SECTOR_BYTES);
            check_.resize(r.sectors * HW_SECTOR_BYTES);
            disks_[r.disk]->read_sectors(r.lba, r.sectors, check_.data());
            if (std::memcmp(buf, check_.data(), check_.size()) != 0) {
                throw std::runtime_error(
                    "replay: data mismatch for the request on line " + std::to_string(r.line) +
                    " (disk " + std::to_string(r.disk) + ", lba " + std::to_string(r.lba) + ")");
            }
            complete_ps[i] = now;
            ++completed;
            free_slots_[b][t].push_back(slot);
            submit_waiting(r.disk);
        }
    }

    const std::vector<DiskTraceRequest> &requests_;
    uint64_t seed_;
    uint32_t depth_ = 1;
    std::vector<Bus> buses_;
    std::vector<Hp97560Disk *> disks_; // by global id, in the chains
    std::vector<uint32_t> disk_bus_, disk_target_;
    std::vector<std::vector<std::vector<uint32_t>>> free_slots_; // [bus][target] -> slots
    std::vector<std::deque<size_t>> waiting_;
    std::unordered_map<size_t, uint32_t> slot_of_;
    std::vector<size_t> order_;
    size_t next_ = 0;
    std::vector<uint8_t> check_;
    sc_core::sc_event arrival_;
};

} // namespace

DiskReplayResult run_disk_replay(const config::Config &cfg,
                                 const std::vector<DiskTraceRequest> &requests,
                                 const DiskReplayOptions &options) {
    if (options.disks == 0 || options.buses == 0 || options.buses > options.disks) {
        throw DiskInputError("replay: need at least one disk and 1 <= buses <= disks");
    }
    for (const auto &r : requests) {
        if (r.disk >= options.disks) {
            throw DiskInputError("replay: request on line " + std::to_string(r.line) +
                                 " names disk " + std::to_string(r.disk) + " of " +
                                 std::to_string(options.disks));
        }
    }
    ReplayHost host("replay", cfg, requests, options);
    sc_core::sc_start();
    if (host.completed != requests.size()) {
        throw std::runtime_error("replay: only " + std::to_string(host.completed) + " of " +
                                 std::to_string(requests.size()) + " requests completed");
    }
    DiskReplayResult res;
    res.complete_ps = host.complete_ps;
    res.response_ps.resize(requests.size());
    uint64_t last = 0, bytes = 0, reads = 0;
    double sum_ms = 0, max_ms = 0;
    for (size_t i = 0; i < requests.size(); ++i) {
        res.response_ps[i] = res.complete_ps[i] - requests[i].time_ps;
        last = std::max(last, res.complete_ps[i]);
        bytes += static_cast<uint64_t>(requests[i].sectors) * HW_SECTOR_BYTES;
        reads += requests[i].write ? 0 : 1;
        double ms = res.response_ps[i] * 1e-9;
        sum_ms += ms;
        max_ms = std::max(max_ms, ms);
    }
    res.sim_s = last * 1e-12;
    json disks = json::array(), buses = json::array();
    for (uint32_t d = 0; d < options.disks; ++d) {
        json s = host.disk(d).stats().to_json();
        s["disk"] = d;
        res.events += host.disk(d).events();
        disks.push_back(s);
    }
    for (auto &b : host.buses()) {
        json s = b.chain->bus().stats().to_json();
        s["adapter"] = b.chain->adapter().stats().to_json();
        res.events += b.chain->bus().events();
        buses.push_back(s);
    }
    size_t n = requests.size();
    res.summary = json{{"requests", n},
                       {"reads", reads},
                       {"writes", n - reads},
                       {"bytes", bytes},
                       {"simulated_s", res.sim_s},
                       {"mean_response_ms", n ? sum_ms / n : 0.0},
                       {"max_response_ms", max_ms},
                       {"throughput_mb_s", res.sim_s > 0 ? bytes / 1048576.0 / res.sim_s : 0.0},
                       {"disks", disks},
                       {"buses", buses}};
    return res;
}

TraceReplay replay_trace_file(const config::Config &cfg, const std::string &trace_path,
                              const OutputTarget &out, uint32_t disks, uint32_t buses) {
    storage::DiskParams dp = storage::DiskParams::from(cfg);
    uint64_t capacity = static_cast<uint64_t>(dp.cylinders) * dp.heads * dp.sectors_per_track;
    TraceReplay run;
    run.trace = read_disk_trace(trace_path, disks, capacity);
    run.disks = disks;
    if (run.disks == 0) {
        for (const auto &r : run.trace.requests) {
            run.disks = std::max(run.disks, r.disk + 1);
        }
        run.disks = std::max(run.disks, 1u);
    }
    if (buses == 0 || buses > run.disks) {
        throw DiskInputError("--buses " + std::to_string(buses) + ": need 1 .. " +
                             std::to_string(run.disks) + " (one or more disks per bus)");
    }
    DiskReplayOptions options;
    options.disks = run.disks;
    options.buses = buses;
    run.result = run_disk_replay(cfg, run.trace.requests, options);
    write_trace_with_responses(out, run.trace, run.result.response_ps);
    return run;
}

} // namespace starfish::sim
