/* ECHO, a test-only system message type (msg_system_probe.h). */
#include "tests/fw/msg_system_probe.h"

#include "fw/src/msg_core.h"
#include "fw/src/msg_stack.h"

#include <string.h>

typedef struct probe {
    probe_counts_t *counts;
    unsigned type;
    uint8_t *stage; /* the request's body */
    uint8_t *out;   /* the echo being sent */
} probe_t;

static void on_header(fw_msg_t *m, void *state, unsigned src, const fw_msg_hdr_t *hdr,
                      uint32_t bytes, fw_ni_answer_t *ans) {
    probe_t *pr = (probe_t *)state;
    pr->counts->headers++;
    if (bytes == 0 || bytes > PROBE_ECHO_MAX) {
        fw_msg_failf(m, "echo: %u-byte body", bytes);
    }
    fw_pending_t *p = fw_pending_get(m, src, hdr, bytes);
    p->buf = pr->stage;
    fw_msg_accept(m, ans, p->buf, bytes, p->addr);
}

static void on_body(fw_msg_t *m, void *state, fw_pending_t *p) {
    probe_t *pr = (probe_t *)state;
    pr->counts->bodies++;
    for (uint32_t i = 0; i < p->body_bytes; ++i) {
        pr->out[i] = p->buf[p->body_bytes - 1 - i];
    }
    fw_msg_send_reply(m, p->src, p->hdr.reply, FW_MSG_OK, NULL, pr->out, p->body_bytes);
    fw_pending_put(m, p);
}

static void on_reply(fw_msg_t *m, void *state, fw_ra_t *ra, uint32_t bytes, fw_ni_answer_t *ans) {
    probe_t *pr = (probe_t *)state;
    pr->counts->replies++;
    if (bytes != ra->cap) {
        fw_msg_failf(m, "echo: %u bytes back for %u", bytes, ra->cap);
    }
    ra->state = FW_RA_DEPOSITING;
    ra->got.bytes = bytes;
    fw_msg_accept(m, ans, ra->buf, bytes, ra->addr);
}

static void on_reply_done(fw_msg_t *m, void *state, fw_ra_t *ra) {
    probe_t *pr = (probe_t *)state;
    pr->counts->reply_dones++;
    hal_sem_post(m->h, &ra->sem);
}

static const fw_msg_system_ops_t echo_ops = {on_header, on_body, on_reply, on_reply_done};

fw_msg_t *probe_msg_init(hal_t *h, unsigned type, probe_counts_t *counts) {
    fw_msg_t *m = fw_msg_core_init(h);
    if (m == NULL || !fw_msg_queued_attach(m)) {
        return NULL;
    }
    fw_msg_barrier_attach(m);
    probe_t *pr = (probe_t *)fw_msg_alloc(m, sizeof(probe_t), "the echo probe");
    pr->counts = counts;
    pr->type = type;
    pr->stage = (uint8_t *)fw_msg_alloc(m, PROBE_ECHO_MAX, "the echo stage");
    pr->out = (uint8_t *)fw_msg_alloc(m, PROBE_ECHO_MAX, "the echo answer");
    fw_msg_register_system(m, type, &echo_ops, pr, 10);
    return fw_msg_core_start(m) ? m : NULL;
}

int probe_echo(fw_msg_t *m, unsigned node, const void *body, uint32_t bytes, void *reply_buf) {
    fw_ra_t *ra = fw_ra_get_system(m, PROBE_ECHO_TYPE);
    ra->buf = (uint8_t *)reply_buf;
    ra->cap = bytes;
    fw_msg_hdr_t hdr;
    fw_msg_hdr_init(&hdr, PROBE_ECHO_TYPE, NULL);
    hdr.reply = ra->addr;
    hdr.length = bytes;
    fw_msg_send_hdr(m, node, &hdr, body, bytes, NULL);
    hal_sem_wait(m->h, &ra->sem);
    int status = ra->got.status;
    fw_ra_put(m, ra);
    return status;
}
