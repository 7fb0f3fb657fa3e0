#pragma once
// One node's CPU: timing and scheduling of the firmware (docs/developing.md, "The
// co-simulation boundary").
//
// The CPU runs one activity at a time: an interrupt handler or a firmware thread.
// Firmware threads are SystemC thread processes that hold the CPU while they run
// and give it up only when they block, yield, sleep or exit (cooperative; the next
// ready thread in FIFO order then gets it). Work is charged as integer cycles that
// accumulate as the running activity's *pending* time and become SystemC time
// lazily, at a synchronisation point, where the activity waits them out while
// holding the CPU. That wait is interruptible: a line raised during it runs its
// handler at that simulated time, and the rest of the pending time follows. When
// no thread holds the CPU, a per-node dispatcher takes interrupts at once.
//
// This class knows nothing of the C HAL: sim/platform/node_hal binds hal.h to it.
// Every call below marked "firmware context" must come from a firmware thread of
// this CPU or from one of its interrupt handlers.

#include "hw/node_map.h"
#include "tlm_models/common/sim_time.h"
#include "tlm_models/common/trace_hub.h"
#include "tlm_models/node/cpu_sync_shortcuts.h"
#include "tlm_models/node/node_cpu_params.h"

#include <nlohmann/json.hpp>
#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace starfish::node {

// Where a node's CPU time went. Activities are "idle", "thread:<name>" (threads
// with the same name share one entry) and "irq:<line>". Times are exact
// picoseconds; the busy and idle times add up to the elapsed time.
struct CpuStats {
    struct Activity {
        std::string name;
        uint64_t ps = 0;
    };
    uint64_t cycle_ps = 0;
    uint64_t elapsed_ps = 0;
    std::vector<Activity> activities; // [0] is "idle"
    uint64_t interrupts = 0;          // handler dispatches
    uint64_t context_switches = 0;    // CPU passed from one thread to a different one
    uint64_t threads_created = 0;
    uint64_t wakeups = 0; // posts that woke a waiting thread

    uint64_t idle_ps() const { return activities.empty() ? 0 : activities[0].ps; }
    uint64_t busy_ps() const { return elapsed_ps - idle_ps(); }
    uint64_t activity_ps(const std::string &name) const; // 0 if absent
    nlohmann::json to_json() const;
};

// A firmware thread as a report sees it (the deadlock watchdog, docs/watchdog.md).
struct ThreadInfo {
    enum class State { Running, Ready, Waiting, Sleeping };
    std::string name;
    State state = State::Ready;
    uint32_t semaphore = 0; // Waiting: its handle
    // A sleep, or a wait with a timeout: when it began and when it ends (else 0).
    uint64_t timed_since_ps = 0;
    uint64_t timed_until_ps = 0;
};

// One stretch of CPU time spent on one activity (only recorded with set_trace).
struct ActivityInterval {
    size_t activity; // index into CpuStats::activities
    uint64_t start_ps;
    uint64_t end_ps;
};

class NodeCpu : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(NodeCpu);
    // Level-sensitive interrupt lines (hw/node_map.h). All must be bound.
    sc_core::sc_vector<sc_core::sc_in<bool>> irq;

    using Body = std::function<void()>;
    using Handler = std::function<void()>;

    NodeCpu(sc_core::sc_module_name name, const NodeCpuParams &params, int node_id);
    ~NodeCpu() override;

    int node_id() const { return node_id_; }
    const NodeCpuParams &params() const { return params_; }

    // Before sc_start: the node's first firmware thread, started at time 0.
    void start(Body main, const std::string &name);

    // ---- firmware context ------------------------------------------------------
    // Adds CPU work to the running activity (no SystemC time passes yet).
    void charge(uint64_t cycles);
    // Adds work given in picoseconds (a device's TLM delay annotation).
    void charge_ps(uint64_t ps) { pending_ps_ += ps; }
    // Simulated time in cycles including the running activity's pending work.
    uint64_t now_cycles() const;
    // The same in picoseconds (stamps of the firmware's trace records).
    uint64_t now_with_pending_ps() const { return now_ps() + pending_ps_; }
    // Waits out the pending work while holding the CPU; interrupts raised
    // meanwhile are served at their time (not from inside a handler).
    void sync();
    // A synchronisation that only orders the work so far, and the interrupts raised
    // meanwhile, before what follows: no device sees its time. When the simulation
    // has nothing at all to do until the pending work ends, no interrupt can come
    // and nothing can change in between, so it is left to the next one (the
    // results are the same; the host saves a wait). CpuSyncShortcuts decides
    // (switch speed.cpu_skip_quiet_sync).
    void sync_unless_quiet() {
        if (!shortcuts_.skip_sync()) {
            sync();
        }
    }
    // Makes a new thread ready (it starts when it gets the CPU). Charges
    // cost.thread_create_cycles. False if the node's thread limit is reached.
    bool spawn(Body body, const std::string &name);
    // Ends the calling thread (charges cost.thread_exit_cycles). Never returns.
    [[noreturn]] void exit_thread();
    // Lets the other ready threads (and pending interrupts) run first.
    void yield();
    // Blocks the calling thread for `cycles` without using the CPU.
    void sleep(uint64_t cycles);
    // Counting semaphores: the count lives in firmware memory, the CPU keeps the
    // wait queue of each handle. A post that finds a waiter hands it the unit.
    uint32_t new_semaphore();
    void sem_wait(uint32_t handle, uint32_t &count);
    void sem_post(uint32_t handle, uint32_t &count);
    // sem_wait for at most `cycles`: false when the time ran out first (the thread
    // then leaves the queue and the count is unchanged).
    bool sem_wait_for(uint32_t handle, uint32_t &count, uint64_t cycles);
    // Installs (or with an empty handler, removes) the handler of a line.
    void set_handler(unsigned line, Handler handler);
    bool in_handler() const { return in_handler_; }
    // Records a fatal firmware error naming this node, stops the simulation and
    // never returns (the calling process is parked; outside a thread process,
    // a harness bug, the program aborts).
    [[noreturn]] void fail(const std::string &message);
    // A device register was accessed in this delta cycle: a line it changes
    // settles one delta later, so interrupts are sampled after that.
    void note_device_access() { device_access_delta_ = sc_core::sc_delta_count(); }
    // Posted register writes. Some device registers only hold an operand that
    // the device reads when a later access from this CPU triggers it (the NI's
    // TX_* operands before TX_PUSH). A write to one is charged like any access but
    // is no synchronisation point: the CPU applies it through the sink when its
    // time reaches the write (before serving an interrupt raised later, at the
    // latest at the next synchronisation), so the device and the handlers see it
    // at the same simulated time and in the same order as a synchronised write.
    // The firmware code that follows it up to the next synchronisation runs
    // without a wait in between, like any code between synchronisation points
    // (docs/node.md, "Posted register writes"). One wait replaces one per write.
    // False (post nothing; the caller accesses normally) when an enabled line is
    // raised, since a synchronisation would serve it before the write. With
    // only_when_quiet, also false unless the simulation has nothing at all to do
    // before the write's time: then no interrupt can come before the write, and no
    // device or handler can tell a posted write from a synchronised one, whatever
    // the firmware does in between. CpuSyncShortcuts keeps the posted writes
    // (switch speed.cpu_posted_writes).
    using PostedSink = CpuSyncShortcuts::PostedSink;
    void set_posted_sink(PostedSink sink) { shortcuts_.set_posted_sink(std::move(sink)); }
    bool post_write(uint32_t addr, uint32_t value, bool only_when_quiet = false) {
        return shortcuts_.post_write(addr, value, only_when_quiet);
    }

    // ---- harness ----------------------------------------------------------------
    // "node N: message" of the first fail(), or "" if none.
    const std::string &failure() const { return failure_; }
    CpuStats stats() const;
    void set_trace(bool on) { trace_on_ = on; }
    // Closed intervals in time order (the running one is not included).
    const std::vector<ActivityInterval> &trace() const { return trace_; }
    size_t live_threads() const { return live_threads_; }
    // Names of the threads that have not ended (for reports on runs that stopped
    // with work left: a thread that waits forever shows here).
    std::vector<std::string> live_thread_names() const;
    // Every live thread with what it does (costs nothing while the run goes on).
    std::vector<ThreadInfo> thread_infos() const;
    // Sleeps that have ended and waits that timed out so far.
    uint64_t timers_expired() const { return timers_expired_; }
    // Host-side only (never in results): writes posted because the simulation was
    // quiet, and synchronisations left out for the same reason.
    uint64_t quiet_posts() const { return shortcuts_.quiet_posts(); }
    uint64_t quiet_syncs_skipped() const { return shortcuts_.quiet_syncs_skipped(); }
    // Points left out because a handler made them (NodeCpu::sync_unless_quiet).
    uint64_t handler_syncs_skipped() const { return shortcuts_.handler_syncs_skipped(); }
    // Reports the activity holding the CPU, busy, the ready-thread count and the
    // interrupt lines to `hub` under `scope` (docs/observe.md). Before sc_start.
    void observe(trace::TraceHub *hub, const std::string &scope);

private:
    friend class CpuSyncShortcuts; // decides from the state below
    struct Thread;
    struct ThreadExit {};

    void start_of_simulation() override;

    void dispatcher();
    void on_irq_rise();
    void thread_main(const std::shared_ptr<Thread> &t, const Body &body);
    void spawn_thread(Body body, const std::string &name);
    void finish_current_thread();
    void acquire(Thread *t);
    void wait_for_cpu(Thread *t);
    void release();
    void grant_next();
    int first_raised_line() const;
    void serve_interrupts();
    void dispatch(unsigned line);
    void wait_ps(uint64_t ps);
    void require_thread(const char *service);
    void enqueue_waiter(uint32_t handle, Thread *t);
    bool remove_waiter(uint32_t handle, Thread *t); // false if t is not in the queue
    size_t activity_index(const std::string &name);
    void set_activity(size_t activity);
    uint64_t now_ps() const { return common::sim_time().value(); }

    const NodeCpuParams params_;
    const int node_id_;

    Body boot_;
    std::string boot_name_;

    Thread *running_ = nullptr;    // thread holding the CPU
    bool dispatcher_busy_ = false; // the dispatcher holds the CPU (handlers while idle)
    bool in_handler_ = false;
    uint64_t pending_ps_ = 0;     // the running activity's unsynchronised work
    uint32_t last_thread_id_ = 0; // 0: no thread has run yet
    std::deque<Thread *> ready_;
    std::map<uint32_t, std::shared_ptr<Thread>> threads_; // live threads by id
    uint32_t next_thread_id_ = 1;
    size_t live_threads_ = 0;

    // The current value of each line's signal (read() returns a reference to it),
    // taken once the lines are bound: sampling the lines needs no virtual calls.
    std::vector<const bool *> irq_level_;
    std::vector<std::shared_ptr<const Handler>> handlers_;
    uint32_t enabled_mask_ = 0;
    sc_core::sc_event irq_event_;
    uint64_t device_access_delta_ = ~uint64_t(0);

    CpuSyncShortcuts shortcuts_{*this, params_.posted_writes, params_.skip_quiet_sync};

    // FIFO of the threads waiting on a semaphore, linked through Thread::next_waiter.
    struct WaitQueue {
        Thread *head = nullptr;
        Thread *tail = nullptr;
    };
    std::vector<WaitQueue> sem_waiters_{1}; // by handle; handle 0 is never issued
    uint32_t next_sem_ = 1;

    std::vector<CpuStats::Activity> activities_;
    std::map<std::string, size_t> activity_by_name_;
    std::vector<size_t> irq_activity_;
    size_t activity_ = 0;
    uint64_t activity_since_ps_ = 0;
    uint64_t interrupts_ = 0;
    uint64_t context_switches_ = 0;
    uint64_t threads_created_ = 0;
    uint64_t wakeups_ = 0;
    uint64_t timers_expired_ = 0;
    bool trace_on_ = false;
    std::vector<ActivityInterval> trace_;

    std::string failure_;
    sc_core::sc_event never_;

    // Observation (null hub_: off).
    void trace_activity(size_t activity);
    void trace_ready();
    void trace_irq_lines();
    trace::TraceHub *hub_ = nullptr;
    std::string scope_;
    uint32_t sig_activity_ = 0, sig_busy_ = 0, sig_ready_ = 0, sig_irq_ = 0;
};

} // namespace starfish::node
