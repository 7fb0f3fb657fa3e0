// The host-memory estimate of a run (issue 34 item 9; docs/configuration.md,
// "Host memory"): what a trial holds, and the refusal naming its keys.
#include "hw/config/config_error.h"
#include "sim/cli/common.h"
#include "sim/workload/host_memory.h"

#include <boost/test/unit_test.hpp>

#include <cstdlib>

using namespace starfish;

BOOST_AUTO_TEST_SUITE(host_memory)

namespace {

config::Config with(std::vector<std::string> overrides) {
    sim::CommonOptions opts;
    opts.overrides = std::move(overrides);
    return sim::load_config(opts);
}

constexpr double kGB = 1024.0 * 1048576.0;

} // namespace

BOOST_AUTO_TEST_CASE(each_trial_holds_the_cp_buffers_and_what_the_disks_were_written) {
    // The configuration: every one of the 16 CPs reads the whole 1000 MB file.
    sim::HostMemory ra = sim::host_memory_estimate(
        with({"workload.file_mb=1000", "workload.pattern=ra", "machine.node_memory_kb=3932160"}));
    BOOST_TEST(ra.bytes > 15.6 * kGB);
    BOOST_TEST(ra.bytes < 16.0 * kGB);
    BOOST_TEST(ra.reason.find("workload.pattern = ra") != std::string::npos, ra.reason);
    // Spread over the CPs, the file is held once; a write keeps it on the disks too.
    double read = sim::host_memory_estimate(with({"workload.file_mb=100"})).bytes;
    double write =
        sim::host_memory_estimate(with({"workload.file_mb=100", "workload.pattern=wb"})).bytes;
    BOOST_TEST(read > 100 * 1048576.0);
    BOOST_TEST(read < 160 * 1048576.0);
    BOOST_TEST(write - read > 99 * 1048576.0);
}

BOOST_AUTO_TEST_CASE(the_trials_at_once_must_fit_in_the_host_memory) {
    ::setenv("STARFISH_HOST_MEMORY_MB", "1000", 1);
    std::vector<sim::HostMemory> trials(4,
                                        sim::HostMemory{300 * 1048576.0, "workload.file_mb = x"});
    BOOST_CHECK_NO_THROW(sim::check_host_memory(trials, 3, false)); // 900 MB
    try {
        sim::check_host_memory(trials, 4, false); // 1200 MB
        BOOST_FAIL("not refused");
    } catch (const config::ConfigError &e) {
        std::string what = e.what();
        BOOST_TEST(what.find("needs about 1.2 GB") != std::string::npos, what);
        BOOST_TEST(what.find("4 trials at once") != std::string::npos, what);
        BOOST_TEST(what.find("workload.file_mb = x") != std::string::npos, what);
        BOOST_TEST(what.find("--no-memory-check") != std::string::npos, what);
    }
    BOOST_CHECK_NO_THROW(sim::check_host_memory(trials, 4, true)); // --no-memory-check
    ::unsetenv("STARFISH_HOST_MEMORY_MB");
    std::string source;
    BOOST_TEST(sim::host_memory_available(source) > 0.0);
    BOOST_TEST(!source.empty());
}

BOOST_AUTO_TEST_SUITE_END()
