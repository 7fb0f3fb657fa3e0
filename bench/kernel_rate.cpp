#include "bench/kernel_rate.h"

#include "sim/runner/isolated_run.h"

#include <systemc>

#include <ctime>

namespace starfish::bench {

namespace {

// Two threads hand control back and forth; every hand-over is a timed
// notification, a time step and a thread switch, like a firmware thread
// waiting out its charged cycles.
struct PingPong : sc_core::sc_module {
    SC_HAS_PROCESS(PingPong);
    PingPong(sc_core::sc_module_name name, uint64_t n) : sc_core::sc_module(name), n_(n) {
        SC_THREAD(ping);
        SC_THREAD(pong);
    }
    void ping() {
        for (uint64_t i = 0; i < n_ / 2; ++i) {
            to_pong_.notify(sc_core::sc_time::from_value(1));
            sc_core::wait(to_ping_);
        }
        // pong now waits for good: the simulation runs out of events and ends.
    }
    void pong() {
        for (;;) {
            sc_core::wait(to_pong_);
            to_ping_.notify(sc_core::sc_time::from_value(1));
        }
    }
    uint64_t n_;
    sc_core::sc_event to_ping_, to_pong_;
};

// A method that schedules itself one time unit later, like the packet torus.
struct Ticker : sc_core::sc_module {
    SC_HAS_PROCESS(Ticker);
    Ticker(sc_core::sc_module_name name, uint64_t n) : sc_core::sc_module(name), n_(n) {
        SC_METHOD(tick);
        sensitive << wake_;
    }
    void tick() {
        if (++runs_ < n_) {
            wake_.notify(sc_core::sc_time::from_value(1));
        }
    }
    uint64_t n_;
    uint64_t runs_ = 0;
    sc_core::sc_event wake_;
};

template <class Model> double rate(uint64_t n) {
    nlohmann::json r = sim::run_isolated([n] {
        Model model("model", n);
        double start = process_cpu_seconds();
        sc_core::sc_start();
        return nlohmann::json{{"per_s", static_cast<double>(n) / (process_cpu_seconds() - start)}};
    });
    return r["per_s"].get<double>();
}

} // namespace

double process_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

KernelRate measure_kernel_rate(uint64_t switches) {
    KernelRate k;
    k.thread_switches_per_s = rate<PingPong>(switches);
    k.method_runs_per_s = rate<Ticker>(switches);
    return k;
}

} // namespace starfish::bench
