/* Test firmware for the DMA network interface (tests/node/fw_tests.h): a minimal
 * driver written against hw/ni_regs.h and hal.h only. */
#include "hw/ni_regs.h"
#include "tests/node/fw_tests.h"

#include <stddef.h>
#include <string.h>

#define HDR_MAGIC 0xa5000000u

static void ni_w(hal_t *h, uint32_t reg, uint32_t value) {
    hal_reg_write(h, HW_NI_BASE + reg, value);
}
static uint32_t ni_r(hal_t *h, uint32_t reg) {
    return hal_reg_read(h, HW_NI_BASE + reg);
}

static uint8_t pattern(uint32_t msg, uint32_t i) {
    uint32_t x = msg * 2654435761u ^ (i * 40503u + (i >> 9));
    return (uint8_t)(x ^ (x >> 13) ^ (x >> 24));
}

/* Allocates a ring and enables reception with the given interrupt bits. */
static hw_ni_rx_record_t *ni_enable(hal_t *h, uint32_t slots, uint32_t irq_bits) {
    hw_ni_rx_record_t *ring =
        hal_mem_alloc(h, slots * HW_NI_RX_RECORD_BYTES, HW_NI_RX_RECORD_BYTES);
    if (ring == NULL) {
        hal_fail(h, "no memory for the receive ring");
    }
    ni_w(h, HW_NI_REG_RX_RING_BASE, hal_mem_addr(h, ring));
    ni_w(h, HW_NI_REG_RX_RING_SLOTS, slots);
    ni_w(h, HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE | irq_bits);
    return ring;
}

static void ni_push(hal_t *h, uint32_t dest, const void *hdr, uint32_t hdr_bytes, const void *body,
                    uint32_t body_bytes, uint32_t cookie, uint32_t flags) {
    ni_w(h, HW_NI_REG_TX_DEST, dest);
    ni_w(h, HW_NI_REG_TX_HDR_ADDR, hdr != NULL ? hal_mem_addr(h, hdr) : 0u);
    ni_w(h, HW_NI_REG_TX_HDR_BYTES, hdr_bytes);
    ni_w(h, HW_NI_REG_TX_BODY_ADDR, body != NULL ? hal_mem_addr(h, body) : 0u);
    ni_w(h, HW_NI_REG_TX_BODY_BYTES, body_bytes);
    ni_w(h, HW_NI_REG_TX_COOKIE, cookie);
    ni_w(h, HW_NI_REG_TX_PUSH, flags);
}

/* ---- message exchange ------------------------------------------------------------ */

typedef struct exch {
    const fwt_ni_args_t *a;
    hw_ni_rx_record_t *ring;
    uint32_t ctrl; /* shadow of CTRL */
    /* sender */
    uint8_t **bodies;
    uint32_t tx_done;
    hal_sem_t space;
    hal_sem_t all_sent;
    /* receiver */
    uint8_t **rx_bufs;
    uint8_t *plain; /* 1 if message i was ACCEPTed without notification, not yet checked */
    uint8_t *canary;
    uint32_t canary_bytes;
    uint32_t received, headers_ok, bodies_ok, bodies_bad, discarded, complete;
    uint32_t next_index, in_order, finished;
    hal_sem_t all_received;
} exch_t;

static uint32_t body_size(const fwt_ni_args_t *a, uint32_t i) {
    return a->body_sizes[i % a->n_sizes];
}

static void fill_header(uint8_t *hdr, uint32_t bytes, uint32_t i, uint32_t size) {
    uint32_t w[3] = {HDR_MAGIC | i, size, ~i};
    memcpy(hdr, w, sizeof w);
    for (uint32_t k = 12; k < bytes; ++k) {
        hdr[k] = pattern(i ^ 0xffffu, k);
    }
}

static int header_ok(const hw_ni_rx_record_t *r, uint32_t bytes, uint32_t *index) {
    uint32_t w[3];
    memcpy(w, r->header, sizeof w);
    *index = w[0] & 0x00ffffffu;
    if ((w[0] & 0xff000000u) != HDR_MAGIC || w[1] != r->body_bytes || w[2] != ~*index ||
        r->hdr_bytes != bytes) {
        return 0;
    }
    for (uint32_t k = 12; k < bytes; ++k) {
        if (r->header[k] != pattern(*index ^ 0xffffu, k)) {
            return 0;
        }
    }
    return 1;
}

static void check_body(hal_t *h, exch_t *s, uint32_t i) {
    uint32_t size = body_size(s->a, i);
    const uint8_t *b = s->rx_bufs[i];
    uint32_t good = b != NULL;
    for (uint32_t k = 0; good && k < size; ++k) {
        good = b[k] == pattern(i, k);
    }
    if (good) {
        s->bodies_ok++;
    } else {
        s->bodies_bad++;
    }
    hal_mem_free(h, s->rx_bufs[i]);
    s->rx_bufs[i] = NULL;
    s->complete++;
}

static void completed_one(hal_t *h, exch_t *s) {
    if (s->complete == s->a->messages && !s->finished) {
        s->finished = 1;
        hal_sem_post(h, &s->all_received);
    }
}

/* Handles the oldest record; in_thread allows the answer delay. */
static void rx_record(hal_t *h, exch_t *s, const hw_ni_rx_record_t *r, int in_thread) {
    const fwt_ni_args_t *a = s->a;
    if (r->kind == HW_NI_REC_HEADER) {
        uint32_t i = 0;
        s->received++;
        if (header_ok(r, a->hdr_bytes, &i)) {
            s->headers_ok++;
        }
        if (i != s->next_index) {
            s->in_order = 0;
        }
        s->next_index = i + 1;
        if (i >= a->messages) {
            hal_fail(h, "message index out of range");
        }
        if (r->body_bytes == 0) {
            if (r->handle != HW_NI_NONE) {
                hal_fail(h, "a message without body has a handle");
            }
            s->complete++;
            return;
        }
        if (in_thread && a->answer_delay > 0) {
            hal_sleep_cycles(h, a->answer_delay);
        }
        uint32_t op = HW_NI_RX_ACCEPT_NOTIFY;
        if (a->rx_mode == FWT_RX_MIXED && i + 1 != a->messages) {
            op = i % 3u == 0u   ? HW_NI_RX_ACCEPT_NOTIFY
                 : i % 3u == 1u ? HW_NI_RX_ACCEPT
                                : HW_NI_RX_DISCARD;
        }
        if (op == HW_NI_RX_DISCARD) {
            /* DISCARD ignores RX_BODY_ADDR: point it at the canary to prove it. */
            ni_w(h, HW_NI_REG_RX_BODY_ADDR, hal_mem_addr(h, s->canary));
            s->discarded++;
            s->complete++;
        } else {
            s->rx_bufs[i] = hal_mem_alloc(h, r->body_bytes, 8);
            if (s->rx_bufs[i] == NULL) {
                hal_fail(h, "receiver out of memory");
            }
            ni_w(h, HW_NI_REG_RX_BODY_ADDR, hal_mem_addr(h, s->rx_bufs[i]));
            s->plain[i] = op == HW_NI_RX_ACCEPT;
        }
        ni_w(h, HW_NI_REG_RX_COOKIE, i);
        ni_w(h, HW_NI_REG_RX_CMD, HW_NI_RX_CMD(op, r->handle));
    } else if (r->kind == HW_NI_REC_DONE) {
        uint32_t i = r->cookie;
        /* Deposits complete in order: every plain ACCEPT before i is in memory too. */
        for (uint32_t j = 0; j < i; ++j) {
            if (s->plain[j]) {
                s->plain[j] = 0;
                check_body(h, s, j);
            }
        }
        check_body(h, s, i);
    } else {
        hal_fail(h, "unknown record kind");
    }
}

static void rx_drain(hal_t *h, exch_t *s, int in_thread) {
    while (ni_r(h, HW_NI_REG_RX_COUNT) > 0) {
        uint32_t slot = ni_r(h, HW_NI_REG_RX_INDEX);
        rx_record(h, s, &s->ring[slot], in_thread);
        ni_w(h, HW_NI_REG_RX_POP, 1);
    }
    completed_one(h, s);
}

static void rx_handler(hal_t *h, void *arg) {
    rx_drain(h, (exch_t *)arg, 0);
}

static void tx_handler(hal_t *h, void *arg) {
    exch_t *s = arg;
    for (;;) {
        uint32_t cookie = ni_r(h, HW_NI_REG_TX_DONE);
        if (cookie == HW_NI_NONE) {
            break;
        }
        hal_mem_free(h, s->bodies[cookie]);
        s->bodies[cookie] = NULL;
        if (++s->tx_done == s->a->messages) {
            hal_sem_post(h, &s->all_sent);
        }
    }
    if ((s->ctrl & HW_NI_CTRL_TX_SPACE_IRQ) && ni_r(h, HW_NI_REG_TX_FREE) > 0) {
        s->ctrl &= ~HW_NI_CTRL_TX_SPACE_IRQ;
        ni_w(h, HW_NI_REG_CTRL, s->ctrl);
        hal_sem_post(h, &s->space);
    }
}

static void exchange_send(hal_t *h, exch_t *s) {
    const fwt_ni_args_t *a = s->a;
    uint8_t *hdr = hal_mem_alloc(h, HW_NI_HDR_MAX_BYTES, 4);
    for (uint32_t i = 0; i < a->messages; ++i) {
        uint32_t size = body_size(a, i);
        uint8_t *body = NULL;
        if (size > 0) {
            body = hal_mem_alloc(h, size, 8);
            if (body == NULL) {
                hal_fail(h, "sender out of memory");
            }
            for (uint32_t k = 0; k < size; ++k) {
                body[k] = pattern(i, k);
            }
        }
        s->bodies[i] = body;
        fill_header(hdr, a->hdr_bytes, i, size);
        while (ni_r(h, HW_NI_REG_TX_FREE) == 0) {
            if (a->use_tx_irq) {
                s->ctrl |= HW_NI_CTRL_TX_SPACE_IRQ;
                ni_w(h, HW_NI_REG_CTRL, s->ctrl);
                hal_sem_wait(h, &s->space);
            } else {
                hal_sleep_cycles(h, 100);
            }
        }
        ni_push(h, a->receiver, hdr, a->hdr_bytes, body, size, i, HW_NI_TX_NOTIFY);
        if (!a->use_tx_irq) {
            tx_handler(h, s); /* polling: collect completions as we go */
        }
    }
    if (a->use_tx_irq) {
        hal_sem_wait(h, &s->all_sent);
    } else {
        while (s->tx_done < a->messages) {
            hal_sleep_cycles(h, 100);
            tx_handler(h, s);
        }
    }
    hal_export(h, "sent", a->messages);
    hal_export(h, "tx_done", s->tx_done);
    hal_export(h, "end", hal_now_cycles(h));
}

static void exchange_receive(hal_t *h, exch_t *s) {
    const fwt_ni_args_t *a = s->a;
    s->rx_bufs = hal_mem_alloc(h, a->messages * sizeof(uint8_t *), 8);
    s->plain = hal_mem_alloc(h, a->messages, 8);
    memset(s->rx_bufs, 0, a->messages * sizeof(uint8_t *));
    memset(s->plain, 0, a->messages);
    for (uint32_t k = 0; k < a->n_sizes; ++k) {
        if (a->body_sizes[k] > s->canary_bytes) {
            s->canary_bytes = a->body_sizes[k];
        }
    }
    s->canary = hal_mem_alloc(h, s->canary_bytes + 8, 8);
    memset(s->canary, 0, s->canary_bytes + 8);
    s->in_order = 1;
    if (a->poll_cycles == 0) {
        hal_irq_register(h, HW_IRQ_NI_RX, rx_handler, s);
        s->ring = ni_enable(h, a->ring_slots, HW_NI_CTRL_RX_IRQ);
        hal_sem_wait(h, &s->all_received);
    } else {
        s->ring = ni_enable(h, a->ring_slots, 0);
        while (!s->finished) {
            if (ni_r(h, HW_NI_REG_RX_COUNT) == 0) {
                hal_sleep_cycles(h, a->poll_cycles);
            } else {
                rx_drain(h, s, 1);
            }
        }
    }
    uint32_t clean = 1;
    for (uint32_t k = 0; k < s->canary_bytes + 8; ++k) {
        clean &= s->canary[k] == 0;
    }
    hal_export(h, "received", s->received);
    hal_export(h, "headers_ok", s->headers_ok);
    hal_export(h, "bodies_ok", s->bodies_ok);
    hal_export(h, "bodies_bad", s->bodies_bad);
    hal_export(h, "discarded", s->discarded);
    hal_export(h, "discarded_clean", clean);
    hal_export(h, "in_order", s->in_order);
    hal_export(h, "end", hal_now_cycles(h));
}

void fwt_ni_exchange_main(hal_t *h) {
    const fwt_ni_args_t *a = hal_context(h);
    exch_t *s = hal_mem_alloc(h, sizeof *s, 8);
    memset(s, 0, sizeof *s);
    s->a = a;
    hal_sem_init(h, &s->space, 0);
    hal_sem_init(h, &s->all_sent, 0);
    hal_sem_init(h, &s->all_received, 0);
    if (hal_node_id(h) == a->sender) {
        s->bodies = hal_mem_alloc(h, a->messages * sizeof(uint8_t *), 8);
        if (a->use_tx_irq) {
            hal_irq_register(h, HW_IRQ_NI_TX, tx_handler, s);
            s->ctrl = HW_NI_CTRL_TX_IRQ;
            ni_w(h, HW_NI_REG_CTRL, s->ctrl);
        }
        exchange_send(h, s);
    } else if (hal_node_id(h) == a->receiver) {
        exchange_receive(h, s);
    }
}

/* ---- timing of one message -------------------------------------------------------- */

typedef struct timing {
    hw_ni_rx_record_t *ring;
    uint8_t *rx_buf;
    hal_sem_t done;
    uint64_t rx_header_entry, t_cmd, rx_done_entry, tx_done_entry;
} timing_t;

static void timing_rx(hal_t *h, void *arg) {
    timing_t *t = arg;
    uint64_t entry = hal_now_cycles(h);
    while (ni_r(h, HW_NI_REG_RX_COUNT) > 0) {
        const hw_ni_rx_record_t *r = &t->ring[ni_r(h, HW_NI_REG_RX_INDEX)];
        if (r->kind == HW_NI_REC_HEADER) {
            t->rx_header_entry = entry;
            ni_w(h, HW_NI_REG_RX_BODY_ADDR, hal_mem_addr(h, t->rx_buf));
            ni_w(h, HW_NI_REG_RX_COOKIE, 1);
            ni_w(h, HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT_NOTIFY, r->handle));
            t->t_cmd = hal_now_cycles(h);
        } else {
            t->rx_done_entry = entry;
            hal_sem_post(h, &t->done);
        }
        ni_w(h, HW_NI_REG_RX_POP, 1);
    }
}

static void timing_tx(hal_t *h, void *arg) {
    timing_t *t = arg;
    t->tx_done_entry = hal_now_cycles(h);
    while (ni_r(h, HW_NI_REG_TX_DONE) != HW_NI_NONE) {
    }
    hal_sem_post(h, &t->done);
}

void fwt_ni_timing_main(hal_t *h) {
    const fwt_ni_args_t *a = hal_context(h);
    timing_t t;
    memset(&t, 0, sizeof t);
    hal_sem_init(h, &t.done, 0);
    uint32_t size = a->body_sizes[0];
    if (hal_node_id(h) == a->receiver) {
        t.rx_buf = hal_mem_alloc(h, size, 8);
        hal_irq_register(h, HW_IRQ_NI_RX, timing_rx, &t);
        t.ring = ni_enable(h, 4, HW_NI_CTRL_RX_IRQ);
        hal_sem_wait(h, &t.done);
        hal_export(h, "rx_header_entry", t.rx_header_entry);
        hal_export(h, "t_cmd", t.t_cmd);
        hal_export(h, "rx_done_entry", t.rx_done_entry);
        uint32_t good = 1;
        for (uint32_t k = 0; k < size; ++k) {
            good &= t.rx_buf[k] == pattern(7, k);
        }
        hal_export(h, "body_ok", good);
    } else if (hal_node_id(h) == a->sender) {
        uint8_t *hdr = hal_mem_alloc(h, HW_NI_HDR_MAX_BYTES, 4);
        uint8_t *body = hal_mem_alloc(h, size, 8);
        fill_header(hdr, HW_NI_HDR_MAX_BYTES, 7, size);
        for (uint32_t k = 0; k < size; ++k) {
            body[k] = pattern(7, k);
        }
        hal_irq_register(h, HW_IRQ_NI_TX, timing_tx, &t);
        ni_w(h, HW_NI_REG_CTRL, HW_NI_CTRL_TX_IRQ);
        hal_sleep_cycles(h, 1000); /* the receiver is set up and idle */
        ni_push(h, a->receiver, hdr, HW_NI_HDR_MAX_BYTES, body, size, 1, HW_NI_TX_NOTIFY);
        uint64_t t_push = hal_now_cycles(h);
        hal_sem_wait(h, &t.done);
        hal_export(h, "t_push", t_push);
        hal_export(h, "tx_done_entry", t.tx_done_entry);
    }
}

/* ---- programming errors ------------------------------------------------------------ */

typedef struct err_state {
    hw_ni_rx_record_t *ring;
} err_state_t;

static void err_rx_bad_addr(hal_t *h, void *arg) {
    err_state_t *e = arg;
    const hw_ni_rx_record_t *r = &e->ring[ni_r(h, HW_NI_REG_RX_INDEX)];
    ni_w(h, HW_NI_REG_RX_BODY_ADDR, 0xeffff000u);
    ni_w(h, HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT, r->handle));
}

void fwt_ni_error_main(hal_t *h) {
    uint32_t scenario = *(const uint32_t *)hal_context(h);
    uint32_t mem_bytes = (uint32_t)hal_config_int(h, "machine.node_memory_kb") * 1024u;
    uint8_t *buf = hal_mem_alloc(h, 65536, 8);
    if (hal_node_id(h) == 1) {
        if (scenario == FWT_NIERR_RX_ADDR) {
            hal_sleep_cycles(h, 1000);
            ni_push(h, 0, NULL, 0, buf, 100, 0, 0);
            hal_sleep_cycles(h, 100000);
        }
        return;
    }
    err_state_t e = {NULL};
    hw_ni_rx_record_t *ring = hal_mem_alloc(h, 8 * HW_NI_RX_RECORD_BYTES, HW_NI_RX_RECORD_BYTES);
    uint32_t ring_addr = hal_mem_addr(h, ring);
    switch (scenario) {
    case FWT_NIERR_TX_BODY_ADDR:
        ni_w(h, HW_NI_REG_TX_DEST, 1);
        ni_w(h, HW_NI_REG_TX_HDR_BYTES, 0);
        ni_w(h, HW_NI_REG_TX_BODY_ADDR, mem_bytes - 16u);
        ni_w(h, HW_NI_REG_TX_BODY_BYTES, 64);
        ni_w(h, HW_NI_REG_TX_PUSH, 0);
        break;
    case FWT_NIERR_TX_HDR_ADDR:
        ni_w(h, HW_NI_REG_TX_DEST, 1);
        ni_w(h, HW_NI_REG_TX_HDR_ADDR, 0xe0000000u);
        ni_w(h, HW_NI_REG_TX_HDR_BYTES, 16);
        ni_w(h, HW_NI_REG_TX_PUSH, 0);
        break;
    case FWT_NIERR_TX_HDR_MISALIGNED:
        ni_push(h, 1, buf, 6, NULL, 0, 0, 0);
        break;
    case FWT_NIERR_TX_BODY_TOO_LARGE:
        ni_push(h, 1, NULL, 0, buf, HW_NI_MAX_BODY_BYTES + 1u, 0, 0);
        break;
    case FWT_NIERR_TX_EMPTY:
        ni_push(h, 1, NULL, 0, NULL, 0, 0, 0);
        break;
    case FWT_NIERR_TX_DEST:
        ni_push(h, 99, buf, 16, NULL, 0, 0, 0);
        break;
    case FWT_NIERR_TX_OVERFLOW:
        for (int i = 0; i < 64; ++i) {
            ni_push(h, 1, NULL, 0, buf, 65536, 0, 0);
        }
        break;
    case FWT_NIERR_RING_SLOTS:
        ni_w(h, HW_NI_REG_RX_RING_BASE, ring_addr);
        ni_w(h, HW_NI_REG_RX_RING_SLOTS, 3);
        ni_w(h, HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE);
        break;
    case FWT_NIERR_RING_ALIGN:
        ni_w(h, HW_NI_REG_RX_RING_BASE, ring_addr + 64u);
        ni_w(h, HW_NI_REG_RX_RING_SLOTS, 4);
        ni_w(h, HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE);
        break;
    case FWT_NIERR_RING_OUTSIDE:
        ni_w(h, HW_NI_REG_RX_RING_BASE, mem_bytes - 2u * HW_NI_RX_RECORD_BYTES);
        ni_w(h, HW_NI_REG_RX_RING_SLOTS, 4);
        ni_w(h, HW_NI_REG_CTRL, HW_NI_CTRL_ENABLE);
        break;
    case FWT_NIERR_RING_CHANGED:
        ni_enable(h, 4, 0);
        ni_w(h, HW_NI_REG_RX_RING_BASE, ring_addr);
        break;
    case FWT_NIERR_RX_HANDLE:
        ni_enable(h, 4, 0);
        ni_w(h, HW_NI_REG_RX_CMD, HW_NI_RX_CMD(HW_NI_RX_ACCEPT, 5));
        break;
    case FWT_NIERR_RX_CMD:
        ni_enable(h, 4, 0);
        ni_w(h, HW_NI_REG_RX_CMD, HW_NI_RX_CMD(7, 0));
        break;
    case FWT_NIERR_RX_ADDR:
        hal_irq_register(h, HW_IRQ_NI_RX, err_rx_bad_addr, &e);
        e.ring = ni_enable(h, 4, HW_NI_CTRL_RX_IRQ);
        hal_sleep_cycles(h, 100000);
        break;
    case FWT_NIERR_RX_POP:
        ni_enable(h, 4, 0);
        ni_w(h, HW_NI_REG_RX_POP, 1);
        break;
    case FWT_NIERR_REG_UNDEFINED:
        (void)ni_r(h, 0x100u);
        break;
    case FWT_NIERR_REG_READ_ONLY:
        ni_w(h, HW_NI_REG_ID, 0);
        break;
    default:
        break;
    }
    hal_export(h, "continued", 1);
}
