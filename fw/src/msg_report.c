/* The messaging core's part of a watchdog report (hal_report_register,
 * docs/watchdog.md): reply actions in use (requests and transfers waiting for an
 * answer) and received requests waiting for a server thread. It reads state only.
 * Queued batches and barriers report their own lines (msg_queued.c, msg_barrier.c). */
#include "fw/param_keys.h"
#include "msg_core.h"

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
}
