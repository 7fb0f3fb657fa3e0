#pragma once
// Shared by the whole-machine file-system benchmarks (bench_spfs, bench_twophase):
// one transfer trial on the default machine, timed on the wall clock.

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace starfish::bench {

using Settings = std::vector<std::pair<std::string, std::string>>;

// Runs trial 0 of the default configuration with `settings` applied, in its own
// process (SystemC elaborates once per process). Returns the trial document's
// verified, sim_s, mb_s, events and fs fields, and the trial's wall and CPU seconds
// (wall_s, cpu_s: from the start of the trial to its end, elaboration included).
nlohmann::json timed_transfer_cell(const Settings &settings, const std::string &origin);

struct KernelRate;
// Prints the kernel yardstick (bench/kernel_rate.h) on one line, `when` naming the moment.
void print_kernel_rate(const char *when, const KernelRate &k);

} // namespace starfish::bench
