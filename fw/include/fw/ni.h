/* Driver of the DMA network interface (hw/ni_regs.h): receive ring, sends with a
 * software queue behind the NI's send queue, and the two interrupt handlers.
 * docs/messaging.md describes the protocol and the costs.
 *
 * The driver knows nothing about message types: it hands every HEADER record to
 * the upper layer's header callback (which says where the body goes), every DONE
 * record to the done callback and every notified send completion to the sent
 * callback. fw_ni_send() may be called from threads and from interrupt handlers.
 *
 * Interrupts are taken at any register access, so a thread programming the six
 * TX registers could be interrupted by a handler that sends too. The driver keeps
 * a "busy" flag while anyone programs TX registers; a handler that finds it set
 * only appends to the software queue, which the interrupted sender drains before
 * it returns. Receive registers are only ever written by the RX handler.
 *
 * Receive records are found by polling the kind word of the next ring slot (the
 * NI writes whole records; the driver zeroes the kind before popping), so the
 * handler needs no RX_COUNT/RX_INDEX reads on the common path.
 */
#ifndef STARFISH_FW_NI_H
#define STARFISH_FW_NI_H

#include "fw/hal.h"
#include "hw/ni_regs.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fw_ni fw_ni_t;

/* The upper layer's answer to a HEADER record whose message has a body. */
typedef struct fw_ni_answer {
    uint32_t op;        /* HW_NI_RX_ACCEPT, HW_NI_RX_ACCEPT_NOTIFY or HW_NI_RX_DISCARD */
    uint32_t body_addr; /* ACCEPT*: node address the NI deposits the body at */
    uint32_t cookie;    /* ACCEPT_NOTIFY: returned in the DONE record */
    /* CPU cycles the driver charges right after RX_CMD: the handler's work that
     * overlaps the body's deposit (its per-word cost), so that a short deposit's
     * DONE record is in the ring by the RX_POP that follows. */
    uint32_t overlap_cycles;
} fw_ni_answer_t;

typedef struct fw_ni_ops {
    /* A HEADER record (interrupt context). If rec->handle != HW_NI_NONE the
     * message has a body and *ans must be filled in. */
    void (*header)(void *arg, const hw_ni_rx_record_t *rec, fw_ni_answer_t *ans);
    /* A DONE record: the ACCEPT_NOTIFY body with this cookie is in memory. */
    void (*done)(void *arg, unsigned src, uint32_t cookie);
    /* A send pushed with notify has left the node (its body may be reused). */
    void (*sent)(void *arg, uint32_t cookie);
    void *arg;
} fw_ni_ops_t;

typedef struct fw_ni_config {
    uint32_t rx_ring_slots;       /* msg.rx_ring_slots: power of two >= 2 */
    uint32_t send_queue_entries;  /* msg.send_queue_entries: initial software queue */
    uint32_t rx_record_cycles;    /* cost.msg_rx_record_cycles: per receive record */
    uint32_t queue_insert_cycles; /* cost.queue_insert_cycles: per software-queued send */
} fw_ni_config_t;

typedef struct fw_ni_stats {
    uint64_t sends;         /* messages handed to fw_ni_send */
    uint64_t pushes;        /* descriptors pushed to the NI */
    uint64_t queued;        /* sends that went through the software queue */
    uint64_t queue_peak;    /* deepest the software queue got */
    uint64_t tx_free_reads; /* TX_FREE reads (credit refreshes) */
    uint64_t headers;       /* HEADER records handled */
    uint64_t dones;         /* DONE records handled */
    uint64_t sent_notices;  /* TX_DONE cookies handled */
    uint64_t rx_interrupts; /* RX handler invocations */
    uint64_t tx_interrupts; /* TX handler invocations */
} fw_ni_stats_t;

/* Checks the NI's ID and NODE registers, allocates the receive ring in node
 * memory, programs it and enables the NI with receive and send-done interrupts.
 * Fails the run (hal_fail) on a missing NI or a bad configuration. */
fw_ni_t *fw_ni_init(hal_t *h, const fw_ni_config_t *cfg, const fw_ni_ops_t *ops);

/* Sends a message of hdr_bytes (multiple of 4, <= HW_NI_HDR_MAX_BYTES; copied at
 * once, may live anywhere) and an optional body in node memory, which must stay
 * untouched until the message has left (notify tells when). Never blocks: when the
 * NI's send queue is full the message waits in a software queue that the TX
 * interrupt drains. Messages leave in call order. */
void fw_ni_send(fw_ni_t *ni, unsigned dest, const void *hdr, uint32_t hdr_bytes, const void *body,
                uint32_t body_bytes, bool notify, uint32_t cookie);

const fw_ni_stats_t *fw_ni_stats(const fw_ni_t *ni);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_NI_H */
