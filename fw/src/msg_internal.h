/* Internals shared by msg.c, msg_queued.c and msg_barrier.c (not a public API). */
#ifndef STARFISH_FW_MSG_INTERNAL_H
#define STARFISH_FW_MSG_INTERNAL_H

#include "fw/barrier.h"
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
    uint32_t queue_piece;
    uint32_t barrier_step;
} fw_msg_costs_t;

/* Reply actions: requester-side records in node memory whose address travels in
 * the request's header and comes back in the reply. */
#define FW_RA_MAGIC 0x52414354u   /* "RACT" */
#define FW_PEND_MAGIC 0x50454e44u /* "PEND" */

enum fw_ra_kind {
    FW_RA_MEMPUT = 1, /* a Memput's acknowledgement */
    FW_RA_REPLY = 2,  /* a Memget's data or a request's reply */
    FW_RA_QPUT = 3,   /* acknowledgement of a queued-Memput batch */
    FW_RA_QGET = 4,   /* data of a queued-Memget batch */
    FW_RA_SENT = 5    /* a notified send has left the node (TX_DONE cookie) */
};
enum fw_ra_state { FW_RA_FREE = 0, FW_RA_WAITING = 1, FW_RA_DEPOSITING = 2 };

struct fw_qpeer;

typedef struct fw_ra {
    uint32_t magic;
    uint32_t state;
    uint32_t kind;
    uint32_t addr; /* own node address */
    uint8_t *buf;  /* reply body destination (node memory) */
    uint32_t buf_addr;
    uint32_t cap;
    uint32_t node; /* the peer (queued batches) */
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

/* Queued Memput/Memget: one batch per direction per peer. */
#define FW_Q_RUNS 8u /* distinct groups per batch before it is sent early */
#define FW_Q_PIECE_HDR 8u

typedef struct fw_qrun {
    fw_group_t *g;
    uint32_t count;
} fw_qrun_t;

typedef struct fw_qside {
    uint8_t *buf;  /* the batch message body (node memory) */
    uint32_t used; /* bytes of buf in use */
    uint32_t pieces;
    uint32_t data; /* qget: reply bytes the pieces ask for */
    bool inflight;
    uint32_t waiters;
    hal_sem_t sem; /* threads waiting for the batch to come back */
    fw_qrun_t runs[FW_Q_RUNS];
    uint32_t nruns;
    void **dst;     /* qget: destination of each piece */
    uint8_t *stage; /* qget: where the reply's data lands */
} fw_qside_t;

typedef struct fw_qpeer {
    fw_qside_t put;
    fw_qside_t get;
} fw_qpeer_t;

/* Receiver-side buffers per source (one outstanding batch per peer and kind). */
typedef struct fw_qsrc {
    uint8_t *put_stage;
    uint8_t *get_stage;
    uint8_t *gather;
} fw_qsrc_t;

struct fw_msg_barrier {
    uint32_t id;
    bool created;
    unsigned *members; /* sorted node ids */
    fw_barrier_sm_t sm;
    hal_sem_t sem;
    struct fw_msg_barrier *next;
};

enum fw_type_kind {
    FW_TYPE_NONE = 0,
    FW_TYPE_SERVICE = 1, /* server-thread pool */
    FW_TYPE_HANDLER = 2, /* interrupt level */
    FW_TYPE_THREAD = 3   /* a thread per request */
};

typedef struct fw_type_entry {
    uint32_t kind;
    fw_service_fn service;
    fw_handler_fn handler;
    void *arg;
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
    fw_qpeer_t **qpeer;
    fw_qsrc_t **qsrc;
    uint32_t q_unsent;   /* batches with pieces that are not in flight */
    uint32_t q_inflight; /* batches in flight */
    uint32_t q_waiting;
    int32_t q_first_error;
    hal_sem_t q_sem;
    struct fw_msg_barrier *barriers;
    fw_msg_stats_t stats;
    uint32_t notes;          /* transaction-log ids handed out (traced nodes only) */
    void *thread_frame_free; /* request threads' stacks, linked through their first word */
};

/* msg.c */
/* Never returns (hal_fail). */
_Noreturn void fw_msg_failf(fw_msg_t *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void *fw_msg_alloc(fw_msg_t *m, uint32_t bytes, const char *what);
/* Transaction-log lines of a traced node (hal_note): `op` (MEMPUT, MEMGET, REQUEST,
 * QMEMPUT, QMEMGET) begins when the action
 * is sent (to `node`; what = offset=, type= or pieces= for a batch) and ends with its
 * answer. Cost nothing and do nothing on a node that is not traced. */
void fw_msg_note_begin(fw_msg_t *m, fw_ra_t *ra, const char *op, unsigned node, const char *what,
                       uint32_t what_value, uint32_t bytes);
void fw_msg_note_end(fw_msg_t *m, fw_ra_t *ra, int32_t status);
uint32_t fw_words(uint32_t bytes);
fw_ra_t *fw_ra_get(fw_msg_t *m, uint32_t kind);
void fw_ra_put(fw_msg_t *m, fw_ra_t *ra);
fw_pending_t *fw_pending_get(fw_msg_t *m);
void fw_pending_put(fw_msg_t *m, fw_pending_t *p);
void fw_msg_send_hdr(fw_msg_t *m, unsigned node, fw_msg_hdr_t *hdr, const void *body,
                     uint32_t bytes, fw_ra_t *notify);
void fw_msg_send_reply(fw_msg_t *m, unsigned node, uint32_t reply, int32_t status,
                       const uint32_t *args, const void *body, uint32_t bytes);
void fw_group_add(fw_group_t *g, uint32_t count);
void fw_group_done(fw_msg_t *m, fw_group_t *g, uint32_t count, int32_t status);
void fw_msg_check_node(fw_msg_t *m, unsigned node, const char *what);
int32_t fw_msg_base_check(const fw_msg_t *m, uint32_t offset, uint32_t bytes);
void fw_msg_accept(fw_msg_t *m, fw_ni_answer_t *ans, void *dst, uint32_t bytes, uint32_t cookie);

/* msg_queued.c */
void fw_q_rx_put(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                 fw_ni_answer_t *ans);
void fw_q_rx_get(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                 fw_ni_answer_t *ans);
void fw_q_put_arrived(fw_msg_t *m, fw_pending_t *p);
void fw_q_get_arrived(fw_msg_t *m, fw_pending_t *p);
/* A batch's reply: header seen (bytes > 0 means its data must be deposited). */
void fw_q_reply(fw_msg_t *m, fw_ra_t *ra, uint32_t bytes, fw_ni_answer_t *ans);
/* The batch's reply data is in ra->buf (or there is none). */
void fw_q_complete(fw_msg_t *m, fw_ra_t *ra);

/* msg_report.c: the watchdog report's messaging lines (hal_report_fn, arg the fw_msg_t). */
void fw_msg_report(hal_t *h, void *arg);

/* msg_barrier.c */
void fw_barrier_rx(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr);

#endif /* STARFISH_FW_MSG_INTERNAL_H */
