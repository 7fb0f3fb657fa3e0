/* A system message type made only for the tests (tests/fw/test_msg.cpp): ECHO. A
 * request carries a body; the receiver takes it through the core's body hook and
 * answers with the bytes reversed; the requester's reply hooks deposit the answer.
 * It plugs into the messaging core through the registry alone, as queued batches
 * and barriers do, and counts every hook call. */
#ifndef STARFISH_TESTS_FW_MSG_SYSTEM_PROBE_H
#define STARFISH_TESTS_FW_MSG_SYSTEM_PROBE_H

#include "fw/msg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PROBE_ECHO_TYPE 9u
#define PROBE_ECHO_MAX 8192u

typedef struct probe_counts {
    unsigned headers, bodies, replies, reply_dones;
} probe_counts_t;

/* fw_msg_init with ECHO registered (as type `type`) before the NI starts; counts
 * go to *counts. */
fw_msg_t *probe_msg_init(hal_t *h, unsigned type, probe_counts_t *counts);
/* thread: sends `bytes` (at most PROBE_ECHO_MAX) to `node` and waits for the echo
 * in reply_buf (node memory). Returns the reply's status. */
int probe_echo(fw_msg_t *m, unsigned node, const void *body, uint32_t bytes, void *reply_buf);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_TESTS_FW_MSG_SYSTEM_PROBE_H */
