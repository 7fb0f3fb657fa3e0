#include "sim/workload/host_memory.h"

#include "hw/config/config_error.h"
#include "hw/config/input_file.h"
#include "hw/machine_keys.h"
#include "sim/workload_params.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace starfish::sim {

namespace {

// A cgroup file holding a byte count ("max" or unreadable: none).
double cgroup_limit(const char *path) {
    config::InputFile in = config::read_regular_file(path, 64);
    if (!in.ok) {
        return 0;
    }
    char *end = nullptr;
    double v = std::strtod(in.text.c_str(), &end);
    return end != in.text.c_str() && v > 0 ? v : 0;
}

} // namespace

double trial_process_bytes(const config::Config &cfg) {
    double nodes = static_cast<double>(cfg.get_int(keys::machine_cp_count) +
                                       cfg.get_int(keys::machine_iop_count));
    return 8.0 * 1048576.0 + nodes * 0.3 * 1048576.0;
}

std::string memory_text(double bytes) {
    char buf[32];
    if (bytes >= 1024.0 * 1048576.0) {
        std::snprintf(buf, sizeof buf, "%.1f GB", bytes / (1024.0 * 1048576.0));
    } else {
        std::snprintf(buf, sizeof buf, "%.0f MB", bytes / 1048576.0);
    }
    return buf;
}

double host_memory_available(std::string &source) {
    if (const char *mb = std::getenv("STARFISH_HOST_MEMORY_MB"); mb != nullptr && *mb) {
        char *end = nullptr;
        double v = std::strtod(mb, &end);
        if (end != mb && *end == '\0' && v > 0) {
            source = "$STARFISH_HOST_MEMORY_MB";
            return v * 1048576.0;
        }
    }
    double bytes = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                   static_cast<double>(::sysconf(_SC_PAGE_SIZE));
    source = "physical memory";
    for (const char *path :
         {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
        double limit = cgroup_limit(path);
        if (limit > 0 && limit < bytes) {
            bytes = limit;
            source = std::string("the cgroup limit, ") + path;
        }
    }
    return bytes;
}

HostMemory host_memory_estimate(const config::Config &cfg) {
    const WorkloadKind &kind = workload_kind(cfg.get_string(keys::workload_kind));
    if (kind.host_memory) {
        return kind.host_memory(cfg);
    }
    return HostMemory{trial_process_bytes(cfg), ""};
}

void check_host_memory(std::vector<HostMemory> trials, int parallel, bool skip) {
    if (skip || trials.empty()) {
        return;
    }
    std::stable_sort(trials.begin(), trials.end(),
                     [](const HostMemory &a, const HostMemory &b) { return a.bytes > b.bytes; });
    size_t at_once = std::min(trials.size(), static_cast<size_t>(std::max(parallel, 1)));
    double need = 0;
    for (size_t i = 0; i < at_once; ++i) {
        need += trials[i].bytes;
    }
    std::string source;
    double have = host_memory_available(source);
    if (need <= have) {
        return;
    }
    std::string largest = trials.front().reason.empty() ? "" : " (" + trials.front().reason + ")";
    throw config::ConfigError(
        "this run needs about " + memory_text(need) + " of host memory: " +
        std::to_string(at_once) + (at_once == 1 ? " trial" : " trials at once") +
        (at_once == 1 ? "" : " (--jobs or workload.jobs)") + ", the largest about " +
        memory_text(trials.front().bytes) + largest + "; this machine has " + memory_text(have) +
        " (" + source + "). Lower those keys or the trials at once, raise " +
        "$STARFISH_HOST_MEMORY_MB if the machine really has more, or pass --no-memory-check " +
        "to run it anyway");
}

} // namespace starfish::sim
