/* Communication self-test program: see fw/include/fw/apps.h and docs/messaging.md. */
#include "fw/apps.h"

#include "fw/msg.h"
#include "fw/param_keys.h"
#include "hw/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CT_PING (FW_MSG_TYPE_USER + 0)
#define CT_ECHO (FW_MSG_TYPE_USER + 1)
/* sizes in commtest.sweep_words; the registry enforces the same limit */
#define CT_MAX_SWEEP FW_COMMTEST_MAX_SWEEP_SIZES
#define CT_MAX_PAIRS 64u    /* pairs in commtest.pingpong_pairs */
#define CT_GET_CHUNK 16384u /* queued-Memget destination buffer, verified when full */
#define CT_GET_LIST 1024u   /* queued Memgets outstanding before a check */

typedef struct ct_get {
    uint32_t peer, off, len, at;
} ct_get_t;

typedef struct commtest {
    hal_t *h;
    fw_msg_t *m;
    unsigned self, nodes;
    uint64_t seed;
    /* parameters */
    uint32_t ping_iters, sweep_iters, sweep_n, echo_words, barrier_iters, settle;
    uint32_t sweep_words[CT_MAX_SWEEP];
    uint64_t queued_puts, queued_gets;
    uint32_t max_piece, slice;
    /* the registered base: sweep area, queued slices (one per source), verdicts */
    uint8_t *buf;
    uint32_t buf_bytes, q_off, verdict_off;
    uint8_t *shadow;  /* what this node wrote into its slice at each peer */
    uint8_t *scratch; /* one slice, for replaying another node's puts */
    uint8_t *piece;   /* one piece */
    uint32_t ok_word; /* Memput to node 0 at the end */
    fw_msg_barrier_t *all;
    uint64_t errors;
} commtest_t;

_Noreturn static void ct_fail(commtest_t *c, const char *what, const char *text) {
    char msg[240];
    snprintf(msg, sizeof msg, "commtest: %s \"%s\"", what, text); /* hal_fail adds the node */
    hal_fail(c->h, msg);
}

/* Exports commtest.<name> where name is fmt with up to two numbers. */
static void ct_export(commtest_t *c, const char *fmt, unsigned a, unsigned b, uint64_t value) {
    char name[96];
    int n = snprintf(name, sizeof name, "commtest.");
    if (strstr(fmt, "%u") == NULL) {
        snprintf(name + n, sizeof name - (size_t)n, "%s", fmt);
    } else if (strstr(strstr(fmt, "%u") + 2, "%u") == NULL) {
        snprintf(name + n, sizeof name - (size_t)n, fmt, a);
    } else {
        snprintf(name + n, sizeof name - (size_t)n, fmt, a, b);
    }
    hal_export(c->h, name, value);
}

/* The byte k of piece i from node src: any node can recompute it. */
static uint8_t content(unsigned src, uint64_t i, uint32_t k) {
    uint64_t x = ((uint64_t)src << 48) ^ (i << 12) ^ k;
    return (uint8_t)(hw_splitmix64(&x) >> 29);
}

static uint8_t sweep_byte(uint32_t words, uint32_t iter, uint32_t k) {
    return (uint8_t)(content(words, iter, k) ^ 0x5a);
}

/* Parses "1,50,100" into c->sweep_words. */
static void parse_sweep(commtest_t *c, const char *text) {
    const char *p = text;
    c->sweep_n = 0;
    while (*p != '\0') {
        char *end = NULL;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v == 0 || v > 262144 || (*end != ',' && *end != '\0') ||
            c->sweep_n == CT_MAX_SWEEP) {
            ct_fail(c, "commtest.sweep_words is not a list of 1..262144 words:", text);
        }
        c->sweep_words[c->sweep_n++] = (uint32_t)v;
        p = *end == ',' ? end + 1 : end;
    }
}

/* Parses "a:b,c:d" (or "auto") into pairs; returns the count. */
static unsigned parse_pairs(commtest_t *c, const char *text, unsigned pairs[][2]) {
    unsigned n = 0;
    hal_t *h = c->h;
    if (strcmp(text, "auto") == 0) {
        unsigned cp0 = hal_cp_node(h, 0), iop0 = hal_iop_node(h, 0);
        if (hal_cp_count(h) >= 2) {
            pairs[n][0] = cp0;
            pairs[n++][1] = hal_cp_node(h, 1);
        }
        pairs[n][0] = cp0;
        pairs[n++][1] = iop0;
        if (hal_iop_count(h) >= 2) {
            pairs[n][0] = iop0;
            pairs[n++][1] = hal_iop_node(h, hal_iop_count(h) - 1);
        }
        return n;
    }
    const char *p = text;
    while (*p != '\0') {
        char *end = NULL;
        unsigned long a = strtoul(p, &end, 10);
        if (end == p || *end != ':') {
            ct_fail(c, "commtest.pingpong_pairs is not \"a:b,c:d\":", text);
        }
        p = end + 1;
        unsigned long b = strtoul(p, &end, 10);
        if (end == p || (*end != ',' && *end != '\0') || a >= c->nodes || b >= c->nodes || a == b ||
            n == CT_MAX_PAIRS) {
            ct_fail(c,
                    "commtest.pingpong_pairs names a node outside the machine or a node "
                    "paired with itself:",
                    text);
        }
        pairs[n][0] = (unsigned)a;
        pairs[n++][1] = (unsigned)b;
        p = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* Quiet time before a timed section (commtest.settle_cycles): the other nodes'
 * barrier messages arrive meanwhile instead of interrupting the timed messages. */
static void settle(commtest_t *c) {
    if (c->settle > 0) {
        hal_sleep_cycles(c->h, c->settle);
    }
}

static void ping_handler(fw_msg_t *m, unsigned src, const fw_msg_hdr_t *hdr, void *arg) {
    (void)arg;
    uint32_t args[FW_MSG_ARGS] = {hdr->arg[0], src, hal_node_id(fw_msg_hal(m))};
    fw_msg_reply_inline(m, src, hdr, FW_MSG_OK, args);
}

static void echo_service(fw_msg_t *m, const fw_request_t *req, void *arg) {
    (void)arg;
    uint32_t args[FW_MSG_ARGS] = {req->hdr.arg[0], req->body_bytes, 0};
    fw_msg_reply(m, req, FW_MSG_OK, args, req->body, req->body_bytes);
}

static void *ct_alloc(commtest_t *c, uint32_t bytes, const char *what) {
    void *p = hal_mem_alloc(c->h, bytes, 8);
    if (p == NULL) {
        ct_fail(c, "node memory exhausted allocating", what);
    }
    return p;
}

static void setup(commtest_t *c, hal_t *h) {
    memset(c, 0, sizeof *c);
    c->h = h;
    c->self = hal_node_id(h);
    c->nodes = hal_cp_count(h) + hal_iop_count(h);
    c->seed = (uint64_t)hal_config_int(h, FW_KEY_WORKLOAD_SEED);
    c->ping_iters = (uint32_t)hal_config_int(h, FW_KEY_COMMTEST_PINGPONG_ITERATIONS);
    c->sweep_iters = (uint32_t)hal_config_int(h, FW_KEY_COMMTEST_SWEEP_ITERATIONS);
    c->echo_words = (uint32_t)hal_config_int(h, FW_KEY_COMMTEST_ECHO_WORDS);
    c->barrier_iters = (uint32_t)hal_config_int(h, FW_KEY_COMMTEST_BARRIER_ITERATIONS);
    c->settle = (uint32_t)hal_config_int(h, FW_KEY_COMMTEST_SETTLE_CYCLES);
    c->queued_puts = (uint64_t)hal_config_int(h, FW_KEY_COMMTEST_QUEUED_PUTS);
    c->queued_gets = (uint64_t)hal_config_int(h, FW_KEY_COMMTEST_QUEUED_GETS);
    c->max_piece = (uint32_t)hal_config_int(h, FW_KEY_COMMTEST_QUEUED_MAX_BYTES);
    c->slice = (uint32_t)hal_config_int(h, FW_KEY_COMMTEST_SLICE_BYTES);
    parse_sweep(c, hal_config_string(h, FW_KEY_COMMTEST_SWEEP_WORDS));
    uint32_t sweep_bytes = 4 * c->echo_words;
    for (uint32_t i = 0; i < c->sweep_n; ++i) {
        if (4 * c->sweep_words[i] > sweep_bytes) {
            sweep_bytes = 4 * c->sweep_words[i];
        }
    }
    c->q_off = (sweep_bytes + 7u) & ~7u;
    c->verdict_off = c->q_off + c->nodes * c->slice;
    c->buf_bytes = c->verdict_off + 4 * c->nodes;
    c->buf = (uint8_t *)ct_alloc(c, c->buf_bytes, "the commtest buffer");
    c->shadow = (uint8_t *)ct_alloc(c, c->nodes * c->slice, "the queued-put shadow");
    c->scratch = (uint8_t *)ct_alloc(c, c->slice, "the replay slice");
    c->piece = (uint8_t *)ct_alloc(c, c->max_piece, "a piece");
    memset(c->buf, 0, c->buf_bytes);
    memset(c->shadow, 0, c->nodes * c->slice);

    /* Where the queued slices are, for harnesses that check them from outside. */
    ct_export(c, "buffer_addr", 0, 0, hal_mem_addr(h, c->buf));
    ct_export(c, "queued_offset", 0, 0, c->q_off);
    c->m = fw_msg_init(h);
    fw_msg_set_base(c->m, c->buf, c->buf_bytes);
    fw_msg_register_handler(c->m, CT_PING, ping_handler, c);
    if (hal_role(h) == HAL_ROLE_IOP) {
        fw_msg_register_service(c->m, CT_ECHO, echo_service, c);
    }
    unsigned *all = (unsigned *)ct_alloc(c, c->nodes * (uint32_t)sizeof(unsigned), "members");
    for (unsigned i = 0; i < c->nodes; ++i) {
        all[i] = i;
    }
    c->all = fw_msg_barrier_create(c->m, 0, all, c->nodes);
    fw_msg_barrier_wait(c->m, c->all);
}

static void phase_pingpong(commtest_t *c) {
    unsigned pairs[CT_MAX_PAIRS][2];
    unsigned n = parse_pairs(c, hal_config_string(c->h, FW_KEY_COMMTEST_PINGPONG_PAIRS), pairs);
    for (unsigned p = 0; p < n; ++p) {
        unsigned a = pairs[p][0], b = pairs[p][1];
        if (c->self == a) {
            /* One untimed round trip first: the pair's first message meets set-up
             * traffic and first-use allocations. */
            fw_reply_t warm;
            if (fw_msg_request(c->m, b, CT_PING, NULL, NULL, 0, NULL, 0, &warm) != FW_MSG_OK) {
                c->errors++;
            }
            /* The nodes not taking part are already in the next barrier: let its
             * messages to this pair arrive before timing. */
            settle(c);
            uint64_t t0 = hal_now_cycles(c->h);
            for (uint32_t i = 0; i < c->ping_iters; ++i) {
                fw_reply_t r;
                uint32_t args[FW_MSG_ARGS] = {i, 0, 0};
                int st = fw_msg_request(c->m, b, CT_PING, args, NULL, 0, NULL, 0, &r);
                if (st != FW_MSG_OK || r.arg[0] != i || r.arg[1] != a || r.arg[2] != b ||
                    r.src != b) {
                    c->errors++;
                }
            }
            uint64_t t1 = hal_now_cycles(c->h);
            ct_export(c, "pingpong.%u-%u.rtt_cycles", a, b, (t1 - t0) / c->ping_iters);
        }
        fw_msg_barrier_wait(c->m, c->all);
    }
}

static void phase_sweep(commtest_t *c) {
    hal_t *h = c->h;
    unsigned requester = hal_iop_node(h, 0), target = hal_cp_node(h, 0);
    if (c->self == requester) {
        uint32_t bytes = c->q_off;
        uint8_t *src = (uint8_t *)ct_alloc(c, bytes, "the sweep source");
        uint8_t *dst = (uint8_t *)ct_alloc(c, bytes, "the sweep destination");
        /* Untimed warm-up, as for the ping-pong (its bytes are checked too). */
        memcpy(src, "warm", 4);
        memset(dst, 0, 4);
        if (fw_memput(c->m, target, 0, src, 4) != FW_MSG_OK ||
            fw_memget(c->m, target, 0, dst, 4) != FW_MSG_OK || memcmp(src, dst, 4) != 0) {
            c->errors++;
        }
        settle(c);
        for (uint32_t s = 0; s < c->sweep_n; ++s) {
            uint32_t w = c->sweep_words[s];
            uint64_t put = 0, get = 0, put_min = UINT64_MAX, get_min = UINT64_MAX;
            for (uint32_t it = 0; it < c->sweep_iters; ++it) {
                for (uint32_t k = 0; k < 4 * w; ++k) {
                    src[k] = sweep_byte(w, it, k);
                }
                uint64_t t0 = hal_now_cycles(h);
                int st = fw_memput(c->m, target, 0, src, 4 * w);
                uint64_t t1 = hal_now_cycles(h);
                memset(dst, 0, 4 * w);
                uint64_t t2 = hal_now_cycles(h);
                st |= fw_memget(c->m, target, 0, dst, 4 * w);
                uint64_t t3 = hal_now_cycles(h);
                put += t1 - t0;
                get += t3 - t2;
                put_min = t1 - t0 < put_min ? t1 - t0 : put_min;
                get_min = t3 - t2 < get_min ? t3 - t2 : get_min;
                if (st != FW_MSG_OK || memcmp(src, dst, 4 * w) != 0) {
                    c->errors++;
                }
            }
            ct_export(c, "memput.%uw.cycles", w, 0, put / c->sweep_iters);
            ct_export(c, "memget.%uw.cycles", w, 0, get / c->sweep_iters);
            ct_export(c, "memput.%uw.min_cycles", w, 0, put_min);
            ct_export(c, "memget.%uw.min_cycles", w, 0, get_min);
        }
        hal_mem_free(h, dst);
        hal_mem_free(h, src);
    }
    fw_msg_barrier_wait(c->m, c->all); /* the echo must not disturb the sweep's timing */
    if (c->self == target && c->echo_words > 0) {
        uint32_t bytes = 4 * c->echo_words;
        uint8_t *body = (uint8_t *)ct_alloc(c, bytes, "the echo body");
        uint8_t *back = (uint8_t *)ct_alloc(c, bytes, "the echo reply");
        uint64_t total = 0;
        settle(c);
        for (uint32_t it = 0; it < c->sweep_iters; ++it) {
            for (uint32_t k = 0; k < bytes; ++k) {
                body[k] = sweep_byte(c->echo_words + 1, it, k);
            }
            memset(back, 0, bytes);
            fw_reply_t r;
            uint32_t args[FW_MSG_ARGS] = {it, 0, 0};
            uint64_t t0 = hal_now_cycles(h);
            int st = fw_msg_request(c->m, requester, CT_ECHO, args, body, bytes, back, bytes, &r);
            total += hal_now_cycles(h) - t0;
            if (st != FW_MSG_OK || r.bytes != bytes || r.arg[0] != it || r.arg[1] != bytes ||
                memcmp(body, back, bytes) != 0) {
                c->errors++;
            }
        }
        ct_export(c, "echo.%uw.cycles", c->echo_words, 0, total / c->sweep_iters);
        hal_mem_free(h, back);
        hal_mem_free(h, body);
    }
    fw_msg_barrier_wait(c->m, c->all);
}

static void phase_barrier(commtest_t *c) {
    uint64_t t0 = hal_now_cycles(c->h);
    for (uint32_t i = 0; i < c->barrier_iters; ++i) {
        fw_msg_barrier_wait(c->m, c->all);
    }
    uint64_t t1 = hal_now_cycles(c->h);
    if (c->self == 0) {
        ct_export(c, "barrier.%u_nodes.cycles", c->nodes, 0, (t1 - t0) / c->barrier_iters);
    }
}

/* This node's share of a machine-wide count. */
static uint64_t share(const commtest_t *c, uint64_t total, unsigned node) {
    return total / c->nodes + (node < total % c->nodes ? 1 : 0);
}

/* One random piece of node src's put sequence: its peer, length and offset. */
static void draw_piece(const commtest_t *c, hw_rng *rng, unsigned src, unsigned *peer,
                       uint32_t *len, uint32_t *off) {
    unsigned p = (unsigned)hw_rng_below(rng, c->nodes - 1);
    *peer = p + (p >= src ? 1 : 0);
    *len = 1 + (uint32_t)hw_rng_below(rng, c->max_piece);
    *off = (uint32_t)hw_rng_below(rng, c->slice - *len + 1);
}

static void phase_queued_puts(commtest_t *c) {
    hal_t *h = c->h;
    uint64_t count = share(c, c->queued_puts, c->self);
    hw_rng rng;
    hw_rng_seed(&rng, hw_rng_stream_seed(c->seed, 0, HW_RNG_STREAM_WORKLOAD, c->self));
    uint64_t bytes = 0;
    uint64_t t0 = hal_now_cycles(h);
    for (uint64_t i = 0; i < count; ++i) {
        unsigned peer;
        uint32_t len, off;
        draw_piece(c, &rng, c->self, &peer, &len, &off);
        uint8_t *sh = c->shadow + peer * c->slice + off;
        for (uint32_t k = 0; k < len; ++k) {
            c->piece[k] = content(c->self, i, k);
            sh[k] = c->piece[k];
        }
        fw_qput(c->m, peer, c->q_off + c->self * c->slice + off, c->piece, len, NULL);
        bytes += len;
    }
    if (fw_q_wait_all(c->m) != FW_MSG_OK) {
        c->errors++;
    }
    uint64_t t1 = hal_now_cycles(h);
    ct_export(c, "queued.puts", 0, 0, count);
    ct_export(c, "queued.put_bytes", 0, 0, bytes);
    ct_export(c, "queued.put_cycles", 0, 0, t1 - t0);
    fw_msg_barrier_wait(c->m, c->all);

    /* Replay every other node's sequence and compare its slice here. */
    for (unsigned src = 0; src < c->nodes; ++src) {
        if (src == c->self) {
            continue;
        }
        memset(c->scratch, 0, c->slice);
        hw_rng r;
        hw_rng_seed(&r, hw_rng_stream_seed(c->seed, 0, HW_RNG_STREAM_WORKLOAD, src));
        uint64_t n = share(c, c->queued_puts, src);
        for (uint64_t i = 0; i < n; ++i) {
            unsigned peer;
            uint32_t len, off;
            draw_piece(c, &r, src, &peer, &len, &off);
            if (peer == c->self) {
                for (uint32_t k = 0; k < len; ++k) {
                    c->scratch[off + k] = content(src, i, k);
                }
            }
        }
        if (memcmp(c->scratch, c->buf + c->q_off + src * c->slice, c->slice) != 0) {
            c->errors++;
        }
    }
}

static void check_gets(commtest_t *c, const ct_get_t *list, uint32_t n, const uint8_t *got) {
    if (fw_q_wait_all(c->m) != FW_MSG_OK) {
        c->errors++;
    }
    for (uint32_t i = 0; i < n; ++i) {
        const uint8_t *want = c->shadow + list[i].peer * c->slice + list[i].off;
        if (memcmp(got + list[i].at, want, list[i].len) != 0) {
            c->errors++;
        }
    }
}

static void phase_queued_gets(commtest_t *c) {
    hal_t *h = c->h;
    uint64_t count = share(c, c->queued_gets, c->self);
    ct_get_t *list = (ct_get_t *)ct_alloc(c, CT_GET_LIST * (uint32_t)sizeof(ct_get_t), "gets");
    uint8_t *got = (uint8_t *)ct_alloc(c, CT_GET_CHUNK, "get buffer");
    hw_rng rng;
    hw_rng_seed(&rng, hw_rng_stream_seed(c->seed, 1, HW_RNG_STREAM_WORKLOAD, c->self));
    uint32_t n = 0, at = 0;
    uint64_t t0 = hal_now_cycles(h);
    for (uint64_t i = 0; i < count; ++i) {
        unsigned peer;
        uint32_t len, off;
        draw_piece(c, &rng, c->self, &peer, &len, &off);
        if (n == CT_GET_LIST || at + len > CT_GET_CHUNK) {
            check_gets(c, list, n, got);
            n = 0;
            at = 0;
        }
        list[n].peer = peer;
        list[n].off = off;
        list[n].len = len;
        list[n].at = at;
        fw_qget(c->m, peer, c->q_off + c->self * c->slice + off, got + at, len, NULL);
        ++n;
        at += len;
    }
    check_gets(c, list, n, got);
    uint64_t t1 = hal_now_cycles(h);
    ct_export(c, "queued.gets", 0, 0, count);
    ct_export(c, "queued.get_cycles", 0, 0, t1 - t0);
    hal_mem_free(h, got);
    hal_mem_free(h, list);
    fw_msg_barrier_wait(c->m, c->all);
}

/* Every node's verdict goes to node 0, which exports the machine's. */
static void phase_verdict(commtest_t *c) {
    c->ok_word = c->errors == 0 ? 1u : 0u;
    ct_export(c, "node_ok", 0, 0, c->ok_word);
    ct_export(c, "errors", 0, 0, c->errors);
    const fw_msg_stats_t *s = fw_msg_stats(c->m);
    ct_export(c, "batches_sent", 0, 0, s->batches_sent);
    if (c->self == 0) {
        memcpy(c->buf + c->verdict_off, &c->ok_word, 4);
    } else if (fw_memput(c->m, 0, c->verdict_off + 4 * c->self, &c->ok_word, 4) != FW_MSG_OK) {
        c->errors++;
    }
    fw_msg_barrier_wait(c->m, c->all);
    if (c->self == 0) {
        uint32_t verified = 1;
        for (unsigned i = 0; i < c->nodes; ++i) {
            uint32_t v;
            memcpy(&v, c->buf + c->verdict_off + 4 * i, 4);
            verified &= v == 1u;
        }
        ct_export(c, "verified", 0, 0, verified);
        ct_export(c, "total_cycles", 0, 0, hal_now_cycles(c->h));
    }
}

static void commtest_main(hal_t *h) {
    commtest_t *c = (commtest_t *)hal_mem_alloc(h, sizeof(commtest_t), 8);
    if (c == NULL) {
        hal_fail(h, "commtest: node memory exhausted");
    }
    hal_set_context(h, c);
    setup(c, h);
    phase_pingpong(c);
    phase_sweep(c);
    phase_barrier(c);
    if (c->nodes > 1) {
        phase_queued_puts(c);
        phase_queued_gets(c);
    }
    phase_verdict(c);
}

void fw_commtest_cp_main(hal_t *h) {
    commtest_main(h);
}
void fw_commtest_iop_main(hal_t *h) {
    commtest_main(h);
}
