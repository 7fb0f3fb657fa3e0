/* Firmware messaging library (docs/reference.md §2 "Software costs", §6, §7): request/reply
 * with reply actions, Memput/Memget against a registered base, queued (batched)
 * Memput/Memget, multicast and barriers, over the NI driver (fw/ni.h).
 * docs/messaging.md describes the header format, the protocols and the costs.
 *
 * One fw_msg_t per node, created by fw_msg_init(); all its state lives in node
 * memory. Functions marked "thread" may block and must be called from a firmware
 * thread; the rest never block. Buffers that the NI reads or writes by DMA (send
 * bodies, reply buffers, the base) must be in node memory (hal_mem_alloc).
 *
 * CPU time is charged as the work happens: the library charges its own named
 * parts (cost.msg_*, cost.copy_word_cycles, cost.queue_insert_cycles) with
 * hal_cycles, and every HAL service it uses charges its own cost.
 */
#ifndef STARFISH_FW_MSG_H
#define STARFISH_FW_MSG_H

#include "fw/hal.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fw_msg fw_msg_t;

/* ---- the software header (docs/messaging.md) ------------------------------------ */
#define FW_MSG_ARGS 3

typedef struct fw_msg_hdr {
    uint8_t type;              /* FW_MSG_* or a user type >= FW_MSG_TYPE_USER */
    uint8_t flags;             /* reserved, 0 */
    uint16_t seq;              /* sender's message count (wrapping), for traces */
    uint32_t reply;            /* requester's reply action (node address); 0: no reply wanted */
    uint32_t offset;           /* Memput/Memget: offset from the receiver's base; barrier: epoch */
    uint32_t length;           /* Memget: bytes wanted; batches: pieces; barrier: round */
    int32_t status;            /* replies: FW_MSG_OK or a negative FW_MSG_E* */
    uint32_t arg[FW_MSG_ARGS]; /* service arguments; barrier: id */
} fw_msg_hdr_t;

enum fw_msg_type {
    FW_MSG_MEMPUT = 1,  /* body -> receiver's base + offset, then a REPLY (ack) */
    FW_MSG_MEMGET = 2,  /* REPLY carries length bytes from base + offset */
    FW_MSG_REPLY = 3,   /* answer to any message that named a reply action */
    FW_MSG_QPUT = 4,    /* batch of (offset, length, data) pieces; REPLY is the ack */
    FW_MSG_QGET = 5,    /* batch of (offset, length); REPLY carries the pieces' data */
    FW_MSG_BARRIER = 6, /* one step of a dissemination barrier */
    FW_MSG_TYPE_USER = 16,
    FW_MSG_TYPE_MAX = 255
};

/* Status codes (fw_reply_t.status, group errors, return values). */
enum fw_msg_status {
    FW_MSG_OK = 0,
    FW_MSG_ERANGE = -1,  /* offset/length outside the receiver's registered base */
    FW_MSG_ENOBASE = -2, /* the receiver registered no base */
    FW_MSG_ETOOBIG = -3  /* the reply's body is larger than the reply buffer */
};

/* What came back in a reply (caller-owned; filled in before the waiter wakes). */
typedef struct fw_reply {
    int32_t status;
    uint32_t bytes; /* body bytes deposited in the reply buffer */
    uint32_t src;   /* replying node */
    uint32_t arg[FW_MSG_ARGS];
} fw_reply_t;

/* A completion group: count of outstanding operations that one thread waits for
 * (e.g. Memputs in flight to several CPs). Caller-owned; fw_group_init first. */
typedef struct fw_group {
    uint32_t outstanding;
    uint32_t waiting; /* 0, or 1 + the count a waiting thread waits for outstanding to reach */
    uint32_t errors;
    int32_t first_error;
    hal_sem_t sem;
} fw_group_t;

/* ---- set-up ----------------------------------------------------------------------- */
/* Reads cost.* and msg.* parameters, allocates the library's state in node memory,
 * and starts the NI. Call once per node, from a thread, before any other call. */
fw_msg_t *fw_msg_init(hal_t *h);
hal_t *fw_msg_hal(const fw_msg_t *m);
unsigned fw_msg_node_count(const fw_msg_t *m);
/* Registers this node's Memput/Memget base (node memory) and its size. */
void fw_msg_set_base(fw_msg_t *m, void *base, uint32_t bytes);

/* ---- completion groups -------------------------------------------------------------- */
void fw_group_init(fw_msg_t *m, fw_group_t *g);
/* thread: sends any partly filled queued batches, then waits until every
 * operation of the group has completed. Returns the first error, or FW_MSG_OK. */
int fw_group_wait(fw_msg_t *m, fw_group_t *g);
/* thread: as fw_group_wait, but returns once at most `limit` operations are
 * outstanding (flow control: "wait for one of my K requests to finish"). */
int fw_group_wait_at_most(fw_msg_t *m, fw_group_t *g, uint32_t limit);

/* ---- Memput / Memget ------------------------------------------------------------------
 * The source of a Memput must stay untouched until it completes; the destination
 * of a Memget must be node memory. */
void fw_memput_async(fw_msg_t *m, unsigned node, uint32_t offset, const void *src, uint32_t bytes,
                     fw_group_t *g);
void fw_memget_async(fw_msg_t *m, unsigned node, uint32_t offset, void *dst, uint32_t bytes,
                     fw_group_t *g);
int fw_memput(fw_msg_t *m, unsigned node, uint32_t offset, const void *src,
              uint32_t bytes);                                                         /* thread */
int fw_memget(fw_msg_t *m, unsigned node, uint32_t offset, void *dst, uint32_t bytes); /* thread */

/* ---- queued (batched) Memput / Memget, docs/reference.md §7 -------------------------
 * Pieces for one peer are packed into a block-sized batch (fs.block_bytes) that
 * travels as one message; one batch per peer is outstanding at a time. fw_qput
 * copies the data at once (src may be reused on return); fw_qget's dst may be
 * any memory and is filled when the batch's reply arrives. Both are "thread":
 * they block while the peer's batch is in flight and the new piece needs it. */
void fw_qput(fw_msg_t *m, unsigned node, uint32_t offset, const void *src, uint32_t bytes,
             fw_group_t *g);
void fw_qget(fw_msg_t *m, unsigned node, uint32_t offset, void *dst, uint32_t bytes, fw_group_t *g);
/* One piece between `local` (this node's memory) and (node, offset): a Memget when
 * `get`, else a Memput; queued into the peer's batch or sent as its own message.
 * How the DDIO IOPs and the 2PIO permutation move every piece. */
void fw_move_piece(fw_msg_t *m, bool get, bool queued, unsigned node, uint32_t offset, void *local,
                   uint32_t bytes, fw_group_t *g);
/* Sends every non-empty batch (for one node, or all). */
void fw_q_flush_node(fw_msg_t *m, unsigned node);
void fw_q_flush(fw_msg_t *m);
/* thread: flushes, then waits until no batch is in flight. Returns the first error. */
int fw_q_wait_all(fw_msg_t *m);

/* ---- requests, services and one-way messages ---------------------------------------------- */
typedef struct fw_request {
    unsigned src;
    fw_msg_hdr_t hdr;
    void *body; /* request buffer holding the body (NULL if none) */
    uint32_t body_bytes;
} fw_request_t;

/* Runs in a server thread (may block). Answers with fw_msg_reply (at most once). */
typedef void (*fw_service_fn)(fw_msg_t *m, const fw_request_t *req, void *arg);
/* Runs in the receive interrupt (must not block); header-only messages. */
typedef void (*fw_handler_fn)(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, void *arg);

/* Requests of this user type go into a request buffer and wake a server thread
 * (msg.server_threads per node, started at the first registration). */
void fw_msg_register_service(fw_msg_t *m, unsigned type, fw_service_fn fn, void *arg);
/* Size of the server-thread pool that the first fw_msg_register_service starts
 * (default msg.server_threads). Call before that registration. */
void fw_msg_set_server_threads(fw_msg_t *m, uint32_t threads);
/* "Thread requests" (docs/reference.md §7): each request of this user type gets a thread of
 * its own, created by the receive interrupt handler, which copies the request
 * (header and body) onto the new thread's stack (cost.copy_word_cycles per word)
 * and frees the request buffer; the thread runs the service and exits. */
void fw_msg_register_thread_service(fw_msg_t *m, unsigned type, fw_service_fn fn, void *arg);
/* Messages of this user type are handled in the interrupt handler. */
void fw_msg_register_handler(fw_msg_t *m, unsigned type, fw_handler_fn fn, void *arg);

/* Sends a request; the reply's body goes to reply_buf (node memory, up to
 * reply_cap bytes), its status and arguments to *result. The async form counts in g. */
void fw_msg_request_async(fw_msg_t *m, unsigned node, unsigned type, const uint32_t *args,
                          const void *body, uint32_t bytes, void *reply_buf, uint32_t reply_cap,
                          fw_reply_t *result, fw_group_t *g);
int fw_msg_request(fw_msg_t *m, unsigned node, unsigned type, const uint32_t *args,
                   const void *body, uint32_t bytes, void *reply_buf, uint32_t reply_cap,
                   fw_reply_t *result); /* thread; returns result->status */
/* thread: a message that wants no reply; returns when its body has left. */
void fw_msg_send(fw_msg_t *m, unsigned node, unsigned type, const uint32_t *args, const void *body,
                 uint32_t bytes);
/* The same message to each of nodes[0..n-1]. With replies != NULL each is a request
 * whose reply counts in *replies (and fills results[i] if results != NULL).
 * thread: returns when the body has left for every node. */
void fw_msg_multicast(fw_msg_t *m, const unsigned *nodes, unsigned n, unsigned type,
                      const uint32_t *args, const void *body, uint32_t bytes, fw_reply_t *results,
                      fw_group_t *replies);
/* thread: the same request to every IOP, with a body of `bytes` (copied into node
 * memory, which the DMA reads), then waits for every answer; returns the first
 * IOP's error status in IOP order, or FW_MSG_OK. `who` names the caller in the
 * wait's name and in a memory failure ("DDIO collective request", "SPFS sync"). */
int fw_msg_request_every_iop(fw_msg_t *m, unsigned type, const void *body, uint32_t bytes,
                             const char *who);
/* thread: answers a request (no-op if it wanted no reply); returns when the body
 * has left, so body may be reused. */
void fw_msg_reply(fw_msg_t *m, const fw_request_t *req, int32_t status, const uint32_t *args,
                  const void *body, uint32_t bytes);
/* From an interrupt-level handler: a reply without body. */
void fw_msg_reply_inline(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, int32_t status,
                         const uint32_t *args);

/* ---- barriers over any subset of nodes ------------------------------------------------------ */
typedef struct fw_msg_barrier fw_msg_barrier_t;
/* Every member creates the barrier with the same id and member list (any order,
 * no duplicates, must include this node). Messages that arrive before creation
 * are kept. */
fw_msg_barrier_t *fw_msg_barrier_create(fw_msg_t *m, uint32_t id, const unsigned *nodes,
                                        unsigned n);
void fw_msg_barrier_wait(fw_msg_t *m, fw_msg_barrier_t *b); /* thread */

/* ---- statistics --------------------------------------------------------------------------- */
typedef struct fw_msg_stats {
    uint64_t memputs, memgets, requests, replies_sent, replies_received;
    uint64_t qput_pieces, qget_pieces, batches_sent, batches_received;
    uint64_t barrier_messages, request_overflows, pool_growths;
} fw_msg_stats_t;
const fw_msg_stats_t *fw_msg_stats(const fw_msg_t *m);
/* The NI driver underneath (for its statistics). */
struct fw_ni *fw_msg_ni(const fw_msg_t *m);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_MSG_H */
