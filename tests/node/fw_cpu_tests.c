/* Test firmware for the node CPU model and the HAL binding (tests/node/fw_tests.h). */
#include "tests/node/fw_tests.h"

#include "hw/ni_regs.h"

#include <stddef.h>
#include <string.h>

static void timer_write(hal_t *h, uint32_t reg, uint32_t value) {
    hal_reg_write(h, FWT_TIMER_BASE + reg, value);
}

static uint32_t timer_read(hal_t *h, uint32_t reg) {
    return hal_reg_read(h, FWT_TIMER_BASE + reg);
}

static uint32_t cost(hal_t *h, const char *key) {
    return (uint32_t)hal_config_int(h, key);
}

/* ---- busy-time accounting ------------------------------------------------------ */

#define BUSY_LOG_CAP 1024u
#define BUSY_ROUNDS 60u
#define BUSY_PERIOD 777u

typedef struct busy_shared {
    fwt_segment_t *log;
    uint32_t log_count;
    hal_sem_t done;
    uint64_t tally; /* cycles charged by alpha and beta */
} busy_shared_t;

typedef struct busy_worker_arg {
    busy_shared_t *shared;
    uint32_t who;
} busy_worker_arg_t;

static void busy_log(busy_shared_t *s, uint64_t start, uint64_t end, uint32_t who,
                     uint32_t charge) {
    if (s->log_count < BUSY_LOG_CAP) {
        fwt_segment_t *seg = &s->log[s->log_count++];
        seg->start = start;
        seg->end = end;
        seg->who = who;
        seg->charge = charge;
    }
}

static void busy_handler(hal_t *h, void *arg) {
    busy_shared_t *s = arg;
    uint64_t start = hal_now_cycles(h);
    hal_cycles(h, 40);
    timer_write(h, FWT_TIMER_ACK, 1);
    busy_log(s, start, hal_now_cycles(h), FWT_WHO_HANDLER, 40 + cost(h, "cost.reg_write_cycles"));
}

static void busy_worker(hal_t *h, void *arg) {
    busy_worker_arg_t *w = arg;
    busy_shared_t *s = w->shared;
    uint32_t read_cost = cost(h, "cost.reg_read_cycles");
    for (uint32_t i = 0; i < BUSY_ROUNDS; ++i) {
        uint32_t c = 50u + 37u * ((i * 7u + w->who * 3u) % 11u);
        uint64_t start = hal_now_cycles(h);
        hal_cycles(h, c);
        (void)timer_read(h, FWT_TIMER_RAISES); /* a synchronisation point */
        busy_log(s, start, hal_now_cycles(h), w->who, c + read_cost);
        s->tally += c + read_cost;
        if (i % 3u == w->who) {
            hal_yield(h);
            s->tally += cost(h, "cost.yield_cycles");
        }
        if (i % 7u == 0u) {
            hal_sleep_cycles(h, 300);
        }
    }
    s->tally += cost(h, "cost.sem_post_cycles") + cost(h, "cost.thread_exit_cycles");
    hal_sem_post(h, &s->done);
}

void fwt_busy_main(hal_t *h) {
    busy_shared_t s;
    memset(&s, 0, sizeof s);
    uint64_t main_tally = 0;
    s.log = hal_mem_alloc(h, BUSY_LOG_CAP * sizeof(fwt_segment_t), 8);
    main_tally += cost(h, "cost.mem_alloc_cycles");
    hal_sem_init(h, &s.done, 0);
    hal_irq_register(h, FWT_TIMER_IRQ, busy_handler, &s);
    busy_worker_arg_t alpha = {&s, FWT_WHO_ALPHA}, beta = {&s, FWT_WHO_BETA};
    hal_thread_spawn(h, busy_worker, &alpha, "alpha");
    hal_thread_spawn(h, busy_worker, &beta, "beta");
    main_tally += 2u * cost(h, "cost.thread_create_cycles");
    timer_write(h, FWT_TIMER_PERIOD, BUSY_PERIOD);
    hal_sem_wait(h, &s.done);
    hal_sem_wait(h, &s.done);
    timer_write(h, FWT_TIMER_PERIOD, 0);
    uint32_t raises = timer_read(h, FWT_TIMER_RAISES);
    main_tally += 2u * cost(h, "cost.reg_write_cycles") + 2u * cost(h, "cost.sem_wait_cycles") +
                  cost(h, "cost.reg_read_cycles") + cost(h, "cost.thread_exit_cycles");
    hal_export(h, "log_addr", hal_mem_addr(h, s.log));
    hal_export(h, "log_count", s.log_count);
    hal_export(h, "tally_threads", s.tally + main_tally);
    hal_export(h, "raises", raises);
}

/* ---- interrupt latency --------------------------------------------------------- */

typedef struct latency_state {
    uint64_t entry;
    uint32_t count;
} latency_state_t;

static void latency_handler(hal_t *h, void *arg) {
    latency_state_t *s = arg;
    s->entry = hal_now_cycles(h);
    s->count++;
    hal_cycles(h, 100);
    timer_write(h, FWT_TIMER_ACK, 1);
}

void fwt_irq_latency_main(hal_t *h) {
    latency_state_t s = {0, 0};
    hal_irq_register(h, FWT_TIMER_IRQ, latency_handler, &s);
    uint64_t t0 = hal_now_cycles(h);
    timer_write(h, FWT_TIMER_FIRE_IN, 1000); /* raised 1000 cycles after this write */
    hal_cycles(h, 5000);
    (void)timer_read(h, FWT_TIMER_RAISES);
    uint64_t t1 = hal_now_cycles(h);
    hal_export(h, "t0", t0);
    hal_export(h, "busy_entry", s.entry);
    hal_export(h, "busy_end", t1);
    timer_write(h, FWT_TIMER_FIRE_IN, 500);
    hal_sleep_cycles(h, 2000); /* the CPU is idle when the line rises */
    hal_export(h, "idle_entry", s.entry);
    hal_export(h, "after_sleep", hal_now_cycles(h));
    hal_export(h, "handled", s.count);
}

/* ---- posted register writes ------------------------------------------------------ */

typedef struct posted_state {
    uint32_t seen;
    uint64_t entry;
} posted_state_t;

static void posted_handler(hal_t *h, void *arg) {
    posted_state_t *s = arg;
    s->entry = hal_now_cycles(h);
    s->seen = hal_reg_read(h, HW_NI_BASE + HW_NI_REG_TX_DEST);
    timer_write(h, FWT_TIMER_ACK, 1);
}

void fwt_posted_writes_main(hal_t *h) {
    posted_state_t s = {0, 0};
    uint32_t wr = cost(h, "cost.reg_write_cycles");
    hal_irq_register(h, FWT_TIMER_IRQ, posted_handler, &s);
    /* Raised between the second and the third write below. */
    timer_write(h, FWT_TIMER_FIRE_IN, 2 * wr + wr / 2);
    uint64_t t_start = hal_now_cycles(h);
    for (uint32_t v = 1; v <= 5; ++v) {
        hal_reg_write(h, HW_NI_BASE + HW_NI_REG_TX_DEST, v);
    }
    uint32_t last = hal_reg_read(h, HW_NI_BASE + HW_NI_REG_TX_DEST);
    hal_export(h, "seen_by_handler", s.seen);
    hal_export(h, "handler_entry", s.entry);
    hal_export(h, "last", last);
    hal_export(h, "t_start", t_start);
    hal_export(h, "t_end", hal_now_cycles(h));
}

/* ---- points left out when the simulation is quiet ------------------------------------
 * TX_COOKIE is posted, and a thread's semaphore post skips its wait, only when
 * nothing can happen before their time. With the test timer due inside their
 * cycles they stay synchronisation points: the handler runs before the code after
 * them and sees `step` as it was. */

typedef struct quiet_state {
    uint32_t step;
    uint32_t seen[2];
    uint32_t handled;
    hal_sem_t sem;
} quiet_state_t;

static void quiet_handler(hal_t *h, void *arg) {
    quiet_state_t *s = arg;
    if (s->handled < 2) {
        s->seen[s->handled] = s->step;
    }
    s->handled++;
    timer_write(h, FWT_TIMER_ACK, 1);
}

void fwt_quiet_points_main(hal_t *h) {
    quiet_state_t s;
    memset(&s, 0, sizeof s);
    hal_sem_init(h, &s.sem, 0);
    uint32_t wr = cost(h, "cost.reg_write_cycles");
    uint32_t post = cost(h, "cost.sem_post_cycles");
    hal_irq_register(h, FWT_TIMER_IRQ, quiet_handler, &s);
    /* Quiet: no event anywhere before these points' time. */
    uint64_t t0 = hal_now_cycles(h);
    hal_reg_write(h, HW_NI_BASE + HW_NI_REG_TX_COOKIE, 7);
    hal_sem_post(h, &s.sem);
    uint32_t cookie = hal_reg_read(h, HW_NI_BASE + HW_NI_REG_TX_COOKIE);
    hal_export(h, "quiet_cookie", cookie);
    hal_export(h, "quiet_cycles", hal_now_cycles(h) - t0);
    hal_sem_wait(h, &s.sem);
    /* The timer due half-way through the TX_COOKIE write. */
    timer_write(h, FWT_TIMER_FIRE_IN, wr / 2);
    hal_reg_write(h, HW_NI_BASE + HW_NI_REG_TX_COOKIE, 8);
    s.step = 1;
    (void)hal_reg_read(h, HW_NI_BASE + HW_NI_REG_TX_COOKIE);
    /* The timer due half-way through a semaphore post. */
    timer_write(h, FWT_TIMER_FIRE_IN, post / 2);
    hal_sem_post(h, &s.sem);
    s.step = 2;
    (void)hal_reg_read(h, HW_NI_BASE + HW_NI_REG_TX_COOKIE);
    hal_export(h, "seen_at_cookie", s.seen[0]);
    hal_export(h, "seen_at_post", s.seen[1]);
    hal_export(h, "handled", s.handled);
}

/* ---- semaphores ------------------------------------------------------------------- */

typedef struct sem_state {
    hal_sem_t gate;
    hal_sem_t done;
    hal_sem_t irq_sem;
    uint32_t order[3];
    uint32_t order_count;
    uint64_t irq_wake;
} sem_state_t;

typedef struct sem_waiter_arg {
    sem_state_t *s;
    uint32_t id;
} sem_waiter_arg_t;

static void sem_waiter(hal_t *h, void *arg) {
    sem_waiter_arg_t *w = arg;
    hal_sem_wait(h, &w->s->gate);
    w->s->order[w->s->order_count++] = w->id;
    hal_sem_post(h, &w->s->done);
}

static void sem_irq_waiter(hal_t *h, void *arg) {
    sem_state_t *s = arg;
    hal_sem_wait(h, &s->irq_sem);
    s->irq_wake = hal_now_cycles(h);
    hal_sem_post(h, &s->done);
}

static void sem_handler(hal_t *h, void *arg) {
    sem_state_t *s = arg;
    timer_write(h, FWT_TIMER_ACK, 1);
    hal_sem_post(h, &s->irq_sem);
}

void fwt_sem_main(hal_t *h) {
    sem_state_t s;
    memset(&s, 0, sizeof s);
    hal_sem_init(h, &s.gate, 0);
    hal_sem_init(h, &s.done, 0);
    hal_sem_init(h, &s.irq_sem, 0);
    sem_waiter_arg_t args[3] = {{&s, 1}, {&s, 2}, {&s, 3}};
    for (int i = 0; i < 3; ++i) {
        hal_thread_spawn(h, sem_waiter, &args[i], "waiter");
    }
    hal_yield(h); /* the three waiters block on the gate, in order */
    for (int i = 0; i < 3; ++i) {
        hal_sem_post(h, &s.gate);
    }
    for (int i = 0; i < 3; ++i) {
        hal_sem_wait(h, &s.done);
    }
    hal_export(h, "order", s.order[0] * 100u + s.order[1] * 10u + s.order[2]);

    /* Counting: units posted with no waiter are kept; waits take them without blocking. */
    hal_sem_t counted;
    hal_sem_init(h, &counted, 2);
    uint64_t before = hal_now_cycles(h);
    hal_sem_wait(h, &counted);
    hal_sem_wait(h, &counted);
    hal_export(h, "two_waits_cycles", hal_now_cycles(h) - before);
    hal_sem_post(h, &counted);
    hal_sem_post(h, &counted);
    hal_sem_post(h, &counted);
    hal_export(h, "count_after_posts", counted.count);

    /* A post from an interrupt handler wakes a thread. */
    hal_irq_register(h, FWT_TIMER_IRQ, sem_handler, &s);
    hal_thread_spawn(h, sem_irq_waiter, &s, "irq_waiter");
    hal_yield(h);
    timer_write(h, FWT_TIMER_FIRE_IN, 500);
    uint64_t raised_at = hal_now_cycles(h) + 500;
    hal_sem_wait(h, &s.done);
    hal_export(h, "irq_raised_at", raised_at);
    hal_export(h, "irq_wake", s.irq_wake);

    /* A post from a handler that runs while the waiting thread synchronises its
     * pending cycles (inside hal_sem_wait itself) must not be lost: the timer fires
     * in the middle of the 1000 charged cycles. */
    timer_write(h, FWT_TIMER_FIRE_IN, 200);
    hal_cycles(h, 1000);
    hal_sem_wait(h, &s.irq_sem);
    hal_export(h, "post_during_sync_count", s.irq_sem.count);
    hal_export(h, "post_during_sync_ok", 1);
}

/* ---- yield ------------------------------------------------------------------------ */

typedef struct yield_state {
    uint32_t seq[16];
    uint32_t n;
    hal_sem_t done;
} yield_state_t;

typedef struct yield_arg {
    yield_state_t *s;
    uint32_t id;
} yield_arg_t;

static void yielder(hal_t *h, void *arg) {
    yield_arg_t *y = arg;
    for (int i = 0; i < 5; ++i) {
        y->s->seq[y->s->n++] = y->id;
        hal_yield(h);
    }
    hal_sem_post(h, &y->s->done);
}

void fwt_yield_main(hal_t *h) {
    yield_state_t s;
    memset(&s, 0, sizeof s);
    hal_sem_init(h, &s.done, 0);
    yield_arg_t a = {&s, 1}, b = {&s, 2};
    hal_thread_spawn(h, yielder, &a, "a");
    hal_thread_spawn(h, yielder, &b, "b");
    hal_sem_wait(h, &s.done);
    hal_sem_wait(h, &s.done);
    uint64_t digits = 0;
    for (uint32_t i = 0; i < s.n; ++i) {
        digits = digits * 10u + s.seq[i];
    }
    hal_export(h, "sequence", digits);
    /* Yield with no other ready thread: only its cost. */
    uint64_t before = hal_now_cycles(h);
    hal_yield(h);
    hal_export(h, "lone_yield_cycles", hal_now_cycles(h) - before);
}

/* ---- spawn limit ------------------------------------------------------------------ */

static void spawn_sleeper(hal_t *h, void *arg) {
    hal_sleep_cycles(h, 1000);
    hal_sem_post(h, (hal_sem_t *)arg);
}

void fwt_spawn_limit_main(hal_t *h) {
    hal_sem_t done;
    hal_sem_init(h, &done, 0);
    uint32_t spawned = 0;
    while (spawned < 100 && hal_thread_spawn(h, spawn_sleeper, &done, "sleeper") == 0) {
        ++spawned;
    }
    hal_export(h, "spawned", spawned);
    for (uint32_t i = 0; i < spawned; ++i) {
        hal_sem_wait(h, &done);
    }
    hal_export(h, "spawn_again", (uint64_t)(hal_thread_spawn(h, spawn_sleeper, &done, "late") + 1));
    hal_sem_wait(h, &done);
}

/* ---- sleep ------------------------------------------------------------------------ */

static void sleep_busy(hal_t *h, void *arg) {
    (void)arg;
    hal_cycles(h, 5000);
}

void fwt_sleep_main(hal_t *h) {
    hal_thread_spawn(h, sleep_busy, NULL, "busy");
    uint64_t t0 = hal_now_cycles(h);
    hal_sleep_cycles(h, 1000); /* "busy" holds the CPU until it exits */
    uint64_t t1 = hal_now_cycles(h);
    hal_sleep_cycles(h, 1000); /* nothing else to run */
    uint64_t t2 = hal_now_cycles(h);
    hal_export(h, "t0", t0);
    hal_export(h, "t1", t1);
    hal_export(h, "t2", t2);
}

/* ---- waits with a timeout ------------------------------------------------------------ */

typedef struct timed_state {
    hal_sem_t sem;
} timed_state_t;

static void timed_poster(hal_t *h, void *arg) {
    hal_sleep_cycles(h, 5000);
    hal_sem_post(h, &((timed_state_t *)arg)->sem);
}

/* Times out alone; then is posted long before its timeout; then finds a unit. */
void fwt_timed_wait_main(hal_t *h) {
    timed_state_t *s = (timed_state_t *)hal_mem_alloc(h, sizeof(timed_state_t), 8);
    hal_sem_init(h, &s->sem, 0);
    uint64_t t0 = hal_now_cycles(h);
    int r1 = hal_sem_wait_timeout(h, &s->sem, 1000);
    uint64_t t1 = hal_now_cycles(h);
    hal_thread_spawn(h, timed_poster, s, "poster");
    int r2 = hal_sem_wait_timeout(h, &s->sem, 1000000);
    uint64_t t2 = hal_now_cycles(h);
    hal_sem_post(h, &s->sem);
    int r3 = hal_sem_wait_timeout(h, &s->sem, 10);
    hal_export(h, "timed_out", r1 == -1);
    hal_export(h, "t_timeout", t1 - t0);
    hal_export(h, "posted", r2 == 0);
    hal_export(h, "t_posted", t2 - t1);
    hal_export(h, "took_unit", r3 == 0);
    hal_export(h, "count_after", s->sem.count);
}

/* ---- memory ----------------------------------------------------------------------- */

void fwt_mem_main(hal_t *h) {
    uint32_t mem_bytes = (uint32_t)hal_config_int(h, "machine.node_memory_kb") * 1024u;
    uint8_t *a = hal_mem_alloc(h, 100, 0);
    uint8_t *b = hal_mem_alloc(h, 5000, 4096);
    hal_export(h, "a_ok", a != NULL && hal_mem_addr(h, a) % 8u == 0u);
    hal_export(h, "b_aligned", b != NULL && hal_mem_addr(h, b) % 4096u == 0u);
    hal_export(h, "round_trip", hal_mem_ptr(h, hal_mem_addr(h, b)) == (void *)b);
    hal_export(h, "ptr_outside_null", hal_mem_ptr(h, mem_bytes) == NULL);
    hal_export(h, "disjoint", a + 100 <= b || b + 5000 <= a);
    memset(b, 0x5a, 5000);
    hal_export(h, "bytes_kept", ((uint8_t *)hal_mem_ptr(h, hal_mem_addr(h, b) + 4999))[0] == 0x5a);
    hal_mem_free(h, a);
    hal_mem_free(h, b);

    /* Exhaustion: 64 KB blocks until NULL, then free them all in a scrambled order. */
    enum { max_blocks = 64 };
    void *blocks[max_blocks];
    uint32_t n = 0;
    while (n < max_blocks && (blocks[n] = hal_mem_alloc(h, 65536, 0)) != NULL) {
        ++n;
    }
    hal_export(h, "blocks_64k", n);
    for (uint32_t i = 0; i < n; i += 2) {
        hal_mem_free(h, blocks[i]);
    }
    for (uint32_t i = 1; i < n; i += 2) {
        hal_mem_free(h, blocks[i]);
    }
    /* Coalescing gives the whole memory back as one block. */
    void *all = hal_mem_alloc(h, mem_bytes, 0);
    hal_export(h, "whole_after_free", all != NULL && hal_mem_addr(h, all) == 0u);
    hal_export(h, "then_exhausted", hal_mem_alloc(h, 8, 0) == NULL);
    hal_mem_free(h, all);
}

/* ---- configuration ---------------------------------------------------------------- */

void fwt_config_main(hal_t *h) {
    hal_export(h, "cp_count", (uint64_t)hal_config_int(h, "machine.cp_count"));
    hal_export(h, "cpu_khz", (uint64_t)(hal_config_real(h, "machine.cpu_mhz") * 1000.0));
    hal_export(h, "cp_count_as_real", (uint64_t)hal_config_real(h, "machine.cp_count"));
    const char *placement = hal_config_string(h, "machine.placement");
    hal_export(h, "placement_is_split", strcmp(placement, "split") == 0);
    hal_export(h, "reg_read_cost", (uint64_t)hal_config_int(h, "cost.reg_read_cycles"));
    hal_export(h, "node", hal_node_id(h));
    hal_export(h, "role", (uint64_t)hal_role(h));
    hal_export(h, "role_index", hal_role_index(h));
    hal_export(h, "cp_node_1", hal_cp_node(h, 1));
    hal_export(h, "iop_node_0", hal_iop_node(h, 0));
    hal_export(h, "disks_per_iop", hal_disks_per_iop(h));
    uint64_t before = hal_now_cycles(h);
    (void)hal_config_int(h, "machine.cp_count");
    hal_export(h, "config_cycles", hal_now_cycles(h) - before);
}

/* ---- thread exit ------------------------------------------------------------------ */

typedef struct exit_state {
    hal_sem_t posted;
    uint32_t after_exit;
} exit_state_t;

static void exit_nested(hal_t *h, exit_state_t *s) {
    hal_sem_post(h, &s->posted);
    hal_thread_exit(h);
    s->after_exit = 1; /* never reached */
}

static void exit_thread_fn(hal_t *h, void *arg) {
    exit_state_t *s = arg;
    exit_nested(h, s);
    s->after_exit = 2; /* never reached */
}

void fwt_thread_exit_main(hal_t *h) {
    exit_state_t s;
    memset(&s, 0, sizeof s);
    hal_sem_init(h, &s.posted, 0);
    for (int i = 0; i < 3; ++i) {
        hal_thread_spawn(h, exit_thread_fn, &s, "quitter");
        hal_sem_wait(h, &s.posted);
    }
    hal_sleep_cycles(h, 100);
    hal_export(h, "after_exit", s.after_exit);
}

/* ---- failures --------------------------------------------------------------------- */

static void blocking_handler(hal_t *h, void *arg) {
    hal_sem_wait(h, (hal_sem_t *)arg);
}

void fwt_fail_main(hal_t *h) {
    uint32_t scenario = *(const uint32_t *)hal_context(h);
    hal_sem_t sem;
    switch (scenario) {
    case FWT_FAIL_HAL_FAIL:
        hal_cycles(h, 1234);
        hal_fail(h, "checksum mismatch in block 7");
        break;
    case FWT_FAIL_UNKNOWN_KEY:
        (void)hal_config_int(h, "no.such.key");
        break;
    case FWT_FAIL_WRONG_TYPE:
        (void)hal_config_int(h, "machine.placement");
        break;
    case FWT_FAIL_BLOCK_IN_IRQ:
        hal_sem_init(h, &sem, 0);
        hal_irq_register(h, FWT_TIMER_IRQ, blocking_handler, &sem);
        timer_write(h, FWT_TIMER_FIRE_IN, 100);
        hal_sleep_cycles(h, 1000);
        break;
    case FWT_FAIL_UNMAPPED_REG:
        (void)hal_reg_read(h, 0xF0800000u);
        break;
    case FWT_FAIL_FREE_TWICE: {
        void *p = hal_mem_alloc(h, 64, 0);
        hal_mem_free(h, p);
        hal_mem_free(h, p);
        break;
    }
    case FWT_FAIL_UNINIT_SEM:
        memset(&sem, 0, sizeof sem);
        hal_sem_post(h, &sem);
        break;
    default:
        break;
    }
    hal_export(h, "continued", 1); /* must never run */
}
