#pragma once
// The firmware's parameters in the configuration registry: every entry of the
// firmware's own declaration table (fw/include/fw/params.h: messaging costs and
// sizes, SCSI driver and DDIO costs, fs.*, ddio.*, the transfer request, commtest.*)
// plus the checks across them. The firmware reads them by key through
// hal_config_* under the names of fw/include/fw/param_keys.h.

#include "hw/config/registry.h"

#include <string>
#include <vector>

namespace starfish::platform {

void declare_fw_params(config::Registry &registry);

// Parses a comma-separated list of positive integers ("1,50,100"); returns false
// and says why in *error on anything else. Shared with the firmware's own parser
// so that a bad commtest.sweep_words is rejected before a run starts.
bool parse_positive_list(const std::string &text, std::vector<long long> *out, std::string *error);

} // namespace starfish::platform
