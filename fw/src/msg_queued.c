/* Queued (batched) Memput/Memget, docs/reference.md §7: per-peer block-sized batches, one
 * outstanding batch per peer and direction. See docs/messaging.md.
 *
 * Put batch body: pieces of [u32 offset][u32 length][data, zero-padded to 4 bytes].
 * Get batch body: entries of [u32 offset][u32 length]; the reply carries the
 * pieces' data back to back, and the requester scatters it to each piece's
 * destination (kept on the requester, in dst[]). */
#include "msg_core.h"
#include "msg_stack.h"

#include "fw/param_keys.h"

#include <stdio.h>
#include <string.h>

#define FW_Q_RUNS 8u /* distinct groups per batch before it is sent early */
#define FW_Q_PIECE_HDR 8u

typedef struct fw_qrun {
    fw_group_t *g;
    uint32_t count;
} fw_qrun_t;

/* One direction of one peer: the batch being filled or in flight. */
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

/* The service's state on one node (the QPUT and QGET types' state). */
typedef struct fw_queued {
    uint32_t piece_cycles; /* cost.msg_queue_piece_cycles */
    uint32_t unsent;       /* batches with pieces that are not in flight */
    uint32_t inflight;     /* batches in flight */
    uint32_t waiting;
    int32_t first_error;
    hal_sem_t sem; /* fw_q_wait_all: the last batch came back */
    fw_qsrc_t **src;
    fw_qpeer_t *peer[]; /* one per node, allocated at first use */
} fw_queued_t;

static fw_queued_t *queued_of(const fw_msg_t *m) {
    return (fw_queued_t *)fw_msg_system_state(m, FW_MSG_QPUT);
}

static uint32_t pad4(uint32_t n) {
    return (n + 3u) & ~3u;
}

static uint32_t get_u32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void put_u32(uint8_t *p, uint32_t v) {
    memcpy(p, &v, 4);
}

static fw_qpeer_t *peer_of(fw_msg_t *m, fw_queued_t *q, unsigned node) {
    fw_qpeer_t *peer = q->peer[node];
    if (peer == NULL) {
        peer = (fw_qpeer_t *)fw_msg_alloc(m, sizeof(fw_qpeer_t), "a batch peer");
        if (peer == NULL) {
            return NULL;
        }
        memset(peer, 0, sizeof *peer);
        hal_sem_init(m->h, &peer->put.sem, 0);
        hal_sem_name(m->h, &peer->put.sem, "msg queued Memput batch to a node", 0);
        hal_sem_init(m->h, &peer->get.sem, 0);
        hal_sem_name(m->h, &peer->get.sem, "msg queued Memget batch from a node", 0);
        q->peer[node] = peer;
    }
    return peer;
}

static fw_qsrc_t *src_of(fw_msg_t *m, fw_queued_t *q, unsigned node) {
    fw_qsrc_t *s = q->src[node];
    if (s == NULL) {
        s = (fw_qsrc_t *)fw_msg_alloc(m, sizeof(fw_qsrc_t), "batch receive buffers");
        if (s == NULL) {
            return NULL;
        }
        memset(s, 0, sizeof *s);
        q->src[node] = s;
    }
    return s;
}

static uint8_t *lazy_buffer(fw_msg_t *m, uint8_t **slot, const char *what) {
    if (*slot == NULL) {
        *slot = (uint8_t *)fw_msg_alloc(m, m->batch_bytes, what);
    }
    return *slot;
}

static void wait_side(fw_msg_t *m, fw_qside_t *side) {
    while (side->inflight) {
        side->waiters++;
        hal_sem_wait(m->h, &side->sem);
    }
}

/* Can a piece of group g join this batch? (Groups are kept as runs.) */
static bool run_room(const fw_qside_t *side, const fw_group_t *g) {
    if (g == NULL || (side->nruns > 0 && side->runs[side->nruns - 1].g == g)) {
        return true;
    }
    return side->nruns < FW_Q_RUNS;
}

static void add_run(fw_qside_t *side, fw_group_t *g) {
    if (g == NULL) {
        return;
    }
    if (side->nruns > 0 && side->runs[side->nruns - 1].g == g) {
        side->runs[side->nruns - 1].count++;
    } else {
        side->runs[side->nruns].g = g;
        side->runs[side->nruns].count = 1;
        side->nruns++;
    }
    fw_group_add(g, 1);
}

static void send_batch(fw_msg_t *m, fw_queued_t *q, unsigned node, fw_qside_t *side, bool is_get) {
    hal_cycles(m->h, is_get ? m->c.memget_call : m->c.memput_call);
    fw_ra_t *ra = fw_ra_get_system(m, is_get ? FW_MSG_QGET : FW_MSG_QPUT);
    if (ra == NULL) {
        return;
    }
    ra->node = node;
    if (is_get) {
        ra->buf = side->stage;
        ra->cap = m->batch_bytes;
    }
    fw_msg_hdr_t hdr;
    memset(&hdr, 0, sizeof hdr);
    hdr.type = is_get ? FW_MSG_QGET : FW_MSG_QPUT;
    hdr.reply = ra->addr;
    hdr.length = side->pieces;
    hdr.offset = side->data;
    side->inflight = true;
    q->inflight++;
    q->unsent--;
    m->stats.batches_sent++;
    /* bytes: the batch body sent (a put: pieces with their headers, as the MSG
     * line counts it), or the data a get asks for. */
    fw_msg_note_begin(m, ra, is_get ? "QMEMGET" : "QMEMPUT", node, "pieces", side->pieces,
                      is_get ? side->data : side->used);
    fw_msg_send_hdr(m, node, &hdr, side->buf, side->used, NULL);
}

void fw_qput(fw_msg_t *m, unsigned node, uint32_t offset, const void *src, uint32_t bytes,
             fw_group_t *g) {
    fw_msg_check_node(m, node, "queued Memput");
    fw_queued_t *q = queued_of(m);
    fw_qpeer_t *peer = peer_of(m, q, node);
    if (peer == NULL) {
        return;
    }
    fw_qside_t *side = &peer->put;
    if (lazy_buffer(m, &side->buf, "a queued-Memput batch") == NULL) {
        return;
    }
    const uint8_t *s = (const uint8_t *)src;
    const uint32_t limit = m->batch_bytes;
    while (bytes > 0) {
        wait_side(m, side);
        uint32_t room = limit - side->used;
        if (room < FW_Q_PIECE_HDR + 4u || !run_room(side, g)) {
            send_batch(m, q, node, side, false);
            continue;
        }
        /* A piece that does not fit is split: the rest goes in the next batch. */
        uint32_t k = bytes < room - FW_Q_PIECE_HDR ? bytes : room - FW_Q_PIECE_HDR;
        uint8_t *e = side->buf + side->used;
        put_u32(e, offset);
        put_u32(e + 4, k);
        memcpy(e + FW_Q_PIECE_HDR, s, k);
        memset(e + FW_Q_PIECE_HDR + k, 0, pad4(k) - k);
        if (side->used == 0) {
            q->unsent++;
        }
        side->used += FW_Q_PIECE_HDR + pad4(k);
        side->pieces++;
        add_run(side, g);
        m->stats.qput_pieces++;
        hal_cycles(m->h, q->piece_cycles + m->c.copy_word * fw_words(k));
        offset += k;
        s += k;
        bytes -= k;
        if (limit - side->used < FW_Q_PIECE_HDR + 4u) {
            send_batch(m, q, node, side, false);
        }
    }
}

void fw_qget(fw_msg_t *m, unsigned node, uint32_t offset, void *dst, uint32_t bytes,
             fw_group_t *g) {
    fw_msg_check_node(m, node, "queued Memget");
    fw_queued_t *q = queued_of(m);
    fw_qpeer_t *peer = peer_of(m, q, node);
    if (peer == NULL) {
        return;
    }
    fw_qside_t *side = &peer->get;
    const uint32_t limit = m->batch_bytes;
    if (side->dst == NULL) {
        side->dst = (void **)fw_msg_alloc(m, (limit / FW_Q_PIECE_HDR) * (uint32_t)sizeof(void *),
                                          "queued-Memget destinations");
        if (side->dst == NULL) {
            return;
        }
    }
    if (lazy_buffer(m, &side->buf, "a queued-Memget batch") == NULL ||
        lazy_buffer(m, &side->stage, "a queued-Memget reply") == NULL) {
        return;
    }
    uint8_t *d = (uint8_t *)dst;
    while (bytes > 0) {
        wait_side(m, side);
        if (limit - side->used < FW_Q_PIECE_HDR || side->data >= limit || !run_room(side, g)) {
            send_batch(m, q, node, side, true);
            continue;
        }
        uint32_t k = bytes < limit - side->data ? bytes : limit - side->data;
        uint8_t *e = side->buf + side->used;
        put_u32(e, offset);
        put_u32(e + 4, k);
        side->dst[side->pieces] = d;
        if (side->used == 0) {
            q->unsent++;
        }
        side->used += FW_Q_PIECE_HDR;
        side->data += k;
        side->pieces++;
        add_run(side, g);
        m->stats.qget_pieces++;
        hal_cycles(m->h, q->piece_cycles);
        offset += k;
        d += k;
        bytes -= k;
        if (limit - side->used < FW_Q_PIECE_HDR || side->data >= limit) {
            send_batch(m, q, node, side, true);
        }
    }
}

static void flush_node(fw_msg_t *m, fw_queued_t *q, unsigned node) {
    fw_qpeer_t *peer = node < m->nodes ? q->peer[node] : NULL;
    if (peer == NULL) {
        return;
    }
    if (peer->put.used > 0 && !peer->put.inflight) {
        send_batch(m, q, node, &peer->put, false);
    }
    if (peer->get.used > 0 && !peer->get.inflight) {
        send_batch(m, q, node, &peer->get, true);
    }
}

static void flush_all(fw_msg_t *m, fw_queued_t *q) {
    for (unsigned node = 0; node < m->nodes && q->unsent > 0; ++node) {
        flush_node(m, q, node);
    }
}

void fw_q_flush_node(fw_msg_t *m, unsigned node) {
    flush_node(m, queued_of(m), node);
}

void fw_q_flush(fw_msg_t *m) {
    flush_all(m, queued_of(m));
}

/* A completion group's wait: batches still being filled go out first. */
static void before_group_wait(fw_msg_t *m, void *state) {
    fw_queued_t *q = (fw_queued_t *)state;
    if (q->unsent > 0) {
        flush_all(m, q);
    }
}

int fw_q_wait_all(fw_msg_t *m) {
    fw_queued_t *q = queued_of(m);
    do {
        flush_all(m, q);
        while (q->inflight > 0) {
            q->waiting = 1;
            hal_sem_wait(m->h, &q->sem);
        }
    } while (q->unsent > 0);
    int32_t status = q->first_error;
    q->first_error = FW_MSG_OK;
    return status;
}

/* ---- receiver side --------------------------------------------------------------------------- */

/* The core has charged cost.msg_memput_accept_cycles (the types' rx_cycles). */
static void rx_batch(fw_msg_t *m, fw_queued_t *q, unsigned src, const fw_msg_hdr_t *hdr,
                     uint32_t bytes, fw_ni_answer_t *ans, bool is_get) {
    uint32_t min_bytes = is_get ? hdr->length * FW_Q_PIECE_HDR : FW_Q_PIECE_HDR;
    if (bytes == 0 || bytes > m->batch_bytes || bytes < min_bytes ||
        (is_get && bytes != min_bytes)) {
        fw_msg_failf(m,
                     "messaging: queued-%s batch from node %u has %u bytes for %u pieces "
                     "(batches are at most fs.block_bytes = %u)",
                     is_get ? "Memget" : "Memput", src, bytes, hdr->length, m->batch_bytes);
    }
    fw_qsrc_t *qs = src_of(m, q, src);
    if (qs == NULL) {
        return;
    }
    uint8_t *stage = is_get ? lazy_buffer(m, &qs->get_stage, "a queued-Memget list")
                            : lazy_buffer(m, &qs->put_stage, "a queued-Memput batch");
    fw_pending_t *p = stage != NULL ? fw_pending_get(m, src, hdr, bytes) : NULL;
    if (p == NULL) {
        return;
    }
    p->buf = stage;
    m->stats.batches_received++;
    fw_msg_accept(m, ans, stage, bytes, p->addr);
}

static void rx_put(fw_msg_t *m, void *state, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                   fw_ni_answer_t *ans) {
    rx_batch(m, (fw_queued_t *)state, src, hdr, bytes, ans, false);
}

static void rx_get(fw_msg_t *m, void *state, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                   fw_ni_answer_t *ans) {
    rx_batch(m, (fw_queued_t *)state, src, hdr, bytes, ans, true);
}

/* Unpacks a put batch into base + offset and acknowledges it. */
static void put_arrived(fw_msg_t *m, void *state, fw_pending_t *p) {
    const fw_queued_t *q = (const fw_queued_t *)state;
    int32_t status = FW_MSG_OK;
    uint32_t pos = 0;
    for (uint32_t i = 0; i < p->hdr.length; ++i) {
        if (p->body_bytes - pos < FW_Q_PIECE_HDR) {
            break;
        }
        uint32_t off = get_u32(p->buf + pos);
        uint32_t len = get_u32(p->buf + pos + 4);
        if (len > p->body_bytes - pos - FW_Q_PIECE_HDR) {
            break;
        }
        hal_cycles(m->h, q->piece_cycles + m->c.copy_word * fw_words(len));
        int32_t st = fw_msg_base_check(m, off, len);
        if (st != FW_MSG_OK) {
            status = st;
        } else {
            memcpy(m->base + off, p->buf + pos + FW_Q_PIECE_HDR, len);
        }
        pos += FW_Q_PIECE_HDR + pad4(len);
    }
    if (pos != p->body_bytes) {
        fw_msg_failf(m,
                     "messaging: malformed queued-Memput batch from node %u (%u pieces, %u "
                     "of %u bytes parsed)",
                     p->src, p->hdr.length, pos, p->body_bytes);
    }
    hal_cycles(m->h, m->c.memput_ack);
    fw_msg_send_reply(m, p->src, p->hdr.reply, status, NULL, NULL, 0);
    fw_pending_put(m, p);
}

/* Gathers the pieces a get batch asks for into one reply. */
static void get_arrived(fw_msg_t *m, void *state, fw_pending_t *p) {
    const fw_queued_t *q = (const fw_queued_t *)state;
    fw_qsrc_t *qs = q->src[p->src];
    uint8_t *out = lazy_buffer(m, &qs->gather, "a queued-Memget reply");
    if (out == NULL) {
        return;
    }
    int32_t status = FW_MSG_OK;
    uint32_t pos = 0;
    for (uint32_t i = 0; i < p->hdr.length; ++i) {
        uint32_t off = get_u32(p->buf + FW_Q_PIECE_HDR * i);
        uint32_t len = get_u32(p->buf + FW_Q_PIECE_HDR * i + 4);
        if (len > m->batch_bytes - pos) {
            fw_msg_failf(m,
                         "messaging: queued-Memget batch from node %u asks for more than "
                         "fs.block_bytes = %u bytes",
                         p->src, m->batch_bytes);
        }
        hal_cycles(m->h, q->piece_cycles + m->c.copy_word * fw_words(len));
        int32_t st = fw_msg_base_check(m, off, len);
        if (st != FW_MSG_OK) {
            status = st;
            memset(out + pos, 0, len);
        } else {
            memcpy(out + pos, m->base + off, len);
        }
        pos += len;
    }
    hal_cycles(m->h, m->c.memget_serve);
    /* The gather buffer is reused only after the requester has this reply, so the
     * NI may read it in the background. */
    fw_msg_send_reply(m, p->src, p->hdr.reply, status, NULL, out, pos);
    fw_pending_put(m, p);
}

/* ---- requester side: the batch's reply ----------------------------------------------------------
 */

static bool is_get_reply(const fw_ra_t *ra) {
    return ra->kind == (FW_RA_SYSTEM | FW_MSG_QGET);
}

static void reply_done(fw_msg_t *m, void *state, fw_ra_t *ra);

static void reply_in(fw_msg_t *m, void *state, fw_ra_t *ra, uint32_t bytes, fw_ni_answer_t *ans) {
    fw_queued_t *q = (fw_queued_t *)state;
    bool is_get = is_get_reply(ra);
    fw_qside_t *side = is_get ? &q->peer[ra->node]->get : &q->peer[ra->node]->put;
    if (!is_get) {
        hal_cycles(m->h, m->c.memput_return);
        if (bytes > 0) {
            ans->op = HW_NI_RX_DISCARD;
        }
        reply_done(m, state, ra);
        return;
    }
    hal_cycles(m->h, m->c.reply_accept);
    if (bytes == 0) {
        reply_done(m, state, ra);
        return;
    }
    if (bytes != side->data) {
        fw_msg_failf(m, "messaging: queued-Memget reply from node %u has %u bytes, asked for %u",
                     ra->node, bytes, side->data);
    }
    ra->state = FW_RA_DEPOSITING;
    ra->got.bytes = bytes;
    fw_msg_accept(m, ans, ra->buf, bytes, ra->addr);
}

/* The batch's reply data is in ra->buf (or there is none): scatter it, count the
 * groups, wake the waiters. */
static void reply_done(fw_msg_t *m, void *state, fw_ra_t *ra) {
    fw_queued_t *q = (fw_queued_t *)state;
    bool is_get = is_get_reply(ra);
    fw_qside_t *side = is_get ? &q->peer[ra->node]->get : &q->peer[ra->node]->put;
    int32_t status = ra->got.status;
    if (is_get) {
        hal_cycles(m->h, m->c.reply_done);
        if (ra->got.bytes == side->data && ra->got.bytes > 0) {
            uint32_t pos = 0;
            for (uint32_t i = 0; i < side->pieces; ++i) {
                uint32_t len = get_u32(side->buf + FW_Q_PIECE_HDR * i + 4);
                memcpy(side->dst[i], side->stage + pos, len);
                hal_cycles(m->h, q->piece_cycles + m->c.copy_word * fw_words(len));
                pos += len;
            }
        } else if (status == FW_MSG_OK) {
            status = FW_MSG_ETOOBIG;
        }
    }
    if (status != FW_MSG_OK && q->first_error == FW_MSG_OK) {
        q->first_error = status;
    }
    uint32_t nruns = side->nruns;
    side->nruns = 0;
    side->used = 0;
    side->pieces = 0;
    side->data = 0;
    side->inflight = false;
    q->inflight--;
    fw_msg_note_end(m, ra, status);
    fw_ra_put(m, ra);
    for (uint32_t i = 0; i < nruns; ++i) {
        fw_group_done(m, side->runs[i].g, side->runs[i].count, status);
    }
    while (side->waiters > 0) {
        side->waiters--;
        hal_sem_post(m->h, &side->sem);
    }
    if (q->inflight == 0 && q->waiting) {
        q->waiting = 0;
        hal_sem_post(m->h, &q->sem);
    }
}

void fw_move_piece(fw_msg_t *m, bool get, bool queued, unsigned node, uint32_t offset, void *local,
                   uint32_t bytes, fw_group_t *g) {
    if (get) {
        if (queued) {
            fw_qget(m, node, offset, local, bytes, g);
        } else {
            fw_memget_async(m, node, offset, local, bytes, g);
        }
    } else if (queued) {
        fw_qput(m, node, offset, local, bytes, g);
    } else {
        fw_memput_async(m, node, offset, local, bytes, g);
    }
}

/* ---- the watchdog report's line and set-up ------------------------------------------------- */

static void report(hal_t *h, void *arg) {
    const fw_queued_t *q = (const fw_queued_t *)arg;
    if (q->unsent > 0 || q->inflight > 0) {
        char line[200];
        snprintf(line, sizeof line, "msg: queued batches: %u with unsent pieces, %u in flight",
                 q->unsent, q->inflight);
        hal_report_line(h, line);
    }
}

static const fw_msg_system_ops_t put_ops = {rx_put, put_arrived, reply_in, reply_done};
static const fw_msg_system_ops_t get_ops = {rx_get, get_arrived, reply_in, reply_done};

bool fw_msg_queued_attach(fw_msg_t *m) {
    uint32_t nodes = m->nodes;
    fw_queued_t *q = (fw_queued_t *)fw_msg_alloc(
        m, (uint32_t)(sizeof(fw_queued_t) + nodes * sizeof(fw_qpeer_t *)), "batch peers");
    if (q == NULL) {
        return false;
    }
    memset(q, 0, sizeof *q + nodes * sizeof(fw_qpeer_t *));
    q->src = (fw_qsrc_t **)fw_msg_alloc(m, nodes * (uint32_t)sizeof(void *), "batch sources");
    if (q->src == NULL) {
        return false;
    }
    memset(q->src, 0, nodes * sizeof(void *));
    q->piece_cycles = (uint32_t)hal_config_int(m->h, FW_KEY_COST_QUEUE_PIECE);
    hal_sem_init(m->h, &q->sem, 0);
    hal_sem_name(m->h, &q->sem, "msg queued batches in flight", 0);
    fw_msg_register_system(m, FW_MSG_QPUT, &put_ops, q, m->c.memput_accept);
    fw_msg_register_system(m, FW_MSG_QGET, &get_ops, q, m->c.memput_accept);
    fw_msg_add_wait_hook(m, before_group_wait, q);
    hal_report_register(m->h, report, q);
    return true;
}
