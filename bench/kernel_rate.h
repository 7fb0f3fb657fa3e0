#pragma once
// The SystemC kernel's own speed on this host, the yardstick for the other
// benches' figures on a noisy shared machine: a model's events per wall second
// divided by these rates varies much less from run to run than the figure alone.
// Each measurement runs in its own process (SystemC elaborates once per process).

#include <cstdint>

namespace starfish::bench {

// Rates per second of the process's CPU time, which a busy host inflates far
// less than wall time (a process waiting for a core uses none).
struct KernelRate {
    double thread_switches_per_s = 0; // SC_THREAD pairs waking each other by timed notify
    double method_runs_per_s = 0;     // an SC_METHOD re-notifying itself one time unit on
};

// CPU seconds used by this process so far (CLOCK_PROCESS_CPUTIME_ID).
double process_cpu_seconds();

// Runs both loops for `switches` iterations each (the default takes about a second).
KernelRate measure_kernel_rate(uint64_t switches = 4000000);

} // namespace starfish::bench
