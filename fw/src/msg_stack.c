/* The messaging library as a node uses it: the core (msg.c) with the services
 * built on it as system message types, attached before the NI starts so no message
 * can arrive for a type not yet registered. */
#include "msg_stack.h"
#include "msg_core.h"

fw_msg_t *fw_msg_init(hal_t *h) {
    fw_msg_t *m = fw_msg_core_init(h);
    if (m == NULL || !fw_msg_queued_attach(m)) {
        return NULL;
    }
    fw_msg_barrier_attach(m);
    return fw_msg_core_start(m) ? m : NULL;
}
