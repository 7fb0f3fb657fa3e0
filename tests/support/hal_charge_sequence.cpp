#include "tests/support/hal_charge_sequence.h"

#include "hw/ni_regs.h"
#include "hw/node_map.h"

namespace starfish::testing {

namespace {

using node::HalCharge;

void clear_ctrl(hal_t *h, void *) {
    hal_reg_write(h, HW_NI_BASE + HW_NI_REG_CTRL, 0); // lowers the line
}

void helper(hal_t *h, void *arg) {
    hal_sem_post(h, static_cast<hal_sem_t *>(arg)); // wakes main
    hal_yield(h);                                   // main runs
}

} // namespace

void hal_charge_sequence_main(hal_t *h) {
    hal_mem_free(h, hal_mem_alloc(h, 64, 8));
    hal_irq_register(h, HW_IRQ_NI_TX, clear_ctrl, nullptr);
    // TX_FREE > 0: the TX line rises at once; the handler lowers it.
    hal_reg_write(h, HW_NI_BASE + HW_NI_REG_CTRL, HW_NI_CTRL_TX_SPACE_IRQ);
    (void)hal_reg_read(h, HW_NI_BASE + HW_NI_REG_ID);
    hal_sem_t sem;
    hal_sem_init(h, &sem, 0);
    hal_thread_spawn(h, helper, &sem, "helper");
    hal_sem_wait(h, &sem); // blocks: helper runs
    hal_yield(h);          // helper runs and returns
    hal_sem_post(h, &sem); // no waiter
    hal_sem_wait(h, &sem); // takes that unit
}

const std::vector<ExpectedCharge> &hal_charge_sequence_charges() {
    using A = ChargedActivity;
    static const std::vector<ExpectedCharge> charges = {
        {A::Main, HalCharge::MemAlloc, 2}, // hal_mem_alloc and hal_mem_free
        {A::Main, HalCharge::RegWrite, 1},
        {A::Main, HalCharge::RegRead, 1},
        {A::Main, HalCharge::ThreadCreate, 1},
        {A::Main, HalCharge::SemWait, 2},
        {A::Main, HalCharge::SemPost, 1},
        {A::Main, HalCharge::Yield, 1},
        {A::Main, HalCharge::ThreadExit, 1},
        // Back after helper's yield and after its exit; none for the first run.
        {A::Main, HalCharge::ContextSwitch, 2},
        {A::Helper, HalCharge::SemPost, 1},
        {A::Helper, HalCharge::ThreadWakeup, 1},
        {A::Helper, HalCharge::Yield, 1},
        {A::Helper, HalCharge::ThreadExit, 1},
        {A::Helper, HalCharge::ContextSwitch, 2}, // after main's wait and after its yield
        {A::Handler, HalCharge::IrqEntry, 1},
        {A::Handler, HalCharge::RegWrite, 1},
        {A::Handler, HalCharge::IrqExit, 1},
    };
    return charges;
}

std::vector<std::pair<std::string, int64_t>> distinct_hal_costs() {
    static const int64_t kPrimes[node::kHalChargeCount] = {3,  5,  7,  11, 13, 17,
                                                           19, 23, 29, 31, 37, 41};
    std::vector<std::pair<std::string, int64_t>> costs;
    for (HalCharge charge : node::all_hal_charges()) {
        costs.emplace_back(node::hal_charge_key(charge).name, kPrimes[static_cast<size_t>(charge)]);
    }
    return costs;
}

uint64_t expected_cycles(const node::HalCostRules &rules, ChargedActivity activity) {
    uint64_t cycles = 0;
    for (const ExpectedCharge &e : hal_charge_sequence_charges()) {
        if (e.activity == activity) {
            cycles += e.count * rules.cycles(e.charge);
        }
    }
    return cycles;
}

} // namespace starfish::testing
