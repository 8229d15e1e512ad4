/* How a 2-D stencil's time from memory grows with the rows it reads (docs/psim.md,
 * "Reuse beside a memory stream"): unew[i][j] = f(u rows ...) over n x n doubles,
 * n = 300 (both arrays in L2/L3) and n = 3000 (144 MB: from memory). Each kernel streams
 * one new row of u from memory; r2, r3 and r5 also read rows i-1 (and i) again, which
 * the layer conditions put in L2. ns per point, best of 5.
 *
 *   gcc -O2 -fno-tree-vectorize testsuite/bench/psim/rows.c -o rows && taskset -c 1 ./rows
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
#define KER(name, expr) \
    static void name(double *restrict u, double *restrict unew, int n, int w) { \
        for (int i = 1; i <= n; i++) for (int j = 1; j <= n; j++) unew[i * w + j] = expr; }
KER(r1, 0.25 * u[(i + 1) * w + j])                                                 /* row i+1 */
KER(r1b, 0.25 * (u[(i + 1) * w + j] + u[(i + 1) * w + j + 1] + u[(i + 1) * w + j - 1])) /* 3 loads, 1 row */
KER(r2, 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j]))                          /* rows i-1, i+1 */
KER(r3, 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j]))             /* 3 rows */
KER(r5, 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1])) /* Jacobi */
int main(void) {
    int ns[] = {300, 3000};
    struct { const char *name; void (*f)(double *, double *, int, int); } ks[] = {{"r1", r1}, {"r1b", r1b}, {"r2", r2}, {"r3", r3}, {"r5", r5}};
    for (int z = 0; z < 2; z++) {
        int n = ns[z], w = n + 2;
        long sz = (long)(n + 2) * w;
        double *u = malloc(sz * 8), *v = malloc(sz * 8);
        for (long i = 0; i < sz; i++) { u[i] = i % 7; v[i] = i % 5; }
        long reps = 1 + 200000000L / ((long)n * n);
        printf("n=%5d", n);
        for (int k = 0; k < 5; k++) {
            double best = 1e9;
            for (int t = 0; t < 5; t++) {
                double t0 = now();
                for (long r = 0; r < reps; r++) { ks[k].f(u, v, n, w); double *x = u; u = v; v = x; }
                double dt = (now() - t0) / (reps * (double)n * n);
                if (dt < best) best = dt;
            }
            printf("  %s %.3f", ks[k].name, best * 1e9);
        }
        printf(" ns/point\n");
        free(u);
        free(v);
    }
    return 0;
}
