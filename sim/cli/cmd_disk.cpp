#include "sim/cli/cmd_disk.h"

#include "hw/data_pattern.h"
#include "hw/scsi_regs.h"
#include "sim/cli/common.h"
#include "sim/report/run_result.h"
#include "sim/runner/host_clock.h"
#include "tlm_models/storage/hp97560_disk.h"
#include "tlm_models/node/node_memory.h"
#include "tlm_models/storage/scsi_bus.h"
#include "tlm_models/storage/scsi_host_adapter.h"

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numeric>
#include <sstream>

namespace starfish::sim {

using nlohmann::json;
using namespace starfish::storage;
using starfish::node::NodeMemory;

// ---- CSV input ------------------------------------------------------------------------

namespace {

std::string trim(const std::string &s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    size_t e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split_csv(const std::string &line) {
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ',')) {
        out.push_back(trim(field));
    }
    if (!line.empty() && line.back() == ',') {
        out.emplace_back();
    }
    return out;
}

[[noreturn]] void input_error(const std::string &path, int line, const std::string &what) {
    throw DiskInputError(path + ":" + std::to_string(line) + ": " + what);
}

double parse_number(const std::string &path, int line, const std::string &column,
                    const std::string &text) {
    char *end = nullptr;
    errno = 0;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(v)) {
        input_error(path, line, "column '" + column + "': '" + text + "' is not a number");
    }
    return v;
}

uint64_t parse_count(const std::string &path, int line, const std::string &column,
                     const std::string &text, uint64_t max) {
    double v = parse_number(path, line, column, text);
    if (v < 0 || v != std::floor(v) || v > static_cast<double>(max)) {
        input_error(path, line,
                    "column '" + column + "': '" + text + "' is not an integer in [0, " +
                        std::to_string(max) + "]");
    }
    return static_cast<uint64_t>(v);
}

// Lines of a CSV file: header fields and rows with their line numbers.
struct CsvFile {
    std::vector<std::string> header;
    std::vector<std::pair<int, std::vector<std::string>>> rows;
};

CsvFile read_csv(const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        throw DiskInputError(path + ": cannot open: " + std::strerror(errno));
    }
    CsvFile f;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (trim(line).empty()) {
            continue;
        }
        auto fields = split_csv(line);
        if (f.header.empty()) {
            f.header = fields;
            continue;
        }
        if (fields.size() != f.header.size()) {
            input_error(path, n,
                        std::to_string(fields.size()) + " fields, but the header has " +
                            std::to_string(f.header.size()));
        }
        f.rows.emplace_back(n, std::move(fields));
    }
    if (f.header.empty()) {
        input_error(path, 1, "empty file: expected a header line");
    }
    return f;
}

int column_index(const std::string &path, const std::vector<std::string> &header,
                 const std::string &name, bool required) {
    auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) {
        if (required) {
            input_error(path, 1, "missing column '" + name + "'");
        }
        return -1;
    }
    return static_cast<int>(it - header.begin());
}

} // namespace

DiskTrace read_disk_trace(const std::string &path, uint32_t disks, uint64_t capacity) {
    CsvFile f = read_csv(path);
    DiskTrace t;
    t.path = path;
    t.header = f.header;
    int c_time = column_index(path, f.header, "time_ms", true);
    int c_disk = column_index(path, f.header, "disk", true);
    int c_lba = column_index(path, f.header, "lba", true);
    int c_sectors = column_index(path, f.header, "sectors", true);
    int c_op = column_index(path, f.header, "op", true);
    t.response_column = column_index(path, f.header, "response_ms", false);
    for (auto &[line, fields] : f.rows) {
        DiskTraceRequest r;
        r.line = line;
        double ms = parse_number(path, line, "time_ms", fields[c_time]);
        if (ms < 0) {
            input_error(path, line, "column 'time_ms': negative time " + fields[c_time]);
        }
        r.time_ps = static_cast<uint64_t>(std::llround(ms * 1e9));
        r.disk = static_cast<uint32_t>(
            parse_count(path, line, "disk", fields[c_disk], HW_SCSI_MAX_TARGETS * 1024u));
        if (disks > 0 && r.disk >= disks) {
            input_error(path, line,
                        "disk index " + fields[c_disk] + " out of range (" + std::to_string(disks) +
                            " disk(s): 0.." + std::to_string(disks - 1) + ")");
        }
        r.lba = static_cast<uint32_t>(parse_count(path, line, "lba", fields[c_lba], 0xffffffffu));
        r.sectors = static_cast<uint32_t>(
            parse_count(path, line, "sectors", fields[c_sectors], HW_SCSI_MAX_BLOCKS10));
        if (r.sectors == 0) {
            input_error(path, line, "column 'sectors': a request needs at least one sector");
        }
        if (capacity > 0 && static_cast<uint64_t>(r.lba) + r.sectors > capacity) {
            input_error(path, line,
                        "sectors [" + fields[c_lba] + ", +" + fields[c_sectors] +
                            ") beyond the disk's " + std::to_string(capacity) + " sectors");
        }
        const std::string &op = fields[c_op];
        if (op == "R" || op == "r") {
            r.write = false;
        } else if (op == "W" || op == "w") {
            r.write = true;
        } else {
            input_error(path, line, "column 'op': '" + op + "' is not R or W");
        }
        t.requests.push_back(r);
        t.rows.push_back(std::move(fields));
    }
    return t;
}

std::vector<double> read_response_column(const std::string &path) {
    CsvFile f = read_csv(path);
    int c = column_index(path, f.header, "response_ms", true);
    std::vector<double> out;
    out.reserve(f.rows.size());
    for (auto &[line, fields] : f.rows) {
        double v = parse_number(path, line, "response_ms", fields[c]);
        if (v < 0) {
            input_error(path, line, "column 'response_ms': negative time " + fields[c]);
        }
        out.push_back(v);
    }
    if (out.empty()) {
        input_error(path, 2, "no rows");
    }
    return out;
}

// ---- demerit ----------------------------------------------------------------------------

double demerit(std::vector<double> a, std::vector<double> b) {
    if (a.empty() || b.empty()) {
        throw std::invalid_argument("demerit of an empty distribution");
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    // Both quantile functions are step functions of p: a[i] on (i/na, (i+1)/na].
    // Walk the merged breakpoints and integrate the squared difference exactly.
    const uint64_t na = a.size(), nb = b.size();
    uint64_t i = 0, j = 0;
    double p = 0, sum = 0;
    while (i < na && j < nb) {
        // Next breakpoint: (i+1)/na or (j+1)/nb, compared in integers.
        bool a_first = (i + 1) * nb <= (j + 1) * na;
        double next = a_first ? static_cast<double>(i + 1) / na : static_cast<double>(j + 1) / nb;
        double d = a[i] - b[j];
        sum += (next - p) * d * d;
        p = next;
        if ((i + 1) * nb == (j + 1) * na) {
            ++i;
            ++j;
        } else if (a_first) {
            ++i;
        } else {
            ++j;
        }
    }
    return std::sqrt(sum);
}

// ---- replay -----------------------------------------------------------------------------

namespace {

// Plays the role of the IOP firmware: keeps a FIFO of requests per disk, submits
// them through the adapters' registers as queue slots free up, drains the done
// FIFOs on interrupt and checks every byte.
class ReplayHost : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(ReplayHost);

    struct Bus {
        std::unique_ptr<NodeMemory> memory;
        std::unique_ptr<ScsiBus> bus;
        std::unique_ptr<ScsiHostAdapter> adapter;
        std::unique_ptr<sc_core::sc_signal<bool>> irq;
        // Register accesses go through the adapter's TLM socket, as the CPU's do.
        std::unique_ptr<tlm_utils::simple_initiator_socket<ReplayHost>> regs;
        std::unique_ptr<tlm_utils::simple_initiator_socket<ReplayHost>> memory_port; // unused
        std::vector<uint32_t> disks; // global disk index per target id
        uint32_t slot_bytes = 0;
        uint32_t buffers_base = 0;
    };

    ReplayHost(sc_core::sc_module_name name, const config::Config &cfg,
               const std::vector<DiskTraceRequest> &requests, const DiskReplayOptions &opt)
        : sc_core::sc_module(name), requests_(requests), seed_(cfg.get_int("workload.seed")) {
        DiskParams dp = DiskParams::from(cfg);
        ScsiBusParams bp = ScsiBusParams::from(cfg);
        ScsiAdapterParams ap = ScsiAdapterParams::from(cfg);
        depth_ = ap.queue_depth;
        uint32_t max_sectors = 1;
        for (const auto &r : requests) {
            max_sectors = std::max(max_sectors, r.sectors);
        }
        buses_.resize(opt.buses);
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
            bus.memory = std::make_unique<NodeMemory>(
                ("memory" + suffix).c_str(), static_cast<uint32_t>(std::max<uint64_t>(bytes, 64)));
            bus.bus = std::make_unique<ScsiBus>(("bus" + suffix).c_str(), bp);
            bus.adapter = std::make_unique<ScsiHostAdapter>(("adapter" + suffix).c_str(), ap,
                                                            *bus.memory, *bus.bus, b, 0);
            bus.irq = std::make_unique<sc_core::sc_signal<bool>>(("irq" + suffix).c_str());
            bus.adapter->irq(*bus.irq);
            bus.regs = std::make_unique<tlm_utils::simple_initiator_socket<ReplayHost>>(
                ("regs" + suffix).c_str());
            bus.regs->bind(bus.adapter->regs);
            bus.memory_port = std::make_unique<tlm_utils::simple_initiator_socket<ReplayHost>>(
                ("memory_port" + suffix).c_str());
            bus.memory_port->bind(bus.memory->socket);
            bus.slot_bytes = max_sectors * HW_SECTOR_BYTES;
            bus.buffers_base = static_cast<uint32_t>(slots * sizeof(hw_scsi_desc_t));
            for (uint32_t t = 0; t < bus.disks.size(); ++t) {
                uint32_t d = bus.disks[t];
                disks_.resize(opt.disks);
                disks_[d] = std::make_unique<Hp97560Disk>(("disk" + std::to_string(d)).c_str(), dp,
                                                          *bus.bus, d, seed_, opt.trial);
            }
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
            throw std::runtime_error("replay: register access failed");
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
    std::vector<std::unique_ptr<Hp97560Disk>> disks_;
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
        json s = b.bus->stats().to_json();
        s["adapter"] = b.adapter->stats().to_json();
        res.events += b.bus->events();
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

// ---- commands -----------------------------------------------------------------------------

namespace {

struct ReplayOptions {
    CommonOptions common;
    std::string trace;
    std::string out;
    uint32_t disks = 0;
    uint32_t buses = 1;
};

struct DemeritOptions {
    std::string a, b, json_path;
};

std::string format_ms(uint64_t ps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", ps * 1e-9);
    return buf;
}

int run_replay(const ReplayOptions &opt) {
    HostClock clock;
    config::Config cfg = load_config(opt.common);
    std::ostream &out = opt.common.human();
    DiskParams dp = DiskParams::from(cfg);
    uint64_t capacity = static_cast<uint64_t>(dp.cylinders) * dp.heads * dp.sectors_per_track;
    DiskTrace trace = read_disk_trace(opt.trace, opt.disks, capacity);
    uint32_t disks = opt.disks;
    if (disks == 0) {
        for (const auto &r : trace.requests) {
            disks = std::max(disks, r.disk + 1);
        }
        disks = std::max(disks, 1u);
    }
    if (opt.buses == 0 || opt.buses > disks) {
        throw DiskInputError("--buses " + std::to_string(opt.buses) + ": need 1 .. " +
                             std::to_string(disks) + " (one or more disks per bus)");
    }
    DiskReplayOptions ro;
    ro.disks = disks;
    ro.buses = opt.buses;
    DiskReplayResult res = run_disk_replay(cfg, trace.requests, ro);

    std::ofstream csv(opt.out);
    if (!csv) {
        throw DiskInputError(opt.out + ": cannot write: " + std::strerror(errno));
    }
    std::vector<std::string> header = trace.header;
    if (trace.response_column < 0) {
        header.push_back("response_ms");
    }
    for (size_t k = 0; k < header.size(); ++k) {
        csv << (k ? "," : "") << header[k];
    }
    csv << "\n";
    for (size_t i = 0; i < trace.rows.size(); ++i) {
        std::vector<std::string> row = trace.rows[i];
        std::string ms = format_ms(res.response_ps[i]);
        if (trace.response_column < 0) {
            row.push_back(ms);
        } else {
            row[trace.response_column] = ms; // the model's answer replaces the measured one
        }
        for (size_t k = 0; k < row.size(); ++k) {
            csv << (k ? "," : "") << row[k];
        }
        csv << "\n";
    }
    csv.close();

    const json &s = res.summary;
    out << "replayed " << trace.requests.size() << " request(s) on " << disks << " disk(s), "
        << opt.buses << " bus(es): mean response " << std::fixed << std::setprecision(3)
        << s["mean_response_ms"].get<double>() << " ms, max " << s["max_response_ms"].get<double>()
        << " ms, " << s["throughput_mb_s"].get<double>() << " MB/s over " << res.sim_s
        << " simulated s\n";
    out << "wrote " << opt.out << "\n";
    out.unsetf(std::ios::fixed);

    RunResult result("disk replay", cfg);
    result.doc()["trace"] = opt.trace;
    result.doc()["output"] = opt.out;
    result.set_summary(s);
    HostStats host;
    host.wall_s = clock.elapsed_s();
    host.sim_s = res.sim_s;
    host.events = res.events;
    result.set_host(host);
    out << host.line() << "\n";
    if (!opt.common.json_path.empty()) {
        result.write(opt.common.json_path);
    }
    return kExitOk;
}

int run_demerit(const DemeritOptions &opt) {
    std::vector<double> a = read_response_column(opt.a);
    std::vector<double> b = read_response_column(opt.b);
    double d = demerit(a, b);
    double mean_a = std::accumulate(a.begin(), a.end(), 0.0) / a.size();
    double mean_b = std::accumulate(b.begin(), b.end(), 0.0) / b.size();
    double percent = mean_a > 0 ? 100.0 * d / mean_a : 0.0;
    std::ostream &out = opt.json_path == "-" ? std::cerr : std::cout;
    out << std::fixed << std::setprecision(4) << "demerit " << d << " ms = " << percent
        << " % of the mean of " << opt.a << " (" << mean_a << " ms; " << opt.b << ": " << mean_b
        << " ms; " << a.size() << " and " << b.size() << " responses)\n";
    if (!opt.json_path.empty()) {
        json doc{{"command", "disk demerit"}, {"a", opt.a},          {"b", opt.b},
                 {"count_a", a.size()},       {"count_b", b.size()}, {"mean_a_ms", mean_a},
                 {"mean_b_ms", mean_b},       {"demerit_ms", d},     {"demerit_percent", percent}};
        if (opt.json_path == "-") {
            std::cout << doc.dump(2) << "\n";
        } else {
            std::ofstream(opt.json_path) << doc.dump(2) << "\n";
        }
    }
    return kExitOk;
}

template <class F> void guarded(int &exit_status, F f) {
    try {
        exit_status = f();
    } catch (const DiskInputError &e) {
        std::cerr << "starfish: " << e.what() << "\n";
        exit_status = kExitUsage;
    }
}

} // namespace

void add_disk_command(CLI::App &app, int &exit_status) {
    CLI::App *disk = app.add_subcommand("disk", "HP 97560 disk model: trace replay and "
                                                "validation (docs/disk.md)");
    disk->require_subcommand(1);

    auto ro = std::make_shared<ReplayOptions>();
    CLI::App *replay = disk->add_subcommand(
        "replay", "feed a request trace (CSV time_ms,disk,lba,sectors,op) through the disk "
                  "model and write it back with a response_ms column");
    add_common_options(replay, ro->common);
    replay->add_option("--trace", ro->trace, "request trace CSV")->required();
    replay->add_option("--out", ro->out, "output CSV: the trace plus response_ms")->required();
    replay->add_option("--disks", ro->disks, "number of drives (default: largest disk index + 1)");
    replay->add_option("--buses", ro->buses,
                       "SCSI buses, each with its own host adapter; disk d on bus d % buses "
                       "(default 1)");
    replay->callback([ro, &exit_status] { guarded(exit_status, [&] { return run_replay(*ro); }); });

    auto dm = std::make_shared<DemeritOptions>();
    CLI::App *dem = disk->add_subcommand(
        "demerit", "RMS horizontal distance between the response-time distributions of two "
                   "CSV files (column response_ms), in ms and as % of the mean of the first");
    dem->add_option("a", dm->a, "reference CSV (e.g. measured)")->required();
    dem->add_option("b", dm->b, "CSV to compare (e.g. modelled)")->required();
    dem->add_option("--json", dm->json_path, "write the result as JSON to FILE ('-' = stdout)");
    dem->callback([dm, &exit_status] { guarded(exit_status, [&] { return run_demerit(*dm); }); });
}

} // namespace starfish::sim
