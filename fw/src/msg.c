/* Messaging core: set-up, receive dispatch, reply actions, Memput/Memget,
 * requests and services, multicast. See fw/include/fw/msg.h and docs/messaging.md. */
#include "msg_internal.h"

#include "fw/param_keys.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- small helpers -------------------------------------------------------------------- */

_Noreturn void fw_msg_failf(fw_msg_t *m, const char *fmt, ...) {
    /* hal_fail names the node itself ("node N: ..."). */
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    hal_fail(m->h, msg);
}

uint32_t fw_words(uint32_t bytes) {
    return (bytes + 3u) / 4u;
}

void *fw_msg_alloc(fw_msg_t *m, uint32_t bytes, const char *what) {
    void *p = hal_mem_alloc(m->h, bytes, 8);
    if (p == NULL) {
        fw_msg_failf(m, "messaging: node memory exhausted allocating %u bytes for %s", bytes, what);
    }
    return p;
}

void fw_msg_check_node(fw_msg_t *m, unsigned node, const char *what) {
    if (node >= m->nodes) {
        fw_msg_failf(m, "%s to node %u, but the machine has %u nodes", what, node, m->nodes);
    }
}

/* ---- pools ----------------------------------------------------------------------------- */

static fw_ra_t *ra_new(fw_msg_t *m) {
    fw_ra_t *ra = (fw_ra_t *)fw_msg_alloc(m, sizeof(fw_ra_t), "a reply action");
    if (ra == NULL) {
        return NULL;
    }
    memset(ra, 0, sizeof *ra);
    ra->magic = FW_RA_MAGIC;
    ra->addr = hal_mem_addr(m->h, ra);
    hal_sem_init(m->h, &ra->sem, 0);
    hal_sem_name(m->h, &ra->sem, "msg reply action (an answer from another node)", 0);
    return ra;
}

fw_ra_t *fw_ra_get(fw_msg_t *m, uint32_t kind) {
    fw_ra_t *ra = m->ra_free;
    if (ra != NULL) {
        m->ra_free = ra->next;
    } else {
        m->stats.pool_growths++;
        ra = ra_new(m);
        if (ra == NULL) {
            return NULL;
        }
    }
    ra->state = FW_RA_WAITING;
    ra->kind = kind;
    ra->buf = NULL;
    ra->buf_addr = 0;
    ra->cap = 0;
    ra->node = 0;
    ra->result = NULL;
    ra->group = NULL;
    ra->blocking = false;
    memset(&ra->got, 0, sizeof ra->got);
    ra->next = NULL;
    ra->note = 0;
    return ra;
}

void fw_msg_note_begin(fw_msg_t *m, fw_ra_t *ra, const char *op, unsigned node, const char *what,
                       uint32_t what_value, uint32_t bytes) {
    if (!hal_observed(m->h)) {
        return;
    }
    ra->note = ++m->notes;
    ra->note_op = op;
    char fields[96];
    snprintf(fields, sizeof fields, "src=%u dst=%u %s=%u bytes=%u", hal_node_id(m->h), node, what,
             what_value, bytes);
    hal_note(m->h, op, HAL_NOTE_BEGIN, ra->note, fields);
}

void fw_msg_note_end(fw_msg_t *m, fw_ra_t *ra, int32_t status) {
    if (ra->note == 0) {
        return;
    }
    char fields[32];
    snprintf(fields, sizeof fields, "status=%d", (int)status);
    hal_note(m->h, ra->note_op, HAL_NOTE_END, ra->note, fields);
    ra->note = 0;
}

void fw_ra_put(fw_msg_t *m, fw_ra_t *ra) {
    ra->state = FW_RA_FREE;
    ra->next = m->ra_free;
    m->ra_free = ra;
}

static fw_pending_t *pending_new(fw_msg_t *m) {
    fw_pending_t *p = (fw_pending_t *)fw_msg_alloc(m, sizeof(fw_pending_t), "a receive record");
    if (p == NULL) {
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->magic = FW_PEND_MAGIC;
    p->addr = hal_mem_addr(m->h, p);
    return p;
}

fw_pending_t *fw_pending_get(fw_msg_t *m) {
    fw_pending_t *p = m->pend_free;
    if (p != NULL) {
        m->pend_free = p->next;
    } else {
        m->stats.pool_growths++;
        p = pending_new(m);
        if (p == NULL) {
            return NULL;
        }
    }
    p->next = NULL;
    p->buf = NULL;
    p->buf_kind = 0;
    return p;
}

void fw_pending_put(fw_msg_t *m, fw_pending_t *p) {
    p->next = m->pend_free;
    m->pend_free = p;
}

/* A request buffer for a body of `bytes`: from the pool when it fits (growing the
 * pool when empty), else an allocation of its own. */
static uint8_t *reqbuf_get(fw_msg_t *m, uint32_t bytes, uint32_t *kind) {
    if (bytes <= m->reqbuf_bytes) {
        *kind = 1;
        void *b = m->reqbuf_free;
        if (b != NULL) {
            m->reqbuf_free = *(void **)b;
            return (uint8_t *)b;
        }
        m->stats.request_overflows++;
        return (uint8_t *)fw_msg_alloc(m, m->reqbuf_bytes, "a request buffer");
    }
    *kind = 2;
    m->stats.request_overflows++;
    return (uint8_t *)fw_msg_alloc(m, bytes, "an oversized request body");
}

static void reqbuf_put(fw_msg_t *m, uint8_t *buf, uint32_t kind) {
    if (kind == 1) {
        *(void **)buf = m->reqbuf_free;
        m->reqbuf_free = buf;
    } else if (kind == 2) {
        hal_mem_free(m->h, buf);
    }
}

/* ---- groups ------------------------------------------------------------------------------ */

void fw_group_init(fw_msg_t *m, fw_group_t *g) {
    memset(g, 0, sizeof *g);
    hal_sem_init(m->h, &g->sem, 0);
}

void fw_group_add(fw_group_t *g, uint32_t count) {
    if (g != NULL) {
        g->outstanding += count;
    }
}

void fw_group_done(fw_msg_t *m, fw_group_t *g, uint32_t count, int32_t status) {
    if (g == NULL || count == 0) {
        return;
    }
    if (count > g->outstanding) {
        fw_msg_failf(m, "messaging: completion group counts %u operations done of %u outstanding",
                     count, g->outstanding);
    }
    g->outstanding -= count;
    if (status != FW_MSG_OK) {
        if (g->errors == 0) {
            g->first_error = status;
        }
        g->errors += count;
    }
    if (g->waiting && g->outstanding < g->waiting) {
        g->waiting = 0;
        hal_sem_post(m->h, &g->sem);
    }
}

int fw_group_wait_at_most(fw_msg_t *m, fw_group_t *g, uint32_t limit) {
    if (m->q_unsent > 0) {
        fw_q_flush(m);
    }
    while (g->outstanding > limit) {
        g->waiting = limit + 1;
        hal_sem_wait(m->h, &g->sem);
    }
    return g->errors ? g->first_error : FW_MSG_OK;
}

int fw_group_wait(fw_msg_t *m, fw_group_t *g) {
    return fw_group_wait_at_most(m, g, 0);
}

/* ---- sending ------------------------------------------------------------------------------- */

void fw_msg_send_hdr(fw_msg_t *m, unsigned node, fw_msg_hdr_t *hdr, const void *body,
                     uint32_t bytes, fw_ra_t *notify) {
    hdr->seq = m->seq++;
    fw_ni_send(m->ni, node, hdr, sizeof *hdr, body, bytes, notify != NULL,
               notify != NULL ? notify->addr : 0);
}

static void hdr_init(fw_msg_hdr_t *hdr, unsigned type, const uint32_t *args) {
    memset(hdr, 0, sizeof *hdr);
    hdr->type = (uint8_t)type;
    if (args != NULL) {
        memcpy(hdr->arg, args, sizeof hdr->arg);
    }
}

void fw_msg_send_reply(fw_msg_t *m, unsigned node, uint32_t reply, int32_t status,
                       const uint32_t *args, const void *body, uint32_t bytes) {
    if (reply == 0) {
        return;
    }
    fw_msg_hdr_t hdr;
    hdr_init(&hdr, FW_MSG_REPLY, args);
    hdr.reply = reply;
    hdr.status = status;
    hdr.length = bytes;
    m->stats.replies_sent++;
    fw_msg_send_hdr(m, node, &hdr, body, bytes, NULL);
}

/* Waits for a blocking reply action, then frees it. */
static int32_t ra_wait(fw_msg_t *m, fw_ra_t *ra, fw_reply_t *result) {
    hal_sem_wait(m->h, &ra->sem);
    int32_t status = ra->got.status;
    if (result != NULL) {
        *result = ra->got;
    }
    fw_ra_put(m, ra);
    return status;
}

/* ---- reply actions: completion -----------------------------------------------------------------
 */

static void ra_complete(fw_msg_t *m, fw_ra_t *ra) {
    if (ra->kind == FW_RA_QPUT || ra->kind == FW_RA_QGET) {
        fw_q_complete(m, ra);
        return;
    }
    fw_msg_note_end(m, ra, ra->got.status);
    if (ra->result != NULL) {
        *ra->result = ra->got;
    }
    fw_group_t *g = ra->group;
    int32_t status = ra->got.status;
    if (ra->blocking) {
        ra->state = FW_RA_WAITING; /* the waiting thread frees it */
        hal_sem_post(m->h, &ra->sem);
    } else {
        fw_ra_put(m, ra);
    }
    fw_group_done(m, g, 1, status);
}

static fw_ra_t *ra_lookup(fw_msg_t *m, uint32_t addr, unsigned src, uint32_t want_state) {
    fw_ra_t *ra = (fw_ra_t *)hal_mem_ptr(m->h, addr);
    if (ra == NULL || ra->magic != FW_RA_MAGIC || ra->state != want_state) {
        fw_msg_failf(m,
                     "messaging: a reply or completion (from node %u) names reply action 0x%08x, "
                     "which is not %s",
                     src, addr, want_state == FW_RA_WAITING ? "waiting" : "depositing");
    }
    return ra;
}

/* ---- receive side ---------------------------------------------------------------------------- */

void fw_msg_accept(fw_msg_t *m, fw_ni_answer_t *ans, void *dst, uint32_t bytes, uint32_t cookie) {
    ans->op = HW_NI_RX_ACCEPT_NOTIFY;
    ans->body_addr = hal_mem_addr(m->h, dst);
    ans->cookie = cookie;
    /* docs/reference.md §2's handler cost per word is spent while the NI deposits the body:
     * the driver charges it after RX_CMD (docs/messaging.md, "Costs"). */
    ans->overlap_cycles = m->c.deposit_word * fw_words(bytes);
}

int32_t fw_msg_base_check(const fw_msg_t *m, uint32_t offset, uint32_t bytes) {
    if (m->base == NULL) {
        return FW_MSG_ENOBASE;
    }
    if (offset > m->base_bytes || bytes > m->base_bytes - offset) {
        return FW_MSG_ERANGE;
    }
    return FW_MSG_OK;
}

static void rx_memput(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                      fw_ni_answer_t *ans) {
    hal_cycles(m->h, m->c.memput_accept);
    int32_t status = fw_msg_base_check(m, hdr->offset, bytes);
    if (status != FW_MSG_OK || bytes == 0) {
        ans->op = HW_NI_RX_DISCARD;
        hal_cycles(m->h, m->c.memput_ack);
        fw_msg_send_reply(m, src, hdr->reply, status, NULL, NULL, 0);
        return;
    }
    fw_pending_t *p = fw_pending_get(m);
    if (p == NULL) {
        return;
    }
    p->src = src;
    p->hdr = *hdr;
    p->body_bytes = bytes;
    p->buf = m->base + hdr->offset;
    fw_msg_accept(m, ans, p->buf, bytes, p->addr);
}

static void rx_memget(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                      fw_ni_answer_t *ans) {
    hal_cycles(m->h, m->c.memget_serve);
    if (bytes > 0) {
        ans->op = HW_NI_RX_DISCARD;
    }
    int32_t status = fw_msg_base_check(m, hdr->offset, hdr->length);
    if (status != FW_MSG_OK) {
        fw_msg_send_reply(m, src, hdr->reply, status, NULL, NULL, 0);
        return;
    }
    /* The NI reads the data from the base by DMA while it sends (background DMA). */
    fw_msg_send_reply(m, src, hdr->reply, FW_MSG_OK, NULL, m->base + hdr->offset, hdr->length);
}

static void rx_reply(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                     fw_ni_answer_t *ans) {
    fw_ra_t *ra = ra_lookup(m, hdr->reply, src, FW_RA_WAITING);
    if (ra == NULL) {
        return;
    }
    m->stats.replies_received++;
    ra->got.status = hdr->status;
    ra->got.src = src;
    ra->got.bytes = 0;
    memcpy(ra->got.arg, hdr->arg, sizeof ra->got.arg);
    switch (ra->kind) {
    case FW_RA_MEMPUT:
        hal_cycles(m->h, m->c.memput_return);
        if (bytes > 0) {
            ans->op = HW_NI_RX_DISCARD;
        }
        ra_complete(m, ra);
        return;
    case FW_RA_QPUT:
    case FW_RA_QGET:
        fw_q_reply(m, ra, bytes, ans);
        return;
    case FW_RA_REPLY:
        hal_cycles(m->h, m->c.reply_accept);
        if (bytes == 0 || ra->buf == NULL || bytes > ra->cap) {
            if (bytes > 0) {
                ans->op = HW_NI_RX_DISCARD;
                ra->got.status = FW_MSG_ETOOBIG;
            }
            hal_cycles(m->h, m->c.reply_done);
            ra_complete(m, ra);
            return;
        }
        ra->state = FW_RA_DEPOSITING;
        ra->got.bytes = bytes;
        fw_msg_accept(m, ans, ra->buf, bytes, ra->addr);
        return;
    default:
        fw_msg_failf(m, "messaging: reply from node %u names a reply action of kind %u", src,
                     ra->kind);
    }
}

static void server_enqueue(fw_msg_t *m, fw_pending_t *p) {
    hal_cycles(m->h, m->c.queue_insert);
    p->next = NULL;
    if (m->srv_tail != NULL) {
        m->srv_tail->next = p;
    } else {
        m->srv_head = p;
    }
    m->srv_tail = p;
    hal_sem_post(m->h, &m->srv_sem);
}

/* A request thread's stack: the request and a copy of its body. */
typedef struct fw_thread_frame {
    fw_msg_t *m;
    fw_service_fn fn;
    void *arg;
    fw_request_t req;
    uint8_t body[]; /* up to reqbuf_bytes, or more for an oversized body */
} fw_thread_frame_t;

static void request_thread_main(hal_t *h, void *arg) {
    fw_thread_frame_t *f = (fw_thread_frame_t *)arg;
    fw_msg_t *m = f->m;
    f->fn(m, &f->req, f->arg);
    if (f->req.body_bytes <= m->reqbuf_bytes) {
        *(void **)f = m->thread_frame_free;
        m->thread_frame_free = f;
    } else {
        hal_mem_free(h, f);
    }
}

/* Thread requests (interrupt level): a new thread whose stack receives a copy of
 * the message; the request buffer is free again at once. Stacks of threads that
 * ended are reused, so only their first allocation costs cost.mem_alloc_cycles. */
static void spawn_request_thread(fw_msg_t *m, fw_pending_t *p) {
    const fw_type_entry_t *e = &m->types[p->hdr.type];
    uint32_t bytes = p->body_bytes;
    fw_thread_frame_t *f = NULL;
    if (bytes <= m->reqbuf_bytes && m->thread_frame_free != NULL) {
        f = (fw_thread_frame_t *)m->thread_frame_free;
        m->thread_frame_free = *(void **)f;
    } else {
        uint32_t cap = bytes <= m->reqbuf_bytes ? m->reqbuf_bytes : bytes;
        f = (fw_thread_frame_t *)fw_msg_alloc(m, (uint32_t)sizeof *f + cap,
                                              "a request thread's stack");
        if (f == NULL) {
            return;
        }
    }
    f->m = m;
    f->fn = e->service;
    f->arg = e->arg;
    f->req.src = p->src;
    f->req.hdr = p->hdr;
    f->req.body_bytes = bytes;
    f->req.body = bytes > 0 ? f->body : NULL;
    if (bytes > 0) {
        memcpy(f->body, p->buf, bytes);
    }
    hal_cycles(m->h, m->c.copy_word * fw_words((uint32_t)sizeof p->hdr + bytes));
    reqbuf_put(m, p->buf, p->buf_kind);
    fw_pending_put(m, p);
    if (hal_thread_spawn(m->h, request_thread_main, f, "msg_request") != 0) {
        fw_msg_failf(m,
                     "messaging: cannot create a thread for a type %u request from node %u "
                     "(machine.node_thread_limit)",
                     f->req.hdr.type, f->req.src);
    }
}

/* A request (header and body) is in: hand it to its service. */
static void dispatch_request(fw_msg_t *m, fw_pending_t *p) {
    if (m->types[p->hdr.type].kind == FW_TYPE_THREAD) {
        spawn_request_thread(m, p);
    } else {
        server_enqueue(m, p);
    }
}

static void rx_user(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                    fw_ni_answer_t *ans) {
    const fw_type_entry_t *e = &m->types[hdr->type];
    if (e->kind == FW_TYPE_HANDLER) {
        if (bytes > 0) {
            fw_msg_failf(m,
                         "messaging: type %u (an interrupt-level handler) from node %u carries "
                         "a %u-byte body",
                         hdr->type, src, bytes);
        }
        hal_cycles(m->h, m->c.request_accept);
        e->handler(m, src, hdr, e->arg);
        return;
    }
    if (e->kind != FW_TYPE_SERVICE && e->kind != FW_TYPE_THREAD) {
        fw_msg_failf(m, "messaging: message type %u from node %u has no service or handler",
                     hdr->type, src);
    }
    hal_cycles(m->h, m->c.request_accept);
    fw_pending_t *p = fw_pending_get(m);
    if (p == NULL) {
        return;
    }
    p->src = src;
    p->hdr = *hdr;
    p->body_bytes = bytes;
    if (bytes == 0) {
        dispatch_request(m, p);
        return;
    }
    p->buf = reqbuf_get(m, bytes, &p->buf_kind);
    if (p->buf == NULL) {
        return;
    }
    fw_msg_accept(m, ans, p->buf, bytes, p->addr);
}

static void on_header(void *arg, const hw_ni_rx_record_t *rec, fw_ni_answer_t *ans) {
    fw_msg_t *m = (fw_msg_t *)arg;
    unsigned src = rec->src_node;
    if (src >= m->nodes || rec->hdr_bytes < sizeof(fw_msg_hdr_t)) {
        fw_msg_failf(m, "messaging: message from node %u has a %u-byte header (expected %u)", src,
                     rec->hdr_bytes, (unsigned)sizeof(fw_msg_hdr_t));
    }
    fw_msg_hdr_t hdr;
    memcpy(&hdr, rec->header, sizeof hdr);
    uint32_t bytes = rec->body_bytes;
    switch (hdr.type) {
    case FW_MSG_MEMPUT:
        rx_memput(m, src, &hdr, bytes, ans);
        break;
    case FW_MSG_MEMGET:
        rx_memget(m, src, &hdr, bytes, ans);
        break;
    case FW_MSG_REPLY:
        rx_reply(m, src, &hdr, bytes, ans);
        break;
    case FW_MSG_QPUT:
        fw_q_rx_put(m, src, &hdr, bytes, ans);
        break;
    case FW_MSG_QGET:
        fw_q_rx_get(m, src, &hdr, bytes, ans);
        break;
    case FW_MSG_BARRIER:
        fw_barrier_rx(m, src, &hdr);
        break;
    default:
        if (hdr.type < FW_MSG_TYPE_USER) {
            fw_msg_failf(m, "messaging: message from node %u has unknown type %u", src, hdr.type);
        }
        rx_user(m, src, &hdr, bytes, ans);
    }
}

static void on_done(void *arg, unsigned src, uint32_t cookie) {
    fw_msg_t *m = (fw_msg_t *)arg;
    uint32_t *magic = (uint32_t *)hal_mem_ptr(m->h, cookie);
    if (magic != NULL && *magic == FW_RA_MAGIC) {
        fw_ra_t *ra = ra_lookup(m, cookie, src, FW_RA_DEPOSITING);
        if (ra == NULL) {
            return;
        }
        ra->state = FW_RA_WAITING;
        if (ra->kind == FW_RA_REPLY) {
            hal_cycles(m->h, m->c.reply_done);
        }
        ra_complete(m, ra);
        return;
    }
    if (magic == NULL || *magic != FW_PEND_MAGIC) {
        fw_msg_failf(m, "messaging: DONE record from node %u has cookie 0x%08x, no receive record",
                     src, cookie);
    }
    /* The sender is the one the HEADER record named (p->src): hw/ni_regs.h does not
     * promise src_node in DONE records. */
    fw_pending_t *p = (fw_pending_t *)magic;
    switch (p->hdr.type) {
    case FW_MSG_MEMPUT:
        hal_cycles(m->h, m->c.memput_ack);
        fw_msg_send_reply(m, p->src, p->hdr.reply, FW_MSG_OK, NULL, NULL, 0);
        fw_pending_put(m, p);
        break;
    case FW_MSG_QPUT:
        fw_q_put_arrived(m, p);
        break;
    case FW_MSG_QGET:
        fw_q_get_arrived(m, p);
        break;
    default:
        dispatch_request(m, p);
    }
}

static void on_sent(void *arg, uint32_t cookie) {
    fw_msg_t *m = (fw_msg_t *)arg;
    fw_ra_t *ra = ra_lookup(m, cookie, m->self, FW_RA_WAITING);
    if (ra != NULL) {
        ra_complete(m, ra);
    }
}

/* ---- set-up -------------------------------------------------------------------------------- */

static void read_costs(hal_t *h, fw_msg_costs_t *c) {
    c->rx_record = (uint32_t)hal_config_int(h, FW_KEY_COST_RX_RECORD);
    c->deposit_word = (uint32_t)hal_config_int(h, FW_KEY_COST_DEPOSIT_WORD);
    c->copy_word = (uint32_t)hal_config_int(h, FW_KEY_COST_COPY_WORD);
    c->queue_insert = (uint32_t)hal_config_int(h, FW_KEY_COST_QUEUE_INSERT);
    c->memput_call = (uint32_t)hal_config_int(h, FW_KEY_COST_MEMPUT_CALL);
    c->memput_accept = (uint32_t)hal_config_int(h, FW_KEY_COST_MEMPUT_ACCEPT);
    c->memput_ack = (uint32_t)hal_config_int(h, FW_KEY_COST_MEMPUT_ACK);
    c->memput_return = (uint32_t)hal_config_int(h, FW_KEY_COST_MEMPUT_RETURN);
    c->memget_call = (uint32_t)hal_config_int(h, FW_KEY_COST_MEMGET_CALL);
    c->memget_serve = (uint32_t)hal_config_int(h, FW_KEY_COST_MEMGET_SERVE);
    c->reply_accept = (uint32_t)hal_config_int(h, FW_KEY_COST_REPLY_ACCEPT);
    c->reply_done = (uint32_t)hal_config_int(h, FW_KEY_COST_REPLY_DONE);
    c->request_call = (uint32_t)hal_config_int(h, FW_KEY_COST_REQUEST_CALL);
    c->request_accept = (uint32_t)hal_config_int(h, FW_KEY_COST_REQUEST_ACCEPT);
    c->reply_call = (uint32_t)hal_config_int(h, FW_KEY_COST_REPLY_CALL);
    c->queue_piece = (uint32_t)hal_config_int(h, FW_KEY_COST_QUEUE_PIECE);
    c->barrier_step = (uint32_t)hal_config_int(h, FW_KEY_COST_BARRIER_STEP);
}

fw_msg_t *fw_msg_init(hal_t *h) {
    fw_msg_t *m = (fw_msg_t *)hal_mem_alloc(h, sizeof(fw_msg_t), 8);
    if (m == NULL) {
        hal_fail(h, "messaging: node memory exhausted allocating the messaging state");
    }
    memset(m, 0, sizeof *m);
    m->h = h;
    m->self = hal_node_id(h);
    m->nodes = hal_cp_count(h) + hal_iop_count(h);
    read_costs(h, &m->c);
    m->batch_bytes = (uint32_t)hal_config_int(h, FW_KEY_FS_BLOCK_BYTES);
    m->batch_bytes &= ~3u;
    m->reqbuf_bytes = m->batch_bytes;
    m->server_threads = (uint32_t)hal_config_int(h, FW_KEY_MSG_SERVER_THREADS);
    uint32_t reply_actions = (uint32_t)hal_config_int(h, FW_KEY_MSG_REPLY_ACTIONS);
    uint32_t request_buffers = (uint32_t)hal_config_int(h, FW_KEY_MSG_REQUEST_BUFFERS);
    fw_ni_config_t ncfg;
    ncfg.rx_ring_slots = (uint32_t)hal_config_int(h, FW_KEY_MSG_RX_RING_SLOTS);
    ncfg.send_queue_entries = (uint32_t)hal_config_int(h, FW_KEY_MSG_SEND_QUEUE_ENTRIES);
    ncfg.rx_record_cycles = m->c.rx_record;
    ncfg.queue_insert_cycles = m->c.queue_insert;

    hal_sem_init(h, &m->srv_sem, 0);
    hal_sem_name(h, &m->srv_sem, "msg server: incoming requests", 1);
    hal_sem_init(h, &m->q_sem, 0);
    hal_sem_name(h, &m->q_sem, "msg queued batches in flight", 0);
    hal_report_register(h, fw_msg_report, m);
    for (uint32_t i = 0; i < reply_actions; ++i) {
        fw_ra_t *ra = ra_new(m);
        if (ra == NULL) {
            return NULL;
        }
        fw_ra_put(m, ra);
    }
    for (uint32_t i = 0; i < ncfg.rx_ring_slots; ++i) {
        fw_pending_t *p = pending_new(m);
        if (p == NULL) {
            return NULL;
        }
        fw_pending_put(m, p);
    }
    for (uint32_t i = 0; i < request_buffers; ++i) {
        uint8_t *b = (uint8_t *)fw_msg_alloc(m, m->reqbuf_bytes, "a request buffer");
        if (b == NULL) {
            return NULL;
        }
        reqbuf_put(m, b, 1);
    }
    m->qpeer = (fw_qpeer_t **)fw_msg_alloc(m, m->nodes * (uint32_t)sizeof(void *), "batch peers");
    m->qsrc = (fw_qsrc_t **)fw_msg_alloc(m, m->nodes * (uint32_t)sizeof(void *), "batch sources");
    if (m->qpeer == NULL || m->qsrc == NULL) {
        return NULL;
    }
    memset(m->qpeer, 0, m->nodes * sizeof(void *));
    memset(m->qsrc, 0, m->nodes * sizeof(void *));

    fw_ni_ops_t ops = {on_header, on_done, on_sent, m};
    m->ni = fw_ni_init(h, &ncfg, &ops);
    if (m->ni == NULL) {
        return NULL;
    }
    return m;
}

hal_t *fw_msg_hal(const fw_msg_t *m) {
    return m->h;
}
unsigned fw_msg_node_count(const fw_msg_t *m) {
    return m->nodes;
}
const fw_msg_stats_t *fw_msg_stats(const fw_msg_t *m) {
    return &m->stats;
}
struct fw_ni *fw_msg_ni(const fw_msg_t *m) {
    return m->ni;
}

void fw_msg_set_base(fw_msg_t *m, void *base, uint32_t bytes) {
    if (bytes > 0) {
        (void)hal_mem_addr(m->h, base); /* must be node memory */
    }
    m->base = (uint8_t *)base;
    m->base_bytes = bytes;
}

static void server_main(hal_t *h, void *arg) {
    fw_msg_t *m = (fw_msg_t *)arg;
    for (;;) {
        hal_sem_wait(h, &m->srv_sem);
        fw_pending_t *p = m->srv_head;
        if (p == NULL) {
            continue;
        }
        m->srv_head = p->next;
        if (m->srv_head == NULL) {
            m->srv_tail = NULL;
        }
        const fw_type_entry_t *e = &m->types[p->hdr.type];
        fw_request_t req;
        req.src = p->src;
        req.hdr = p->hdr;
        req.body = p->buf;
        req.body_bytes = p->body_bytes;
        e->service(m, &req, e->arg);
        reqbuf_put(m, p->buf, p->buf_kind);
        fw_pending_put(m, p);
    }
}

static void register_type(fw_msg_t *m, unsigned type, uint32_t kind) {
    if (type < FW_MSG_TYPE_USER || type > FW_MSG_TYPE_MAX) {
        fw_msg_failf(m, "messaging: user message types are %u..%u, not %u", FW_MSG_TYPE_USER,
                     FW_MSG_TYPE_MAX, type);
    }
    if (m->types[type].kind != FW_TYPE_NONE) {
        fw_msg_failf(m, "messaging: message type %u registered twice", type);
    }
    m->types[type].kind = kind;
}

void fw_msg_register_service(fw_msg_t *m, unsigned type, fw_service_fn fn, void *arg) {
    register_type(m, type, FW_TYPE_SERVICE);
    m->types[type & FW_MSG_TYPE_MAX].service = fn;
    m->types[type & FW_MSG_TYPE_MAX].arg = arg;
    if (!m->servers_started) {
        m->servers_started = true;
        for (uint32_t i = 0; i < m->server_threads; ++i) {
            if (hal_thread_spawn(m->h, server_main, m, "msg_server") != 0) {
                fw_msg_failf(m,
                             "messaging: cannot start server thread %u of msg.server_threads = %u",
                             i, m->server_threads);
            }
        }
    }
}

void fw_msg_set_server_threads(fw_msg_t *m, uint32_t threads) {
    if (m->servers_started) {
        fw_msg_failf(m, "messaging: the server-thread pool is already running");
        return;
    }
    m->server_threads = threads;
}

void fw_msg_register_thread_service(fw_msg_t *m, unsigned type, fw_service_fn fn, void *arg) {
    register_type(m, type, FW_TYPE_THREAD);
    m->types[type & FW_MSG_TYPE_MAX].service = fn;
    m->types[type & FW_MSG_TYPE_MAX].arg = arg;
}

void fw_msg_register_handler(fw_msg_t *m, unsigned type, fw_handler_fn fn, void *arg) {
    register_type(m, type, FW_TYPE_HANDLER);
    m->types[type & FW_MSG_TYPE_MAX].handler = fn;
    m->types[type & FW_MSG_TYPE_MAX].arg = arg;
}

/* ---- Memput / Memget ------------------------------------------------------------------------- */

static fw_ra_t *start_memput(fw_msg_t *m, unsigned node, uint32_t offset, const void *src,
                             uint32_t bytes, fw_group_t *g, bool blocking) {
    hal_cycles(m->h, m->c.memput_call);
    fw_msg_check_node(m, node, "Memput");
    fw_ra_t *ra = fw_ra_get(m, FW_RA_MEMPUT);
    if (ra == NULL) {
        return NULL;
    }
    ra->group = g;
    ra->blocking = blocking;
    fw_group_add(g, 1);
    fw_msg_hdr_t hdr;
    hdr_init(&hdr, FW_MSG_MEMPUT, NULL);
    hdr.reply = ra->addr;
    hdr.offset = offset;
    hdr.length = bytes;
    m->stats.memputs++;
    fw_msg_note_begin(m, ra, "MEMPUT", node, "offset", offset, bytes);
    fw_msg_send_hdr(m, node, &hdr, src, bytes, NULL);
    return ra;
}

void fw_memput_async(fw_msg_t *m, unsigned node, uint32_t offset, const void *src, uint32_t bytes,
                     fw_group_t *g) {
    (void)start_memput(m, node, offset, src, bytes, g, false);
}

int fw_memput(fw_msg_t *m, unsigned node, uint32_t offset, const void *src, uint32_t bytes) {
    fw_ra_t *ra = start_memput(m, node, offset, src, bytes, NULL, true);
    return ra != NULL ? ra_wait(m, ra, NULL) : FW_MSG_ERANGE;
}

static fw_ra_t *start_memget(fw_msg_t *m, unsigned node, uint32_t offset, void *dst, uint32_t bytes,
                             fw_group_t *g, bool blocking) {
    hal_cycles(m->h, m->c.memget_call);
    fw_msg_check_node(m, node, "Memget");
    fw_ra_t *ra = fw_ra_get(m, FW_RA_REPLY);
    if (ra == NULL) {
        return NULL;
    }
    ra->buf = (uint8_t *)dst;
    ra->buf_addr = bytes > 0 ? hal_mem_addr(m->h, dst) : 0;
    ra->cap = bytes;
    ra->group = g;
    ra->blocking = blocking;
    fw_group_add(g, 1);
    fw_msg_hdr_t hdr;
    hdr_init(&hdr, FW_MSG_MEMGET, NULL);
    hdr.reply = ra->addr;
    hdr.offset = offset;
    hdr.length = bytes;
    m->stats.memgets++;
    fw_msg_note_begin(m, ra, "MEMGET", node, "offset", offset, bytes);
    fw_msg_send_hdr(m, node, &hdr, NULL, 0, NULL);
    return ra;
}

void fw_memget_async(fw_msg_t *m, unsigned node, uint32_t offset, void *dst, uint32_t bytes,
                     fw_group_t *g) {
    (void)start_memget(m, node, offset, dst, bytes, g, false);
}

int fw_memget(fw_msg_t *m, unsigned node, uint32_t offset, void *dst, uint32_t bytes) {
    fw_ra_t *ra = start_memget(m, node, offset, dst, bytes, NULL, true);
    return ra != NULL ? ra_wait(m, ra, NULL) : FW_MSG_ERANGE;
}

/* ---- requests ----------------------------------------------------------------------------------
 */

static fw_ra_t *start_request(fw_msg_t *m, unsigned node, unsigned type, const uint32_t *args,
                              const void *body, uint32_t bytes, void *reply_buf, uint32_t reply_cap,
                              fw_reply_t *result, fw_group_t *g, bool blocking) {
    hal_cycles(m->h, m->c.request_call);
    fw_msg_check_node(m, node, "request");
    fw_ra_t *ra = fw_ra_get(m, FW_RA_REPLY);
    if (ra == NULL) {
        return NULL;
    }
    ra->buf = (uint8_t *)reply_buf;
    ra->buf_addr = (reply_buf != NULL && reply_cap > 0) ? hal_mem_addr(m->h, reply_buf) : 0;
    ra->cap = reply_buf != NULL ? reply_cap : 0;
    ra->result = blocking ? NULL : result;
    ra->group = g;
    ra->blocking = blocking;
    fw_group_add(g, 1);
    fw_msg_hdr_t hdr;
    hdr_init(&hdr, type, args);
    hdr.reply = ra->addr;
    hdr.length = bytes;
    m->stats.requests++;
    fw_msg_note_begin(m, ra, "REQUEST", node, "type", type, bytes);
    fw_msg_send_hdr(m, node, &hdr, body, bytes, NULL);
    return ra;
}

void fw_msg_request_async(fw_msg_t *m, unsigned node, unsigned type, const uint32_t *args,
                          const void *body, uint32_t bytes, void *reply_buf, uint32_t reply_cap,
                          fw_reply_t *result, fw_group_t *g) {
    (void)start_request(m, node, type, args, body, bytes, reply_buf, reply_cap, result, g, false);
}

int fw_msg_request(fw_msg_t *m, unsigned node, unsigned type, const uint32_t *args,
                   const void *body, uint32_t bytes, void *reply_buf, uint32_t reply_cap,
                   fw_reply_t *result) {
    fw_ra_t *ra =
        start_request(m, node, type, args, body, bytes, reply_buf, reply_cap, NULL, NULL, true);
    return ra != NULL ? ra_wait(m, ra, result) : FW_MSG_ERANGE;
}

void fw_msg_send(fw_msg_t *m, unsigned node, unsigned type, const uint32_t *args, const void *body,
                 uint32_t bytes) {
    fw_msg_multicast(m, &node, 1, type, args, body, bytes, NULL, NULL);
}

void fw_msg_multicast(fw_msg_t *m, const unsigned *nodes, unsigned n, unsigned type,
                      const uint32_t *args, const void *body, uint32_t bytes, fw_reply_t *results,
                      fw_group_t *replies) {
    fw_ra_t *sent = NULL;
    if (bytes > 0 && n > 0) {
        sent = fw_ra_get(m, FW_RA_SENT);
        if (sent == NULL) {
            return;
        }
        sent->blocking = true;
    }
    for (unsigned i = 0; i < n; ++i) {
        hal_cycles(m->h, m->c.request_call);
        fw_msg_check_node(m, nodes[i], "multicast");
        fw_msg_hdr_t hdr;
        hdr_init(&hdr, type, args);
        hdr.length = bytes;
        if (replies != NULL) {
            fw_ra_t *ra = fw_ra_get(m, FW_RA_REPLY);
            if (ra == NULL) {
                return;
            }
            ra->result = results != NULL ? &results[i] : NULL;
            ra->group = replies;
            fw_group_add(replies, 1);
            hdr.reply = ra->addr;
        }
        m->stats.requests++;
        /* Descriptors leave in order, so the last one's completion covers all. */
        fw_msg_send_hdr(m, nodes[i], &hdr, body, bytes, i + 1 == n ? sent : NULL);
    }
    if (sent != NULL) {
        ra_wait(m, sent, NULL);
    }
}

void fw_msg_reply(fw_msg_t *m, const fw_request_t *req, int32_t status, const uint32_t *args,
                  const void *body, uint32_t bytes) {
    if (req->hdr.reply == 0) {
        return;
    }
    hal_cycles(m->h, m->c.reply_call);
    if (bytes == 0) {
        fw_msg_send_reply(m, req->src, req->hdr.reply, status, args, NULL, 0);
        return;
    }
    fw_ra_t *sent = fw_ra_get(m, FW_RA_SENT);
    if (sent == NULL) {
        return;
    }
    sent->blocking = true;
    fw_msg_hdr_t hdr;
    hdr_init(&hdr, FW_MSG_REPLY, args);
    hdr.reply = req->hdr.reply;
    hdr.status = status;
    hdr.length = bytes;
    m->stats.replies_sent++;
    fw_msg_send_hdr(m, req->src, &hdr, body, bytes, sent);
    ra_wait(m, sent, NULL);
}

void fw_msg_reply_inline(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, int32_t status,
                         const uint32_t *args) {
    if (hdr->reply == 0) {
        return;
    }
    hal_cycles(m->h, m->c.reply_call);
    fw_msg_send_reply(m, src, hdr->reply, status, args, NULL, 0);
}
