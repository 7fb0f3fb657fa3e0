#include "sim/platform/pattern_config.h"

#include "fw/param_keys.h"
#include "hw/machine_keys.h"

#include <cmath>

namespace starfish::platform {

uint64_t file_bytes_of(const config::Config &cfg) {
    return static_cast<uint64_t>(std::llround(cfg.get_real(keys::workload_file_mb) * 1048576.0));
}

bool pattern_from_config(const config::Config &cfg, fw_pattern_t *p, std::string *error) {
    char msg[256];
    if (fw_pattern_init(p, cfg.get_string(keys::workload_pattern).c_str(),
                        static_cast<uint64_t>(cfg.get_int(keys::workload_record_bytes)),
                        file_bytes_of(cfg),
                        static_cast<uint32_t>(cfg.get_int(keys::machine_cp_count)),
                        static_cast<uint64_t>(cfg.get_int(keys::workload_cols)), msg,
                        sizeof msg) != FW_PATTERN_OK) {
        *error = msg;
        return false;
    }
    return true;
}

} // namespace starfish::platform
