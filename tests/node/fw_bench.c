/* Bench firmware for bench/bench_node.cpp (tests/node/fw_tests.h). */
#include "hw/ni_regs.h"
#include "tests/node/fw_tests.h"

#include <stddef.h>

typedef struct pingpong {
    hal_sem_t ping;
    hal_sem_t pong;
    uint32_t rounds;
} pingpong_t;

static void bench_ponger(hal_t *h, void *arg) {
    pingpong_t *p = arg;
    for (uint32_t i = 0; i < p->rounds; ++i) {
        hal_sem_wait(h, &p->ping);
        hal_cycles(h, 10);
        hal_sem_post(h, &p->pong);
    }
}

void fwt_bench_switch_main(hal_t *h) {
    pingpong_t p;
    p.rounds = *(const uint32_t *)hal_context(h);
    hal_sem_init(h, &p.ping, 0);
    hal_sem_init(h, &p.pong, 0);
    hal_thread_spawn(h, bench_ponger, &p, "ponger");
    for (uint32_t i = 0; i < p.rounds; ++i) {
        hal_sem_post(h, &p.ping);
        hal_sem_wait(h, &p.pong);
    }
    hal_export(h, "rounds", p.rounds);
}

void fwt_bench_regs_main(hal_t *h) {
    uint32_t n = *(const uint32_t *)hal_context(h);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        bad += hal_reg_read(h, HW_NI_BASE + HW_NI_REG_ID) != HW_NI_ID_VALUE;
    }
    hal_export(h, "reads", n);
    hal_export(h, "bad", bad);
}
