/* Shared helpers: the same SplitMix64 / Fisher-Yates permutation as NSIM's
 * random ring (runtime/tools/nsim/src/patterns.rs), so both tools run the same ring.
 * A local PRNG: SMPI shares libc's rand() state between ranks. */
#include <stdint.h>
#include <stdlib.h>
static uint64_t sm_state;
static uint64_t sm_next(void) {
    uint64_t z = (sm_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static void random_perm(int *v, int p, uint64_t seed) {
    sm_state = seed;
    for (int i = 0; i < p; i++) v[i] = i;
    for (int i = p - 1; i >= 1; i--) {
        int j = (int)(sm_next() % (uint64_t)(i + 1));
        int t = v[i]; v[i] = v[j]; v[j] = t;
    }
}
static long parse_size(const char *s) {
    char *e; long v = strtol(s, &e, 10);
    if (*e == 'K' || *e == 'k') v <<= 10; else if (*e == 'M') v <<= 20;
    return v;
}
