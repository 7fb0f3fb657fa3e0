/* The messaging verbs, sending side: Memput/Memget, requests, one-way messages,
 * multicast and replies, each a header (and body) handed to the NI driver with a
 * reply action that the answer completes (msg_receive.c). */
#include "msg_core.h"

#include <stdio.h>
#include <string.h>

/* ---- headers out ---------------------------------------------------------------------------- */

void fw_msg_send_hdr(fw_msg_t *m, unsigned node, fw_msg_hdr_t *hdr, const void *body,
                     uint32_t bytes, fw_ra_t *notify) {
    hdr->seq = m->seq++;
    fw_ni_send(m->ni, node, hdr, sizeof *hdr, body, bytes, notify != NULL,
               notify != NULL ? notify->addr : 0);
}

void fw_msg_hdr_init(fw_msg_hdr_t *hdr, unsigned type, const uint32_t *args) {
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
    fw_msg_hdr_init(&hdr, FW_MSG_REPLY, args);
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
    fw_msg_hdr_init(&hdr, FW_MSG_MEMPUT, NULL);
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
    fw_msg_hdr_init(&hdr, FW_MSG_MEMGET, NULL);
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
    fw_msg_hdr_init(&hdr, type, args);
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
        fw_msg_hdr_init(&hdr, type, args);
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

int fw_msg_request_every_iop(fw_msg_t *m, unsigned type, const void *body, uint32_t bytes,
                             const char *who) {
    hal_t *h = m->h;
    unsigned iops = hal_iop_count(h);
    void *copy = bytes ? hal_mem_alloc(h, bytes, 8) : NULL;
    unsigned *nodes = (unsigned *)hal_mem_alloc(h, (uint32_t)(sizeof(unsigned) * iops), 8);
    fw_reply_t *results = (fw_reply_t *)hal_mem_alloc(h, (uint32_t)(sizeof(fw_reply_t) * iops), 8);
    fw_group_t *group = (fw_group_t *)hal_mem_alloc(h, sizeof *group, 8);
    char text[96];
    if ((bytes && !copy) || !nodes || !results || !group) {
        snprintf(text, sizeof text, "%s: node memory exhausted on the requesting CP", who);
        hal_fail(h, text);
        return FW_MSG_ERANGE;
    }
    if (bytes) {
        memcpy(copy, body, bytes);
    }
    for (unsigned k = 0; k < iops; ++k) {
        nodes[k] = hal_iop_node(h, k);
    }
    fw_group_init(m, group);
    snprintf(text, sizeof text, "%s: every IOP's answer", who);
    hal_sem_name(h, &group->sem, text, 0);
    fw_msg_multicast(m, nodes, iops, type, NULL, copy, bytes, results, group);
    int status = fw_group_wait(m, group);
    for (unsigned k = 0; k < iops && status == FW_MSG_OK; ++k) {
        status = results[k].status;
    }
    hal_mem_free(h, group);
    hal_mem_free(h, results);
    hal_mem_free(h, nodes);
    if (copy) {
        hal_mem_free(h, copy);
    }
    return status;
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
    fw_msg_hdr_init(&hdr, FW_MSG_REPLY, args);
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
