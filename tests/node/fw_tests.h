/* Test firmware for the node model and the network interface (C11, hal.h and hw/
 * only). Each entry point is a node's main; the bench passes its arguments
 * through the node's context pointer (hal_context) before the run. */
#ifndef STARFISH_TESTS_NODE_FW_TESTS_H
#define STARFISH_TESTS_NODE_FW_TESTS_H

#include "fw/hal.h"
#include "hw/node_map.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the test timer device (tests/node/timer_device.h) at HW_SCSI_BASE -------- */
#define FWT_TIMER_BASE HW_SCSI_BASE
#define FWT_TIMER_IRQ HW_IRQ_SCSI0
#define FWT_TIMER_FIRE_IN 0x0u /* W: raise the line N cycles from now (0: cancel) */
#define FWT_TIMER_ACK 0x4u     /* W: lower the line */
#define FWT_TIMER_PERIOD 0x8u  /* W: raise the line every N cycles (0: stop) */
#define FWT_TIMER_RAISES 0xcu  /* R: times the line rose */

/* ---- CPU scenarios ------------------------------------------------------------- */

/* A stretch of CPU time seen by the firmware (hal_now_cycles at both ends). */
typedef struct fwt_segment {
    uint64_t start;
    uint64_t end;
    uint32_t who;    /* FWT_WHO_* */
    uint32_t charge; /* cycles the firmware charged inside (hal_cycles + HAL costs) */
} fwt_segment_t;
#define FWT_WHO_ALPHA 0u
#define FWT_WHO_BETA 1u
#define FWT_WHO_HANDLER 2u

/* Two threads and a periodic interrupt. Exports log_addr/log_count (an array of
 * fwt_segment_t in node memory), tally_threads (cycles the threads charged
 * through hal_cycles and HAL services, excluding wakeups and context switches),
 * raises (timer interrupts raised). */
void fwt_busy_main(hal_t *h);
/* Interrupt latency at a synchronisation point and when idle. */
void fwt_irq_latency_main(hal_t *h);
/* Posted register writes (the NI's TX_DEST) around a timer interrupt: exports
 * seen_by_handler, handler_entry, last (TX_DEST read at the end), t_start (after
 * arming the timer), t_end (after that read). */
void fwt_posted_writes_main(hal_t *h);
void fwt_quiet_points_main(hal_t *h);
/* Semaphores: FIFO wake order, counting, post from a handler. */
void fwt_sem_main(hal_t *h);
/* Two threads alternating through hal_yield. */
void fwt_yield_main(hal_t *h);
/* Spawns until the thread limit, then again after threads ended. */
void fwt_spawn_limit_main(hal_t *h);
/* hal_sleep_cycles while another thread computes. */
void fwt_sleep_main(hal_t *h);
void fwt_timed_wait_main(hal_t *h);
/* Allocation, alignment, exhaustion, coalescing, address conversion. */
void fwt_mem_main(hal_t *h);
/* hal_config_* of known keys. */
void fwt_config_main(hal_t *h);
/* hal_thread_exit from a nested call. */
void fwt_thread_exit_main(hal_t *h);

/* Programs that must stop the run; the context points to a uint32_t selecting
 * FWT_FAIL_*. */
#define FWT_FAIL_HAL_FAIL 1u     /* hal_fail("…") after 1234 cycles */
#define FWT_FAIL_UNKNOWN_KEY 2u  /* hal_config_int("no.such.key") */
#define FWT_FAIL_WRONG_TYPE 3u   /* hal_config_int("machine.placement") */
#define FWT_FAIL_BLOCK_IN_IRQ 4u /* hal_sem_wait in an interrupt handler */
#define FWT_FAIL_UNMAPPED_REG 5u /* hal_reg_read of an address with no device */
#define FWT_FAIL_FREE_TWICE 6u   /* hal_mem_free of a freed block */
#define FWT_FAIL_UNINIT_SEM 7u   /* hal_sem_post of a semaphore never initialised */
void fwt_fail_main(hal_t *h);

/* ---- network interface scenarios ---------------------------------------------- */

#define FWT_MAX_SIZES 32u
#define FWT_RX_NOTIFY_ALL 0u /* every body ACCEPT_NOTIFY */
#define FWT_RX_MIXED 1u      /* i%3: 0 ACCEPT_NOTIFY, 1 ACCEPT, 2 DISCARD; last NOTIFY */

typedef struct fwt_ni_args {
    uint32_t sender;   /* node that sends */
    uint32_t receiver; /* node that receives */
    uint32_t messages;
    uint32_t n_sizes;
    uint32_t body_sizes[FWT_MAX_SIZES]; /* message i has body_sizes[i % n_sizes] */
    uint32_t hdr_bytes;                 /* 16..64, multiple of 4 */
    uint32_t rx_mode;                   /* FWT_RX_* */
    uint32_t ring_slots;
    uint32_t poll_cycles;  /* 0: interrupt-driven receiver; else a thread polls, */
    uint32_t answer_delay; /* sleeping this long before answering each header */
    uint32_t use_tx_irq;   /* sender waits for TX_DONE/TX_SPACE interrupts, else polls */
} fwt_ni_args_t;

/* Sender and receiver of fwt_ni_args_t (both nodes run it). Receiver exports
 * received, headers_ok, bodies_ok, bodies_bad, discarded_clean, in_order, end;
 * sender exports sent, tx_done, end. */
void fwt_ni_exchange_main(hal_t *h);

/* One message (64-byte header + args->body_sizes[0]) from sender to an idle
 * receiver. Sender exports t_push (just after the TX_PUSH write) and
 * tx_done_entry; receiver exports rx_header_entry, t_cmd (just after the RX_CMD
 * write) and rx_done_entry. */
void fwt_ni_timing_main(hal_t *h);

/* NI programming errors; the context points to a uint32_t FWT_NIERR_*. Node 0
 * misprograms; node 1 sends node 0 a message when the scenario needs one. */
#define FWT_NIERR_TX_BODY_ADDR 1u
#define FWT_NIERR_TX_HDR_ADDR 2u
#define FWT_NIERR_TX_HDR_MISALIGNED 3u
#define FWT_NIERR_TX_BODY_TOO_LARGE 4u
#define FWT_NIERR_TX_EMPTY 5u
#define FWT_NIERR_TX_DEST 6u
#define FWT_NIERR_TX_OVERFLOW 7u
#define FWT_NIERR_RING_SLOTS 8u
#define FWT_NIERR_RING_ALIGN 9u
#define FWT_NIERR_RING_OUTSIDE 10u
#define FWT_NIERR_RING_CHANGED 11u
#define FWT_NIERR_RX_HANDLE 12u
#define FWT_NIERR_RX_CMD 13u
#define FWT_NIERR_RX_ADDR 14u
#define FWT_NIERR_RX_POP 15u
#define FWT_NIERR_REG_UNDEFINED 16u
#define FWT_NIERR_REG_READ_ONLY 17u
#define FWT_NIERR_COUNT 17u
void fwt_ni_error_main(hal_t *h);

/* ---- bench programs (bench/bench_node.cpp); the context points to a uint32_t
 * iteration count ----------------------------------------------------------------- */
/* Two threads hand a semaphore back and forth: two context switches per round. */
void fwt_bench_switch_main(hal_t *h);
/* Reads the NI ID register in a loop. */
void fwt_bench_regs_main(hal_t *h);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_TESTS_NODE_FW_TESTS_H */
