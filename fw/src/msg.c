/* Messaging core: set-up, the system-type registry and small helpers. The parts:
 * msg_pools.c (reply actions, receive records, request buffers), msg_group.c
 * (completion groups), msg_send.c (Memput/Memget, requests, replies, multicast),
 * msg_receive.c (the NI driver's callbacks), msg_server.c (services and their
 * threads); msg_stack.c adds the system types. See fw/include/fw/msg.h and
 * docs/messaging.md. */
#include "msg_core.h"

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

/* ---- transaction log -------------------------------------------------------------------- */

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
}

fw_msg_t *fw_msg_core_init(hal_t *h) {
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
    fw_ni_config_t *ncfg = &m->ni_config;
    ncfg->rx_ring_slots = (uint32_t)hal_config_int(h, FW_KEY_MSG_RX_RING_SLOTS);
    ncfg->send_queue_entries = (uint32_t)hal_config_int(h, FW_KEY_MSG_SEND_QUEUE_ENTRIES);
    ncfg->rx_record_cycles = m->c.rx_record;
    ncfg->queue_insert_cycles = m->c.queue_insert;

    hal_sem_init(h, &m->srv_sem, 0);
    hal_sem_name(h, &m->srv_sem, "msg server: incoming requests", 1);
    hal_report_register(h, fw_msg_report, m);
    for (uint32_t i = 0; i < reply_actions; ++i) {
        fw_ra_t *ra = fw_ra_new(m);
        if (ra == NULL) {
            return NULL;
        }
        fw_ra_put(m, ra);
    }
    for (uint32_t i = 0; i < ncfg->rx_ring_slots; ++i) {
        fw_pending_t *p = fw_pending_new(m);
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
        fw_reqbuf_put(m, b, 1);
    }
    return m;
}

bool fw_msg_core_start(fw_msg_t *m) {
    fw_ni_ops_t ops = {fw_msg_on_header, fw_msg_on_done, fw_msg_on_sent, m};
    m->ni = fw_ni_init(m->h, &m->ni_config, &ops);
    return m->ni != NULL;
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

/* ---- system types -------------------------------------------------------------------------- */

static fw_type_entry_t *system_entry(const fw_msg_t *m, unsigned type) {
    const fw_type_entry_t *e = type <= FW_MSG_TYPE_MAX ? &m->types[type] : NULL;
    if (e == NULL || e->kind != FW_TYPE_SYSTEM) {
        fw_msg_failf((fw_msg_t *)m, "messaging: message type %u is not a registered system type",
                     type);
    }
    return (fw_type_entry_t *)e;
}

void fw_msg_register_system(fw_msg_t *m, unsigned type, const fw_msg_system_ops_t *ops, void *state,
                            uint32_t rx_cycles) {
    if (type <= FW_MSG_REPLY || type >= FW_MSG_TYPE_USER) {
        fw_msg_failf(m, "messaging: system message types are %u..%u, not %u", FW_MSG_REPLY + 1,
                     FW_MSG_TYPE_USER - 1, type);
    }
    if (m->types[type].kind != FW_TYPE_NONE) {
        fw_msg_failf(m, "messaging: message type %u registered twice", type);
    }
    if (ops == NULL || ops->on_header == NULL) {
        fw_msg_failf(m, "messaging: system message type %u has no header hook", type);
    }
    m->types[type].kind = FW_TYPE_SYSTEM;
    m->types[type].ops = ops;
    m->types[type].arg = state;
    m->types[type].rx_cycles = rx_cycles;
}

void *fw_msg_system_state(const fw_msg_t *m, unsigned type) {
    return system_entry(m, type)->arg;
}

void fw_msg_set_system_state(fw_msg_t *m, unsigned type, void *state) {
    system_entry(m, type)->arg = state;
}

uint32_t fw_msg_system_rx_cycles(const fw_msg_t *m, unsigned type) {
    return system_entry(m, type)->rx_cycles;
}

void fw_msg_add_wait_hook(fw_msg_t *m, fw_msg_wait_hook_fn fn, void *state) {
    if (m->n_wait_hooks == FW_MSG_WAIT_HOOKS) {
        fw_msg_failf(m, "messaging: more than %u wait hooks", FW_MSG_WAIT_HOOKS);
    }
    m->wait_hooks[m->n_wait_hooks].fn = fn;
    m->wait_hooks[m->n_wait_hooks].state = state;
    m->n_wait_hooks++;
}
