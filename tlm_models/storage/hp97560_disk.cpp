#include "tlm_models/storage/hp97560_disk.h"

#include "hw/data_pattern.h"
#include "hw/rng.h"
#include "hw/scsi_regs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

namespace starfish::storage {

// ---- the drive ----------------------------------------------------------------------

Hp97560Disk::Hp97560Disk(sc_core::sc_module_name name, const DiskParams &params, ScsiBus &bus,
                         uint32_t global_id, uint64_t seed, uint64_t trial)
    : sc_core::sc_module(name), params_(params), mech_(params_), geom_(mech_.geometry()),
      stream_(params_, mech_, this->name()), writes_(params_, mech_), bus_(bus),
      target_id_(bus.attach_target(this)), overhead_ps_(ms_to_ps(params.controller_overhead_ms)),
      read_fence_sectors_(std::max<uint32_t>(1, params.read_fence_bytes / HW_SECTOR_BYTES)),
      write_fence_sectors_(std::max<uint32_t>(1, params.write_fence_bytes / HW_SECTOR_BYTES)) {
    if (params.sector_bytes != HW_SECTOR_BYTES) {
        throw std::invalid_argument(std::string(this->name()) + ": disk.sector_bytes must be 512");
    }
    // A fence larger than what the cache can hold would never be reached.
    read_fence_sectors_ = std::min(read_fence_sectors_, stream_.capacity_sectors());
    write_fence_sectors_ =
        std::min(write_fence_sectors_, std::max<uint32_t>(1, params.cache_bytes / HW_SECTOR_BYTES));
    set_identity(global_id, seed, trial);
    // The arm rests on head 0 of disk.start_cylinder until the first command.
    idle_plan_.track = params.start_cylinder * geom_.heads();
    idle_plan_.next_lba = idle_plan_.track * geom_.sectors_per_track();
    SC_METHOD(on_wake);
    sensitive << wake_;
    dont_initialize();
}

void Hp97560Disk::set_identity(uint32_t global_id, uint64_t seed, uint64_t trial) {
    global_id_ = global_id;
    hw_rng rng;
    hw_rng_seed(&rng, hw_rng_stream_seed(seed, trial, HW_RNG_STREAM_DISK_ROTATION, global_id));
    set_phase_ps(hw_rng_below(&rng, geom_.revolution_ps()));
}

void Hp97560Disk::set_faults(const DiskFaultParams &params, uint64_t seed, uint64_t trial) {
    faults_ = std::make_unique<DiskFaults>(params, global_id_, seed, trial);
    if (!faults_->active()) {
        faults_.reset(); // none hits this drive: no cost per command
    }
}

void Hp97560Disk::set_phase_ps(uint64_t phase_ps) {
    mech_.set_phase_ps(phase_ps);
}

// ---- data -----------------------------------------------------------------------------

void Hp97560Disk::read_sectors(uint32_t lba, uint32_t count, uint8_t *out) const {
    media_.read(lba, count, out, global_id_);
}

void Hp97560Disk::write_sectors(uint32_t lba, uint32_t count, const uint8_t *in) {
    media_.write(lba, count, in);
}

uint64_t Hp97560Disk::written_sectors() const {
    return media_.written_sectors();
}

// ---- driving the parts -----------------------------------------------------------------

void Hp97560Disk::account_stream_busy(uint64_t until) {
    // Adds the current run (up to `until`) to the statistics and the media log.
    ReadStream::Usage used = stream_.usage_until(until);
    if (!used.counted) {
        return;
    }
    stats_.busy_ps += used.busy_ps;
    stats_.media_sectors_read += used.sectors;
    if (media_log_on_) {
        media_log_.push_back(used.op);
    }
}

void Hp97560Disk::stop_stream(uint64_t now) {
    stream_.stop(now);
}

void Hp97560Disk::retire_stream(uint64_t now) {
    if (!stream_.valid()) {
        return;
    }
    stream_.stop(now);
    if (stream_is_last_) {
        idle_plan_ = plan();
    }
    account_stream_busy(kNever);
    stream_.retire(now);
    stream_is_last_ = false;
}

MechPlan Hp97560Disk::plan() const {
    if (stream_.valid() && stream_is_last_) {
        return stream_.plan_after();
    }
    if (!writes_.empty()) {
        return writes_.plan_after();
    }
    return idle_plan_;
}

Positioning Hp97560Disk::position_from(const MechPlan &p, uint32_t lba, uint64_t earliest,
                                       bool count_stats) {
    Positioning pos = mech_.position(p, lba, earliest);
    // A transfer that continues the previous one without a pause is not a new access.
    bool continuation = lba == p.next_lba && pos.start == p.free_at;
    if (count_stats && !continuation) {
        uint32_t to = geom_.track_of(lba);
        uint32_t c0 = geom_.cylinder_of_track(p.track), c1 = geom_.cylinder_of_track(to);
        uint64_t first_sector = mech_.slot_time(pos.u0);
        bool seek = c0 != c1;
        bool wait = first_sector > pos.ready;
        stats_.seeks += seek;
        stats_.movements += seek || wait;
        stats_.positioning_ps += first_sector - pos.start;
        if (hub_ != nullptr) {
            observe_log(pos.start, trace::Direction::Instant, "POSITION",
                        "lba=" + std::to_string(lba) + " from_cyl=" + std::to_string(c0) +
                            " to_cyl=" + std::to_string(c1) +
                            " distance=" + std::to_string(c1 > c0 ? c1 - c0 : c0 - c1) +
                            " seek_ps=" + std::to_string(pos.ready - pos.start) +
                            " rotate_ps=" + std::to_string(first_sector - pos.ready));
        }
    }
    return pos;
}

void Hp97560Disk::start_stream(uint32_t first, uint32_t lba0, uint32_t consumed,
                               uint64_t earliest) {
    retire_stream(sc_core::sc_time_stamp().value());
    stream_.make_room_for_new_segment();
    MechPlan before = plan();
    Positioning pos = position_from(before, lba0, earliest, true);
    stream_.start(before, pos, first, lba0, consumed);
    stream_is_last_ = true;
}

void Hp97560Disk::set_consumed(uint32_t consumed, uint64_t now) {
    ReadStream::Resume resume = stream_.consume(consumed, now);
    if (!resume.needed) {
        return;
    }
    // The run had stopped and has room again: it goes on from where it stopped.
    account_stream_busy(kNever);
    uint32_t stopped_at_lba = stream_.run().limit;
    MechPlan stopped{resume.stopped_at, stream_.final_track(), stopped_at_lba};
    Positioning pos = position_from(stopped, stopped_at_lba, now, true);
    stream_.resume(stopped, pos, resume.limit);
}

void Hp97560Disk::enqueue_write(uint32_t lba, uint32_t sectors, uint64_t now) {
    if (stream_.valid() && stream_is_last_) {
        stop_stream(now);
    }
    Positioning pos = position_for(lba, now, true);
    const WriteJob &job = writes_.add(lba, sectors, pos);
    stream_is_last_ = false;
    stats_.busy_ps += job.end - job.start;
    stats_.media_sectors_written += sectors;
    if (media_log_on_) {
        media_log_.push_back(MediaOp{true, lba, sectors, job.start, job.data, job.end});
    }
}

uint32_t Hp97560Disk::first_uncovered(uint32_t s, uint32_t e, uint64_t now) const {
    // Jumps over the cached intervals that contain m: the stream's segment, the
    // segments of earlier streams and data of writes not yet on the media.
    std::vector<SectorWindow> cached;
    stream_.append_cached(now, cached);
    writes_.append_pending(now, cached);
    uint32_t m = s;
    for (bool moved = true; moved && m < e;) {
        moved = false;
        for (const auto &w : cached) {
            if (m >= w.lo && m < w.hi) {
                m = std::min(e, w.hi);
                moved = true;
            }
        }
    }
    return m;
}

// A read served from the cache while no stream runs (a write stopped it): the
// drive reads on after the cached sectors that follow the request, keeping them in
// the new stream's segment ([e, from) is cached, the run starts at `from`).
void Hp97560Disk::read_ahead_after_hit(uint32_t e, uint64_t now, uint64_t overhead_end) {
    uint32_t from = first_uncovered(e, geom_.capacity(), now);
    if (from >= geom_.capacity() || from - e >= stream_.capacity_sectors()) {
        return; // the cache already holds a segment's worth past the request
    }
    start_stream(e, from, e, overhead_end);
}

// Decides how a READ or PRE-FETCH of [s, e) is served: from the cache, by the
// running read stream, or by a new stream (positioning after the overhead).
void Hp97560Disk::classify_read(uint32_t s, uint32_t e, uint64_t now, uint64_t overhead_end,
                                uint32_t &pinned_end) {
    uint32_t m = first_uncovered(s, e, now);
    pinned_end = m; // the drive keeps [s, m) for this command
    if (hub_ != nullptr) {
        observe_log(now, trace::Direction::Instant, "CACHE",
                    std::string(m == e ? "result=hit" : "result=miss") +
                        " lba=" + std::to_string(s) + " blocks=" + std::to_string(e - s) +
                        " cached=" + std::to_string(m - s));
    }
    if (!params_.readahead) {
        stream_.set_stop_lba(e);
    }
    if (m == e) {
        ++stats_.cache_hits;
        if (stream_.flowing()) {
            // Consuming the stream's data makes room for more read-ahead.
            SectorWindow w = stream_.window(now);
            cmd_uses_stream_ = s >= w.lo && s < w.hi;
        } else if (params_.readahead && params_.readahead_after_hit) {
            read_ahead_after_hit(e, now, overhead_end);
        }
        return;
    }
    const uint32_t spt = geom_.sectors_per_track();
    if (stream_.flowing()) {
        const ReadStream::Run &st = stream_.run();
        uint32_t hi = stream_.hi(now);
        uint64_t end = stream_.natural_end();
        bool running = end > now;
        bool hit = false;
        if (m == hi) {
            hit = true; // next sector of the stream (running, heading there, or full)
        } else if (running && m > hi && m - hi <= 2 * spt && now >= st.ready) {
            // Continue reading through the gap if that reaches m before repositioning
            // would.
            hit = stream_.reaches_before_repositioning(m, hi, now, overhead_end);
        }
        if (hit) {
            if (running) {
                ++stats_.cache_hits;
            }
            // [s, m) is held for this command, so the stream may run on to m + capacity.
            cmd_uses_stream_ = true;
            set_consumed(m, now);
            return;
        }
    }
    // A miss: the arm goes to m once the controller has decoded the command and
    // earlier writes are on the media.
    cmd_uses_stream_ = true;
    start_stream(m, m, m, overhead_end);
}

// ---- commands -----------------------------------------------------------------------------

ScsiBusStep Hp97560Disk::answer_status(const ScsiResult &r) {
    result_ = r;
    if (fault_lba_ != DiskFaults::kNone) {
        apply_medium_error();
    }
    conn_ = Connection::Status;
    return ScsiBusStep{ScsiPhase::Status, bus_.params().status_ps, 0, this};
}

ScsiBusStep Hp97560Disk::reject(uint8_t asc, uint32_t info) {
    ++stats_.check_conditions;
    ScsiResult r;
    r.status = HW_SCSI_STATUS_CHECK_CONDITION;
    r.sense_key = HW_SCSI_SENSE_ILLEGAL_REQUEST;
    r.asc = asc;
    r.ascq = 0;
    r.info = info;
    return answer_status(r);
}

ScsiBusStep Hp97560Disk::go_silent() {
    silent_ = true;
    conn_ = Connection::Message; // disconnects, and never reselects
    return ScsiBusStep{ScsiPhase::Message, bus_.params().message_ps, 0, this};
}

void Hp97560Disk::apply_medium_error() {
    const bool write = cmd_.opcode == HW_SCSI_OP_WRITE10;
    const uint32_t good = fault_lba_ - cmd_.lba, bad = cmd_.lba + cmd_.blocks - fault_lba_;
    // Garbage, not silence: a driver that ignored the error would hand on wrong data,
    // and the run's verification would catch it.
    std::vector<uint8_t> poison(static_cast<size_t>(bad) * HW_SECTOR_BYTES, kPoisonByte);
    if (write) {
        write_sectors(fault_lba_, bad, poison.data());
    } else {
        uint8_t *out = bus_.initiator()->data_window(target_id_, good * HW_SECTOR_BYTES,
                                                     bad * HW_SECTOR_BYTES);
        std::memcpy(out, poison.data(), poison.size());
    }
    ++stats_.check_conditions;
    result_.status = HW_SCSI_STATUS_CHECK_CONDITION;
    result_.sense_key = HW_SCSI_SENSE_MEDIUM_ERROR;
    result_.asc = write ? HW_SCSI_ASC_WRITE_ERROR : HW_SCSI_ASC_UNRECOVERED_READ_ERROR;
    result_.ascq = 0;
    result_.info = fault_lba_;
    result_.transferred = write ? cmd_.blocks * HW_SECTOR_BYTES : good * HW_SECTOR_BYTES;
    fault_lba_ = DiskFaults::kNone;
}

ScsiBusStep Hp97560Disk::command(const ScsiCommand &c, uint64_t now) {
    if (cmd_.active) {
        throw std::logic_error(std::string(name()) + ": command while another is in progress");
    }
    ObservedEvent observed(*this, now);
    if (faults_ && faults_->silent_now()) {
        return go_silent();
    }
    prune_writes(now);
    const uint8_t op = c.cdb[0];
    if (hub_ != nullptr) {
        command_id_ = (static_cast<uint64_t>(global_id_) << 32) | ++commands_seen_;
        std::string fields = "opcode=0x" + [&] {
            char hex[8];
            std::snprintf(hex, sizeof hex, "%02x", op);
            return std::string(hex);
        }();
        if (c.cdb_len >= 10) {
            fields += " lba=" + std::to_string(hw_scsi_cdb10_lba(c.cdb)) +
                      " blocks=" + std::to_string(hw_scsi_cdb10_blocks(c.cdb));
        }
        observe_log(now, trace::Direction::Begin, "CMD", fields);
    }
    const bool ten = op == HW_SCSI_OP_READ10 || op == HW_SCSI_OP_WRITE10 ||
                     op == HW_SCSI_OP_PREFETCH10 || op == HW_SCSI_OP_SYNC_CACHE10 ||
                     op == HW_SCSI_OP_READ_CAPACITY10;
    if (op != HW_SCSI_OP_TEST_UNIT_READY && !ten) {
        return reject(HW_SCSI_ASC_INVALID_OPCODE, 0);
    }
    if ((op == HW_SCSI_OP_TEST_UNIT_READY && c.cdb_len < 6) || (ten && c.cdb_len < 10)) {
        return reject(HW_SCSI_ASC_INVALID_FIELD_IN_CDB, 0);
    }
    if (op == HW_SCSI_OP_TEST_UNIT_READY) {
        ++stats_.other_commands;
        return answer_status(ScsiResult{});
    }
    if (op == HW_SCSI_OP_READ_CAPACITY10) {
        ++stats_.other_commands;
        conn_ = Connection::ReadCapacity;
        result_ = ScsiResult{};
        return ScsiBusStep{ScsiPhase::DataIn,
                           bus_.params().transfer_ps(HW_SCSI_READ_CAPACITY_BYTES),
                           HW_SCSI_READ_CAPACITY_BYTES, this};
    }
    uint32_t lba = hw_scsi_cdb10_lba(c.cdb);
    uint32_t blocks = hw_scsi_cdb10_blocks(c.cdb);
    if (op != HW_SCSI_OP_SYNC_CACHE10) {
        if (blocks == 0) {
            return reject(HW_SCSI_ASC_INVALID_FIELD_IN_CDB, 0);
        }
        if (static_cast<uint64_t>(lba) + blocks > geom_.capacity()) {
            return reject(HW_SCSI_ASC_LBA_OUT_OF_RANGE,
                          lba >= geom_.capacity() ? lba : geom_.capacity());
        }
    }
    if (faults_ && (op == HW_SCSI_OP_READ10 || op == HW_SCSI_OP_WRITE10)) {
        fault_lba_ = faults_->medium_error(op == HW_SCSI_OP_WRITE10, lba, blocks);
    }
    if (params_.readahead_stop_on_any_command) {
        stop_stream(now);
    }
    cmd_ = Command{};
    cmd_.opcode = op;
    cmd_.lba = lba;
    cmd_.blocks = blocks;
    cmd_.arrived = now;
    cmd_.overhead_end = std::max(now, controller_free_) + overhead_ps_;
    controller_free_ = cmd_.overhead_end;
    cmd_uses_stream_ = false;
    switch (op) {
    case HW_SCSI_OP_READ10:
        ++stats_.reads;
        classify_read(lba, lba + blocks, now, cmd_.overhead_end, cmd_.pinned_end);
        break;
    case HW_SCSI_OP_PREFETCH10:
        ++stats_.prefetches;
        classify_read(lba, lba + blocks, now, cmd_.overhead_end, cmd_.pinned_end);
        if (c.cdb[1] & HW_SCSI_CDB1_IMMED) {
            // Status now; positioning and reading go on in the background.
            return answer_status(ScsiResult{});
        }
        break;
    case HW_SCSI_OP_WRITE10:
        ++stats_.writes;
        retire_stream(now); // the arm is needed for the media write
        break;
    default:
        ++stats_.other_commands; // SYNCHRONIZE CACHE
        break;
    }
    cmd_.active = true;
    cmd_.state = CmdState::Overhead;
    wake_at(cmd_.overhead_end);
    conn_ = Connection::Message;
    return ScsiBusStep{ScsiPhase::Message, bus_.params().message_ps, 0, this};
}

void Hp97560Disk::after_overhead(uint64_t now) {
    switch (cmd_.opcode) {
    case HW_SCSI_OP_READ10:
    case HW_SCSI_OP_WRITE10:
        schedule_next_burst(now);
        return;
    case HW_SCSI_OP_PREFETCH10: {
        uint32_t e = cmd_.lba + cmd_.blocks;
        if (e <= cmd_.pinned_end) {
            cmd_.ready_at = now;
        } else {
            // A prefetch larger than a cache segment completes once the segment is full.
            uint32_t reach = std::min(e, stream_.run().limit);
            cmd_.ready_at = std::max(now, stream_.reach_time(reach));
        }
        break;
    }
    default: // SYNCHRONIZE CACHE
        cmd_.ready_at = std::max(now, writes_.done_at());
        break;
    }
    cmd_.state = CmdState::Waiting;
}

void Hp97560Disk::schedule_next_burst(uint64_t now) {
    uint32_t start = cmd_.lba + cmd_.done;
    if (cmd_.opcode == HW_SCSI_OP_WRITE10) {
        cmd_.burst = std::min(write_fence_sectors_, cmd_.blocks - cmd_.done);
        cmd_.ready_at = writes_.room_time(cmd_.burst * HW_SECTOR_BYTES, now);
    } else {
        uint32_t need = std::min(read_fence_sectors_, cmd_.blocks - cmd_.done);
        uint32_t end = start + need;
        if (end <= cmd_.pinned_end) {
            cmd_.ready_at = now;
        } else {
            cmd_.ready_at = std::max(now, stream_.reach_time(end));
        }
    }
    cmd_.state = CmdState::Waiting;
}

ScsiBusStep Hp97560Disk::bus_granted(uint32_t, uint64_t now) {
    ++events_;
    ObservedEvent observed(*this, now);
    cmd_.state = CmdState::Connected;
    const ScsiBusParams &bp = bus_.params();
    if (cmd_.opcode == HW_SCSI_OP_READ10) {
        uint32_t start = cmd_.lba + cmd_.done, e = cmd_.lba + cmd_.blocks;
        uint32_t avail =
            cmd_.pinned_end >= e ? e : std::min(e, std::max(cmd_.pinned_end, stream_.hi(now)));
        if (avail <= start) {
            throw std::logic_error(std::string(name()) + ": reselected with no data to send");
        }
        cmd_.burst = avail - start;
        conn_ = Connection::DataIn;
        uint32_t bytes = cmd_.burst * HW_SECTOR_BYTES;
        return ScsiBusStep{ScsiPhase::DataIn, bp.transfer_ps(bytes), bytes, this};
    }
    if (cmd_.opcode == HW_SCSI_OP_WRITE10 && cmd_.done < cmd_.blocks) {
        conn_ = Connection::DataOut;
        uint32_t bytes = cmd_.burst * HW_SECTOR_BYTES;
        return ScsiBusStep{ScsiPhase::DataOut, bp.transfer_ps(bytes), bytes, this};
    }
    // PRE-FETCH, SYNCHRONIZE CACHE, or a write reported after its media write.
    ScsiResult r;
    r.transferred = cmd_.done * HW_SECTOR_BYTES;
    return answer_status(r);
}

ScsiBusStep Hp97560Disk::bus_phase_done(uint32_t, uint64_t now) {
    ++events_;
    ObservedEvent observed(*this, now);
    ScsiInitiator *host = bus_.initiator();
    const ScsiBusParams &bp = bus_.params();
    switch (conn_) {
    case Connection::ReadCapacity: {
        uint8_t *out = host->data_window(target_id_, 0, HW_SCSI_READ_CAPACITY_BYTES);
        uint32_t last = geom_.capacity() - 1, block = HW_SECTOR_BYTES;
        for (int i = 0; i < 4; ++i) {
            out[i] = static_cast<uint8_t>(last >> (24 - 8 * i));
            out[4 + i] = static_cast<uint8_t>(block >> (24 - 8 * i));
        }
        ScsiResult r;
        r.transferred = HW_SCSI_READ_CAPACITY_BYTES;
        return answer_status(r);
    }
    case Connection::DataIn: {
        uint32_t bytes = cmd_.burst * HW_SECTOR_BYTES;
        uint8_t *out = host->data_window(target_id_, cmd_.done * HW_SECTOR_BYTES, bytes);
        read_sectors(cmd_.lba + cmd_.done, cmd_.burst, out);
        cmd_.done += cmd_.burst;
        stats_.bytes_read += bytes;
        if (cmd_uses_stream_) {
            set_consumed(cmd_.lba + cmd_.done, now);
        }
        if (cmd_.done == cmd_.blocks) {
            ScsiResult r;
            r.transferred = cmd_.done * HW_SECTOR_BYTES;
            return answer_status(r);
        }
        schedule_next_burst(now);
        wake_at(cmd_.ready_at);
        conn_ = Connection::Message;
        return ScsiBusStep{ScsiPhase::Message, bp.message_ps, 0, this};
    }
    case Connection::DataOut: {
        uint32_t bytes = cmd_.burst * HW_SECTOR_BYTES;
        const uint8_t *in = host->data_window(target_id_, cmd_.done * HW_SECTOR_BYTES, bytes);
        write_sectors(cmd_.lba + cmd_.done, cmd_.burst, in);
        enqueue_write(cmd_.lba + cmd_.done, cmd_.burst, now);
        ++cmd_.write_jobs;
        cmd_.done += cmd_.burst;
        stats_.bytes_written += bytes;
        if (cmd_.done == cmd_.blocks) {
            uint64_t report_at = params_.immediate_report
                                     ? writes_.earlier_writes_room_at(cmd_.write_jobs, now)
                                     : writes_.done_at();
            if (report_at <= now) {
                ScsiResult r;
                r.transferred = cmd_.done * HW_SECTOR_BYTES;
                return answer_status(r);
            }
            cmd_.ready_at = report_at;
            cmd_.state = CmdState::Waiting;
        } else {
            schedule_next_burst(now);
        }
        wake_at(cmd_.ready_at);
        conn_ = Connection::Message;
        return ScsiBusStep{ScsiPhase::Message, bp.message_ps, 0, this};
    }
    case Connection::Status: {
        conn_ = Connection::None;
        // A command refused before it started (reject) never became cmd_.
        const bool started = cmd_.active;
        cmd_.active = false;
        cmd_.state = CmdState::None;
        ++stats_.requests;
        if (started && cmd_.opcode == HW_SCSI_OP_READ10) {
            ++stats_.reads_completed;
            stats_.read_response_ps += now - cmd_.arrived;
        } else if (started && cmd_.opcode == HW_SCSI_OP_WRITE10) {
            ++stats_.writes_completed;
            stats_.write_response_ps += now - cmd_.arrived;
        }
        if (hub_ != nullptr) {
            observe_log(now, trace::Direction::End, "CMD",
                        "status=" + std::to_string(result_.status) +
                            " bytes=" + std::to_string(result_.transferred));
        }
        host->command_complete(target_id_, result_, now);
        return ScsiBusStep::release();
    }
    case Connection::Message:
        conn_ = Connection::None;
        return ScsiBusStep::release();
    case Connection::None:
        break;
    }
    throw std::logic_error(std::string(name()) + ": bus phase ended while not connected");
}

// ---- scheduling --------------------------------------------------------------------------

void Hp97560Disk::prune_writes(uint64_t now) {
    std::optional<MechPlan> after_last = writes_.prune(now);
    if (after_last && !(stream_.valid() && stream_is_last_)) {
        idle_plan_ = *after_last;
    }
}

void Hp97560Disk::wake_at(uint64_t t) {
    uint64_t now = sc_core::sc_time_stamp().value();
    if (t <= now) {
        wake_.notify(sc_core::SC_ZERO_TIME);
    } else {
        wake_.notify(sc_core::sc_time::from_value(t - now));
    }
}

void Hp97560Disk::on_wake() {
    ++events_;
    uint64_t now = sc_core::sc_time_stamp().value();
    ObservedEvent observed(*this, now);
    prune_writes(now);
    if (cmd_.active && cmd_.state == CmdState::Overhead && now >= cmd_.overhead_end) {
        after_overhead(now);
    }
    if (cmd_.active && cmd_.state == CmdState::Waiting && now >= cmd_.ready_at) {
        cmd_.state = CmdState::WantBus;
        bus_.request(this, 0, static_cast<int>(target_id_));
    }
    uint64_t next = kNever;
    if (cmd_.active && cmd_.state == CmdState::Overhead) {
        next = cmd_.overhead_end;
    } else if (cmd_.active && cmd_.state == CmdState::Waiting) {
        next = cmd_.ready_at;
    }
    if (next != kNever) {
        wake_at(next);
    }
}

// ---- statistics ------------------------------------------------------------------

DiskStats Hp97560Disk::stats() const {
    uint64_t now = sc_core::sc_time_stamp().value();
    DiskStats s = stats_;
    for (const auto &w : writes_.jobs()) {
        if (w.end > now) {
            s.busy_ps -= w.end - std::max(w.start, now);
            s.media_sectors_written -= w.sectors; // not on the media yet
        }
    }
    if (stream_.valid() && !stream_.never_moved()) {
        ReadStream::Usage used = stream_.usage_until(now);
        s.busy_ps += used.busy_ps;
        s.media_sectors_read += used.sectors;
    }
    return s;
}

uint64_t Hp97560Disk::pending_write_sectors() const {
    return writes_.pending_sectors(sc_core::sc_time_stamp().value());
}

} // namespace starfish::storage
