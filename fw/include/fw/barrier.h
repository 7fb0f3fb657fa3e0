/* The state machine of a dissemination barrier over n members, without any I/O,
 * so it can be tested on its own (the messaging layer, fw/msg.h, sends and
 * receives its messages).
 *
 * Members are numbered 0..n-1 (the same numbering on every member). An episode
 * has ceil(log2 n) rounds; in round r member i sends one message to member
 * (i + 2^r) mod n and waits for the one from member (i - 2^r) mod n. A member
 * completes the episode when it has received the message of its last round, which
 * happens only after every member has entered the episode. Messages may arrive
 * before the member enters the episode or reaches their round, and at most one
 * episode ahead, so arrivals are counted per (episode parity, round).
 */
#ifndef STARFISH_FW_BARRIER_H
#define STARFISH_FW_BARRIER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FW_BARRIER_MAX_ROUNDS 32u

typedef struct fw_barrier_sm {
    uint32_t n;      /* members; 0 until configured (arrivals are still counted) */
    uint32_t self;   /* this member's index */
    uint32_t rounds; /* ceil(log2 n) */
    uint32_t epoch;  /* the episode being run, or the next one when idle */
    uint32_t round;  /* the round in progress while active */
    bool active;     /* inside an episode */
    bool sent;       /* this round's message has been sent */
    uint16_t arrived[2][FW_BARRIER_MAX_ROUNDS]; /* [epoch & 1][round] */
} fw_barrier_sm_t;

/* What the caller must do after a step. */
typedef struct fw_barrier_out {
    uint32_t sends;                     /* messages to send, in order */
    uint32_t to[FW_BARRIER_MAX_ROUNDS]; /* destination member index */
    uint32_t round[FW_BARRIER_MAX_ROUNDS];
    uint32_t epoch;    /* episode the sends belong to */
    bool complete;     /* this member has finished the episode */
    const char *error; /* non-NULL: a message that cannot happen in a correct run */
} fw_barrier_out_t;

/* Zeroes the state (no members yet). */
void fw_barrier_sm_reset(fw_barrier_sm_t *s);
/* Sets the membership; keeps arrivals counted so far. Returns an error text or NULL. */
const char *fw_barrier_sm_configure(fw_barrier_sm_t *s, uint32_t n, uint32_t self);
/* The member enters the next episode. */
void fw_barrier_sm_enter(fw_barrier_sm_t *s, fw_barrier_out_t *out);
/* A message of (epoch, round) arrived. */
void fw_barrier_sm_receive(fw_barrier_sm_t *s, uint32_t epoch, uint32_t round,
                           fw_barrier_out_t *out);
/* The member that sends to this one in a round. */
uint32_t fw_barrier_sm_sender(const fw_barrier_sm_t *s, uint32_t round);
uint32_t fw_barrier_sm_rounds(uint32_t n);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_BARRIER_H */
