/* The services built on the messaging core as system message types, and what
 * attaches them (msg_stack.c calls these between the core's set-up and the NI's
 * start). Not a public API. */
#ifndef STARFISH_FW_MSG_STACK_H
#define STARFISH_FW_MSG_STACK_H

#include "fw/msg.h"

#include <stdbool.h>

/* Queued (batched) Memput/Memget: types FW_MSG_QPUT and FW_MSG_QGET (msg_queued.c).
 * Returns false when node memory ran out. */
bool fw_msg_queued_attach(fw_msg_t *m);
/* Barriers over any subset of nodes: type FW_MSG_BARRIER (msg_barrier.c). */
void fw_msg_barrier_attach(fw_msg_t *m);

#endif /* STARFISH_FW_MSG_STACK_H */
