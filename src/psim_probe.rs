//! `xmpc psim probe`: describes the machine it runs on. A small C program (compiled by
//! `$XMPC_CC`/`cc -O2`, as the measured blocks are) times four concurrent read streams at working sets
//! inside each cache level and beyond the last, dependent chains of adds, multiplies,
//! divides, square roots and truncations, 8 independent add/multiply chains (pipes), `log` calls, and
//! a chain of integer register adds (1 cycle each) for the clock. Times are the
//! thread's CPU time (a probe descheduled on a shared host is not charged), best of 5.

use std::process::Command;

use xmpc_psim_machine::{Cache, Compiler, Core, Machine, Memory};

const PROBE_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static volatile double sink;
/* ns per 8-byte element read: 4 concurrent streams (the quarters of a), 8 accumulators
   (two per stream: with 4, a 3-cycle add latency capped the loop at 0.75 cycle per
   element on AMD Zen 4, below what its caches deliver) */
#define STREAM_BODY for (long i = 0; i < q; i += 2) { s0 += a[i]; s1 += a[i + q]; s2 += a[i + 2 * q]; s3 += a[i + 3 * q]; \
    s4 += a[i + 1]; s5 += a[i + 1 + q]; s6 += a[i + 1 + 2 * q]; s7 += a[i + 1 + 3 * q]; }
static double stream(double *a, long n, double budget) {
    long reps = 1, q = (n / 4) & ~1L; double best = 1e30, t0, t, s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    for (long i = 0; i < n; i++) a[i] = 1.0 + (i & 7);
    for (;;) {
        t0 = now();
        for (long r = 0; r < reps; r++)
            STREAM_BODY
        t = now() - t0;
        if (t > budget / 8) break;
        reps *= 2;
    }
    for (int k = 0; k < 5; k++) {
        t0 = now();
        for (long r = 0; r < reps; r++)
            STREAM_BODY
        t = now() - t0;
        if (t < best) best = t;
    }
    sink = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
    return best * 1e9 / ((double)reps * 4 * q);
}
/* The same streams with 32-byte AVX2 loads (x86-64 with AVX2; -1 elsewhere): what a
   level delivers, not what two 8-byte load ports take from L1 (scalar streams from L2
   measured 16 B/cycle here: the ports' limit, while a scalar loop's lines come in
   beside its loads; the in-L2 CG and stencil blocks were over-predicted by 30-60%) */
#if defined(__x86_64__)
#include <immintrin.h>
#define VBODY for (long i = 0; i < q; i += 8) { \
    v0 = _mm256_add_pd(v0, _mm256_loadu_pd(a + i)); v1 = _mm256_add_pd(v1, _mm256_loadu_pd(a + i + q)); \
    v2 = _mm256_add_pd(v2, _mm256_loadu_pd(a + i + 2 * q)); v3 = _mm256_add_pd(v3, _mm256_loadu_pd(a + i + 3 * q)); \
    v4 = _mm256_add_pd(v4, _mm256_loadu_pd(a + i + 4)); v5 = _mm256_add_pd(v5, _mm256_loadu_pd(a + i + 4 + q)); \
    v6 = _mm256_add_pd(v6, _mm256_loadu_pd(a + i + 4 + 2 * q)); v7 = _mm256_add_pd(v7, _mm256_loadu_pd(a + i + 4 + 3 * q)); }
__attribute__((target("avx2"))) static double vstream_avx2(double *a, long n, double budget) {
    long reps = 1, q = (n / 4) & ~7L; double best = 1e30, t0, t;
    __m256d v0 = _mm256_setzero_pd(), v1 = v0, v2 = v0, v3 = v0, v4 = v0, v5 = v0, v6 = v0, v7 = v0;
    for (long i = 0; i < n; i++) a[i] = 1.0 + (i & 7);
    for (;;) {
        t0 = now();
        for (long r = 0; r < reps; r++)
            VBODY
        t = now() - t0;
        if (t > budget / 8) break;
        reps *= 2;
    }
    for (int k = 0; k < 5; k++) {
        t0 = now();
        for (long r = 0; r < reps; r++)
            VBODY
        t = now() - t0;
        if (t < best) best = t;
    }
    double o[4];
    _mm256_storeu_pd(o, _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(v0, v1), _mm256_add_pd(v2, v3)), _mm256_add_pd(_mm256_add_pd(v4, v5), _mm256_add_pd(v6, v7))));
    sink = o[0] + o[1] + o[2] + o[3];
    return best * 1e9 / ((double)reps * 4 * q);
}
static double vstream(double *a, long n, double budget) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? vstream_avx2(a, n, budget) : -1.0;
}
#else
static double vstream(double *a, long n, double budget) { (void)a; (void)n; (void)budget; return -1.0; }
#endif
static double wall(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
/* ns per 8 B of the 4-stream read (AVX2 where the CPU has it) over `secs` of wall time */
#if defined(__x86_64__)
__attribute__((target("avx2"))) static long vpasses_for(double *a, long q, double secs) {
    __m256d v0 = _mm256_setzero_pd(), v1 = v0, v2 = v0, v3 = v0, v4 = v0, v5 = v0, v6 = v0, v7 = v0;
    long passes = 0; double t0 = wall();
    do { VBODY passes++; } while (wall() - t0 < secs);
    double o[4];
    _mm256_storeu_pd(o, _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(v0, v1), _mm256_add_pd(v2, v3)), _mm256_add_pd(_mm256_add_pd(v4, v5), _mm256_add_pd(v6, v7))));
    sink = o[0] + o[1] + o[2] + o[3];
    return passes;
}
#endif
/* one pass of the scalar stream, out of line (inlined into main's loop, the same body
   ran at half its speed: 0.58 against 0.31 ns per 8 B from memory) */
__attribute__((noinline)) static double scalar_pass(const double *a, long q) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    STREAM_BODY
    return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}
static double stream_for(double *a, long n, double secs, int vec) {
    for (long i = 0; i < n; i++) a[i] = 1.0 + (i & 7);
    long passes = 0, q; double t0 = wall(), t;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (vec && __builtin_cpu_supports("avx2")) {
        q = (n / 4) & ~7L;
        passes = vpasses_for(a, q, secs);
        t = wall() - t0;
        return t * 1e9 / ((double)passes * 4 * q);
    }
#endif
    q = (n / 4) & ~1L;
    double s = 0;
    do { s += scalar_pass(a, q); passes++; } while (wall() - t0 < secs);
    t = wall() - t0;
    sink = s;
    return t * 1e9 / ((double)passes * 4 * q);
}
/* ns per element of a copy b[i] = a[i] over n doubles in all (a and b each half) */
static double copy(double *a, long n, double budget) {
    long reps = 1, h = n / 2; double best = 1e30, t0, t;
    double *b = a + h;
    for (long i = 0; i < n; i++) a[i] = 1.0 + (i & 7);
    for (;;) {
        t0 = now();
        for (long r = 0; r < reps; r++) { for (long i = 0; i < h; i++) b[i] = a[i]; sink = b[r % h]; }
        t = now() - t0;
        if (t > budget / 8) break;
        reps *= 2;
    }
    for (int k = 0; k < 5; k++) {
        t0 = now();
        for (long r = 0; r < reps; r++) { for (long i = 0; i < h; i++) b[i] = a[i]; sink = b[r % h]; }
        t = now() - t0;
        if (t < best) best = t;
    }
    return best * 1e9 / ((double)reps * h);
}
/* ns per element of b[i] = 0.5 * (u[i] + u[i - d]) over n doubles in all (u and b each
   half, out of every cache): with d = 1 the lagged read hits the line just loaded; with
   its lag between the L1 and L2 sizes it misses L1 and hits L2 while the loop streams
   from memory (memory.reuse_cost: the difference, in units of a read from memory) */
__attribute__((noinline)) static void lag_pass(const double *restrict u, double *restrict b, long h, long d) {
    for (long i = d; i < h; i++) b[i] = 0.5 * (u[i] + u[i - d]);
}
static double lag(double *a, long n, long d, double budget) {
    long reps = 1, h = n / 2; double best = 1e30, t0, t;
    for (long i = 0; i < n; i++) a[i] = 1.0 + (i & 7);
    for (;;) {
        t0 = now();
        for (long r = 0; r < reps; r++) lag_pass(a, a + h, h, d);
        t = now() - t0;
        if (t > budget / 8) break;
        reps *= 2;
    }
    for (int k = 0; k < 5; k++) {
        t0 = now();
        for (long r = 0; r < reps; r++) lag_pass(a, a + h, h, d);
        t = now() - t0;
        if (t < best) best = t;
    }
    sink = a[h + h / 2];
    return best * 1e9 / ((double)reps * (h - d));
}
#define CHAIN(name, init, op) static double name(long n) { double best = 1e30; for (int k = 0; k < 3; k++) { \
    volatile double seed = init; double x = seed, y = seed; double t0 = now(); \
    for (long i = 0; i < n; i++) { op; } double t = now() - t0; sink = x + y; if (t < best) best = t; } return best * 1e9 / n; }
CHAIN(lat_add, 1.0, x = x + 1e-9)
CHAIN(lat_mul, 1.0, x = x * 1.0000001)
CHAIN(lat_div, 1.0, x = 1.0000001 / x)
CHAIN(lat_sqrt, 2.0, x = sqrt(x) + 1.0)
CHAIN(lat_cvt, 3.5, x = (double)(long)x + 0.5)
CHAIN(cost_log, 2.0, x = log(x) + 2.0)
/* ns per operation of 12 independent chains, 6 adds and 6 multiplies: with 8 chains
   and a 3-cycle latency a core could show at most 8/3 operations per cycle, below the
   4 FP pipes of AMD Zen 4 (the probe said 2); 12 chains and the two operands fit the 16
   SSE registers (16 chains spilled) */
static double thr_add(long n) {
    volatile double seed = 1.0, incv = 1e-9, mv = 1.0000001; double inc = incv, m = mv;
    double a = seed, b = seed, c = seed, d = seed, e = seed, f = seed, g = seed, h = seed;
    double a2 = seed, b2 = seed, c2 = seed, d2 = seed;
    double best = 1e30;
    for (int k = 0; k < 3; k++) {
        double t0 = now(), t;
        for (long i = 0; i < n; i++) {
            a += inc; b *= m; c += inc; d *= m; e += inc; f *= m; g += inc; h *= m;
            a2 += inc; b2 *= m; c2 += inc; d2 *= m;
        }
        t = now() - t0;
        if (t < best) best = t;
    }
    sink = a + b + c + d + e + f + g + h + a2 + b2 + c2 + d2;
    return best * 1e9 / (12.0 * n);
}
static double clock_ns(long n) {
    double best = 1e30;
    for (int k = 0; k < 5; k++) {
        unsigned long x = 0; volatile unsigned long onev = 1; unsigned long one = onev; double t0 = now();
#if defined(__x86_64__) || defined(__aarch64__)
        for (long i = 0; i < n; i++) {
#if defined(__x86_64__)
            __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0" : "+r"(x) : "r"(one));
#else
            __asm__ volatile("add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1" : "+r"(x));
#endif
        }
        double t = (now() - t0) * 1e9 / (8.0 * n);
#else
        double t = 0;
#endif
        sink = (double)x;
        if (t < best) best = t;
    }
    return best;
}
/* ns per instruction of 12 independent register adds (the issue width) */
static double issue_ns(long n) {
    double best = 1e30;
#if defined(__x86_64__)
    for (int k = 0; k < 5; k++) {
        unsigned long a = 0, b = 0, c = 0, d = 0, e = 0, f = 0; volatile unsigned long onev = 1; unsigned long one = onev;
        double t0 = now();
        for (long i = 0; i < n; i++)
            __asm__ volatile("add %6, %0\n\tadd %6, %1\n\tadd %6, %2\n\tadd %6, %3\n\tadd %6, %4\n\tadd %6, %5\n\t"
                             "add %6, %0\n\tadd %6, %1\n\tadd %6, %2\n\tadd %6, %3\n\tadd %6, %4\n\tadd %6, %5"
                             : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f) : "r"(one));
        double t = (now() - t0) * 1e9 / (14.0 * n); /* 12 adds + increment and branch */
        sink = (double)(a + b + c + d + e + f);
        if (t < best) best = t;
    }
#else
    best = 0;
#endif
    return best;
}
/* ns per load of 12 independent `add reg, [mem]` (two per accumulator, six
   accumulators, an L1-resident line): a load-op instruction is one macro-op, so with 14
   per iteration a 6-wide core issues them in 2.3 cycles and the chains need 2; 3 load
   ports need 4 cycles, 2 need 6 (load_pipes; -1 where there is no x86 asm) */
static double load_ns(long n) {
    double best = 1e30;
#if defined(__x86_64__)
    static unsigned long buf[16] __attribute__((aligned(64)));
    for (int k = 0; k < 5; k++) {
        unsigned long a = 0, b = 0, c = 0, d = 0, e = 0, f = 0; const unsigned long *p = buf;
        double t0 = now();
        for (long i = 0; i < n; i++)
            __asm__ volatile("add (%6), %0\n\tadd 8(%6), %1\n\tadd 16(%6), %2\n\tadd 24(%6), %3\n\tadd 32(%6), %4\n\tadd 40(%6), %5\n\t"
                             "add 48(%6), %0\n\tadd 56(%6), %1\n\tadd 64(%6), %2\n\tadd 72(%6), %3\n\tadd 80(%6), %4\n\tadd 88(%6), %5"
                             : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f) : "r"(p) : "memory");
        double t = (now() - t0) * 1e9 / (12.0 * n);
        sink = (double)(a + b + c + d + e + f);
        if (t < best) best = t;
    }
#else
    (void)n;
    best = -1.0;
#endif
    return best;
}
int main(int argc, char **argv) {
    if (argc == 4 && argv[1][0] == 's') {
        /* socket|svector SECONDS SIZE: one of the node-wide streams (scalar or AVX2).
           Every process streams for the same wall time from the same start, so they
           overlap whole: the mean rate over the window, not the best pass (which a
           process alone for a moment would give) */
        long sz = atol(argv[3]);
        double *a = malloc(sz);
        printf("stream %ld %.5f\n", sz, stream_for(a, sz / 8, atof(argv[2]), argv[1][1] == 'v'));
        return 0;
    }
    double budget = argc > 1 ? atof(argv[1]) : 1.0;
    long sizes[8]; int ns = argc - 2;
    for (int i = 0; i < ns; i++) sizes[i] = atol(argv[i + 2]);
    long big = 0; for (int i = 0; i < ns; i++) if (sizes[i] > big) big = sizes[i];
    double *a = malloc(big);
    printf("clock_ns %.5f\n", clock_ns(20000000));
    printf("issue_ns %.5f\n", issue_ns(10000000));
    printf("load_ns %.5f\n", load_ns(10000000));
    long n = (long)(budget * 1.5e7);
    printf("add_ns %.5f\nmul_ns %.5f\ndiv_ns %.5f\nsqrt_ns %.5f\ncvt_ns %.5f\nlog_ns %.5f\nthr_add_ns %.5f\n",
           lat_add(n), lat_mul(n), lat_div(n / 4), lat_sqrt(n / 4), lat_cvt(n / 2), cost_log(n / 8), thr_add(n / 2));
    for (int i = 0; i < ns; i++) printf("stream %ld %.5f\n", sizes[i], stream(a, sizes[i] / 8, budget));
    for (int i = 0; i < ns; i++) printf("copy %ld %.5f\n", sizes[i], copy(a, sizes[i] / 8, budget));
    for (int i = 0; i < ns; i++) printf("vstream %ld %.5f\n", sizes[i], vstream(a, sizes[i] / 8, budget));
    if (ns >= 3) {
        /* sizes are a quarter of each level: the lag is the geometric mean of L1 and L2 */
        long d = (long)sqrt(4.0 * sizes[0] * 4.0 * sizes[1]) / 8;
        printf("lag 1 %.5f\nlag %ld %.5f\n", lag(a, big / 8, 1, budget), d, lag(a, big / 8, d, budget));
    }
    return 0;
}
"#;

fn cache_sizes() -> Vec<(String, f64)> {
    // /sys: data and unified caches of cpu0, by level
    let mut out = Vec::new();
    for i in 0..8 {
        let d = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
        let rd = |f: &str| std::fs::read_to_string(format!("{d}/{f}")).ok().map(|s| s.trim().to_string());
        let (Some(level), Some(ty), Some(size)) = (rd("level"), rd("type"), rd("size")) else { break };
        if ty == "Instruction" {
            continue;
        }
        let kib: f64 = if let Some(k) = size.strip_suffix('K') {
            k.parse().unwrap_or(0.0)
        } else if let Some(m) = size.strip_suffix('M') {
            m.parse::<f64>().unwrap_or(0.0) * 1024.0
        } else {
            size.parse::<f64>().unwrap_or(0.0) / 1024.0
        };
        out.push((format!("L{level}"), kib));
    }
    if out.is_empty() {
        out = vec![("L1".into(), 32.0), ("L2".into(), 1024.0)];
    }
    out
}

/// How the probe is compiled (named in the machine file's `source`): scalar code, as gcc
/// -O2 compiles the test programs. -falign-loops=64: the micro-loops' speed must not
/// depend on where the linker puts them (adding one function once halved the copy's
/// speed: 0.28 -> 0.55 ns per element at every level, the memory system unchanged).
const PROBE_FLAGS: [&str; 5] = ["-O2", "-falign-loops=64", "-fno-tree-vectorize", "-fno-tree-slp-vectorize", "-fno-tree-loop-distribute-patterns"];

pub fn probe(quick: bool) -> Result<Machine, String> {
    let dir = tempfile::Builder::new().prefix("xmpc-psim-probe-").tempdir().map_err(|e| e.to_string())?;
    let src = dir.path().join("probe.c");
    std::fs::write(&src, PROBE_C).map_err(|e| e.to_string())?;
    let exe = dir.path().join("probe");
    let cc = std::env::var("XMPC_CC").ok().filter(|s| !s.is_empty() && !s.contains("mpicc")).unwrap_or_else(|| "cc".into());
    let out = Command::new(&cc).args(PROBE_FLAGS).arg(&src).arg("-o").arg(&exe).arg("-lm").output().map_err(|e| format!("cannot run {cc}: {e}"))?;
    if !out.status.success() {
        return Err(format!("compiling the probe failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let caches = cache_sizes();
    // working sets: a quarter of each level, and 4x the last (at most 1 GiB)
    let mut sizes: Vec<u64> = caches.iter().map(|(_, k)| (k * 1024.0 / 4.0) as u64 / 64 * 64).collect();
    let last = caches.last().map(|c| c.1).unwrap_or(1024.0);
    sizes.push(((last * 1024.0 * 4.0).min(1024.0 * 1024.0 * 1024.0)) as u64 / 64 * 64);
    let budget = if quick { "0.15" } else { "0.8" };
    let run = Command::new(&exe).arg(budget).args(sizes.iter().map(|s| s.to_string())).output().map_err(|e| format!("cannot run the probe: {e}"))?;
    if !run.status.success() {
        return Err("the probe failed".into());
    }
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    let get = |k: &str| -> Result<f64, String> {
        text.lines().find_map(|l| l.strip_prefix(&format!("{k} ")).and_then(|v| v.trim().parse().ok())).ok_or(format!("the probe printed no `{k}`:\n{text}"))
    };
    let streams: Vec<f64> = text.lines().filter_map(|l| l.strip_prefix("stream ")).filter_map(|l| l.split_whitespace().nth(1)?.parse().ok()).collect();
    // each level's bandwidth from the vector streams where the CPU has them
    let vstreams: Vec<f64> = text.lines().filter_map(|l| l.strip_prefix("vstream ")).filter_map(|l| l.split_whitespace().nth(1)?.parse().ok()).collect();
    // A level's bandwidth is its scalar stream's, as the (scalar) programs modelled draw
    // it, unless that stream only shows the load ports (within 10% of its rate from L1:
    // here L2 and L3 gave 16 B/cycle, two 8-byte loads); then the vector stream's.
    let vector = vstreams.len() == streams.len() && vstreams.iter().all(|v| *v > 0.0);
    let port_bound: Vec<bool> = streams.iter().map(|s| vector && *s <= 1.1 * streams[0]).collect();
    let level: Vec<f64> = streams.iter().enumerate().map(|(l, s)| if port_bound[l] { vstreams[l] } else { *s }).collect();
    if streams.len() != sizes.len() {
        return Err(format!("the probe printed {} streams, expected {}", streams.len(), sizes.len()));
    }
    let mut cyc = get("clock_ns")?;
    let mut note = String::new();
    if cyc <= 0.0 {
        cyc = 1.0 / 2.5;
        note = " (no cycle counter probe on this architecture: 2.5 GHz assumed)".into();
    }
    let ghz = 1.0 / cyc;
    let cy = |ns: f64| (ns / cyc).max(0.5);
    // Each level's bandwidth is what a core streams from it (the whole time per byte,
    // loads included): with `overlap = "full"` the slowest level bounds a loop, which is
    // what loops with several streams do on this kind of core (docs/psim.md).
    let copies: Vec<f64> = text.lines().filter_map(|l| l.strip_prefix("copy ")).filter_map(|l| l.split_whitespace().nth(1)?.parse().ok()).collect();
    if copies.len() != sizes.len() {
        return Err(format!("the probe printed {} copies, expected {}", copies.len(), sizes.len()));
    }
    // a copied element reads 8 B, reads its target line for ownership (8 B) and writes 8 B
    // back: the write-back's time is the copy's beyond two reads. When that is within 2% of
    // the copy (AMD Zen 4 from memory: a copy takes the time of its two reads), the
    // write-back is hidden behind the reads: it costs 2% of a copy, not a read's time (the
    // file's default), which had over-predicted every loop that stores from memory by
    // 30-55% (CG's vector updates)
    let wb = |l: usize| -> Option<f64> {
        let w = (copies[l] - 2.0 * streams[l]).max(0.02 * copies[l]);
        Some(8.0 / (w / cyc))
    };
    let mut cache = Vec::new();
    let cyc_raw = |ns: f64| ns / cyc;
    for (l, (name, kib)) in caches.iter().enumerate() {
        let bpc = 8.0 / cyc_raw(level[l]);
        // level l's write-back bandwidth shows in copies whose working set is in level l
        let w = if l == 0 { None } else { wb(l).map(|x| (x * 100.0).round() / 100.0) };
        cache.push(Cache { name: name.clone(), size_kib: *kib, bytes_per_cycle: (bpc * 100.0).round() / 100.0, write_bytes_per_cycle: w, line_bytes: 64 });
    }
    let tm = *level.last().unwrap();
    // memory.reuse_cost: a lagged read that misses L1 and hits L2 while the loop streams
    // from memory, against the same loop whose lagged read hits L1, in reads from memory
    let lags: Vec<f64> = text.lines().filter_map(|l| l.strip_prefix("lag ")).filter_map(|l| l.split_whitespace().nth(1)?.parse().ok()).collect();
    let reuse_cost = match lags[..] {
        [near, far] => Some(((far - near) / tm).max(0.0)),
        _ => None,
    };
    let cores = std::thread::available_parallelism().map(|n| n.get() as u32).unwrap_or(1);
    let flags = PROBE_FLAGS.join(" ");
    let mem_gbs = 8.0 / tm;
    // All cores together stream at least what one does (one of them could do the
    // whole job): a node-wide run measured below that saw a busy host, not the memory.
    let socket_gbs = if cores > 1 {
        let s = socket_stream(&exe, budget, *sizes.last().unwrap(), cores, *port_bound.last().unwrap())?;
        if s < mem_gbs {
            eprintln!("xmpc psim probe: warning: the {cores}-core stream measured {s:.2} GB/s, below one core's {mem_gbs:.2} GB/s (a busy host?); recording one core's");
        }
        Some(s.max(mem_gbs))
    } else {
        None
    };
    let round = |x: f64| (x * 100.0).round() / 100.0;
    let cyc_raw = |ns: f64| ns / cyc;
    let add = round(cy(get("add_ns")?));
    // not `cy`: it floors at half a cycle, which capped fp_pipes at 2
    let thr = cyc_raw(get("thr_add_ns")?);
    let m = Machine {
        name: format!("this machine ({})", cpu_name()),
        clock_ghz: round(ghz),
        cores,
        core: Core {
            // gcc -O2 without -march: SSE2, 2 doubles per vector
            simd_lanes: if cfg!(target_arch = "x86_64") { 2 } else { 1 },
            issue_width: {
                let i = get("issue_ns")?;
                if i > 0.0 {
                    round(1.0 / cyc_raw(i))
                } else {
                    4.0
                }
            },
            fp_pipes: (1.0 / thr).round().max(1.0) as u32,
            fma: false,
            // measured on x86-64 (3 on Zen 4 and Golden Cove); 2 elsewhere
            load_pipes: match get("load_ns")? {
                l if l > 0.0 => (1.0 / cyc_raw(l)).round().clamp(1.0, 8.0) as u32,
                _ => 2,
            },
            fold_loads: cfg!(target_arch = "x86_64"),
            store_pipes: 1,
            add_latency: add,
            mul_latency: round(cy(get("mul_ns")?)),
            div_latency: round(cy(get("div_ns")?)),
            div_cycles: round(cy(get("div_ns")?) / 3.0).max(1.0),
            sqrt_latency: round((cy(get("sqrt_ns")?) - add).max(1.0)),
            sqrt_cycles: round((cy(get("sqrt_ns")?) - add).max(1.0) / 3.0).max(1.0),
            convert_latency: round(((cy(get("cvt_ns")?) - add) / 2.0).max(1.0)),
            libm_cycles: round((cy(get("log_ns")?) - add).max(1.0)),
            incore: "table".into(),
        },
        caches: cache,
        memory: Memory { bandwidth_gbs: round(mem_gbs), write_bandwidth_gbs: wb(sizes.len() - 1).map(|x| round(x * ghz)), socket_bandwidth_gbs: socket_gbs.map(round), reuse_cost: reuse_cost.map(round), latency_ns: 90.0 },
        compiler: Compiler { vectorize: false, vectorize_constant_trips: true, vectorize_reductions: false, write_allocate: true, cache_safety: 0.5, overlap: "full".into(), march: None },
        source: format!(
 "xmpc psim probe{note}: 4-stream read, ns per 8 B at working sets {:?} B = {:?} (scalar), {:?} (AVX2: for the levels where the scalar stream is bound by the load ports{}); copy ns per element {:?}; reuse: b[i] = 0.5 * (u[i] + u[i - d]) from memory, ns per element {:?} at d = 1 and d between the L1 and L2 sizes; node memory: the last stream run by {cores} processes at once; {cc} {flags} (scalar code, as gcc -O2 compiles the test programs); pipes and latencies from dependent chains, load pipes from independent `add reg, [mem]`; memory latency not measured (90 ns assumed)",
            sizes,
            streams.iter().map(|x| (x * 1000.0).round() / 1000.0).collect::<Vec<_>>(),
            vstreams.iter().map(|x| (x * 1000.0).round() / 1000.0).collect::<Vec<_>>(),
            if vector { "" } else { ": not available, scalar used" },
            copies.iter().map(|x| (x * 1000.0).round() / 1000.0).collect::<Vec<_>>(),
            lags.iter().map(|x| (x * 1000.0).round() / 1000.0).collect::<Vec<_>>()
        ),
    };
    m.check()?;
    Ok(m)
}

/// The node's memory bandwidth (GB/s): the memory-level read stream (scalar or AVX2, as
/// for `bandwidth_gbs`) run by `n` processes at once for the same wall time (one per
/// online CPU), their rates summed. Together they stream `size` bytes (4x the last
/// cache), each at least 16 MiB: on a node of many cores `n` copies of `size` would not
/// fit in memory.
fn socket_stream(exe: &std::path::Path, budget: &str, size: u64, n: u32, vector: bool) -> Result<f64, String> {
    let each = (size / u64::from(n.max(1))).max(16 << 20).min(size) / 64 * 64;
    let kids: Vec<_> = (0..n)
        .map(|_| Command::new(exe).args([if vector { "svector" } else { "socket" }, budget, &each.to_string()]).stdout(std::process::Stdio::piped()).spawn())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot run the probe: {e}"))?;
    let mut total = 0.0;
    for k in kids {
        let out = k.wait_with_output().map_err(|e| format!("the probe failed: {e}"))?;
        let ns: f64 = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .nth(2)
            .and_then(|v| v.parse().ok())
            .filter(|v: &f64| *v > 0.0)
            .ok_or("the node-wide stream printed no time")?;
        total += 8.0 / ns;
    }
    Ok(total)
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| t.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).map(|s| s.trim().to_string()))
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}
