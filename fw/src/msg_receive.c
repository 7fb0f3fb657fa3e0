/* The messaging core's receive side: the NI driver's header, DONE and TX_DONE
 * callbacks. Memput/Memget and replies are handled here; user types go to
 * msg_server.c, system types (below FW_MSG_TYPE_USER) to their registered hooks. */
#include "msg_core.h"

#include <string.h>

/* ---- reply actions: completion ------------------------------------------------------------- */

void fw_msg_ra_complete(fw_msg_t *m, fw_ra_t *ra) {
    if (ra->kind & FW_RA_SYSTEM) {
        const fw_type_entry_t *e = &m->types[ra->kind & FW_MSG_TYPE_MAX];
        e->ops->on_reply_done(m, e->arg, ra);
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
    fw_pending_t *p = fw_pending_get(m, src, hdr, bytes);
    if (p == NULL) {
        return;
    }
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
    if (ra->kind & FW_RA_SYSTEM) {
        const fw_type_entry_t *e = &m->types[ra->kind & FW_MSG_TYPE_MAX];
        e->ops->on_reply(m, e->arg, ra, bytes, ans);
        return;
    }
    switch (ra->kind) {
    case FW_RA_MEMPUT:
        hal_cycles(m->h, m->c.memput_return);
        if (bytes > 0) {
            ans->op = HW_NI_RX_DISCARD;
        }
        fw_msg_ra_complete(m, ra);
        return;
    case FW_RA_REPLY:
        hal_cycles(m->h, m->c.reply_accept);
        if (bytes == 0 || ra->buf == NULL || bytes > ra->cap) {
            if (bytes > 0) {
                ans->op = HW_NI_RX_DISCARD;
                ra->got.status = FW_MSG_ETOOBIG;
            }
            hal_cycles(m->h, m->c.reply_done);
            fw_msg_ra_complete(m, ra);
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

void fw_msg_on_header(void *arg, const hw_ni_rx_record_t *rec, fw_ni_answer_t *ans) {
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
    default:
        if (hdr.type >= FW_MSG_TYPE_USER) {
            fw_msg_rx_user(m, src, &hdr, bytes, ans);
            break;
        }
        const fw_type_entry_t *e = &m->types[hdr.type];
        if (e->kind != FW_TYPE_SYSTEM) {
            fw_msg_failf(m, "messaging: message from node %u has unknown type %u", src, hdr.type);
        }
        hal_cycles(m->h, e->rx_cycles);
        e->ops->on_header(m, e->arg, src, &hdr, bytes, ans);
    }
}

void fw_msg_on_done(void *arg, unsigned src, uint32_t cookie) {
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
        fw_msg_ra_complete(m, ra);
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
    default:
        if (p->hdr.type >= FW_MSG_TYPE_USER) {
            fw_msg_dispatch_request(m, p);
            break;
        }
        const fw_type_entry_t *e = &m->types[p->hdr.type];
        if (e->kind != FW_TYPE_SYSTEM || e->ops->on_body == NULL) {
            fw_msg_failf(m, "messaging: a body of type %u from node %u has no receiver",
                         p->hdr.type, p->src);
        }
        e->ops->on_body(m, e->arg, p);
    }
}

void fw_msg_on_sent(void *arg, uint32_t cookie) {
    fw_msg_t *m = (fw_msg_t *)arg;
    fw_ra_t *ra = ra_lookup(m, cookie, m->self, FW_RA_WAITING);
    if (ra != NULL) {
        fw_msg_ra_complete(m, ra);
    }
}
