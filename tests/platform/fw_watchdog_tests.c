/* Test firmware for the deadlock watchdog (sim/platform/watchdog.h,
 * docs/watchdog.md): a deadlock on purpose, a long sleep and a long seek that are
 * not one, and two ways of getting nowhere while time goes on (polling in a sleep
 * loop, spinning). Each program runs on CP 0 (or IOP 0); its state lives in node
 * memory (no globals: all nodes share the process). */
#include "fw/hal.h"
#include "fw/msg.h"
#include "fw/scsi.h"

void watchdog_test_deadlock_cp_main(hal_t *h);
void watchdog_test_sleeper_cp_main(hal_t *h);
void watchdog_test_poller_cp_main(hal_t *h);
void watchdog_test_spinner_cp_main(hal_t *h);
void watchdog_test_long_seek_iop_main(hal_t *h);

typedef struct pair_state {
    hal_sem_t alpha_done; /* posted by alpha when it has what it needs */
    hal_sem_t beta_done;
    volatile int flag; /* never set: what the poller and the spinner wait for */
} pair_state_t;

static pair_state_t *new_state(hal_t *h) {
    pair_state_t *s = (pair_state_t *)hal_mem_alloc(h, sizeof(pair_state_t), 8);
    if (!s) {
        hal_fail(h, "watchdog test: node memory exhausted");
    }
    hal_sem_init(h, &s->alpha_done, 0);
    hal_sem_name(h, &s->alpha_done, "alpha's answer", 0);
    hal_sem_init(h, &s->beta_done, 0);
    hal_sem_name(h, &s->beta_done, "beta's answer", 0);
    s->flag = 0;
    return s;
}

/* Each waits for the other's answer before giving its own. */
static void alpha(hal_t *h, void *arg) {
    pair_state_t *s = (pair_state_t *)arg;
    hal_cycles(h, 100);
    hal_sem_wait(h, &s->beta_done);
    hal_sem_post(h, &s->alpha_done);
}

/* A service nobody calls: its server threads wait for requests (a work queue). */
static void idle_service(fw_msg_t *m, const fw_request_t *req, void *arg) {
    (void)arg;
    fw_msg_reply(m, req, FW_MSG_OK, NULL, NULL, 0);
}

static void beta(hal_t *h, void *arg) {
    pair_state_t *s = (pair_state_t *)arg;
    hal_cycles(h, 100);
    hal_sem_wait(h, &s->alpha_done);
    hal_sem_post(h, &s->beta_done);
}

void watchdog_test_deadlock_cp_main(hal_t *h) {
    if (hal_role_index(h) != 0) {
        return;
    }
    fw_msg_register_service(fw_msg_init(h), 40, idle_service, NULL);
    pair_state_t *s = new_state(h);
    hal_thread_spawn(h, alpha, s, "alpha");
    hal_thread_spawn(h, beta, s, "beta");
}

/* Sleeps 50 ms, then answers the main thread, which waits meanwhile. */
static void sleeper(hal_t *h, void *arg) {
    pair_state_t *s = (pair_state_t *)arg;
    hal_sleep_cycles(h, 50u * 50000u); /* 50 ms at machine.cpu_mhz = 50 */
    hal_sem_post(h, &s->alpha_done);
}

void watchdog_test_sleeper_cp_main(hal_t *h) {
    if (hal_role_index(h) != 0) {
        return;
    }
    pair_state_t *s = new_state(h);
    hal_thread_spawn(h, sleeper, s, "sleeper");
    hal_sem_wait(h, &s->alpha_done);
    hal_export(h, "woke_at_cycles", hal_now_cycles(h));
}

/* Looks at a flag every 0.1 ms that nobody sets; the main thread waits for it. */
static void poller(hal_t *h, void *arg) {
    pair_state_t *s = (pair_state_t *)arg;
    while (!s->flag) {
        hal_sleep_cycles(h, 5000);
    }
    hal_sem_post(h, &s->alpha_done);
}

void watchdog_test_poller_cp_main(hal_t *h) {
    if (hal_role_index(h) != 0) {
        return;
    }
    pair_state_t *s = new_state(h);
    hal_thread_spawn(h, poller, s, "poller");
    hal_sem_wait(h, &s->alpha_done);
}

/* Spins on a flag that nobody sets, giving the CPU away each time round. */
void watchdog_test_spinner_cp_main(hal_t *h) {
    if (hal_role_index(h) != 0) {
        return;
    }
    pair_state_t *s = new_state(h);
    while (!s->flag) {
        hal_cycles(h, 200);
        hal_yield(h);
    }
}

/* Reads the first sector, then the last one of the disk: a full-stroke seek. */
void watchdog_test_long_seek_iop_main(hal_t *h) {
    if (hal_role_index(h) != 0) {
        return;
    }
    fw_scsi_t *s = (fw_scsi_t *)hal_mem_alloc(h, sizeof(fw_scsi_t), 8);
    fw_scsi_init(s, h, 0);
    uint8_t *buf = (uint8_t *)hal_mem_alloc(h, 512, 64);
    fw_scsi_cmd_t *cmd = fw_scsi_cmd_alloc(s);
    uint32_t last =
        (uint32_t)(hal_config_int(h, "disk.cylinders") * hal_config_int(h, "disk.heads") *
                   hal_config_int(h, "disk.sectors_per_track")) -
        1;
    fw_scsi_do10(s, cmd, 0, HW_SCSI_OP_READ10, 0, 0, 1, hal_mem_addr(h, buf));
    uint64_t t0 = hal_now_cycles(h);
    uint32_t st = fw_scsi_do10(s, cmd, 0, HW_SCSI_OP_READ10, 0, last, 1, hal_mem_addr(h, buf));
    hal_export(h, "seek_read_cycles", hal_now_cycles(h) - t0);
    hal_export(h, "status", st);
}
