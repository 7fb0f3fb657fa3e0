/* Barriers over messages among any subset of nodes: the dissemination state
 * machine of fw/barrier.h driven by BARRIER messages, a system message type of the
 * messaging core (its state: the list of this node's barriers). */
#include "msg_core.h"
#include "msg_stack.h"

#include "fw/barrier.h"
#include "fw/param_keys.h"

#include <stdio.h>
#include <string.h>

struct fw_msg_barrier {
    uint32_t id;
    bool created;
    unsigned *members; /* sorted node ids */
    fw_barrier_sm_t sm;
    hal_sem_t sem;
    struct fw_msg_barrier *next;
};

static struct fw_msg_barrier *first_barrier(const fw_msg_t *m) {
    return (struct fw_msg_barrier *)fw_msg_system_state(m, FW_MSG_BARRIER);
}

static struct fw_msg_barrier *find_barrier(fw_msg_t *m, uint32_t id) {
    for (struct fw_msg_barrier *b = first_barrier(m); b != NULL; b = b->next) {
        if (b->id == id) {
            return b;
        }
    }
    struct fw_msg_barrier *b =
        (struct fw_msg_barrier *)fw_msg_alloc(m, sizeof(struct fw_msg_barrier), "a barrier");
    if (b == NULL) {
        return NULL;
    }
    memset(b, 0, sizeof *b);
    b->id = id;
    fw_barrier_sm_reset(&b->sm);
    hal_sem_init(m->h, &b->sem, 0);
    hal_sem_name(m->h, &b->sem, "msg barrier: the other members' arrivals", 0);
    b->next = first_barrier(m);
    fw_msg_set_system_state(m, FW_MSG_BARRIER, b);
    return b;
}

static void act(fw_msg_t *m, struct fw_msg_barrier *b, const fw_barrier_out_t *out) {
    if (out->error != NULL) {
        fw_msg_failf(m, "messaging: barrier %u: %s", b->id, out->error);
    }
    for (uint32_t i = 0; i < out->sends; ++i) {
        fw_msg_hdr_t hdr;
        memset(&hdr, 0, sizeof hdr);
        hdr.type = FW_MSG_BARRIER;
        hdr.offset = out->epoch;
        hdr.length = out->round[i];
        hdr.arg[0] = b->id;
        m->stats.barrier_messages++;
        fw_msg_send_hdr(m, b->members[out->to[i]], &hdr, NULL, 0, NULL);
    }
    if (out->complete) {
        hal_sem_post(m->h, &b->sem);
    }
}

fw_msg_barrier_t *fw_msg_barrier_create(fw_msg_t *m, uint32_t id, const unsigned *nodes,
                                        unsigned n) {
    struct fw_msg_barrier *b = find_barrier(m, id);
    if (b == NULL) {
        return NULL;
    }
    if (b->created) {
        fw_msg_failf(m, "messaging: barrier %u created twice", id);
    }
    b->members = (unsigned *)fw_msg_alloc(m, n * (uint32_t)sizeof(unsigned), "barrier members");
    if (b->members == NULL) {
        return NULL;
    }
    /* Every member must number the members the same way: sort them. */
    for (unsigned i = 0; i < n; ++i) {
        unsigned v = nodes[i];
        unsigned j = i;
        while (j > 0 && b->members[j - 1] > v) {
            b->members[j] = b->members[j - 1];
            --j;
        }
        b->members[j] = v;
    }
    unsigned self = n;
    for (unsigned i = 0; i < n; ++i) {
        if (b->members[i] >= m->nodes || (i > 0 && b->members[i] == b->members[i - 1])) {
            fw_msg_failf(m, "messaging: barrier %u: member list has node %u twice or out of range",
                         id, b->members[i]);
        }
        if (b->members[i] == m->self) {
            self = i;
        }
    }
    if (self == n) {
        fw_msg_failf(m, "messaging: barrier %u: this node is not among its %u members", id, n);
    }
    const char *err = fw_barrier_sm_configure(&b->sm, n, self);
    if (err != NULL) {
        fw_msg_failf(m, "messaging: barrier %u: %s", id, err);
    }
    b->created = true;
    return b;
}

void fw_msg_barrier_wait(fw_msg_t *m, fw_msg_barrier_t *b) {
    hal_cycles(m->h, fw_msg_system_rx_cycles(m, FW_MSG_BARRIER)); /* cost.msg_barrier_step_cycles */
    fw_barrier_out_t out;
    fw_barrier_sm_enter(&b->sm, &out);
    act(m, b, &out);
    /* Completion (here or in the receive handler) posts exactly once. */
    hal_sem_wait(m->h, &b->sem);
}

/* The core has charged cost.msg_barrier_step_cycles (the type's rx_cycles). */
static void rx_step(fw_msg_t *m, void *state, unsigned src, const fw_msg_hdr_t *hdr, uint32_t bytes,
                    fw_ni_answer_t *ans) {
    (void)state;
    (void)bytes;
    (void)ans;
    struct fw_msg_barrier *b = find_barrier(m, hdr->arg[0]);
    if (b == NULL) {
        return;
    }
    if (b->created && hdr->length < b->sm.rounds) {
        unsigned expected = b->members[fw_barrier_sm_sender(&b->sm, hdr->length)];
        if (expected != src) {
            fw_msg_failf(m, "messaging: barrier %u round %u message from node %u, expected node %u",
                         b->id, hdr->length, src, expected);
        }
    }
    fw_barrier_out_t out;
    fw_barrier_sm_receive(&b->sm, hdr->offset, hdr->length, &out);
    act(m, b, &out);
}

static void report(hal_t *h, void *arg) {
    const fw_msg_t *m = (const fw_msg_t *)arg;
    char line[200];
    for (const struct fw_msg_barrier *b = first_barrier(m); b != NULL; b = b->next) {
        if (b->sm.active) {
            snprintf(line, sizeof line,
                     "msg: barrier %u of %u members in episode %u, round %u of %u", (unsigned)b->id,
                     (unsigned)b->sm.n, (unsigned)b->sm.epoch, (unsigned)b->sm.round,
                     (unsigned)b->sm.rounds);
            hal_report_line(h, line);
        }
    }
}

static const fw_msg_system_ops_t barrier_ops = {rx_step, NULL, NULL, NULL};

void fw_msg_barrier_attach(fw_msg_t *m) {
    uint32_t step = (uint32_t)hal_config_int(m->h, FW_KEY_COST_BARRIER_STEP);
    fw_msg_register_system(m, FW_MSG_BARRIER, &barrier_ops, NULL, step);
    hal_report_register(m->h, report, m);
}
