#include "sim/parameters.h"

#include "hw/platform/fs_params.h"
#include "hw/platform/fw_params.h"
#include "hw/platform/machine_params.h"
#include "hw/platform/node.h"
#include "hw/platform/spfs_params.h"
#include "sim/workload_params.h"
#include "tlm_models/net/net_params.h"
#include "tlm_models/storage/hp97560_disk.h"
#include "tlm_models/storage/scsi_bus.h"
#include "tlm_models/storage/scsi_host_adapter.h"

namespace starfish::sim {

namespace {
config::Registry build_registry() {
    config::Registry reg;
    platform::declare_machine_params(reg);
    declare_workload_params(reg);
    platform::declare_fs_params(reg);
    net::declare_net_params(reg);
    platform::declare_node_params(reg);
    storage::declare_disk_params(reg);
    storage::declare_scsi_bus_params(reg);
    storage::declare_scsi_adapter_params(reg);
    platform::declare_fw_params(reg);
    platform::declare_spfs_params(reg);
    return reg;
}
} // namespace

const config::Registry &parameter_registry() {
    static const config::Registry registry = build_registry();
    return registry;
}

const char *config_dir() {
    return STARFISH_CONFIG_DIR;
}

const char *studies_dir() {
    return STARFISH_STUDIES_DIR;
}

} // namespace starfish::sim
