/* The firmware's whole view of the machine besides the register and descriptor
 * definitions in hw/. Implemented by the node model's binding (sim/platform) on the
 * simulated machine and by a fake HAL in the firmware unit tests.
 *
 * Timing (docs/developing.md, "The co-simulation boundary"): firmware code between HAL
 * calls takes no simulated time except what it charges with hal_cycles() and what
 * each HAL service charges from the configuration's cost table (cost.*). A node's
 * CPU runs one activity at a time: threads are cooperative (they run until they
 * block, yield or exit) and interrupt handlers run at synchronisation points
 * (any HAL call that waits, yields, or touches a register), before threads resume.
 *
 * Every function takes the node's hal_t: there is no global state, since all
 * nodes' firmware shares one process.
 */
#ifndef STARFISH_FW_HAL_H
#define STARFISH_FW_HAL_H

#include <stddef.h>
#include <stdint.h>

/* hal_fail never returns: C11 spells it _Noreturn, C++ [[noreturn]]. */
#ifdef __cplusplus
#define HAL_NORETURN [[noreturn]]
#else
#define HAL_NORETURN _Noreturn
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hal hal_t; /* one per node, owned by the binding */

typedef enum hal_role { HAL_ROLE_CP = 0, HAL_ROLE_IOP = 1 } hal_role_t;

/* ---- identity -------------------------------------------------------------- */
unsigned hal_node_id(hal_t *h); /* 0 … node_count-1; CPs first, then IOPs */
hal_role_t hal_role(hal_t *h);
unsigned hal_role_index(hal_t *h); /* k for CP k or IOP k */
unsigned hal_cp_count(hal_t *h);
unsigned hal_iop_count(hal_t *h);
unsigned hal_disks_per_iop(hal_t *h);
/* Trial number of this run (0 … workload.trials-1): with workload.seed it seeds the
 * random streams of hw/rng.h (layouts, file data). */
unsigned hal_trial(hal_t *h);
/* Node id of CP k / IOP k. */
unsigned hal_cp_node(hal_t *h, unsigned k);
unsigned hal_iop_node(hal_t *h, unsigned k);

/* ---- time ------------------------------------------------------------------ */
/* Simulated time in CPU cycles, including charges not yet synchronised. */
uint64_t hal_now_cycles(hal_t *h);
/* Charges n cycles of CPU work to the running activity. */
void hal_cycles(hal_t *h, uint32_t n);
/* Blocks the calling thread for n cycles without using the CPU (a timer). */
void hal_sleep_cycles(hal_t *h, uint64_t n);

/* ---- threads --------------------------------------------------------------- */
typedef void (*hal_thread_fn)(hal_t *h, void *arg);
/* Creates a thread that starts at fn(h, arg); it ends when fn returns or calls
 * hal_thread_exit(). Returns 0 on success, -1 if the node's thread limit is hit. */
int hal_thread_spawn(hal_t *h, hal_thread_fn fn, void *arg, const char *name);
void hal_thread_exit(hal_t *h);
/* Lets other ready threads (and pending interrupts) run first. */
void hal_yield(hal_t *h);

/* ---- wait/signal: counting semaphores ----------------------------------------
 * A hal_sem_t lives in firmware state (usually node memory). post may be called
 * from threads and interrupt handlers; wait only from threads. */
typedef struct hal_sem {
    uint32_t count;
    uint32_t handle; /* binding's bookkeeping; set by hal_sem_init */
} hal_sem_t;
void hal_sem_init(hal_t *h, hal_sem_t *s, uint32_t initial);
void hal_sem_wait(hal_t *h, hal_sem_t *s);
void hal_sem_post(hal_t *h, hal_sem_t *s);
/* hal_sem_wait for at most `cycles` (> 0) of simulated time: 0 when it took a unit,
 * -1 when the time ran out first (the count is unchanged). Costs what
 * hal_sem_wait costs. */
int hal_sem_wait_timeout(hal_t *h, hal_sem_t *s, uint64_t cycles);

/* ---- interrupts -------------------------------------------------------------
 * Lines are numbered in hw/node_map.h. A handler runs to completion, must not
 * block, and may post semaphores and access registers. */
typedef void (*hal_irq_fn)(hal_t *h, void *arg);
void hal_irq_register(hal_t *h, unsigned line, hal_irq_fn fn, void *arg);

/* ---- node memory ----------------------------------------------------------- */
/* Allocates inside node memory (reachable by DMA). NULL when exhausted. */
void *hal_mem_alloc(hal_t *h, uint32_t bytes, uint32_t align);
void hal_mem_free(hal_t *h, void *p);
/* Node-physical address of a pointer into node memory, for DMA descriptors. */
uint32_t hal_mem_addr(hal_t *h, const void *p);
/* Pointer for a node-physical address (NULL if outside memory). */
void *hal_mem_ptr(hal_t *h, uint32_t addr);

/* ---- device registers (addresses in hw/node_map.h) -------------------------- */
uint32_t hal_reg_read(hal_t *h, uint32_t addr);
void hal_reg_write(hal_t *h, uint32_t addr, uint32_t value);

/* ---- configuration ------------------------------------------------------------
 * Firmware reads its parameters (costs cost.*, workload.*, fs.*) from the run's
 * effective configuration by key, usually once at start-up into its own context.
 * Bool parameters read as 0/1 through hal_config_int; Int ones also through
 * hal_config_real. An unknown key or another type is fatal (hal_fail). Costs no
 * simulated time. The string stays valid for the whole run. */
int64_t hal_config_int(hal_t *h, const char *key);
double hal_config_real(hal_t *h, const char *key);
const char *hal_config_string(hal_t *h, const char *key);

/* ---- per-node firmware context ----------------------------------------------
 * One pointer per node for the firmware's root state, so library code that only
 * has the hal_t can find it. NULL until set. */
void hal_set_context(hal_t *h, void *ctx);
void *hal_context(hal_t *h);

/* ---- names for reports (the deadlock watchdog, docs/watchdog.md) ---------------
 * None of these costs simulated time. hal_sem_name names a semaphore after
 * hal_sem_init (the text is copied), so a report says what a blocked thread waits
 * for. work_queue != 0 marks a queue of work: a thread blocked on it is idle (a
 * server waiting for requests), not stuck, when a run ends.
 * hal_report_register adds a function that describes the firmware's state
 * (outstanding requests, reply actions, queues) when the watchdog writes a report:
 * it calls hal_report_line once per line and may name semaphores; it runs outside
 * any thread and must not block, charge time or change the firmware's state. */
void hal_sem_name(hal_t *h, const hal_sem_t *s, const char *name, int work_queue);
typedef void (*hal_report_fn)(hal_t *h, void *arg);
void hal_report_register(hal_t *h, hal_report_fn fn, void *arg);
void hal_report_line(hal_t *h, const char *text);

/* ---- observation (docs/observe.md) --------------------------------------------
 * What the firmware shows in a traced run's waveform, timeline and transaction
 * log. None of these costs simulated time or changes the run; they do nothing on a
 * node that is not traced. hal_observed says whether the node is traced, so the
 * firmware builds log fields only when someone reads them.
 *
 * hal_probe sets a firmware state the waveform shows as a signal of the node's
 * `fs` scope (declared by the platform from the configuration): index selects the
 * buffer of a per-buffer probe, else 0. hal_note writes one transaction-log line
 * of the node's `fw` component: op is an upper-case word, id pairs a BEGIN with its
 * END (unique per node and op while open; 0 for an instant), fields are
 * "key=value" words separated by single spaces (may be empty). Both are stamped at
 * the firmware's own time: the CPU's current time plus the work charged and not
 * yet waited out. */
typedef enum hal_probe {
    HAL_PROBE_CACHE_USED = 0,    /* SPFS IOP: cache buffers holding a block (not FREE) */
    HAL_PROBE_CACHE_DIRTY = 1,   /* SPFS IOP: buffers DIRTY or in WRITEBACK */
    HAL_PROBE_CACHE_FILLING = 2, /* SPFS IOP: buffers waiting for a disk read */
    HAL_PROBE_DDIO_BUFFER = 3    /* DDIO IOP: buffer `index`'s state, a hal_ddio_buffer_state_t */
} hal_probe_t;
typedef enum hal_ddio_buffer_state {
    HAL_DDIO_BUFFER_IDLE = 0,  /* no block */
    HAL_DDIO_BUFFER_DISK = 1,  /* waiting for the disk (read or write of its block) */
    HAL_DDIO_BUFFER_PIECES = 2 /* moving its block's pieces to or from the CPs */
} hal_ddio_buffer_state_t;
typedef enum hal_note_dir {
    HAL_NOTE_BEGIN = 0,
    HAL_NOTE_END = 1,
    HAL_NOTE_INSTANT = 2
} hal_note_dir_t;
int hal_observed(hal_t *h);
void hal_probe(hal_t *h, hal_probe_t probe, uint32_t index, int64_t value);
void hal_note(hal_t *h, const char *op, hal_note_dir_t dir, uint64_t id, const char *fields);

/* ---- reporting to the simulation harness -------------------------------------
 * Named values the harness reads after the run (measurements, buffer addresses).
 * Costs no simulated time. */
void hal_export(hal_t *h, const char *name, uint64_t value);
/* A fatal firmware error: stops the run, reported with node and message. Never
 * returns (the calling thread or handler is parked), so no code follows it. */
HAL_NORETURN void hal_fail(hal_t *h, const char *message);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_HAL_H */
