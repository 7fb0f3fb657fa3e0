/* Completion groups: a count of outstanding operations one thread waits for. A
 * wait first runs the services' wait hooks, so a batch still being filled is sent
 * before anyone waits for it. */
#include "msg_core.h"

#include <string.h>

void fw_group_init(fw_msg_t *m, fw_group_t *g) {
    memset(g, 0, sizeof *g);
    hal_sem_init(m->h, &g->sem, 0);
}

void fw_group_add(fw_group_t *g, uint32_t count) {
    if (g != NULL) {
        g->outstanding += count;
    }
}

void fw_group_done(fw_msg_t *m, fw_group_t *g, uint32_t count, int32_t status) {
    if (g == NULL || count == 0) {
        return;
    }
    if (count > g->outstanding) {
        fw_msg_failf(m, "messaging: completion group counts %u operations done of %u outstanding",
                     count, g->outstanding);
    }
    g->outstanding -= count;
    if (status != FW_MSG_OK) {
        if (g->errors == 0) {
            g->first_error = status;
        }
        g->errors += count;
    }
    if (g->waiting && g->outstanding < g->waiting) {
        g->waiting = 0;
        hal_sem_post(m->h, &g->sem);
    }
}

int fw_group_wait_at_most(fw_msg_t *m, fw_group_t *g, uint32_t limit) {
    for (uint32_t i = 0; i < m->n_wait_hooks; ++i) {
        m->wait_hooks[i].fn(m, m->wait_hooks[i].state);
    }
    while (g->outstanding > limit) {
        g->waiting = limit + 1;
        hal_sem_wait(m->h, &g->sem);
    }
    return g->errors ? g->first_error : FW_MSG_OK;
}

int fw_group_wait(fw_msg_t *m, fw_group_t *g) {
    return fw_group_wait_at_most(m, g, 0);
}
