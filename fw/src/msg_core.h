/* The messaging core's internals (not a public API): the state every msg_*.c file
 * shares, and the registry through which system message types (queued batches,
 * barriers: msg_queued.c, msg_barrier.c) plug into the core. The core knows none of
 * them by name; msg_stack.c assembles the library. */
#ifndef STARFISH_FW_MSG_CORE_H
#define STARFISH_FW_MSG_CORE_H

#include "fw/msg.h"
#include "fw/ni.h"

#include <stdbool.h>
#include <stdint.h>

/* The named firmware costs (cost.* parameters, docs/messaging.md), in cycles. */
typedef struct fw_msg_costs {
    uint32_t rx_record;
    uint32_t deposit_word;
    uint32_t copy_word;
    uint32_t queue_insert;
    uint32_t memput_call;
    uint32_t memput_accept;
    uint32_t memput_ack;
    uint32_t memput_return;
    uint32_t memget_call;
    uint32_t memget_serve;
    uint32_t reply_accept;
    uint32_t reply_done;
    uint32_t request_call;
    uint32_t request_accept;
    uint32_t reply_call;
} fw_msg_costs_t;

/* Reply actions: requester-side records in node memory whose address travels in
 * the request's header and comes back in the reply. */
#define FW_RA_MAGIC 0x52414354u   /* "RACT" */
#define FW_PEND_MAGIC 0x50454e44u /* "PEND" */

enum fw_ra_kind {
    FW_RA_MEMPUT = 1, /* a Memput's acknowledgement */
    FW_RA_REPLY = 2,  /* a Memget's data or a request's reply */
    FW_RA_SENT = 5,   /* a notified send has left the node (TX_DONE cookie) */
    /* The reply belongs to a system message type (kind = FW_RA_SYSTEM | type): the
     * type's on_reply and on_reply_done hooks handle it. */
    FW_RA_SYSTEM = 0x100
};
enum fw_ra_state { FW_RA_FREE = 0, FW_RA_WAITING = 1, FW_RA_DEPOSITING = 2 };

typedef struct fw_ra {
    uint32_t magic;
    uint32_t state;
    uint32_t kind;
    uint32_t addr; /* own node address */
    uint8_t *buf;  /* reply body destination (node memory) */
    uint32_t buf_addr;
    uint32_t cap;
    uint32_t node; /* the peer (a system type's own use) */
    fw_reply_t *result;
    fw_group_t *group;
    bool blocking; /* a thread waits on sem and frees the action */
    hal_sem_t sem;
    fw_reply_t got; /* what the reply said */
    struct fw_ra *next;
    uint32_t note;       /* transaction-log id of a traced Memput/Memget or batch, else 0 */
    const char *note_op; /* its log op ("MEMPUT", ...) */
} fw_ra_t;

/* A received message waiting for its body (DONE) or for a server thread. */
typedef struct fw_pending {
    uint32_t magic;
    uint32_t addr;
    uint32_t src;
    uint32_t body_bytes;
    fw_msg_hdr_t hdr;
    uint8_t *buf;      /* where the body is */
    uint32_t buf_kind; /* 0 none, 1 request-pool buffer, 2 own allocation */
    struct fw_pending *next;
} fw_pending_t;

/* A system message type (FW_MSG_REPLY < type < FW_MSG_TYPE_USER): how a service
 * built on the core (queued batches, barriers) receives its messages and replies.
 * The core charges the type's rx_cycles, then calls on_header; a body accepted
 * there with fw_msg_accept(..., p->addr) comes back through on_body. A reply to a
 * reply action taken with fw_ra_get_system goes to on_reply (header in; a body is
 * accepted into ra->buf with fw_msg_accept(..., ra->addr) after setting
 * ra->state = FW_RA_DEPOSITING) and then on_reply_done. All run at interrupt level. */
typedef struct fw_msg_system_ops {
    void (*on_header)(fw_msg_t *m, void *state, unsigned src, const fw_msg_hdr_t *hdr,
                      uint32_t bytes, fw_ni_answer_t *ans);
    void (*on_body)(fw_msg_t *m, void *state, fw_pending_t *p);
    void (*on_reply)(fw_msg_t *m, void *state, fw_ra_t *ra, uint32_t bytes, fw_ni_answer_t *ans);
    void (*on_reply_done)(fw_msg_t *m, void *state, fw_ra_t *ra);
} fw_msg_system_ops_t;

/* Called by fw_group_wait before it waits (a service sends what it holds back). */
typedef void (*fw_msg_wait_hook_fn)(fw_msg_t *m, void *state);
#define FW_MSG_WAIT_HOOKS 4u

enum fw_type_kind {
    FW_TYPE_NONE = 0,
    FW_TYPE_SERVICE = 1, /* server-thread pool */
    FW_TYPE_HANDLER = 2, /* interrupt level */
    FW_TYPE_THREAD = 3,  /* a thread per request */
    FW_TYPE_SYSTEM = 4   /* a system type's hooks */
};

typedef struct fw_type_entry {
    uint32_t kind;
    fw_service_fn service;
    fw_handler_fn handler;
    void *arg; /* the service's or handler's argument; a system type's state */
    const fw_msg_system_ops_t *ops;
    uint32_t rx_cycles; /* system types: charged on arrival, before on_header */
} fw_type_entry_t;

struct fw_msg {
    hal_t *h;
    fw_ni_t *ni;
    unsigned self;
    unsigned nodes;
    fw_msg_costs_t c;
    uint32_t batch_bytes;  /* fs.block_bytes */
    uint32_t reqbuf_bytes; /* fs.block_bytes */
    uint32_t server_threads;
    uint8_t *base;
    uint32_t base_bytes;
    uint16_t seq;
    fw_type_entry_t types[FW_MSG_TYPE_MAX + 1];
    fw_ra_t *ra_free;
    fw_pending_t *pend_free;
    void *reqbuf_free; /* free request buffers, linked through their first word */
    fw_pending_t *srv_head;
    fw_pending_t *srv_tail;
    hal_sem_t srv_sem;
    bool servers_started;
    struct {
        fw_msg_wait_hook_fn fn;
        void *state;
    } wait_hooks[FW_MSG_WAIT_HOOKS];
    uint32_t n_wait_hooks;
    fw_ni_config_t ni_config; /* kept from set-up until the NI starts */
    fw_msg_stats_t stats;
    uint32_t notes;          /* transaction-log ids handed out (traced nodes only) */
    void *thread_frame_free; /* request threads' stacks, linked through their first word */
};

/* ---- msg.c: set-up, the system-type registry, small helpers ---- */
/* Never returns (hal_fail). */
_Noreturn void fw_msg_failf(fw_msg_t *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void *fw_msg_alloc(fw_msg_t *m, uint32_t bytes, const char *what);
uint32_t fw_words(uint32_t bytes);
void fw_msg_check_node(fw_msg_t *m, unsigned node, const char *what);
/* The core alone: state, costs, pools; the NI is not started yet. */
fw_msg_t *fw_msg_core_init(hal_t *h);
/* Starts the NI: messages may arrive from now on, so every system type must be
 * registered before. Returns false when node memory ran out. */
bool fw_msg_core_start(fw_msg_t *m);
void fw_msg_register_system(fw_msg_t *m, unsigned type, const fw_msg_system_ops_t *ops, void *state,
                            uint32_t rx_cycles);
void *fw_msg_system_state(const fw_msg_t *m, unsigned type);
void fw_msg_set_system_state(fw_msg_t *m, unsigned type, void *state);
uint32_t fw_msg_system_rx_cycles(const fw_msg_t *m, unsigned type);
void fw_msg_add_wait_hook(fw_msg_t *m, fw_msg_wait_hook_fn fn, void *state);
/* Transaction-log lines of a traced node (hal_note): `op` (MEMPUT, MEMGET, REQUEST,
 * QMEMPUT, QMEMGET) begins when the action
 * is sent (to `node`; what = offset=, type= or pieces= for a batch) and ends with its
 * answer. Cost nothing and do nothing on a node that is not traced. */
void fw_msg_note_begin(fw_msg_t *m, fw_ra_t *ra, const char *op, unsigned node, const char *what,
                       uint32_t what_value, uint32_t bytes);
void fw_msg_note_end(fw_msg_t *m, fw_ra_t *ra, int32_t status);

/* ---- msg_pools.c: reply actions, receive records, request buffers ---- */
fw_ra_t *fw_ra_new(fw_msg_t *m);
fw_ra_t *fw_ra_get(fw_msg_t *m, uint32_t kind);
/* A reply action whose reply goes to system type `type`'s hooks. */
fw_ra_t *fw_ra_get_system(fw_msg_t *m, unsigned type);
void fw_ra_put(fw_msg_t *m, fw_ra_t *ra);
fw_pending_t *fw_pending_new(fw_msg_t *m);
/* A receive record for a message from `src` with this header and a body of `bytes`
 * (NULL when node memory ran out). */
fw_pending_t *fw_pending_get(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes);
void fw_pending_put(fw_msg_t *m, fw_pending_t *p);
/* A request buffer for a body of `bytes`: from the pool when it fits (growing the
 * pool when empty), else an allocation of its own (*kind says which). */
uint8_t *fw_reqbuf_get(fw_msg_t *m, uint32_t bytes, uint32_t *kind);
void fw_reqbuf_put(fw_msg_t *m, uint8_t *buf, uint32_t kind);

/* ---- msg_group.c ---- */
void fw_group_add(fw_group_t *g, uint32_t count);
void fw_group_done(fw_msg_t *m, fw_group_t *g, uint32_t count, int32_t status);

/* ---- msg_send.c: headers out ---- */
void fw_msg_hdr_init(fw_msg_hdr_t *hdr, unsigned type, const uint32_t *args);
void fw_msg_send_hdr(fw_msg_t *m, unsigned node, fw_msg_hdr_t *hdr, const void *body,
                     uint32_t bytes, fw_ra_t *notify);
void fw_msg_send_reply(fw_msg_t *m, unsigned node, uint32_t reply, int32_t status,
                       const uint32_t *args, const void *body, uint32_t bytes);

/* ---- msg_receive.c: the NI driver's callbacks ---- */
void fw_msg_on_header(void *arg, const hw_ni_rx_record_t *rec, fw_ni_answer_t *ans);
void fw_msg_on_done(void *arg, unsigned src, uint32_t cookie);
void fw_msg_on_sent(void *arg, uint32_t cookie);
/* Answers a header: deposit the body at dst, then a DONE record with `cookie`. */
void fw_msg_accept(fw_msg_t *m, fw_ni_answer_t *ans, void *dst, uint32_t bytes, uint32_t cookie);
int32_t fw_msg_base_check(const fw_msg_t *m, uint32_t offset, uint32_t bytes);
/* A reply action's answer is complete: wake its waiter or free it, count its group. */
void fw_msg_ra_complete(fw_msg_t *m, fw_ra_t *ra);

/* ---- msg_server.c: user types (services, thread requests, handlers) ---- */
void fw_msg_rx_user(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                    fw_ni_answer_t *ans);
/* A request (header and body) is in: hand it to its service. */
void fw_msg_dispatch_request(fw_msg_t *m, fw_pending_t *p);

/* ---- msg_report.c: the watchdog report's core lines (hal_report_fn, arg the fw_msg_t) ---- */
void fw_msg_report(hal_t *h, void *arg);

#endif /* STARFISH_FW_MSG_CORE_H */
