#include "tlm_models/storage/scsi_host_adapter.h"

#include "hw/node_map.h"
#include "hw/scsi_regs.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace starfish::storage {

void declare_scsi_adapter_params(config::Registry &reg) {
    reg.add_int("scsi.queue_depth", 4, "commands", {1, 64},
                "commands the host adapter queues per target (including the one in progress); "
                "submitting more is a programming error",
                "estimate: 4 covers DDIO's prefetch + read per buffer pair and SPFS's one "
                "request per disk thread; firmware keeps deeper queues itself (docs/disk.md)");
}

ScsiAdapterParams ScsiAdapterParams::from(const config::Config &cfg) {
    ScsiAdapterParams p;
    p.queue_depth = static_cast<uint32_t>(cfg.get_int("scsi.queue_depth"));
    return p;
}

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
    : sc_core::sc_module(name), regs("regs"), irq("irq"), params_(params), memory_(memory),
      bus_(bus), node_id_(node_id), adapter_index_(adapter_index) {
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
    switch (offset) {
    case HW_SCSI_REG_ID:
        return "ID";
    case HW_SCSI_REG_NODE:
        return "NODE";
    case HW_SCSI_REG_ADAPTER:
        return "ADAPTER";
    case HW_SCSI_REG_CTRL:
        return "CTRL";
    case HW_SCSI_REG_ERROR:
        return "ERROR";
    case HW_SCSI_REG_ERROR_INFO:
        return "ERROR_INFO";
    case HW_SCSI_REG_TARGETS:
        return "TARGETS";
    case HW_SCSI_REG_QDEPTH:
        return "QDEPTH";
    case HW_SCSI_REG_SUBMIT:
        return "SUBMIT";
    case HW_SCSI_REG_DONE:
        return "DONE";
    case HW_SCSI_REG_DONE_COUNT:
        return "DONE_COUNT";
    default:
        break;
    }
    if (offset >= HW_SCSI_REG_QFREE0 && offset < HW_SCSI_REG_QFREE(HW_SCSI_MAX_TARGETS) &&
        offset % 4 == 0) {
        return "QFREE(" + std::to_string((offset - HW_SCSI_REG_QFREE0) / 4) + ")";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "offset 0x%03x", offset);
    return buf;
}

void ScsiHostAdapter::fail(uint32_t code, uint32_t info, uint32_t offset, const std::string &what) {
    if (error_ == HW_SCSI_ERR_NONE) {
        error_ = code;
        error_info_ = info;
    }
    char where[96];
    std::snprintf(where, sizeof where, "node %u SCSI adapter %u, register %s (0x%03x): ", node_id_,
                  adapter_index_, reg_name(offset).c_str(), offset);
    throw std::runtime_error(std::string(where) + what);
}

uint32_t ScsiHostAdapter::read_reg(uint32_t offset) {
    switch (offset) {
    case HW_SCSI_REG_ID:
        return HW_SCSI_ID_VALUE;
    case HW_SCSI_REG_NODE:
        return node_id_;
    case HW_SCSI_REG_ADAPTER:
        return adapter_index_;
    case HW_SCSI_REG_CTRL:
        return ctrl_;
    case HW_SCSI_REG_ERROR:
        return error_;
    case HW_SCSI_REG_ERROR_INFO:
        return error_info_;
    case HW_SCSI_REG_TARGETS:
        return bus_.target_count();
    case HW_SCSI_REG_QDEPTH:
        return params_.queue_depth;
    case HW_SCSI_REG_DONE: {
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
    case HW_SCSI_REG_DONE_COUNT:
        return static_cast<uint32_t>(done_.size());
    default:
        break;
    }
    if (offset >= HW_SCSI_REG_QFREE0 && offset < HW_SCSI_REG_QFREE(HW_SCSI_MAX_TARGETS) &&
        offset % 4 == 0) {
        uint32_t t = (offset - HW_SCSI_REG_QFREE0) / 4;
        if (t >= bus_.target_count()) {
            return 0;
        }
        return params_.queue_depth -
               static_cast<uint32_t>(queues_.size() > t ? queues_[t].size() : 0);
    }
    fail(HW_SCSI_ERR_REG, offset, offset,
         offset == HW_SCSI_REG_SUBMIT ? "read of a write-only register" : "no such register");
}

void ScsiHostAdapter::write_reg(uint32_t offset, uint32_t value) {
    switch (offset) {
    case HW_SCSI_REG_CTRL:
        ctrl_ = value & HW_SCSI_CTRL_IRQ_ENABLE;
        update_irq();
        return;
    case HW_SCSI_REG_SUBMIT:
        submit(value);
        return;
    default:
        break;
    }
    bool known = offset <= HW_SCSI_REG_DONE_COUNT ||
                 (offset >= HW_SCSI_REG_QFREE0 && offset < HW_SCSI_REG_QFREE(HW_SCSI_MAX_TARGETS));
    fail(HW_SCSI_ERR_REG, offset, offset,
         known ? "write to a read-only register" : "no such register");
}

void ScsiHostAdapter::submit(uint32_t desc_addr) {
    char msg[192];
    const uint8_t *raw = memory_.span(desc_addr, sizeof(hw_scsi_desc_t));
    if (desc_addr % 4 != 0 || raw == nullptr) {
        std::snprintf(msg, sizeof msg,
                      "descriptor at 0x%08x is misaligned or not inside node memory (%u bytes)",
                      desc_addr, memory_.size());
        fail(HW_SCSI_ERR_DESC_ADDR, desc_addr, HW_SCSI_REG_SUBMIT, msg);
    }
    hw_scsi_desc_t d;
    std::memcpy(&d, raw, sizeof d);
    if (d.target >= bus_.target_count()) {
        std::snprintf(msg, sizeof msg,
                      "descriptor 0x%08x (tag %u) names target %u; the bus has %u target(s)",
                      desc_addr, d.tag, d.target, bus_.target_count());
        fail(HW_SCSI_ERR_TARGET, d.target, HW_SCSI_REG_SUBMIT, msg);
    }
    if (d.cdb_len != 6 && d.cdb_len != 10 && d.cdb_len != 12 && d.cdb_len != 16) {
        std::snprintf(msg, sizeof msg, "descriptor 0x%08x (tag %u) has cdb_len %u (6/10/12/16)",
                      desc_addr, d.tag, d.cdb_len);
        fail(HW_SCSI_ERR_CDB_LEN, d.cdb_len, HW_SCSI_REG_SUBMIT, msg);
    }
    if (d.length > 0 && memory_.span(d.addr, d.length) == nullptr) {
        std::snprintf(msg, sizeof msg,
                      "descriptor 0x%08x (tag %u): buffer [0x%08x, +%u) is not inside node "
                      "memory (%u bytes)",
                      desc_addr, d.tag, d.addr, d.length, memory_.size());
        fail(HW_SCSI_ERR_BUF_ADDR, d.addr, HW_SCSI_REG_SUBMIT, msg);
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
    uint32_t offset = static_cast<uint32_t>(trans.get_address()) & (HW_SCSI_STRIDE - 1);
    if (trans.get_data_length() != 4 || offset % 4 != 0 || trans.get_byte_enable_ptr() != nullptr) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        fail(HW_SCSI_ERR_REG, offset, offset, "registers take aligned 32-bit accesses only");
    }
    uint32_t value = 0;
    if (trans.is_read()) {
        value = read_reg(offset);
        std::memcpy(trans.get_data_ptr(), &value, 4);
    } else if (trans.is_write()) {
        std::memcpy(&value, trans.get_data_ptr(), 4);
        write_reg(offset, value);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace starfish::storage
