#include "tlm_models/node/hal_cost_rules.h"

namespace starfish::node {

namespace {

struct ChargeNames {
    config::IntKey key;
    const char *name;
};

// In the order of HalCharge.
constexpr std::array<ChargeNames, kHalChargeCount> kNames{{
    {keys::cost_reg_read_cycles, "reg_read"},
    {keys::cost_reg_write_cycles, "reg_write"},
    {keys::cost_irq_entry_cycles, "irq_entry"},
    {keys::cost_irq_exit_cycles, "irq_exit"},
    {keys::cost_context_switch_cycles, "context_switch"},
    {keys::cost_thread_create_cycles, "thread_create"},
    {keys::cost_thread_exit_cycles, "thread_exit"},
    {keys::cost_sem_post_cycles, "sem_post"},
    {keys::cost_thread_wakeup_cycles, "thread_wakeup"},
    {keys::cost_sem_wait_cycles, "sem_wait"},
    {keys::cost_yield_cycles, "yield"},
    {keys::cost_mem_alloc_cycles, "mem_alloc"},
}};

} // namespace

config::IntKey hal_charge_key(HalCharge charge) {
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
    return from([&cfg](config::IntKey key) { return static_cast<uint32_t>(cfg.get_int(key)); });
}

HalCostRules HalCostRules::from(const std::function<uint32_t(config::IntKey key)> &cycles_of) {
    HalCostRules rules;
    for (HalCharge charge : all_hal_charges()) {
        rules.cycles_[static_cast<size_t>(charge)] = cycles_of(hal_charge_key(charge));
    }
    return rules;
}

} // namespace starfish::node
