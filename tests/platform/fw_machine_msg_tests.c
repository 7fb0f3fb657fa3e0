/* Test firmware for the machine-level messaging tests (test_machine_msg.cpp).
 *
 * mt_barrier_main: every node sets up messaging and passes an untimed barrier
 * over all nodes; then MT_BARRIER_EPISODES times, all nodes sleep until the same
 * absolute cycle and enter a barrier over all nodes together, so its critical
 * path depends only on the placement (the test derives it). Each node exports,
 * per episode E, "barrier.E.enter_cycles" and "barrier.E.leave_cycles"
 * (absolute) and what its NI driver did meanwhile: "barrier.E.rx_interrupts",
 * "barrier.E.tx_interrupts", "barrier.E.tx_free_reads". */
#include "fw/hal.h"
#include "fw/msg.h"
#include "fw/ni.h"

#include <stdio.h>

void mt_barrier_main(hal_t *h);

/* The first synchronised start, and the distance between starts: far beyond the
 * set-up and any one barrier, so every node is idle when the next one begins. */
#define MT_BARRIER_FIRST 200000u
#define MT_BARRIER_PERIOD 20000u
#define MT_BARRIER_EPISODES 2u

static void mt_export(hal_t *h, const char *fmt, unsigned episode, uint64_t value) {
    char name[64];
    snprintf(name, sizeof name, fmt, episode);
    hal_export(h, name, value);
}

void mt_barrier_main(hal_t *h) {
    fw_msg_t *m = fw_msg_init(h);
    unsigned n = hal_cp_count(h) + hal_iop_count(h);
    unsigned *all = (unsigned *)hal_mem_alloc(h, n * (uint32_t)sizeof(unsigned), 8);
    if (m == NULL || all == NULL) {
        hal_fail(h, "barrier test: node memory exhausted");
    }
    for (unsigned i = 0; i < n; ++i) {
        all[i] = i;
    }
    fw_msg_barrier_t *b = fw_msg_barrier_create(m, 0, all, n);
    fw_msg_barrier_wait(m, b);
    for (unsigned e = 0; e < MT_BARRIER_EPISODES; ++e) {
        uint64_t start = MT_BARRIER_FIRST + (uint64_t)e * MT_BARRIER_PERIOD;
        uint64_t now = hal_now_cycles(h);
        if (now >= start) {
            hal_fail(h, "barrier test: the previous barrier ran past the next start");
        }
        hal_sleep_cycles(h, start - now);
        fw_ni_stats_t before = *fw_ni_stats(fw_msg_ni(m));
        mt_export(h, "barrier.%u.enter_cycles", e, hal_now_cycles(h));
        fw_msg_barrier_wait(m, b);
        mt_export(h, "barrier.%u.leave_cycles", e, hal_now_cycles(h));
        const fw_ni_stats_t *after = fw_ni_stats(fw_msg_ni(m));
        mt_export(h, "barrier.%u.rx_interrupts", e, after->rx_interrupts - before.rx_interrupts);
        mt_export(h, "barrier.%u.tx_interrupts", e, after->tx_interrupts - before.tx_interrupts);
        mt_export(h, "barrier.%u.tx_free_reads", e, after->tx_free_reads - before.tx_free_reads);
    }
}
