/* Firmware programs that the machine starts on each node, one entry per role.
 * Each runs as the node's first firmware thread and returns when it is done. */
#ifndef STARFISH_FW_APPS_H
#define STARFISH_FW_APPS_H

#include "fw/hal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Communication self-test (workload.kind = commtest, docs/messaging.md): ping-pong
 * between node pairs, Memput/Memget size sweeps, a request/reply echo, barrier
 * timing, random small queued Memputs and Memgets among all nodes. Every byte is
 * checked; results go out through hal_export ("commtest.*"), with
 * "commtest.verified" = 1 on node 0 only if every node saw every message intact. */
void fw_commtest_cp_main(hal_t *h);
void fw_commtest_iop_main(hal_t *h);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_APPS_H */
