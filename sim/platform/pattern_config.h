#pragma once
// The transfer's access pattern from the configuration (workload.pattern,
// workload.record_bytes, workload.file_mb, machine.cp_count, workload.cols), built
// by the firmware's own fw_pattern_init so that the configuration checks, the
// trial and the CPs agree on it.

#include "hw/config/config.h"

#include "fw/pattern.h"

#include <string>

namespace starfish::platform {

// workload.file_mb in bytes, rounded to the nearest byte (a check elsewhere refuses
// a size that is not whole).
uint64_t file_bytes_of(const config::Config &cfg);

// Fills *p; on a pattern the firmware refuses returns false and its one-line
// message in *error.
bool pattern_from_config(const config::Config &cfg, fw_pattern_t *p, std::string *error);

} // namespace starfish::platform
