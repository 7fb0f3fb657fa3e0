#pragma once
// The deadlock watchdog (sim.watchdog_ms, docs/watchdog.md). It runs a machine's
// simulation and fails the run with a report per node when
//   * the simulation runs out of activity while a firmware thread still waits on a
//     semaphore that is not a queue of work (a deadlock: nothing will ever post
//     it), or
//   * for a whole sim.watchdog_ms of simulated time the machine made no progress
//     (no semaphore woke a thread, no interrupt, no thread started or ended, no
//     packet delivered, no disk command completed), unless a disk command is
//     outstanding or a thread is in one long sleep (or wait with a timeout) that no
//     other timer expiry interrupted in that time: a thread spinning on a flag, or
//     polling it in a sleep loop, is caught; one sleeping for longer is not.
// The report names, per node, every live thread and what it waits on (the
// semaphore names firmware gave, hal_sem_name), what firmware reports about itself
// (hal_report_register: outstanding requests, reply actions), the NI queues and,
// on IOPs, the SCSI queues and silent drives.
//
// Cost: nothing per event. The simulation runs in slices of sim.watchdog_ms; between
// slices the watchdog reads the models' counters. Slicing changes no simulated
// number (the kernel's order of events does not depend on where a slice ends).

#include "sim/platform/watchdog_params.h"

#include <cstdint>
#include <string>

namespace starfish::platform {

class Machine;

class Watchdog {
public:
    Watchdog(Machine &machine, const WatchdogParams &params);

    // Runs the simulation until it ends; returns why it failed: the first node's
    // failure (hal_fail, device fault), a deadlock or stall report, or "".
    std::string run();

    // The report's body: one block per node with live threads or busy queues.
    std::string node_report() const;

private:
    uint64_t progress() const;
    uint64_t timers_expired() const;
    // A disk command outstanding, or a thread in a sleep (or a wait with a timeout)
    // while no timer expired since the quiet stretch began (`timers` then): progress
    // will come by itself, not by polling.
    bool waiting_for_time_or_disk(uint64_t timers) const;
    // Threads blocked on semaphores that are not work queues ("" when none).
    std::string blocked_threads() const;

    Machine &m_;
    WatchdogParams params_;
};

} // namespace starfish::platform
