#include "sim/parameters.h"

#include "sim/platform/fault_checks.h"
#include "sim/platform/fw_params.h"
#include "sim/platform/machine_params.h"
#include "sim/platform/node_hal_params.h"
#include "sim/platform/watchdog_params.h"
#include "sim/workload_params.h"
#include "tlm_models/net/net_params.h"
#include "tlm_models/node/network_interface_params.h"
#include "tlm_models/node/node_cpu_params.h"
#include "tlm_models/node/node_memory_params.h"
#include "tlm_models/storage/disk_fault_params.h"
#include "tlm_models/storage/disk_params.h"
#include "tlm_models/storage/scsi_bus_params.h"
#include "tlm_models/storage/scsi_host_adapter_params.h"

namespace starfish::sim {

namespace {
config::Registry build_registry() {
    config::Registry reg;
    platform::declare_machine_params(reg);
    declare_workload_params(reg);
    net::declare_net_params(reg);
    node::declare_node_memory_params(reg);
    node::declare_node_cpu_params(reg);
    node::declare_network_interface_params(reg);
    platform::declare_node_hal_params(reg);
    platform::declare_watchdog_params(reg);
    storage::declare_disk_params(reg);
    storage::declare_disk_fault_params(reg);
    platform::declare_fault_checks(reg);
    storage::declare_scsi_bus_params(reg);
    storage::declare_scsi_adapter_params(reg);
    platform::declare_fw_params(reg);
    return reg;
}
} // namespace

const config::Registry &parameter_registry() {
    static const config::Registry registry = build_registry();
    return registry;
}

} // namespace starfish::sim
