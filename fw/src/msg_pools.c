/* The messaging core's pools in node memory: reply actions (requester-side records
 * whose address travels in a request and comes back in its reply), receive records
 * (a message waiting for its body or a server thread) and request buffers. Each
 * pool starts at its msg.* size and grows when it runs dry (stats.pool_growths,
 * request_overflows). */
#include "msg_core.h"

#include <string.h>

fw_ra_t *fw_ra_new(fw_msg_t *m) {
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
        ra = fw_ra_new(m);
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

fw_ra_t *fw_ra_get_system(fw_msg_t *m, unsigned type) {
    return fw_ra_get(m, FW_RA_SYSTEM | type);
}

void fw_ra_put(fw_msg_t *m, fw_ra_t *ra) {
    ra->state = FW_RA_FREE;
    ra->next = m->ra_free;
    m->ra_free = ra;
}

fw_pending_t *fw_pending_new(fw_msg_t *m) {
    fw_pending_t *p = (fw_pending_t *)fw_msg_alloc(m, sizeof(fw_pending_t), "a receive record");
    if (p == NULL) {
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->magic = FW_PEND_MAGIC;
    p->addr = hal_mem_addr(m->h, p);
    return p;
}

fw_pending_t *fw_pending_get(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes) {
    fw_pending_t *p = m->pend_free;
    if (p != NULL) {
        m->pend_free = p->next;
    } else {
        m->stats.pool_growths++;
        p = fw_pending_new(m);
        if (p == NULL) {
            return NULL;
        }
    }
    p->next = NULL;
    p->buf = NULL;
    p->buf_kind = 0;
    p->src = src;
    p->hdr = *hdr;
    p->body_bytes = bytes;
    return p;
}

void fw_pending_put(fw_msg_t *m, fw_pending_t *p) {
    p->next = m->pend_free;
    m->pend_free = p;
}

uint8_t *fw_reqbuf_get(fw_msg_t *m, uint32_t bytes, uint32_t *kind) {
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

void fw_reqbuf_put(fw_msg_t *m, uint8_t *buf, uint32_t kind) {
    if (kind == 1) {
        *(void **)buf = m->reqbuf_free;
        m->reqbuf_free = buf;
    } else if (kind == 2) {
        hal_mem_free(m->h, buf);
    }
}
