/* The firmware libraries' pure validators return a status code and, when the
 * caller gives a buffer, a message saying why (naming the parameter). */
#ifndef STARFISH_FW_STATUS_MSG_H
#define STARFISH_FW_STATUS_MSG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Formats the message into msg (when msg is non-NULL and msg_size > 0) and returns
 * code, so a validator can `return fw_status_msg(msg, size, CODE, "...", ...);`. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int fw_status_msg(char *msg, size_t msg_size, int code, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_STATUS_MSG_H */
