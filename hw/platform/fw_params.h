#pragma once
// The firmware's parameters: messaging costs (cost.msg_*, cost.copy_word_cycles,
// cost.queue_insert_cycles), messaging sizes (msg.*) and the communication
// self-test program (commtest.*). The firmware reads them by key through
// hal_config_int/hal_config_string (fw/include/fw/msg.h, fw/src/app_commtest.c);
// docs/messaging.md explains each cost's derivation.

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
