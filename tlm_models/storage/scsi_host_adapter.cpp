#include "tlm_models/storage/scsi_host_adapter.h"

#include "hw/node_map.h"
#include "hw/scsi_regs.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace starfish::storage {

namespace {
const char *error_name(uint32_t code) {
    static const char *const names[] = {"HW_SCSI_ERR_NONE",       "HW_SCSI_ERR_DESC_ADDR",
                                        "HW_SCSI_ERR_TARGET",     "HW_SCSI_ERR_BUF_ADDR",
                                        "HW_SCSI_ERR_QUEUE_FULL", "HW_SCSI_ERR_LENGTH",
                                        "HW_SCSI_ERR_CDB_LEN",    "HW_SCSI_ERR_REG"};
    return code < sizeof(names) / sizeof(names[0]) ? names[code] : "HW_SCSI_ERR_?";
}
} // namespace

nlohmann::json ScsiAdapterStats::to_json() const {
    return nlohmann::json{
        {"submitted", submitted},
        {"completed", completed},
        {"check_conditions", check_conditions},
        {"mean_response_s", completed ? response_ps_total * 1e-12 / completed : 0.0},
        {"max_response_s", response_ps_max * 1e-12}};
}

ScsiHostAdapter::ScsiHostAdapter(sc_core::sc_module_name name, const ScsiAdapterParams &params,
                                 node::NodeMemory &memory, ScsiBus &bus, unsigned node_id,
                                 unsigned adapter_index)
    : sc_core::sc_module(name), regs("regs"), irq("irq"),
      fault(static_cast<int>(node_id), "SCSI adapter " + std::to_string(adapter_index)),
      params_(params), regs_(hw_scsi_register_table, HW_SCSI_STRIDE), memory_(memory), bus_(bus),
      node_id_(node_id), adapter_index_(adapter_index) {
    regs_.set_value(HW_SCSI_REG_NODE, node_id_);
    regs_.set_value(HW_SCSI_REG_ADAPTER, adapter_index_);
    regs_.on_read(HW_SCSI_REG_CTRL, [this](unsigned) { return ctrl_; });
    regs_.on_write(HW_SCSI_REG_CTRL, [this](uint32_t value, unsigned) {
        ctrl_ = value & HW_SCSI_CTRL_IRQ_ENABLE;
        update_irq();
    });
    regs_.on_read(HW_SCSI_REG_ERROR, [this](unsigned) { return error_; });
    regs_.on_read(HW_SCSI_REG_ERROR_INFO, [this](unsigned) { return error_info_; });
    regs_.on_read(HW_SCSI_REG_TARGETS, [this](unsigned) { return bus_.target_count(); });
    regs_.on_read(HW_SCSI_REG_QDEPTH, [this](unsigned) { return params_.queue_depth; });
    regs_.on_write(HW_SCSI_REG_SUBMIT, [this](uint32_t value, unsigned) { submit(value); });
    regs_.on_read(HW_SCSI_REG_DONE, [this](unsigned) { return pop_done(); });
    regs_.on_read(HW_SCSI_REG_DONE_COUNT,
                  [this](unsigned) { return static_cast<uint32_t>(done_.size()); });
    regs_.on_read(HW_SCSI_REG_QFREE, [this](unsigned target) { return queue_free(target); });
    regs_.on_violation([this](common::RegisterViolation, uint32_t offset, const std::string &what) {
        fail(HW_SCSI_ERR_REG, offset, offset, what);
    });
    regs.register_b_transport(this, &ScsiHostAdapter::b_transport);
    bus_.attach_initiator(this);
    SC_METHOD(drive_irq);
    sensitive << irq_changed_;
}

bool ScsiHostAdapter::irq_level() const {
    return (ctrl_ & HW_SCSI_CTRL_IRQ_ENABLE) != 0 && !done_.empty();
}

void ScsiHostAdapter::update_irq() {
    if (sc_core::sc_is_running()) {
        irq_changed_.notify(sc_core::SC_ZERO_TIME);
    }
}

void ScsiHostAdapter::drive_irq() {
    irq.write(irq_level());
}

std::string ScsiHostAdapter::reg_name(uint32_t offset) const {
    std::string name = regs_.name(offset);
    if (name.empty()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "offset 0x%03x", offset);
        name = buf;
    }
    return name;
}

void ScsiHostAdapter::fail(uint32_t code, uint32_t info, uint32_t offset, const std::string &what) {
    access_failed_ = true;
    if (error_ == HW_SCSI_ERR_NONE) {
        error_ = code;
        error_info_ = info;
    }
    // reg_name() gives "offset 0x..." for an offset that names no register.
    const std::string reg = reg_name(offset);
    fault.register_fault(offset, reg.rfind("offset ", 0) == 0 ? "" : reg, error_name(code), what);
}

uint32_t ScsiHostAdapter::pop_done() {
    if (done_.empty()) {
        return HW_SCSI_NONE;
    }
    uint32_t tag = done_.front();
    done_.pop_front();
    if (done_.empty()) {
        update_irq();
    }
    return tag;
}

uint32_t ScsiHostAdapter::queue_free(unsigned target) const {
    if (target >= bus_.target_count()) {
        return 0;
    }
    return params_.queue_depth -
           static_cast<uint32_t>(queues_.size() > target ? queues_[target].size() : 0);
}

bool ScsiHostAdapter::busy() const {
    for (const auto &q : queues_) {
        if (!q.empty()) {
            return true;
        }
    }
    return false;
}

std::vector<std::string> ScsiHostAdapter::queue_report() const {
    std::vector<std::string> lines;
    for (size_t t = 0; t < queues_.size(); ++t) {
        if (queues_[t].empty()) {
            continue;
        }
        const Queued &q = queues_[t].front();
        const uint8_t op = q.cmd.cdb[0];
        const char *name = op == HW_SCSI_OP_READ10       ? "READ(10)"
                           : op == HW_SCSI_OP_WRITE10    ? "WRITE(10)"
                           : op == HW_SCSI_OP_PREFETCH10 ? "PRE-FETCH(10)"
                                                         : "command";
        char line[200];
        std::snprintf(line, sizeof line,
                      "target %zu: %zu queued, the first %s 0x%02x LBA %u x %u submitted at %.6f s",
                      t, queues_[t].size(), name, op, hw_scsi_cdb10_lba(q.cmd.cdb),
                      hw_scsi_cdb10_blocks(q.cmd.cdb), static_cast<double>(q.submitted_ps) * 1e-12);
        lines.emplace_back(line);
    }
    if (!done_.empty()) {
        lines.push_back(std::to_string(done_.size()) + " completions not yet taken from DONE");
    }
    return lines;
}

uint32_t ScsiHostAdapter::read_reg(uint32_t offset) {
    uint32_t value = 0;
    regs_.read(offset, value);
    return value;
}

void ScsiHostAdapter::write_reg(uint32_t offset, uint32_t value) {
    regs_.write(offset, value);
}

void ScsiHostAdapter::submit(uint32_t desc_addr) {
    char msg[192];
    const uint8_t *raw = memory_.span(desc_addr, sizeof(hw_scsi_desc_t));
    if (desc_addr % 4 != 0 || raw == nullptr) {
        std::snprintf(msg, sizeof msg,
                      "descriptor at 0x%08x is misaligned or not inside node memory (%u bytes)",
                      desc_addr, memory_.size());
        fail(HW_SCSI_ERR_DESC_ADDR, desc_addr, HW_SCSI_REG_SUBMIT, msg);
        return;
    }
    hw_scsi_desc_t d;
    std::memcpy(&d, raw, sizeof d);
    if (d.target >= bus_.target_count()) {
        std::snprintf(msg, sizeof msg,
                      "descriptor 0x%08x (tag %u) names target %u; the bus has %u target(s)",
                      desc_addr, d.tag, d.target, bus_.target_count());
        fail(HW_SCSI_ERR_TARGET, d.target, HW_SCSI_REG_SUBMIT, msg);
        return;
    }
    if (d.cdb_len != 6 && d.cdb_len != 10 && d.cdb_len != 12 && d.cdb_len != 16) {
        std::snprintf(msg, sizeof msg, "descriptor 0x%08x (tag %u) has cdb_len %u (6/10/12/16)",
                      desc_addr, d.tag, d.cdb_len);
        fail(HW_SCSI_ERR_CDB_LEN, d.cdb_len, HW_SCSI_REG_SUBMIT, msg);
        return;
    }
    if (d.length > 0 && memory_.span(d.addr, d.length) == nullptr) {
        std::snprintf(msg, sizeof msg,
                      "descriptor 0x%08x (tag %u): buffer [0x%08x, +%u) is not inside node "
                      "memory (%u bytes)",
                      desc_addr, d.tag, d.addr, d.length, memory_.size());
        fail(HW_SCSI_ERR_BUF_ADDR, d.addr, HW_SCSI_REG_SUBMIT, msg);
        return;
    }
    uint8_t op = d.cdb[0];
    uint32_t expect = d.length;
    if ((op == HW_SCSI_OP_READ10 || op == HW_SCSI_OP_WRITE10) && d.cdb_len >= 10 &&
        hw_scsi_cdb10_blocks(d.cdb) > 0) {
        expect = hw_scsi_cdb10_blocks(d.cdb) * HW_SCSI_BLOCK_BYTES;
    } else if (op == HW_SCSI_OP_READ_CAPACITY10) {
        expect = HW_SCSI_READ_CAPACITY_BYTES;
    }
    if (expect != d.length) {
        std::snprintf(msg, sizeof msg,
                      "descriptor 0x%08x (tag %u): length %u but the CDB (opcode 0x%02x) moves "
                      "%u bytes",
                      desc_addr, d.tag, d.length, op, expect);
        fail(HW_SCSI_ERR_LENGTH, d.length, HW_SCSI_REG_SUBMIT, msg);
        return;
    }
    if (queues_.size() < bus_.target_count()) {
        queues_.resize(bus_.target_count());
    }
    auto &q = queues_[d.target];
    if (q.size() >= params_.queue_depth) {
        std::snprintf(msg, sizeof msg,
                      "descriptor 0x%08x (tag %u): target %u's queue is full (%u commands; "
                      "check QFREE(%u) before submitting)",
                      desc_addr, d.tag, d.target, params_.queue_depth, d.target);
        fail(HW_SCSI_ERR_QUEUE_FULL, d.target, HW_SCSI_REG_SUBMIT, msg);
        return;
    }
    Queued c;
    c.desc_addr = desc_addr;
    c.tag = d.tag;
    c.addr = d.addr;
    c.length = d.length;
    std::memcpy(c.cmd.cdb, d.cdb, sizeof d.cdb);
    c.cmd.cdb_len = d.cdb_len;
    c.cmd.length = d.length;
    c.submitted_ps = sc_core::sc_time_stamp().value();
    // The descriptor shows PENDING until completion.
    hw_scsi_desc_t *live = reinterpret_cast<hw_scsi_desc_t *>(memory_.span(desc_addr, sizeof d));
    live->status = HW_SCSI_STATUS_PENDING;
    live->transferred = 0;
    live->sense_key = live->asc = live->ascq = 0;
    live->sense_info = 0;
    q.push_back(c);
    ++stats_.submitted;
    if (q.size() == 1) {
        bus_.request(this, d.target, ScsiBus::kInitiatorPriority);
    }
}

ScsiBusStep ScsiHostAdapter::bus_granted(uint32_t, uint64_t) {
    return ScsiBusStep{ScsiPhase::Command, bus_.params().command_ps, 0, nullptr};
}

ScsiBusStep ScsiHostAdapter::bus_phase_done(uint32_t target, uint64_t now) {
    // The command phase has ended: the target takes over the tenure.
    ScsiBusStep next = bus_.target(target)->command(queues_[target].front().cmd, now);
    next.owner = bus_.target(target);
    return next;
}

uint8_t *ScsiHostAdapter::data_window(unsigned target, uint32_t offset, uint32_t len) {
    const Queued &c = queues_.at(target).front();
    if (static_cast<uint64_t>(offset) + len > c.length) {
        throw std::logic_error(std::string(name()) + ": target " + std::to_string(target) +
                               " moved data beyond the command's buffer");
    }
    return memory_.span(c.addr + offset, len);
}

void ScsiHostAdapter::command_complete(unsigned target, const ScsiResult &r, uint64_t now) {
    auto &q = queues_.at(target);
    Queued c = q.front();
    q.pop_front();
    hw_scsi_desc_t *d = reinterpret_cast<hw_scsi_desc_t *>(memory_.span(c.desc_addr, 64));
    d->status = r.status;
    d->transferred = r.transferred;
    d->sense_key = r.sense_key;
    d->asc = r.asc;
    d->ascq = r.ascq;
    d->sense_info = r.info;
    done_.push_back(c.tag);
    ++stats_.completed;
    if (r.status != HW_SCSI_STATUS_GOOD) {
        ++stats_.check_conditions;
    }
    uint64_t response = now - c.submitted_ps;
    stats_.response_ps_total += response;
    stats_.response_ps_max = std::max(stats_.response_ps_max, response);
    if (!q.empty()) {
        bus_.request(this, target, ScsiBus::kInitiatorPriority);
    }
    if (done_.size() == 1) {
        update_irq();
    }
}

void ScsiHostAdapter::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &) {
    access_failed_ = false;
    regs_.transport(trans, trans.get_address() & (HW_SCSI_STRIDE - 1));
    // The access that caused a programming error fails, so the firmware stops there
    // (violations of the register block already carry their own error response).
    if (access_failed_ && trans.is_response_ok()) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    }
}

} // namespace starfish::storage
