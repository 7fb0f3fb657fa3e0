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

/* Collective file transfer (workload.kind = transfer, docs/transfer.md): every CP
 * allocates its part of the matrix (filled with the file's contents for writes),
 * registers it as its Memput/Memget base; all nodes meet at an untimed barrier;
 * then CP 0 times barrier, collective request through fs.kind, barrier, and exports
 * "transfer.t_start_cycles", "transfer.t_end_cycles" and "transfer.status"; every
 * CP exports "transfer.buffer_addr" and "transfer.buffer_bytes". */
void fw_transfer_cp_main(hal_t *h);
void fw_transfer_iop_main(hal_t *h);

/* Out-of-core LU decomposition (workload.kind = lu, docs/lu.md): the matrix file is on
 * the disks before the run; the CPs decompose it in place through fs.kind (spfs or
 * ddio). Every CP exports "lu.compute_cycles", "lu.io_cycles", "lu.comm_cycles",
 * "lu.flops" and "lu.status"; CP 0 also "lu.t_start_cycles" and "lu.t_end_cycles". */
void fw_lu_cp_main(hal_t *h);
void fw_lu_iop_main(hal_t *h);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_APPS_H */
