#pragma once
// The observation layer (docs/observe.md): components report state changes
// (signals) and transactions to one TraceHub, which puts them in time order and
// feeds its sinks (sim/trace/: VCD, transaction log, timeline). A component keeps
// a TraceHub pointer that is null when tracing is off, so the cost of a hook is one
// pointer test.
//
// Records may be stamped later than the current simulated time (a SCSI phase that
// starts after arbitration, a DMA known to end later); a component that stamps
// records earlier registers with catch_up_with(). The hub buffers records and
// hands the sinks everything stamped before the current time, sorted by time
// (records with equal times in the order they were made; of several values of one
// signal at one time only the last).

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace starfish::trace {

enum class SignalKind {
    Bit,  // 0/1
    Int,  // unsigned vector of `width` bits; kNoValue shows as x
    Text, // ASCII, `width` characters, shown as a vector of 8 * width bits
};

// How the timeline (Perfetto) shows a signal.
enum class TimelineRole {
    None,
    Slices,  // Text: one slice per stretch of a value other than `rest`
    Counter, // Int: a counter track
};

struct SignalInfo {
    std::string scope; // "iop0.cpu", "net.r7", "iop0.disk1"
    std::string name;  // "activity", "E.busy"
    SignalKind kind = SignalKind::Bit;
    unsigned width = 1; // bits (Int) or characters (Text)
    TimelineRole role = TimelineRole::None;
    std::string rest; // Slices: the value that is no slice ("idle")
};

enum class Direction { Begin, End, Instant }; // ">>", "<<", "--"

// One line of the transaction log. `id` pairs a Begin with its End.
struct Transaction {
    uint64_t t_ps = 0;
    const char *category = ""; // "NET", "SCSI", "DISK", "CPU"
    std::string component;     // a scope, as for signals
    Direction dir = Direction::Instant;
    std::string op; // "MSG", "PKT", "READ", "RUN"
    uint64_t id = 0;
    std::string fields; // "src=3 dst=17 bytes=8"
};

constexpr int64_t kNoValue = INT64_MIN;

// A signal value: number for Bit/Int, text for Text.
struct Value {
    int64_t number = 0;
    std::string text;
};

class TraceSink {
public:
    virtual ~TraceSink() = default;
    // Called once, when the first record inside the window is due (or at the end):
    // the signals and their values at `from_ps`.
    virtual void start(const std::vector<SignalInfo> &signals, const std::vector<Value> &values,
                       uint64_t from_ps) = 0;
    virtual void change(uint64_t t_ps, uint32_t signal, const Value &value) = 0;
    virtual void transaction(const Transaction &t) = 0;
    // The end of the window (or of the run): values hold until then.
    virtual void finish(uint64_t end_ps) = 0;
};

class TraceHub {
public:
    // Only records in [from_ps, to_ps] reach the sinks.
    TraceHub(uint64_t from_ps, uint64_t to_ps);
    ~TraceHub();

    void add_sink(std::unique_ptr<TraceSink> sink);

    // Declares a signal (before the simulation starts); returns its handle.
    uint32_t signal(const SignalInfo &info, Value initial = {});
    const std::vector<SignalInfo> &signals() const { return signals_; }

    // A signal takes a value at t_ps (>= the current simulated time).
    void set(uint32_t signal, uint64_t t_ps, int64_t number);
    void set_text(uint32_t signal, uint64_t t_ps, std::string text);
    void log(Transaction t);

    // A component that reports some records late (at its next event) is asked to
    // report everything up to the current time before records are handed on.
    void catch_up_with(std::function<void(uint64_t)> f) { catch_ups_.push_back(std::move(f)); }
    // Called with the end time before the last records are handed on.
    void at_finish(std::function<void(uint64_t)> f) { finishers_.push_back(std::move(f)); }

    // Hands everything to the sinks and closes the window at `end_ps`.
    void finish(uint64_t end_ps);

private:
    struct Record {
        uint64_t t_ps;
        uint32_t signal; // kTransaction for log records
        Value value;
        std::unique_ptr<Transaction> transaction;
        bool superseded = false; // a later record sets the same signal at the same time
    };
    static constexpr uint32_t kTransaction = 0xffffffffu;

    void push(Record r);
    void flush(uint64_t before_ps, bool all);
    void deliver(Record &r);
    void start_sinks(uint64_t from_ps);

    uint64_t from_ps_, to_ps_;
    std::vector<std::unique_ptr<TraceSink>> sinks_;
    std::vector<SignalInfo> signals_;
    std::vector<Value> values_; // as of the records handed on so far
    std::vector<Record> pending_;
    std::vector<uint64_t> last_group_; // per signal: the last time group that set it
    uint64_t group_ = 0;
    size_t flush_at_ = size_t(1) << 15; // pending_ size that triggers the next flush
    std::vector<std::function<void(uint64_t)>> catch_ups_;
    std::vector<std::function<void(uint64_t)>> finishers_;
    bool catching_up_ = false;
    bool started_ = false;
    bool finished_ = false;
};

} // namespace starfish::trace
