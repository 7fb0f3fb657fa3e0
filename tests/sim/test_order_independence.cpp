// Simulated results must not depend on the order in which SystemC runs processes
// woken at the same time (docs/node.md, "Order within a cycle"). SystemC breaks
// such ties by the history of its timed-event heap, so any model change that
// schedules more or fewer events (a speed-up, tracing, a watchdog) would move
// them. Each cell runs once as it is and once beside a module that does nothing
// but wake up at random cycle boundaries, which reshuffles those ties; the trial
// documents must be identical.
#include "hw/rng.h"
#include "sim/runner/isolated_run.h"
#include "sim/workload/transfer_trial.h"
#include "tests/support/transfer_cells.h"

#include <boost/test/unit_test.hpp>

#include <systemc>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace starfish;
using nlohmann::json;

namespace {

// Methods and threads that wake at random multiples of the 20 ns cycle until
// `until` (never later, so the run ends when it would anyway), touching nothing.
class HeapShuffler : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(HeapShuffler);
    HeapShuffler(sc_core::sc_module_name name, uint64_t seed, sc_core::sc_time until)
        : sc_core::sc_module(name), until_(until) {
        hw_rng_seed(&rng_, seed);
        for (int i = 0; i < 4; ++i) {
            sc_core::sc_spawn_options method;
            method.spawn_method();
            method.dont_initialize();
            method.set_sensitivity(&start_);
            sc_core::sc_spawn([this] { shuffle_method(); }, sc_core::sc_gen_unique_name("m"),
                              &method);
            sc_core::sc_spawn([this] { shuffle_thread(); }, sc_core::sc_gen_unique_name("t"));
        }
        start_.notify(sc_core::SC_ZERO_TIME);
    }

private:
    // False once `until` is reached.
    bool next_delay(sc_core::sc_time &delay) {
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        if (now >= until_) {
            return false;
        }
        delay = sc_core::sc_time(20.0 * double(1 + hw_rng_below(&rng_, 40)), sc_core::SC_NS);
        delay = std::min(delay, until_ - now);
        return true;
    }
    void shuffle_method() {
        sc_core::sc_time delay;
        if (next_delay(delay)) {
            sc_core::next_trigger(delay);
        }
    }
    void shuffle_thread() {
        sc_core::sc_time delay;
        while (next_delay(delay)) {
            sc_core::wait(delay);
        }
    }

    sc_core::sc_time until_;
    sc_core::sc_event start_;
    hw_rng rng_;
};

json run_cell(const testing::Settings &settings, const sc_core::sc_time &shuffle_until) {
    return sim::run_isolated([&] {
        config::Config cfg = testing::make_config(settings);
        std::unique_ptr<HeapShuffler> shuffler;
        if (shuffle_until > sc_core::SC_ZERO_TIME) {
            shuffler = std::make_unique<HeapShuffler>("shuffler", 12345, shuffle_until);
        }
        json t = sim::run_transfer_trial(cfg, 0, {});
        for (const char *host : {"host_cpu_s", "wall_s", "host"}) {
            t.erase(host);
        }
        return t;
    });
}

} // namespace

BOOST_AUTO_TEST_SUITE(order_independence)

BOOST_AUTO_TEST_CASE(trials_do_not_depend_on_the_order_of_simultaneous_processes) {
    // The paper's 10 MB file: with the NI's engines as threads, 2PIO wnb 8192 gave
    // two more interrupts under shuffling.
    const testing::Settings paper_file = {{"workload.file_mb", "10"}, {"workload.trials", "1"}};
    const std::vector<testing::Settings> cells = {
        {{"fs.kind", "2pio"}, {"workload.pattern", "rnb"}, {"workload.record_bytes", "8192"}},
        {{"fs.kind", "2pio"}, {"workload.pattern", "wnb"}, {"workload.record_bytes", "8192"}},
        {{"fs.kind", "ddio"}, {"workload.pattern", "wnb"}, {"workload.record_bytes", "8"}},
        {{"fs.kind", "spfs"}, {"workload.pattern", "rbb"}, {"workload.record_bytes", "8192"}},
        {{"fs.kind", "spfs"}, {"workload.pattern", "wcc"}, {"workload.record_bytes", "8192"}},
    };
    for (const testing::Settings &c : cells) {
        testing::Settings settings = paper_file;
        settings.insert(settings.end(), c.begin(), c.end());
        const std::string label = testing::cell(settings, {}).label();
        json plain = run_cell(settings, sc_core::SC_ZERO_TIME);
        BOOST_TEST_CONTEXT(label) {
            BOOST_REQUIRE(!plain.contains("error"));
            BOOST_TEST(plain["verified"].get<bool>());
            // Shuffle through most of the run, and stop well before its end.
            const double sim_s = plain["sim_s"].get<double>();
            json shuffled = run_cell(settings, sc_core::sc_time(0.9 * sim_s, sc_core::SC_SEC));
            BOOST_TEST(shuffled == plain,
                       "plain " << plain.dump() << "\nshuffled " << shuffled.dump());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
