#include "tlm_models/node/hal_cost_rules.h"

namespace starfish::node {

namespace {

struct ChargeNames {
    const char *key;
    const char *name;
};

// In the order of HalCharge.
constexpr std::array<ChargeNames, kHalChargeCount> kNames{{
    {"cost.reg_read_cycles", "reg_read"},
    {"cost.reg_write_cycles", "reg_write"},
    {"cost.irq_entry_cycles", "irq_entry"},
    {"cost.irq_exit_cycles", "irq_exit"},
    {"cost.context_switch_cycles", "context_switch"},
    {"cost.thread_create_cycles", "thread_create"},
    {"cost.thread_exit_cycles", "thread_exit"},
    {"cost.sem_post_cycles", "sem_post"},
    {"cost.thread_wakeup_cycles", "thread_wakeup"},
    {"cost.sem_wait_cycles", "sem_wait"},
    {"cost.yield_cycles", "yield"},
    {"cost.mem_alloc_cycles", "mem_alloc"},
}};

} // namespace

const char *hal_charge_key(HalCharge charge) {
    return kNames[static_cast<size_t>(charge)].key;
}

const char *hal_charge_name(HalCharge charge) {
    return kNames[static_cast<size_t>(charge)].name;
}

const std::array<HalCharge, kHalChargeCount> &all_hal_charges() {
    static const std::array<HalCharge, kHalChargeCount> all = [] {
        std::array<HalCharge, kHalChargeCount> a{};
        for (size_t i = 0; i < kHalChargeCount; ++i) {
            a[i] = static_cast<HalCharge>(i);
        }
        return a;
    }();
    return all;
}

HalCostRules HalCostRules::from(const config::Config &cfg) {
    return from([&cfg](const char *key) { return static_cast<uint32_t>(cfg.get_int(key)); });
}

HalCostRules HalCostRules::from(const std::function<uint32_t(const char *key)> &cycles_of) {
    HalCostRules rules;
    for (HalCharge charge : all_hal_charges()) {
        rules.cycles_[static_cast<size_t>(charge)] = cycles_of(hal_charge_key(charge));
    }
    return rules;
}

} // namespace starfish::node
