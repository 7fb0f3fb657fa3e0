/* The messaging layer's part of a watchdog report (hal_report_register,
 * docs/watchdog.md): reply actions in use (requests and transfers waiting for an
 * answer), received requests waiting for a server thread, queued batches, and
 * barriers in an episode. It reads state only. */
#include "fw/param_keys.h"
#include "msg_internal.h"

#include <stdio.h>

void fw_msg_report(hal_t *h, void *arg) {
    const fw_msg_t *m = (const fw_msg_t *)arg;
    char line[200];
    uint64_t free_ras = 0, waiting_requests = 0;
    for (const fw_ra_t *ra = m->ra_free; ra != NULL; ra = ra->next) {
        ++free_ras;
    }
    for (const fw_pending_t *p = m->srv_head; p != NULL; p = p->next) {
        ++waiting_requests;
    }
    /* The pool starts with msg.reply_actions and grows when it runs dry, so the free
     * count against the start shows how many requests await their answer. */
    uint64_t start = (uint64_t)hal_config_int(h, FW_KEY_MSG_REPLY_ACTIONS);
    if (free_ras != start || waiting_requests > 0 || m->stats.pool_growths > 0) {
        snprintf(line, sizeof line,
                 "msg: %llu reply actions free of %llu at start (the others await an answer to a "
                 "request, Memput or Memget), %llu received requests waiting for a server thread",
                 (unsigned long long)free_ras, (unsigned long long)start,
                 (unsigned long long)waiting_requests);
        hal_report_line(h, line);
    }
    if (m->q_unsent > 0 || m->q_inflight > 0) {
        snprintf(line, sizeof line, "msg: queued batches: %u with unsent pieces, %u in flight",
                 m->q_unsent, m->q_inflight);
        hal_report_line(h, line);
    }
    for (const struct fw_msg_barrier *b = m->barriers; b != NULL; b = b->next) {
        if (b->sm.active) {
            snprintf(line, sizeof line,
                     "msg: barrier %u of %u members in episode %u, round %u of %u", (unsigned)b->id,
                     (unsigned)b->sm.n, (unsigned)b->sm.epoch, (unsigned)b->sm.round,
                     (unsigned)b->sm.rounds);
            hal_report_line(h, line);
        }
    }
}
