/* NI driver: see fw/include/fw/ni.h and docs/messaging.md. */
#include "fw/ni.h"

#include "hw/node_map.h"

#include <stdio.h>
#include <string.h>

/* A send waiting in the software queue; its header copy lives here, in node
 * memory, so the NI can read it at push time. */
typedef struct swq_entry {
    struct swq_entry *next;
    uint32_t hdr_addr; /* node address of hdr[] */
    uint32_t dest;
    uint32_t hdr_bytes;
    uint32_t body_addr;
    uint32_t body_bytes;
    uint32_t flags;
    uint32_t cookie;
    uint8_t hdr[HW_NI_HDR_MAX_BYTES];
} swq_entry_t;

struct fw_ni {
    hal_t *h;
    fw_ni_ops_t ops;
    fw_ni_config_t cfg;
    hw_ni_rx_record_t *ring;
    uint32_t ring_mask;
    uint32_t rx_next;            /* slot of the oldest record not yet handled */
    uint32_t ctrl;               /* shadow of CTRL */
    uint32_t tx_credit;          /* descriptors that can be pushed without reading TX_FREE */
    uint32_t notify_outstanding; /* notified pushes whose cookie has not been read yet */
    bool busy;                   /* someone is programming TX registers or CTRL */
    bool space_deferred;         /* the TX handler disarmed TX_SPACE_IRQ under a busy sender */
    uint8_t *tx_hdr;             /* header staging for direct pushes (node memory) */
    uint32_t tx_hdr_addr;
    swq_entry_t *swq_head;
    swq_entry_t *swq_tail;
    uint32_t swq_depth;
    swq_entry_t *swq_free;
    fw_ni_stats_t stats;
};

static void rx_irq(hal_t *h, void *arg);
static void tx_irq(hal_t *h, void *arg);

static uint32_t ni_read(fw_ni_t *ni, uint32_t reg) {
    return hal_reg_read(ni->h, HW_NI_BASE + reg);
}

static void ni_write(fw_ni_t *ni, uint32_t reg, uint32_t value) {
    hal_reg_write(ni->h, HW_NI_BASE + reg, value);
}

_Noreturn static void ni_fail(fw_ni_t *ni, const char *msg) {
    hal_fail(ni->h, msg);
}

static swq_entry_t *swq_new_entry(fw_ni_t *ni) {
    swq_entry_t *e = (swq_entry_t *)hal_mem_alloc(ni->h, sizeof(swq_entry_t), 8);
    if (e == NULL) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "NI driver: node memory exhausted growing the software send queue "
                 "(%u entries waiting)",
                 ni->swq_depth);
        ni_fail(ni, msg);
    }
    e->hdr_addr = hal_mem_addr(ni->h, e->hdr);
    return e;
}

fw_ni_t *fw_ni_init(hal_t *h, const fw_ni_config_t *cfg, const fw_ni_ops_t *ops) {
    char msg[200];
    uint32_t slots = cfg->rx_ring_slots;
    if (slots < 2 || (slots & (slots - 1)) != 0) {
        snprintf(msg, sizeof msg, "NI driver: msg.rx_ring_slots = %u must be a power of two >= 2",
                 slots);
        hal_fail(h, msg);
    }
    uint32_t id = hal_reg_read(h, HW_NI_BASE + HW_NI_REG_ID);
    if (id != HW_NI_ID_VALUE) {
        snprintf(msg, sizeof msg, "NI register ID reads 0x%08x, expected 0x%08x", id,
                 HW_NI_ID_VALUE);
        hal_fail(h, msg);
    }
    uint32_t node = hal_reg_read(h, HW_NI_BASE + HW_NI_REG_NODE);
    if (node != hal_node_id(h)) {
        snprintf(msg, sizeof msg, "NI register NODE reads %u", node);
        hal_fail(h, msg);
    }
    fw_ni_t *ni = (fw_ni_t *)hal_mem_alloc(h, sizeof(fw_ni_t), 8);
    hw_ni_rx_record_t *ring =
        (hw_ni_rx_record_t *)hal_mem_alloc(h, slots * HW_NI_RX_RECORD_BYTES, HW_NI_RX_RECORD_BYTES);
    uint8_t *tx_hdr = (uint8_t *)hal_mem_alloc(h, HW_NI_HDR_MAX_BYTES, 8);
    if (ni == NULL || ring == NULL || tx_hdr == NULL) {
        snprintf(msg, sizeof msg,
                 "NI driver: node memory exhausted allocating the %u-slot receive ring", slots);
        hal_fail(h, msg);
    }
    memset(ni, 0, sizeof *ni);
    memset(ring, 0, (size_t)slots * HW_NI_RX_RECORD_BYTES);
    ni->h = h;
    ni->ops = *ops;
    ni->cfg = *cfg;
    ni->ring = ring;
    ni->ring_mask = slots - 1;
    ni->tx_hdr = tx_hdr;
    ni->tx_hdr_addr = hal_mem_addr(h, tx_hdr);
    for (uint32_t i = 0; i < cfg->send_queue_entries; ++i) {
        swq_entry_t *e = swq_new_entry(ni);
        if (e == NULL) {
            return NULL;
        }
        e->next = ni->swq_free;
        ni->swq_free = e;
    }

    hal_irq_register(h, HW_IRQ_NI_RX, rx_irq, ni);
    hal_irq_register(h, HW_IRQ_NI_TX, tx_irq, ni);
    ni_write(ni, HW_NI_REG_RX_RING_BASE, hal_mem_addr(h, ring));
    ni_write(ni, HW_NI_REG_RX_RING_SLOTS, slots);
    ni->ctrl = HW_NI_CTRL_ENABLE | HW_NI_CTRL_RX_IRQ | HW_NI_CTRL_TX_IRQ;
    /* The interface does not promise where the first record goes: ask once. */
    ni->rx_next = ni_read(ni, HW_NI_REG_RX_INDEX) & ni->ring_mask;
    ni->tx_credit = ni_read(ni, HW_NI_REG_TX_FREE);
    ni_write(ni, HW_NI_REG_CTRL, ni->ctrl);
    uint32_t err = ni_read(ni, HW_NI_REG_ERROR);
    if (err != HW_NI_ERR_NONE) {
        snprintf(msg, sizeof msg, "NI register ERROR = %u after programming the receive ring", err);
        hal_fail(h, msg);
    }
    return ni;
}

const fw_ni_stats_t *fw_ni_stats(const fw_ni_t *ni) {
    return &ni->stats;
}

/* ---- sending ------------------------------------------------------------------- */

/* Writes CTRL from the shadow. A handler may run inside the register access
 * (before or after the write) and change CTRL itself; if our write may have
 * clobbered its newer value, write the newest shadow again. */
static void ctrl_write(fw_ni_t *ni, uint32_t value) {
    ni->ctrl = value;
    ni_write(ni, HW_NI_REG_CTRL, value);
    while (ni->ctrl != value) {
        value = ni->ctrl;
        ni_write(ni, HW_NI_REG_CTRL, value);
    }
}

static void set_space_irq(fw_ni_t *ni, bool on) {
    uint32_t want =
        on ? (ni->ctrl | HW_NI_CTRL_TX_SPACE_IRQ) : (ni->ctrl & ~HW_NI_CTRL_TX_SPACE_IRQ);
    if (want != ni->ctrl) {
        ctrl_write(ni, want);
    }
}

/* Only with ni->busy set and tx_credit > 0. */
static void push(fw_ni_t *ni, uint32_t dest, uint32_t hdr_addr, uint32_t hdr_bytes,
                 uint32_t body_addr, uint32_t body_bytes, uint32_t flags, uint32_t cookie) {
    ni_write(ni, HW_NI_REG_TX_DEST, dest);
    ni_write(ni, HW_NI_REG_TX_HDR_ADDR, hdr_addr);
    ni_write(ni, HW_NI_REG_TX_HDR_BYTES, hdr_bytes);
    ni_write(ni, HW_NI_REG_TX_BODY_ADDR, body_addr);
    ni_write(ni, HW_NI_REG_TX_BODY_BYTES, body_bytes);
    ni_write(ni, HW_NI_REG_TX_COOKIE, cookie);
    ni->tx_credit--;
    if (flags & HW_NI_TX_NOTIFY) {
        ni->notify_outstanding++;
    }
    ni->stats.pushes++;
    ni_write(ni, HW_NI_REG_TX_PUSH, flags);
}

/* Is there room in the NI's send queue? Reads TX_FREE only when the credit the
 * driver counted down is used up. */
static bool have_credit(fw_ni_t *ni) {
    if (ni->tx_credit == 0) {
        ni->stats.tx_free_reads++;
        ni->tx_credit = ni_read(ni, HW_NI_REG_TX_FREE);
    }
    return ni->tx_credit > 0;
}

/* Appends a send to the software queue. No HAL call may come between the
 * caller's decision to queue and the linking (a handler could drain the queue and
 * disarm the space interrupt in between), so the entry is taken first and the
 * cost charged after. Returns false if the free list was empty and had to grow
 * (a HAL call): the caller decides again. */
static bool enqueue(fw_ni_t *ni, uint32_t dest, const void *hdr, uint32_t hdr_bytes,
                    uint32_t body_addr, uint32_t body_bytes, uint32_t flags, uint32_t cookie) {
    swq_entry_t *e = ni->swq_free;
    if (e == NULL) {
        e = swq_new_entry(ni);
        if (e == NULL) {
            return true; /* out of memory: the run has failed (hal_fail) */
        }
        e->next = NULL;
        ni->swq_free = e;
        return false;
    }
    ni->swq_free = e->next;
    e->next = NULL;
    e->dest = dest;
    e->hdr_bytes = hdr_bytes;
    e->body_addr = body_addr;
    e->body_bytes = body_bytes;
    e->flags = flags;
    e->cookie = cookie;
    memcpy(e->hdr, hdr, hdr_bytes);
    if (ni->swq_tail != NULL) {
        ni->swq_tail->next = e;
    } else {
        ni->swq_head = e;
    }
    ni->swq_tail = e;
    ni->swq_depth++;
    ni->stats.queued++;
    if (ni->swq_depth > ni->stats.queue_peak) {
        ni->stats.queue_peak = ni->swq_depth;
    }
    hal_cycles(ni->h, ni->cfg.queue_insert_cycles);
    return true;
}

/* With ni->busy set: pushes queued sends while the NI has room, then arms the
 * TX-space interrupt if some are left (or disarms it if none are). */
static void drain(fw_ni_t *ni) {
    while (ni->swq_head != NULL) {
        if (!have_credit(ni)) {
            set_space_irq(ni, true);
            return;
        }
        swq_entry_t *e = ni->swq_head;
        ni->swq_head = e->next;
        if (ni->swq_head == NULL) {
            ni->swq_tail = NULL;
        }
        ni->swq_depth--;
        /* The NI copies the header at push time, so the entry is free at once;
         * unlink it first, since handlers may run during the register writes. */
        push(ni, e->dest, e->hdr_addr, e->hdr_bytes, e->body_addr, e->body_bytes, e->flags,
             e->cookie);
        e->next = ni->swq_free;
        ni->swq_free = e;
    }
    set_space_irq(ni, false);
}

/* With ni->busy set, before clearing it: the TX handler found the space
 * interrupt armed while we held the registers and disarmed it instead of
 * draining (it would otherwise fire again at once); drain on its behalf. */
static void finish_deferred(fw_ni_t *ni) {
    while (ni->space_deferred) {
        ni->space_deferred = false;
        drain(ni);
    }
}

void fw_ni_send(fw_ni_t *ni, unsigned dest, const void *hdr, uint32_t hdr_bytes, const void *body,
                uint32_t body_bytes, bool notify, uint32_t cookie) {
    hal_t *h = ni->h;
    uint32_t flags = notify ? HW_NI_TX_NOTIFY : 0;
    if (hdr_bytes > HW_NI_HDR_MAX_BYTES || hdr_bytes % 4 != 0 ||
        body_bytes > HW_NI_MAX_BODY_BYTES || hdr_bytes + body_bytes == 0) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "NI driver: message to node %u with a %u-byte header and a %u-byte "
                 "body (limits %u and %u)",
                 dest, hdr_bytes, body_bytes, HW_NI_HDR_MAX_BYTES, HW_NI_MAX_BODY_BYTES);
        ni_fail(ni, msg);
    }
    uint32_t body_addr = body_bytes > 0 ? hal_mem_addr(h, body) : 0;
    ni->stats.sends++;
    /* Keep call order: behind queued sends, or behind a sender we interrupted
     * (which drains the queue before it lets go of the registers). */
    while (ni->busy || ni->swq_head != NULL) {
        if (enqueue(ni, dest, hdr, hdr_bytes, body_addr, body_bytes, flags, cookie)) {
            return;
        }
    }
    ni->busy = true;
    if (have_credit(ni)) {
        memcpy(ni->tx_hdr, hdr, hdr_bytes);
        push(ni, dest, ni->tx_hdr_addr, hdr_bytes, body_addr, body_bytes, flags, cookie);
    } else {
        while (!enqueue(ni, dest, hdr, hdr_bytes, body_addr, body_bytes, flags, cookie)) {
        }
    }
    /* Sends that interrupt handlers queued while we held the registers. */
    if (ni->swq_head != NULL) {
        drain(ni);
    }
    finish_deferred(ni);
    ni->busy = false;
}

/* ---- interrupt handlers ----------------------------------------------------------- */

static void rx_inconsistent(fw_ni_t *ni) {
    /* The slot the driver expects is empty: harmless if nothing waits. */
    uint32_t count = ni_read(ni, HW_NI_REG_RX_COUNT);
    if (count != 0) {
        uint32_t index = ni_read(ni, HW_NI_REG_RX_INDEX);
        char msg[200];
        snprintf(msg, sizeof msg,
                 "NI driver expected the oldest of %u receive records in slot %u (kind "
                 "0 there) but RX_INDEX is %u",
                 count, ni->rx_next, index);
        ni_fail(ni, msg);
    }
}

static void rx_irq(hal_t *h, void *arg) {
    fw_ni_t *ni = (fw_ni_t *)arg;
    ni->stats.rx_interrupts++;
    hw_ni_rx_record_t *rec = &ni->ring[ni->rx_next];
    if (rec->kind == 0) {
        rx_inconsistent(ni);
        return;
    }
    while (rec->kind != 0) {
        hal_cycles(h, ni->cfg.rx_record_cycles);
        if (rec->kind == HW_NI_REC_HEADER) {
            ni->stats.headers++;
            fw_ni_answer_t ans = {HW_NI_RX_DISCARD, 0, 0, 0};
            ni->ops.header(ni->ops.arg, rec, &ans);
            if (rec->handle != HW_NI_NONE) {
                if (ans.op == HW_NI_RX_ACCEPT || ans.op == HW_NI_RX_ACCEPT_NOTIFY) {
                    ni_write(ni, HW_NI_REG_RX_BODY_ADDR, ans.body_addr);
                }
                if (ans.op == HW_NI_RX_ACCEPT_NOTIFY) {
                    ni_write(ni, HW_NI_REG_RX_COOKIE, ans.cookie);
                }
                ni_write(ni, HW_NI_REG_RX_CMD, HW_NI_RX_CMD(ans.op, rec->handle));
                if (ans.overlap_cycles > 0) {
                    hal_cycles(h, ans.overlap_cycles);
                }
            }
        } else if (rec->kind == HW_NI_REC_DONE) {
            ni->stats.dones++;
            ni->ops.done(ni->ops.arg, rec->src_node, rec->cookie);
        } else {
            char msg[160];
            snprintf(msg, sizeof msg, "NI receive record in slot %u has unknown kind %u",
                     ni->rx_next, rec->kind);
            ni_fail(ni, msg);
        }
        rec->kind = 0;
        ni->rx_next = (ni->rx_next + 1) & ni->ring_mask;
        ni_write(ni, HW_NI_REG_RX_POP, 1);
        /* The pop synchronised with the NI: a DONE for the body just accepted may
         * already be in the next slot. */
        rec = &ni->ring[ni->rx_next];
    }
}

static void tx_irq(hal_t *h, void *arg) {
    (void)h;
    fw_ni_t *ni = (fw_ni_t *)arg;
    ni->stats.tx_interrupts++;
    while (ni->notify_outstanding > 0) {
        uint32_t cookie = ni_read(ni, HW_NI_REG_TX_DONE);
        if (cookie == HW_NI_NONE) {
            break;
        }
        ni->notify_outstanding--;
        ni->stats.sent_notices++;
        ni->ops.sent(ni->ops.arg, cookie);
    }
    if (!ni->busy) {
        ni->busy = true;
        drain(ni);
        ni->busy = false;
    } else if (ni->ctrl & HW_NI_CTRL_TX_SPACE_IRQ) {
        /* We interrupted a sender at the register write that armed the space
         * interrupt: we may not push now, and the level would call us again at
         * once. Disarm it; the sender drains before it lets go (finish_deferred). */
        ctrl_write(ni, ni->ctrl & ~HW_NI_CTRL_TX_SPACE_IRQ);
        ni->space_deferred = true;
    }
}
