/* Dissemination-barrier state machine: see fw/include/fw/barrier.h. */
#include "fw/barrier.h"

#include <string.h>

uint32_t fw_barrier_sm_rounds(uint32_t n) {
    uint32_t r = 0;
    while (r < FW_BARRIER_MAX_ROUNDS && (1ull << r) < n) {
        ++r;
    }
    return r;
}

void fw_barrier_sm_reset(fw_barrier_sm_t *s) {
    memset(s, 0, sizeof *s);
}

const char *fw_barrier_sm_configure(fw_barrier_sm_t *s, uint32_t n, uint32_t self) {
    if (n == 0 || self >= n) {
        return "barrier: member index outside the member list";
    }
    if (s->n != 0) {
        return "barrier: configured twice";
    }
    uint32_t rounds = fw_barrier_sm_rounds(n);
    for (uint32_t p = 0; p < 2; ++p) {
        for (uint32_t r = rounds; r < FW_BARRIER_MAX_ROUNDS; ++r) {
            if (s->arrived[p][r] != 0) {
                return "barrier: a message arrived for a round beyond the member count";
            }
        }
    }
    s->n = n;
    s->self = self;
    s->rounds = rounds;
    return NULL;
}

uint32_t fw_barrier_sm_sender(const fw_barrier_sm_t *s, uint32_t round) {
    uint32_t step = (uint32_t)((1ull << round) % s->n);
    return (s->self + s->n - step) % s->n;
}

static void out_clear(fw_barrier_out_t *out, uint32_t epoch) {
    out->sends = 0;
    out->epoch = epoch;
    out->complete = false;
    out->error = NULL;
}

/* Sends this round's message if not yet sent, and moves through every round whose
 * message is already here. */
static void advance(fw_barrier_sm_t *s, fw_barrier_out_t *out) {
    while (s->active) {
        if (s->round == s->rounds) {
            s->active = false;
            s->epoch++;
            out->complete = true;
            return;
        }
        if (!s->sent) {
            uint32_t step = (uint32_t)((1ull << s->round) % s->n);
            out->to[out->sends] = (s->self + step) % s->n;
            out->round[out->sends] = s->round;
            out->sends++;
            s->sent = true;
        }
        uint16_t *count = &s->arrived[s->epoch & 1u][s->round];
        if (*count == 0) {
            return;
        }
        --*count;
        s->round++;
        s->sent = false;
    }
}

void fw_barrier_sm_enter(fw_barrier_sm_t *s, fw_barrier_out_t *out) {
    out_clear(out, s->epoch);
    if (s->n == 0) {
        out->error = "barrier: entered before its members were set";
        return;
    }
    if (s->active) {
        out->error = "barrier: entered while already inside an episode";
        return;
    }
    s->active = true;
    s->round = 0;
    s->sent = false;
    advance(s, out);
}

void fw_barrier_sm_receive(fw_barrier_sm_t *s, uint32_t epoch, uint32_t round,
                           fw_barrier_out_t *out) {
    out_clear(out, s->epoch);
    uint32_t ahead = epoch - s->epoch; /* wraps safely */
    if (ahead > 1) {
        out->error = "barrier: message from an episode that cannot have started";
        return;
    }
    if (round >= FW_BARRIER_MAX_ROUNDS || (s->n != 0 && round >= s->rounds)) {
        out->error = "barrier: message for a round beyond the member count";
        return;
    }
    if (ahead == 0 && s->active && round < s->round) {
        out->error = "barrier: duplicate message for a finished round";
        return;
    }
    uint16_t *count = &s->arrived[epoch & 1u][round];
    if (*count != 0) {
        out->error = "barrier: duplicate message for a round";
        return;
    }
    ++*count;
    if (ahead == 0 && s->active) {
        advance(s, out);
    }
}
