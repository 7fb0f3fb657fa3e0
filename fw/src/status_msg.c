#include "fw/status_msg.h"

#include <stdarg.h>
#include <stdio.h>

int fw_status_msg(char *msg, size_t msg_size, int code, const char *fmt, ...) {
    if (msg != NULL && msg_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msg_size, fmt, ap);
        va_end(ap);
    }
    return code;
}
