/* Deterministic random numbers for C and C++ alike (firmware layouts, disk
 * rotational positions, network noise). The generators are fixed algorithms
 * (splitmix64 for seeding, xoshiro256** for streams), so results are the same on
 * every host and compiler, unlike std:: distributions.
 *
 * Every random consumer takes its own stream: hw_rng_seed(&r, hw_rng_stream_seed(
 * base_seed, trial, HW_RNG_STREAM_x, instance)), so adding a consumer never
 * shifts the numbers another consumer sees.
 */
#ifndef STARFISH_HW_RNG_H
#define STARFISH_HW_RNG_H

#include <stdint.h>

/* Stream identifiers: one per kind of random consumer. Append, never renumber. */
enum hw_rng_stream {
    HW_RNG_STREAM_LAYOUT = 1,        /* random-blocks / random-tracks file layouts */
    HW_RNG_STREAM_DISK_ROTATION = 2, /* initial platter angle per disk */
    HW_RNG_STREAM_NETWORK = 3,       /* network timing noise */
    HW_RNG_STREAM_TRAFFIC = 4,       /* synthetic traffic generators */
    HW_RNG_STREAM_WORKLOAD = 5,      /* test programs (commtest etc.) */
    HW_RNG_STREAM_DATA = 6,          /* file contents */
    HW_RNG_STREAM_DISK_FAULT = 7,    /* injected disk faults (fault.*) per disk */
    HW_RNG_STREAM_NET_CONTENTION = 8 /* modeled network's contention delays, per router */
};

typedef struct hw_rng {
    uint64_t s[4];
} hw_rng;

static inline uint64_t hw_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Mixes the parts of a stream identity into one seed. */
static inline uint64_t hw_rng_stream_seed(uint64_t base_seed, uint64_t trial, uint64_t stream,
                                          uint64_t instance) {
    uint64_t x = base_seed;
    uint64_t h = hw_splitmix64(&x);
    x = h ^ (trial * 0xd1342543de82ef95ull);
    h = hw_splitmix64(&x);
    x = h ^ (stream * 0xaf251af3b0f025b5ull);
    h = hw_splitmix64(&x);
    x = h ^ (instance * 0x9fb21c651e98df25ull);
    return hw_splitmix64(&x);
}

static inline void hw_rng_seed(hw_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; ++i) {
        r->s[i] = hw_splitmix64(&x);
    }
}

static inline uint64_t hw_rng_rotl(uint64_t v, int k) {
    return (v << k) | (v >> (64 - k));
}

static inline uint64_t hw_rng_next(hw_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = hw_rng_rotl(s[1] * 5u, 7) * 9u;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = hw_rng_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, bound), bound > 0, without modulo bias (Lemire). */
static inline uint64_t hw_rng_below(hw_rng *r, uint64_t bound) {
    uint64_t threshold = (0u - bound) % bound;
    for (;;) {
        uint64_t v = hw_rng_next(r);
        if (v >= threshold) {
            return v % bound;
        }
    }
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double hw_rng_unit(hw_rng *r) {
    return (double)(hw_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif /* STARFISH_HW_RNG_H */
