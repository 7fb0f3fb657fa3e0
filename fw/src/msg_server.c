/* User message types: services run by a pool of server threads, thread requests
 * (a thread per request) and interrupt-level handlers; their registration and the
 * receive path that hands each request to its service. */
#include "msg_core.h"

#include <string.h>

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
    fw_reqbuf_put(m, p->buf, p->buf_kind);
    fw_pending_put(m, p);
    if (hal_thread_spawn(m->h, request_thread_main, f, "msg_request") != 0) {
        fw_msg_failf(m,
                     "messaging: cannot create a thread for a type %u request from node %u "
                     "(machine.node_thread_limit)",
                     f->req.hdr.type, f->req.src);
    }
}

void fw_msg_dispatch_request(fw_msg_t *m, fw_pending_t *p) {
    if (m->types[p->hdr.type].kind == FW_TYPE_THREAD) {
        spawn_request_thread(m, p);
    } else {
        server_enqueue(m, p);
    }
}

void fw_msg_rx_user(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
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
    fw_pending_t *p = fw_pending_get(m, src, hdr, bytes);
    if (p == NULL) {
        return;
    }
    if (bytes == 0) {
        fw_msg_dispatch_request(m, p);
        return;
    }
    p->buf = fw_reqbuf_get(m, bytes, &p->buf_kind);
    if (p->buf == NULL) {
        return;
    }
    fw_msg_accept(m, ans, p->buf, bytes, p->addr);
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
        fw_reqbuf_put(m, p->buf, p->buf_kind);
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
