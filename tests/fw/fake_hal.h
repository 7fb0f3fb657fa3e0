#pragma once
// A fake machine for firmware unit tests: a C++ implementation of every function of
// fw/include/fw/hal.h for several fake nodes in one process, without SystemC.
//
// * Each node has a CPU that runs one activity at a time: cooperative threads
//   (ucontext) and interrupt handlers, taken at synchronisation points (register
//   accesses, semaphore waits, yields, sleeps) before threads resume, and by the
//   node's dispatcher whenever no thread runs.
// * Time is integer cycles per node. A node runs until its next synchronisation
//   point; there it gives way if anything (another node, a device event) is due
//   earlier, so the whole machine advances in time order.
// * Every HAL service charges its cost from the configuration (cost.*) by the
//   machine's own rules (tlm_models/node/hal_cost_rules.h: which service charges
//   which cost, and when), and each charge is recorded per node, per activity
//   ("irq" or the thread's name) and per category ("fw" for hal_cycles, else the
//   charge's node::hal_charge_name: "reg_write", "irq_entry", "sem_post",
//   "thread_wakeup", "context_switch", ...), so tests can check cost breakdowns.
// * Each node's network interface is the machine's own untimed core
//   (tlm_models/node/ni_core.h: registers, send queue, TX_FREE and TX_DONE,
//   receive ring and records, handles, interrupt conditions), so the firmware sees
//   the same register behaviour as on the machine. The fake adds its own simple
//   timing: a send queue of configurable depth served one message at a time at
//   bytes_per_cycle, delivery latency_cycles after the message leaves, whole
//   messages held by the network while the receiver cannot take them, accepted
//   bodies copied at once. Bad programming fails the run with a message naming
//   the node and the register.
//
// Test code running inside fake threads must not throw (no BOOST_REQUIRE there):
// record what it sees and assert after run().

#include "fw/hal.h"
#include "hw/config/registry.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace starfish::fwtest {

struct FakeOptions {
    unsigned cp_count = 2;
    unsigned iop_count = 2;
    unsigned disks_per_iop = 1;
    unsigned trial = 0; // hal_trial
    uint32_t memory_bytes = 4u << 20;
    uint32_t tx_queue_depth = 4;    // NI send-queue slots
    uint64_t latency_cycles = 40;   // message leaves the sender -> HEADER record at the receiver
    uint32_t bytes_per_cycle = 4;   // injection rate of the sending NI (frame+header+body)
    uint64_t body_delay_cycles = 0; // body arrives this long after the HEADER record
    bool irq_after_access = false;  // take interrupts after (not before) a register access
    bool sync_on_cycles = false;    // hal_cycles is a synchronisation point too
    uint64_t corrupt_body_nth = 0;  // flip bit 6 of every byte of the n-th body sent (0: never)
    unsigned max_threads = 64;      // per node
    size_t stack_bytes = 256 * 1024;
    uint64_t max_cycles = 1ull << 40; // run() fails beyond this simulated time
};

class FakeMachine {
public:
    explicit FakeMachine(const FakeOptions &opts = FakeOptions());
    ~FakeMachine();
    FakeMachine(const FakeMachine &) = delete;
    FakeMachine &operator=(const FakeMachine &) = delete;

    // ---- configuration (read by the firmware through hal_config_*) ----
    // The constructor sets every parameter of the simulator's registry
    // (sim::parameter_registry) to its default; set_defaults does the same for any
    // registry, and the setters override single values (unchecked, so tests may
    // go below a parameter's range, e.g. a small fs.block_bytes).
    void set_defaults(const config::Registry &registry);
    void set_int(const std::string &key, int64_t value);
    void set_real(const std::string &key, double value);
    void set_string(const std::string &key, const std::string &value);

    unsigned node_count() const;
    hal_t *hal(unsigned node);

    // A thread that starts at time 0 on the node when run() starts.
    void spawn(unsigned node, std::function<void(hal_t *)> fn, const std::string &name);
    // Runs until nothing can happen any more. False if the run failed (hal_fail,
    // bad NI programming, time limit); failure() says why.
    bool run();
    const std::string &failure() const;
    // Did every thread started with spawn() return?
    bool spawned_threads_finished() const;

    // ---- inspection ----
    uint64_t now(unsigned node) const;
    // Cycles charged on a node; "" matches every activity / category.
    uint64_t charged(unsigned node, const std::string &activity = "",
                     const std::string &category = "") const;
    std::map<std::string, uint64_t> charges(unsigned node, const std::string &activity) const;
    const std::map<std::string, uint64_t> &exports(unsigned node) const;
    // Observation: a node set observed answers hal_observed() with 1 and records its
    // hal_probe and hal_note calls (others are ignored, as on the machine).
    struct Probe {
        uint64_t cycle;
        hal_probe_t probe;
        uint32_t index;
        int64_t value;
    };
    struct Note {
        uint64_t cycle;
        std::string op;
        hal_note_dir_t dir;
        uint64_t id;
        std::string fields;
    };
    void set_observed(unsigned node, bool on = true);
    const std::vector<Probe> &probes(unsigned node) const;
    const std::vector<Note> &notes(unsigned node) const;
    uint8_t *memory(unsigned node);
    uint64_t interrupts(unsigned node, unsigned line) const;
    uint64_t messages_delivered() const;
    uint64_t tx_queue_full_pushes() const; // pushes that left TX_FREE at 0
    uint64_t held_messages() const;        // arrivals that waited for a ring slot
    uint64_t bodies_sent() const;          // messages with a body that left a node
    int corrupted_type() const;            // first header byte of the corrupted message, or -1

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace starfish::fwtest
