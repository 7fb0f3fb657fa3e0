#pragma once
// A SCSI bus (10 MB/s) shared by one host adapter (the initiator) and any number
// of disks (targets). Whoever holds the bus holds it for a *tenure*: arbitration
// and (re)selection, then a sequence of phases (command, data in/out, status,
// messages), then bus free. A drive disconnects while it seeks and rotates and
// reselects the initiator to move data or return status, so commands to
// different targets overlap.
//
// The bus is timing only: each phase is a duration chosen by the tenure's owner
// when the previous step ends (ScsiBusClient). Data moves between the drive and
// node memory by direct pointers at the end of a data phase (ScsiInitiator).
// Events: one per phase end (arbitration ends inside the first step's wait).

#include "tlm_models/common/trace_hub.h"
#include "tlm_models/storage/scsi_bus_params.h"

#include <nlohmann/json.hpp>
#include <systemc>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace starfish::storage {

// Bus phases (the observation layer shows them by phase_name).
enum class ScsiPhase : int {
    Free = 0,
    Arbitration = 1, // arbitration, (re)selection, IDENTIFY
    Command = 2,
    DataIn = 3,  // target to initiator
    DataOut = 4, // initiator to target
    Status = 5,  // status + COMMAND COMPLETE, then bus free
    Message = 6  // SAVE DATA POINTERS + DISCONNECT, then bus free
};
const char *phase_name(ScsiPhase phase);

class ScsiBusClient;

// One step of a tenure. A Free step releases the bus at once.
struct ScsiBusStep {
    ScsiPhase phase = ScsiPhase::Free;
    uint64_t duration_ps = 0;
    uint32_t data_bytes = 0;        // for statistics (data phases)
    ScsiBusClient *owner = nullptr; // receives phase_done for this step; nullptr: the same owner

    static ScsiBusStep release() { return {}; }
};

// Something that asks for the bus: the initiator (selection) or a target (reselection).
class ScsiBusClient {
public:
    virtual ~ScsiBusClient() = default;
    // The bus is won now; arbitration lasts ScsiBusParams::arbitration_ps and then
    // the returned step runs. Must not return a Free step.
    virtual ScsiBusStep bus_granted(uint32_t token, uint64_t now_ps) = 0;
    // The step returned earlier (to this owner) has ended; the next step, or a Free
    // step to release the bus.
    virtual ScsiBusStep bus_phase_done(uint32_t token, uint64_t now_ps) = 0;
};

// A command as the target receives it in the command phase.
struct ScsiCommand {
    uint8_t cdb[16] = {};
    uint8_t cdb_len = 0;
    uint32_t length = 0; // the initiator's data buffer size
};

// What the target reports in the status phase.
struct ScsiResult {
    uint32_t status = 0; // HW_SCSI_STATUS_*
    uint8_t sense_key = 0;
    uint8_t asc = 0;
    uint8_t ascq = 0;
    uint32_t info = 0;
    uint32_t transferred = 0; // data bytes moved
};

// A disk on the bus.
class ScsiTarget : public ScsiBusClient {
public:
    // The command phase has ended (the initiator owns the tenure until now). The
    // returned step continues the same tenure with this target as owner: a status
    // or data phase when the target answers at once, or a Message step (disconnect)
    // after which the target reselects with ScsiBus::request when it is ready.
    virtual ScsiBusStep command(const ScsiCommand &cmd, uint64_t now_ps) = 0;
};

// The host adapter, as the targets see it.
class ScsiInitiator {
public:
    virtual ~ScsiInitiator() = default;
    // Node memory behind bytes [offset, offset + len) of the data buffer of the
    // target's current command (checked at submission, never null).
    virtual uint8_t *data_window(unsigned target, uint32_t offset, uint32_t len) = 0;
    // The status phase of the target's current command has ended.
    virtual void command_complete(unsigned target, const ScsiResult &result, uint64_t now_ps) = 0;
};

struct ScsiBusStats {
    uint64_t busy_ps = 0; // arbitration to bus free, summed over tenures
    uint64_t tenures = 0;
    uint64_t data_bytes = 0;
    uint64_t data_ps = 0;   // time in data phases
    uint64_t max_queue = 0; // most clients waiting for the bus at once
    nlohmann::json to_json() const;
};

class ScsiBus : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(ScsiBus);
    ScsiBus(sc_core::sc_module_name name, const ScsiBusParams &params);

    const ScsiBusParams &params() const { return params_; }

    void attach_initiator(ScsiInitiator *initiator);
    // Targets get consecutive ids from 0, in attach order; returns the id.
    unsigned attach_target(ScsiTarget *target);
    unsigned target_count() const { return static_cast<unsigned>(targets_.size()); }
    ScsiTarget *target(unsigned id) const { return targets_.at(id); }
    ScsiInitiator *initiator() const { return initiator_; }

    // Asks for the bus. `priority` is the SCSI id (the initiator uses
    // kInitiatorPriority); ScsiBusParams::arbitration decides how it counts.
    void request(ScsiBusClient *client, uint32_t token, int priority);
    static constexpr int kInitiatorPriority = 1 << 20;

    bool busy() const { return owner_ != nullptr; }
    ScsiBusStats stats() const;
    uint64_t events() const { return events_; }

    // Reports the phase and the tenure's owner ("host", "disk<target>") to `hub`
    // under `scope`, and each phase to the transaction log (docs/observe.md).
    void observe(trace::TraceHub *hub, const std::string &scope);

private:
    struct Request {
        ScsiBusClient *client;
        uint32_t token;
        int priority;
    };

    void on_wake();
    void grant_next(uint64_t now);
    void start_step(const ScsiBusStep &step, uint64_t now);
    void wake_at(uint64_t t);

    ScsiBusParams params_;
    ScsiInitiator *initiator_ = nullptr;
    std::vector<ScsiTarget *> targets_;
    std::deque<Request> waiting_;

    ScsiBusClient *owner_ = nullptr; // current tenure's owner (nullptr: bus free)
    uint32_t token_ = 0;
    uint64_t tenure_start_ = 0;
    uint64_t step_end_ = 0;
    ScsiBusStats stats_;
    uint64_t events_ = 0;
    sc_core::sc_event wake_;

    // Observation (null hub_: off).
    void observe_phase(ScsiPhase phase, uint64_t at_ps);
    std::string owner_name() const;
    trace::TraceHub *hub_ = nullptr;
    std::string scope_;
    uint32_t sig_phase_ = 0, sig_owner_ = 0;
};

} // namespace starfish::storage
