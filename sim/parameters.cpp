#include "sim/parameters.h"

#include "hw/platform/fw_params.h"
#include "hw/platform/machine_params.h"
#include "sim/workload_params.h"

namespace starfish::sim {

namespace {
config::Registry build_registry() {
    config::Registry reg;
    platform::declare_machine_params(reg);
    declare_workload_params(reg);
    platform::declare_fw_params(reg);
    return reg;
}
} // namespace

const config::Registry &parameter_registry() {
    static const config::Registry registry = build_registry();
    return registry;
}

const char *config_dir() { return STARFISH_CONFIG_DIR; }

} // namespace starfish::sim
