#pragma once
// Refusing a run the host cannot hold (docs/configuration.md, "Host memory").
// Each workload kind estimates the memory one trial process uses
// (WorkloadKind::host_memory: the process itself, the CP buffers, the disk
// contents written, the IOP buffers); the trials that run at once must fit in
// what the machine has, or the run is refused before it starts (exit status 2)
// naming the keys that make it large. --no-memory-check runs it anyway.

#include "hw/config/config.h"
#include "sim/workload/workload.h"

#include <string>
#include <vector>

namespace starfish::sim {

// A trial process before its machine holds any data: the simulator, SystemC and
// the model's structures, about 8 MB plus 0.3 MB per node. measured: peak RSS of
// `starfish run` trials of 1 MB files, 17.5 MB on the 32-node default machine and
// 41 MB on a 128-node one (docs/configuration.md, "Host memory").
double trial_process_bytes(const config::Config &cfg);

// The memory this machine has for the command, in bytes: physical memory, or the
// cgroup's limit when lower, or $STARFISH_HOST_MEMORY_MB when set (for a job that
// may use less than the machine). `source` says which.
double host_memory_available(std::string &source);

// One trial of the configuration (its workload kind's estimate).
HostMemory host_memory_estimate(const config::Config &cfg);

// Throws config::ConfigError when the `parallel` largest estimates together exceed
// host_memory_available(), unless `skip` (--no-memory-check).
void check_host_memory(std::vector<HostMemory> trials, int parallel, bool skip);

// "1.5 GB", "320 MB".
std::string memory_text(double bytes);

} // namespace starfish::sim
