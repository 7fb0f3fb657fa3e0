#pragma once
// The HP 97560 disk drive (docs/reference.md §3), after Ruemmler & Wilkes (1994) and Kotz,
// Toh & Radhakrishnan (1994): 1962 cylinders x 19 heads x 72 sectors of 512 B,
// 4002 RPM, two-piece seek curve, head switch, track and cylinder skew, a fixed
// controller overhead per command, a 128 KB cache with read-ahead, immediate-
// reported writes and read/write fences that decide when the drive reconnects to
// the SCSI bus. docs/disk.md describes the model and every policy choice.
//
// Speed: the platter angle is a function of simulated time and the media
// position of a read stream is computed from elapsed time when it matters
// (analytic read-ahead), so a request costs a handful of events, never one per
// sector. All times are integer picoseconds.
//
// Real data: the drive keeps the bytes written to it (sparse, in 8 KB pages);
// never-written sectors read as hw_disk_fill_sector(global disk id, lba).
//
// This module is the drive's SCSI target state machine (commands, bus phases,
// the controller) and owns the parts it drives, in pipeline order: the mechanism
// (disk_mechanics.h), the read stream and cache segments (read_stream.h), the
// write-behind queue (write_behind.h) and the media contents (media_store.h).

#include "tlm_models/common/trace_hub.h"
#include "tlm_models/storage/disk_faults.h"
#include "tlm_models/storage/disk_geometry.h"
#include "tlm_models/storage/disk_mechanics.h"
#include "tlm_models/storage/disk_params.h"
#include "tlm_models/storage/disk_stats.h"
#include "tlm_models/storage/media_store.h"
#include "tlm_models/storage/read_stream.h"
#include "tlm_models/storage/scsi_bus.h"
#include "tlm_models/storage/write_behind.h"

#include <systemc>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace starfish::storage {

class Hp97560Disk : public sc_core::sc_module, public ScsiTarget {
public:
    SC_HAS_PROCESS(Hp97560Disk);
    // Attaches itself to the bus as the next target id. The global disk id names
    // the disk's data contents and its rotation random stream.
    Hp97560Disk(sc_core::sc_module_name name, const DiskParams &params, ScsiBus &bus,
                uint32_t global_id = 0, uint64_t seed = 0, uint64_t trial = 0);

    // Sets the global disk id and draws the initial platter angle for this trial
    // from hw_rng stream HW_RNG_STREAM_DISK_ROTATION (instance = global id). Call
    // before the simulation starts.
    void set_identity(uint32_t global_id, uint64_t seed, uint64_t trial);
    // Injects the configured faults (docs/faults.md) into this drive, from its own
    // random stream; call after set_identity, before the simulation starts. Without
    // it (the default) the drive never fails.
    void set_faults(const DiskFaultParams &params, uint64_t seed, uint64_t trial);
    // Counts of injected faults (zero without set_faults).
    DiskFaultStats fault_stats() const { return faults_ ? faults_->stats() : DiskFaultStats{}; }
    // The drive has stopped answering (fault.silent_disk).
    bool silent() const { return silent_; }

    // Overrides the initial platter angle (tests): slot 0 of cylinder 0 head 0
    // passes under the head at t = revolution - phase.
    void set_phase_ps(uint64_t phase_ps);
    uint64_t phase_ps() const { return mech_.phase_ps(); }

    uint32_t global_id() const { return global_id_; }
    unsigned target_id() const { return target_id_; }
    const DiskGeometry &geometry() const { return geom_; }
    const DiskParams &params() const { return params_; }
    uint32_t capacity_sectors() const { return geom_.capacity(); }

    // Host-side access to the contents (no simulated time): what the media plus
    // pending writes hold, i.e. what a READ would return now.
    void read_sectors(uint32_t lba, uint32_t count, uint8_t *out) const;
    void write_sectors(uint32_t lba, uint32_t count, const uint8_t *in); // preload
    uint64_t written_sectors() const; // distinct sectors ever written

    DiskStats stats() const;
    // Sectors written by the host but not yet on the media at the current time.
    uint64_t pending_write_sectors() const;
    // Records every media access (off by default).
    void set_media_log(bool on) { media_log_on_ = on; }
    std::vector<MediaOp> media_log() const;

    // Reports the mechanism state, cylinder, head, command state, cache fill and
    // queued media writes to `hub` under `scope`, and commands, cache hits and
    // positionings to the transaction log (docs/observe.md). Before sc_start.
    void observe(trace::TraceHub *hub, const std::string &scope);
    uint64_t events() const { return events_; }

    enum class MechState { Idle, Seek, Rotate, Read, Write };
    enum class CmdState {
        None,
        Overhead, // controller decoding the command (bus free)
        Waiting,  // for data, buffer room or the media (bus free)
        WantBus,  // asked for the bus to reselect
        Connected
    };

    // ScsiTarget / ScsiBusClient
    ScsiBusStep command(const ScsiCommand &cmd, uint64_t now_ps) override;
    ScsiBusStep bus_granted(uint32_t token, uint64_t now_ps) override;
    ScsiBusStep bus_phase_done(uint32_t token, uint64_t now_ps) override;

private:
    static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
    static constexpr uint8_t kPoisonByte = 0xe5; // what a failed sector holds (injected faults)

    struct Command {
        bool active = false;
        uint8_t opcode = 0;
        uint32_t lba = 0;
        uint32_t blocks = 0;
        uint32_t done = 0;       // sectors moved over the bus
        uint32_t burst = 0;      // sectors of the burst in progress
        uint32_t pinned_end = 0; // [lba, pinned_end) was in the cache when the command came
        uint64_t arrived = 0;    // the command phase ended
        uint64_t overhead_end = 0;
        uint64_t ready_at = 0;   // when to ask for the bus
        uint32_t write_jobs = 0; // media-write jobs this WRITE has queued (one per burst)
        CmdState state = CmdState::None;
    };
    enum class Connection { None, Status, DataIn, DataOut, Message, ReadCapacity };

    void on_wake();
    void wake_at(uint64_t t);
    void after_overhead(uint64_t now);
    void schedule_next_burst(uint64_t now);

    ScsiBusStep reject(uint8_t asc, uint32_t info);
    // Injected faults: a command taken and never answered; the MEDIUM ERROR status
    // of the current READ/WRITE (result_), whose sectors from fault_lba_ on become
    // garbage in the host buffer (read) or on the media (write).
    ScsiBusStep go_silent();
    void apply_medium_error();
    ScsiBusStep answer_status(const ScsiResult &r);
    void classify_read(uint32_t s, uint32_t e, uint64_t now, uint64_t overhead_end,
                       uint32_t &pinned_end);
    void read_ahead_after_hit(uint32_t e, uint64_t now, uint64_t overhead_end);

    // The parts, driven in pipeline order: the read stream and the write-behind
    // queue share the mechanism; whichever was scheduled last decides where it is.
    void stop_stream(uint64_t now);   // a command needs the mechanism
    void retire_stream(uint64_t now); // stop and keep its window as a cached segment
    void start_stream(uint32_t first, uint32_t lba0, uint32_t consumed, uint64_t earliest);
    void set_consumed(uint32_t consumed, uint64_t now);
    void account_stream_busy(uint64_t until);
    MechPlan plan() const;
    // Positions the arm for `lba` from the plan, starting no earlier than `earliest`,
    // and counts the positioning in the statistics if asked.
    Positioning position_from(const MechPlan &p, uint32_t lba, uint64_t earliest, bool count_stats);
    Positioning position_for(uint32_t lba, uint64_t earliest, bool count_stats) {
        return position_from(plan(), lba, earliest, count_stats);
    }
    void prune_writes(uint64_t now);
    void enqueue_write(uint32_t lba, uint32_t sectors, uint64_t now);
    // First sector of [s, e) not in the cache at `now` (e if all are).
    uint32_t first_uncovered(uint32_t s, uint32_t e, uint64_t now) const;

    // Observation helpers: the mechanism's state and its next change, from the plan.
    MechState mech_state_at(uint64_t t, uint32_t &track) const; // from the current plan
    uint64_t next_mech_transition(uint64_t now) const;

    DiskParams params_;
    DiskMechanics mech_;
    const DiskGeometry &geom_; // mech_'s
    ReadStream stream_;
    WriteBehind writes_;
    MediaStore media_;
    ScsiBus &bus_;
    unsigned target_id_;
    uint32_t global_id_ = 0;
    uint64_t overhead_ps_;
    uint32_t read_fence_sectors_, write_fence_sectors_;

    bool stream_is_last_ = false; // the stream is the mechanism's latest activity
    MechPlan idle_plan_;          // mechanism state when neither applies
    uint64_t controller_free_ = 0;

    Command cmd_;
    bool cmd_uses_stream_ = false; // the active command's data comes through the stream
    Connection conn_ = Connection::None;
    ScsiResult result_;

    std::unique_ptr<DiskFaults> faults_;     // nullptr: no faults configured for this drive
    uint32_t fault_lba_ = DiskFaults::kNone; // the current command fails here
    bool silent_ = false;

    DiskStats stats_;
    bool media_log_on_ = false;
    std::vector<MediaOp> media_log_;
    uint64_t events_ = 0;

    sc_core::sc_event wake_;

    // Observation (null hub_: off).
    // Entry to an event of the drive (a wake, a bus callback): reports the
    // transitions since the last one; on leaving, the state it settled in.
    class ObservedEvent {
    public:
        ObservedEvent(Hp97560Disk &disk, uint64_t now);
        ~ObservedEvent();
        ObservedEvent(const ObservedEvent &) = delete;
        ObservedEvent &operator=(const ObservedEvent &) = delete;

    private:
        Hp97560Disk *disk_;
        uint64_t now_;
    };
    void observe_until(uint64_t t); // the mechanism's transitions in (observed_until_, t]
    void observe_state(uint64_t now, MechState state, uint32_t track);
    void observe_log(uint64_t at_ps, trace::Direction dir, const char *op, std::string fields);
    trace::TraceHub *hub_ = nullptr;
    std::string scope_;
    uint64_t observed_until_ = 0;
    uint64_t command_id_ = 0; // of the command in progress (global id << 32 | count)
    uint64_t commands_seen_ = 0;
    uint32_t sig_state_ = 0, sig_cylinder_ = 0, sig_head_ = 0, sig_command_ = 0, sig_cache_ = 0,
             sig_writes_ = 0;
};

} // namespace starfish::storage
