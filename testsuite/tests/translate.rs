//! Golden snapshots of the C translation (XMP C → C + xmpc runtime calls), and a check
//! that every translated program compiles with `mpicc -Wall` (`-fsyntax-only`, or a full
//! compile and link when the runtime library is built). The programs are self-checking
//! (they print PASS on one node); the conformance runner executes them.

use std::path::{Path, PathBuf};
use std::process::Command;

use xmpc_ir::{diag::Severity, Lang};

/// Programs of `testsuite/corpus/c/` that the C translator handles (the XACC/XMP-dev
/// ones are not translated yet; `mpi_ring.c` has no XMP).
const CORPUS: &[&str] = &[
    "bcast_task_square",
    "continued_pragmas",
    "dist_formats",
    "gmove_block_cyclic",
    "japanese_crlf",
    "laplace1d_round",
    "laplace2d_square",
    "reductions",
    "structs_preproc",
    "tasks_round",
];

/// Small programs for the forms the corpus does not show.
const INLINE: &[(&str, &str)] = &[
    (
        "align_offset",
        r#"/* align with an offset: b[i] lives with t(i+1); loop on t(i+1).
 * xmpc-test: np=1,2,4 */
#include <stdio.h>
#include <xmp.h>
#define N 30
#pragma xmp nodes p(*)
#pragma xmp template t(0:N)
#pragma xmp distribute t(block) onto p
int b[N];
#pragma xmp align b[i] with t(i+1)
int main(void)
{
    int i;
    long s = 0;
#pragma xmp loop on t(i+1)
    for (i = 0; i < N; i++)
        b[i] = i;
#pragma xmp loop on t(i+1) reduction(+:s)
    for (i = 0; i < N; i++)
        s += b[i];
    if (xmp_node_num() == 1)
        printf(s == N * (N - 1) / 2 ? "PASS\n" : "ERROR %ld\n", s);
    return s != N * (N - 1) / 2;
}
"#,
    ),
    (
        "array_stmt",
        r#"/* the array directive: an array assignment over the node's part.
 * xmpc-test: np=1,2,4 */
#include <stdio.h>
#include <xmp.h>
#define N 40
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double a[N], b[N];
#pragma xmp align a[i] with t(i)
#pragma xmp align b[i] with t(i)
int main(void)
{
    int i, err = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        b[i] = i;
#pragma xmp array on t(:)
    a[:] = b[:] * 2.0 + 1.0;
#pragma xmp array on t(:)
    b[0:10] = 0.0;
#pragma xmp loop on t(i) reduction(+:err)
    for (i = 0; i < N; i++)
        if (a[i] != 2.0 * i + 1.0 || b[i] != (i < 10 ? 0.0 : i))
            err++;
    if (xmp_node_num() == 1)
        printf(err == 0 ? "PASS\n" : "ERROR: %d\n", err);
    return err != 0;
}
"#,
    ),
    (
        "cyclic_square",
        r#"/* cyclic distribution in the square spelling; xmp_node_num() counts from 1 (as in Omni).
 * xmpc-test: np=1,2,4 */
#include <stdio.h>
#include <xmp.h>
#define N 100
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp distribute t[cyclic] onto p
long a[N];
#pragma xmp align a[i] with t[i]
int main(void)
{
    int i;
    long s = 0, x = 0;
#pragma xmp loop on t[i]
    for (i = 0; i < N; i++)
        a[i] = i + 1;
#pragma xmp loop on t[i] reduction(+:s)
    for (i = 0; i < N; i += 2)
        s += a[i];
    if (xmp_node_num() == 1)
        x = 42;
#pragma xmp bcast (x) from p[0]
    if (xmp_node_num() == 1)
        printf(s == N * N / 4 && x == 42 ? "PASS\n" : "ERROR\n");
    return !(s == N * N / 4 && x == 42);
}
"#,
    ),
    (
        "expand_2d",
        r#"/* 2-D block distribution on a 2x2 grid, reflect with width, and a loop with
 * expand(1,1) that also computes the shadow elements.
 * xmpc-test: np=4 */
#include <stdio.h>
#include <xmp.h>
#define N 16
#pragma xmp nodes p(2, 2)
#pragma xmp template t(0:N-1, 0:N-1)
#pragma xmp distribute t(block, block) onto p
int a[N][N], b[N][N];
#pragma xmp align a[i][j] with t(j, i)
#pragma xmp align b[i][j] with t(j, i)
#pragma xmp shadow a[1:1][1:1]
#pragma xmp shadow b[1:1][1:1]
int main(void)
{
    int i, j, err = 0;
#pragma xmp loop (j, i) on t(j, i)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            a[i][j] = 100 * i + j;
#pragma xmp reflect (a) width(1:1, 1:1)
#pragma xmp loop (j, i) on t(j, i) expand(1, 1)
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            b[i][j] = 2 * a[i][j];
#pragma xmp loop (j, i) on t(j, i) reduction(+:err)
    for (i = 1; i < N - 1; i++)
        for (j = 1; j < N - 1; j++)
            if (b[i - 1][j] + b[i + 1][j] + b[i][j - 1] + b[i][j + 1] != 8 * (100 * i + j))
                err++;
    if (xmp_node_num() == 1)
        printf(err == 0 ? "PASS\n" : "ERROR: %d\n", err);
    return err != 0;
}
"#,
    ),
    (
        "gmove_local",
        r#"/* gmove between a distributed 2-D array and a local (replicated) array.
 * xmpc-test: np=1,2,4 */
#include <stdio.h>
#include <xmp.h>
#define N 12
#define M 6
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
double a[N][M];
#pragma xmp align a[i][*] with t(i)
double l[N][M];
int main(void)
{
    int i, j, err = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a[i][j] = i * M + j;
#pragma xmp gmove
    l[:][:] = a[:][:];
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            if (l[i][j] != i * M + j)
                err++;
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            l[i][j] = -1.0;
#pragma xmp gmove
    a[2:4][:] = l[0:4][:];
#pragma xmp loop on t(i) reduction(+:err)
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            if (a[i][j] != (i >= 2 && i < 6 ? -1.0 : i * M + j))
                err++;
#pragma xmp reduction (+:err)
    if (xmp_node_num() == 1)
        printf(err == 0 ? "PASS\n" : "ERROR: %d\n", err);
    return err != 0;
}
"#,
    ),
    (
        "local_objects",
        r#"/* nodes, template and a distributed array declared inside a function; a periodic
 * reflect started asynchronously and completed by wait_async.
 * xmpc-test: np=1,2,4 */
#include <stdio.h>
#include <xmp.h>
#define N 64
static int work(void)
{
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
    double a[N];
#pragma xmp align a[i] with t(i)
#pragma xmp shadow a[1:1]
    int i, err = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = i;
#pragma xmp reflect (a) width(/periodic/1:1) async(3)
#pragma xmp wait_async (3)
#pragma xmp loop on t(i) reduction(+:err)
    for (i = 0; i < N; i++)
        if (a[i - 1] != (double)((i + N - 1) % N) || a[i + 1] != (double)((i + 1) % N))
            err++;
    return err;
}
int main(void)
{
    int e = work();
    if (xmp_node_num() == 1)
        printf(e == 0 ? "PASS\n" : "ERROR: %d\n", e);
    return e != 0;
}
"#,
    ),
    (
        "subset_collectives",
        r#"/* bcast/barrier/reduction on node subsets; firstmax and lastmin with locations.
 * xmpc-test: np=4 */
#include <stdio.h>
#include <xmp.h>
#pragma xmp nodes p(4)
int main(void)
{
    int me = xmp_node_num(), err = 0;
    int v = me * 10, w = 0, where = 0;
    double m = (me == 2 || me == 3) ? 5.0 : (double)me;
    int at = me;
    double n = (me >= 3) ? -1.0 : 1.0;
    int nat = me;
    if (me == 3)
        w = 7;
#pragma xmp bcast (w) from p(3) on p(3:4)
    if (me >= 3 && w != 7)
        err++;
    if (me < 3 && w != 0)
        err++;
#pragma xmp barrier on p(1:2)
#pragma xmp reduction (+:v) on p(1:2)
    if (me <= 2 && v != 30)
        err++;
#pragma xmp reduction (firstmax:m/at/)
    if (m != 5.0 || at != 2)
        err++;
#pragma xmp reduction (lastmin:n/nat/)
    if (n != -1.0 || nat != 4)
        err++;
    where = err;
#pragma xmp reduction (+:where)
    if (me == 1)
        printf(where == 0 ? "PASS\n" : "ERROR: %d\n", where);
    return where != 0;
}
"#,
    ),
    (
        "task_template",
        r#"/* task on the node owning a template index; nocomm.
 * xmpc-test: np=1,2,4 */
#include <stdio.h>
#include <xmp.h>
#define N 40
#pragma xmp nodes p(*)
#pragma xmp template t(0:N-1)
#pragma xmp distribute t(block) onto p
int a[N];
#pragma xmp align a[i] with t(i)
int main(void)
{
    int i, owner = 0, ok = 0;
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = i * i;
#pragma xmp task on t(N - 1) nocomm
    {
        owner = 1;
        ok = a[N - 1] == (N - 1) * (N - 1);
    }
#pragma xmp reduction (+:owner, ok)
    if (xmp_node_num() == 1)
        printf(owner == 1 && ok == 1 ? "PASS\n" : "ERROR\n");
    return !(owner == 1 && ok == 1);
}
"#,
    ),
    (
        "template_fix",
        r#"/* a template sized at run time: template_fix, then xmp_malloc of a pointer array.
 * xmpc-test: np=1,2,4 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(*)
#pragma xmp template t(:)
#pragma xmp distribute t(block) onto p
double *d;
#pragma xmp align d[i] with t(i)
int main(int argc, char **argv)
{
    int i, n = argc > 1 ? atoi(argv[1]) : 50;
    double s = 0.0;
#pragma xmp template_fix t(0:n-1)
    d = (double *)xmp_malloc(xmp_desc_of(d), n);
#pragma xmp loop on t(i)
    for (i = 0; i < n; i++)
        d[i] = 2.0;
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < n; i++)
        s += d[i];
    if (xmp_node_num() == 1)
        printf(s == 2.0 * n ? "PASS\n" : "ERROR\n");
    return s != 2.0 * n;
}
"#,
    ),
    (
        "himeno_rows",
        r#"/*
 * Himeno-like Jacobi kernel (19-point stencil), host XMP: block rows.
 * XcalableACC: the outer dimension is block-distributed, halos move on the
 * device with reflect_do ... acc, gosa is reduced on the device.
 * The same kernel runs sequentially on every node for the check.
 *
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <xmp.h>

#define MIMAX 65
#define MJMAX 33
#define MKMAX 33
#define NN    20

#pragma xmp nodes p(*)
#pragma xmp template t(0:MIMAX-1)
#pragma xmp distribute t(block) onto p

float p[MIMAX][MJMAX][MKMAX];
float wrk2[MIMAX][MJMAX][MKMAX];
float bnd[MIMAX][MJMAX][MKMAX];
#pragma xmp align [i][*][*] with t(i) :: p, wrk2, bnd
#pragma xmp shadow p[1:1][0][0]

static float sp[MIMAX][MJMAX][MKMAX], swrk[MIMAX][MJMAX][MKMAX];

static const float a0 = 1.0f, a3 = 1.0f / 6.0f, b0 = 0.0f, c0 = 1.0f, omega = 0.8f;

static void init_ref(void)
{
    int i, j, k;
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++)
                sp[i][j][k] = (float)(i * i) / (float)((MIMAX - 1) * (MIMAX - 1));
}

static float jacobi_ref(int nn)
{
    int i, j, k, n;
    float gosa = 0.0f, s0, ss;
    for (n = 0; n < nn; n++) {
        gosa = 0.0f;
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++) {
                    s0 = a0 * sp[i + 1][j][k] + a0 * sp[i][j + 1][k] + a0 * sp[i][j][k + 1]
                       + b0 * (sp[i + 1][j + 1][k] - sp[i + 1][j - 1][k] - sp[i - 1][j + 1][k] + sp[i - 1][j - 1][k])
                       + c0 * sp[i - 1][j][k] + c0 * sp[i][j - 1][k] + c0 * sp[i][j][k - 1];
                    ss = (s0 * a3 - sp[i][j][k]) * 1.0f;
                    gosa += ss * ss;
                    swrk[i][j][k] = sp[i][j][k] + omega * ss;
                }
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++)
                    sp[i][j][k] = swrk[i][j][k];
    }
    return gosa;
}

static float jacobi(int nn)
{
    int i, j, k, n;
    float gosa = 0.0f, s0, ss;

    for (n = 0; n < nn; n++) {
        gosa = 0.0f;
#pragma xmp reflect (p)
#pragma xmp loop (i) on t(i)
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++) {
                    s0 = a0 * p[i + 1][j][k] + a0 * p[i][j + 1][k] + a0 * p[i][j][k + 1]
                       + b0 * (p[i + 1][j + 1][k] - p[i + 1][j - 1][k] - p[i - 1][j + 1][k] + p[i - 1][j - 1][k])
                       + c0 * p[i - 1][j][k] + c0 * p[i][j - 1][k] + c0 * p[i][j][k - 1];
                    ss = (s0 * a3 - p[i][j][k]) * bnd[i][j][k];
                    gosa += ss * ss;
                    wrk2[i][j][k] = p[i][j][k] + omega * ss;
                }

#pragma xmp loop (i) on t(i)
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++)
                    p[i][j][k] = wrk2[i][j][k];

#pragma xmp reduction (+:gosa)
    }
    return gosa;
}

int main(void)
{
    int i, j, k;
    float gosa, ref, rel;

#pragma xmp loop (i) on t(i)
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++) {
                p[i][j][k] = (float)(i * i) / (float)((MIMAX - 1) * (MIMAX - 1));
                wrk2[i][j][k] = 0.0f;
                bnd[i][j][k] = 1.0f;
            }

    {
#pragma xmp reflect_init (p)
        gosa = jacobi(NN);
    }

    init_ref();
    ref = jacobi_ref(NN);
    rel = (gosa - ref) / ref;
    if (rel < 0)
        rel = -rel;

    if (xmp_node_num() == 1) {
        if (rel < 1e-3f)
            printf("PASS\n");
        else
            printf("ERROR: gosa %e, expected %e\n", gosa, ref);
    }
    return rel < 1e-3f ? 0 : 1;
}
"#,
    ),
    (
        "himeno_2d",
        r#"/*
 * Himeno-like Jacobi kernel (19-point stencil), host XMP: 2-D block (strided halos).
 * XcalableACC: the outer dimension is block-distributed, halos move on the
 * device with reflect_do ... acc, gosa is reduced on the device.
 * The same kernel runs sequentially on every node for the check.
 *
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <xmp.h>

#define MIMAX 65
#define MJMAX 33
#define MKMAX 33
#define NN    20

#pragma xmp nodes p(2, *)
#pragma xmp template t(0:MJMAX-1, 0:MIMAX-1)
#pragma xmp distribute t(block, block) onto p

float p[MIMAX][MJMAX][MKMAX];
float wrk2[MIMAX][MJMAX][MKMAX];
float bnd[MIMAX][MJMAX][MKMAX];
#pragma xmp align [i][j][*] with t(j, i) :: p, wrk2, bnd
#pragma xmp shadow p[1:1][1:1][0]

static float sp[MIMAX][MJMAX][MKMAX], swrk[MIMAX][MJMAX][MKMAX];

static const float a0 = 1.0f, a3 = 1.0f / 6.0f, b0 = 0.0f, c0 = 1.0f, omega = 0.8f;

static void init_ref(void)
{
    int i, j, k;
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++)
                sp[i][j][k] = (float)(i * i) / (float)((MIMAX - 1) * (MIMAX - 1));
}

static float jacobi_ref(int nn)
{
    int i, j, k, n;
    float gosa = 0.0f, s0, ss;
    for (n = 0; n < nn; n++) {
        gosa = 0.0f;
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++) {
                    s0 = a0 * sp[i + 1][j][k] + a0 * sp[i][j + 1][k] + a0 * sp[i][j][k + 1]
                       + b0 * (sp[i + 1][j + 1][k] - sp[i + 1][j - 1][k] - sp[i - 1][j + 1][k] + sp[i - 1][j - 1][k])
                       + c0 * sp[i - 1][j][k] + c0 * sp[i][j - 1][k] + c0 * sp[i][j][k - 1];
                    ss = (s0 * a3 - sp[i][j][k]) * 1.0f;
                    gosa += ss * ss;
                    swrk[i][j][k] = sp[i][j][k] + omega * ss;
                }
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++)
                    sp[i][j][k] = swrk[i][j][k];
    }
    return gosa;
}

static float jacobi(int nn)
{
    int i, j, k, n;
    float gosa = 0.0f, s0, ss;

    for (n = 0; n < nn; n++) {
        gosa = 0.0f;
#pragma xmp reflect (p)
#pragma xmp loop (j, i) on t(j, i)
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++) {
                    s0 = a0 * p[i + 1][j][k] + a0 * p[i][j + 1][k] + a0 * p[i][j][k + 1]
                       + b0 * (p[i + 1][j + 1][k] - p[i + 1][j - 1][k] - p[i - 1][j + 1][k] + p[i - 1][j - 1][k])
                       + c0 * p[i - 1][j][k] + c0 * p[i][j - 1][k] + c0 * p[i][j][k - 1];
                    ss = (s0 * a3 - p[i][j][k]) * bnd[i][j][k];
                    gosa += ss * ss;
                    wrk2[i][j][k] = p[i][j][k] + omega * ss;
                }

#pragma xmp loop (j, i) on t(j, i)
        for (i = 1; i < MIMAX - 1; i++)
            for (j = 1; j < MJMAX - 1; j++)
                for (k = 1; k < MKMAX - 1; k++)
                    p[i][j][k] = wrk2[i][j][k];

#pragma xmp reduction (+:gosa)
    }
    return gosa;
}

int main(void)
{
    int i, j, k;
    float gosa, ref, rel;

#pragma xmp loop (j, i) on t(j, i)
    for (i = 0; i < MIMAX; i++)
        for (j = 0; j < MJMAX; j++)
            for (k = 0; k < MKMAX; k++) {
                p[i][j][k] = (float)(i * i) / (float)((MIMAX - 1) * (MIMAX - 1));
                wrk2[i][j][k] = 0.0f;
                bnd[i][j][k] = 1.0f;
            }

    {
#pragma xmp reflect_init (p)
        gosa = jacobi(NN);
    }

    init_ref();
    ref = jacobi_ref(NN);
    rel = (gosa - ref) / ref;
    if (rel < 0)
        rel = -rel;

    if (xmp_node_num() == 1) {
        if (rel < 1e-3f)
            printf("PASS\n");
        else
            printf("ERROR: gosa %e, expected %e\n", gosa, ref);
    }
    return rel < 1e-3f ? 0 : 1;
}
"#,
    ),
    (
        "down_loops",
        r#"/* loops counting downwards on block and cyclic templates (with a step).
 * xmpc-test: np=1,2,4 */
#include <stdio.h>
#include <xmp.h>
#define N 50
#pragma xmp nodes p(*)
#pragma xmp template tb(0:N-1)
#pragma xmp template tc(0:N-1)
#pragma xmp distribute tb(block) onto p
#pragma xmp distribute tc(cyclic) onto p
int a[N], c[N];
#pragma xmp align a[i] with tb(i)
#pragma xmp align c[i] with tc(i)
int main(void)
{
    int i;
    long s1 = 0, s2 = 0, s3 = 0, r1 = 0, r2 = 0, r3 = 0;
#pragma xmp loop on tb(i)
    for (i = N - 1; i >= 0; i--)
        a[i] = i;
#pragma xmp loop on tc(i)
    for (i = N - 1; i >= 0; --i)
        c[i] = 2 * i;
#pragma xmp loop on tb(i) reduction(+:s1)
    for (i = N - 1; i > 0; i -= 3)
        s1 += a[i];
#pragma xmp loop on tc(i) reduction(+:s2)
    for (i = N - 2; i >= 1; i -= 4)
        s2 += c[i];
#pragma xmp loop on tc(i) reduction(+:s3)
    for (i = N - 1; i >= 0; i--)
        s3 += c[i];
    for (i = N - 1; i > 0; i -= 3)
        r1 += i;
    for (i = N - 2; i >= 1; i -= 4)
        r2 += 2 * i;
    for (i = N - 1; i >= 0; i--)
        r3 += 2 * i;
    if (xmp_node_num() == 1)
        printf(s1 == r1 && s2 == r2 && s3 == r3 ? "PASS\n" : "ERROR %ld/%ld %ld/%ld %ld/%ld\n", s1, r1, s2, r2, s3, r3);
    return !(s1 == r1 && s2 == r2 && s3 == r3);
}
"#,
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// All programs: (name, file name, text).
fn programs() -> Vec<(String, String, String)> {
    let mut v = Vec::new();
    for c in CORPUS {
        let path = root().join("testsuite/corpus/c").join(format!("{c}.c"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        v.push((c.to_string(), format!("{c}.c"), text));
    }
    for (n, t) in INLINE {
        v.push((n.to_string(), format!("{n}.c"), t.to_string()));
    }
    v
}

fn translate(name: &str, text: &str) -> String {
    let parsed = xmpc_frontend::parse_source(0, name, text, Lang::C);
    let errs: Vec<_> = parsed.diags.iter().filter(|d| d.severity >= Severity::Error).collect();
    assert!(errs.is_empty(), "{name}: front-end errors {errs:?}");
    let check = xmpc_passes::check::check(&parsed.unit, text);
    assert!(check.is_empty(), "{name}: check errors {check:?}");
    let edits = match xmpc_backends::c::translate(&parsed.unit, text) {
        Ok(e) => e,
        Err(d) => panic!("{name}: translation errors:\n{}", xmpc_ir::diag::render_plain(name, text, &d)),
    };
    xmpc_backends::emit(&parsed.unit, text, &edits).expect("edits splice")
}

#[test]
fn at_least_fifteen_programs() {
    assert!(programs().len() >= 15);
}

#[test]
fn translated_c_snapshots() {
    for (name, file, text) in programs() {
        let out = translate(&file, &text);
        insta::assert_snapshot!(name.as_str(), out);
    }
}

#[test]
fn translation_is_deterministic_and_keeps_user_code() {
    for (_, file, text) in programs() {
        let a = translate(&file, &text);
        assert_eq!(a, translate(&file, &text));
        assert!(a.contains("#include \"xmpc_rt.h\""), "{file}");
        assert!(a.contains("xmpc_user_main"), "{file}: main not wrapped");
        // Every real directive line is gone (a commented-out one may stay).
        for d in xmpc_frontend::c::mask::mask(&text).directives {
            let first = text[d.span.range()].lines().next().unwrap_or("").trim();
            assert!(!a.lines().any(|l| l.trim() == first), "{file}: `{first}` was left untranslated");
        }
    }
}

/// C gives `main` an implicit `return 0` when it falls off its end; renamed to
/// `xmpc_user_main` it would not, and the program's exit status was garbage (Omni's
/// shadow-reflect/C/full3.c printed PASS and failed with a non-zero status). xmpc adds
/// the return.
#[test]
fn main_falling_off_its_end_returns_0() {
    let src = "#include <stdio.h>\n#pragma xmp nodes p[2]\nint main(){\n#pragma xmp task on p[0]\n  {\n    printf(\"PASS\\n\");\n  }\n}\n";
    let out = translate("noret.c", src);
    let user = &out[out.find("int xmpc_user_main").expect("main renamed")..];
    let body = &user[..user.find("\n}").expect("end of main")];
    assert!(body.trim_end().ends_with("return 0; /* xmpc: main's implicit return */"), "{user}");
    // a main that ends in its own return keeps only that one
    let src = "#pragma xmp nodes p[2]\nint main(void)\n{\n  return 3;\n}\n";
    assert!(!translate("ret.c", src).contains("implicit return"));
}

/// A directory with `xmp.h` when the runtime does not ship one yet.
fn include_dirs(tmp: &Path) -> Vec<PathBuf> {
    let rt = root().join("runtime/lib/xmp/include");
    let mut v = vec![];
    if !rt.join("xmp.h").exists() {
        let stub = tmp.join("stub");
        std::fs::create_dir_all(&stub).unwrap();
        std::fs::write(
            stub.join("xmp.h"),
            "int xmp_node_num(void);\nint xmp_num_nodes(void);\nint xmp_all_node_num(void);\ndouble xmp_wtime(void);\nvoid *xmp_malloc(void *d, ...);\n",
        )
        .unwrap();
        v.push(stub);
    }
    v.push(rt);
    v
}

fn cc() -> String {
    std::env::var("XMPC_CC").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "mpicc".into())
}

#[test]
fn every_snapshot_compiles_with_mpicc() {
    let cc = cc();
    if Command::new(&cc).arg("--version").output().is_err() {
        eprintln!("skipped: `{cc}` not found (set XMPC_CC)");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xmpc-translate-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let incs: Vec<String> = include_dirs(&tmp).iter().map(|d| format!("-I{}", d.display())).collect();
    // The runtime header itself must compile; if it does not (being regenerated), say so.
    let probe = tmp.join("probe.c");
    std::fs::write(&probe, "#include \"xmpc_rt.h\"\nint main(void) { return 0; }\n").unwrap();
    let o = Command::new(&cc).args(&incs).args(["-fsyntax-only"]).arg(&probe).output().unwrap();
    if !o.status.success() {
        eprintln!("skipped: runtime/lib/xmp/include/xmpc_rt.h does not compile on its own:\n{}", String::from_utf8_lossy(&o.stderr));
        return;
    }
    let mut failures = vec![];
    for (name, file, text) in programs() {
        let c = tmp.join(&file);
        std::fs::write(&c, translate(&file, &text)).unwrap();
        let o = Command::new(&cc).args(&incs).args(["-Wall", "-Wno-unknown-pragmas", "-fsyntax-only", "-D_XMP"]).arg(&c).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        if !o.status.success() || err.contains("warning:") {
            failures.push(format!("{name}:\n{err}"));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(failures.is_empty(), "translated programs that do not compile cleanly:\n{}", failures.join("\n"));
}

/// Translation errors: a located XMP03xx diagnostic each, never a panic.
#[test]
fn unsupported_forms_give_located_diagnostics() {
    const HEAD: &str = "#pragma xmp nodes p(*)\n#pragma xmp template t(0:99)\n#pragma xmp distribute t(block) onto p\ndouble a[100], b[10][10];\n#pragma xmp align a[i] with t(i)\n";
    let cases: &[(&str, &str, &str)] = &[
        ("passed_to_function", "void f(double *);\nvoid g(void) { f(a); }\n", "XMP0301"),
        ("bare_name", "double *g(void) { return a + 1; }\n", "XMP0301"),
        ("doubling_step", "void g(void) { int i;\n#pragma xmp loop on t(i)\n  for (i = 1; i < 100; i *= 2) a[i] = 0; }\n", "XMP0302"),
        ("not_an_index", "void g(void) { int i, k;\n#pragma xmp loop on t(i)\n  for (k = 0; k < 100; k++) a[k] = 0; }\n", "XMP0302"),
        ("skipped_loop_bound", "void g(void) { int i, k;\n#pragma xmp loop on t(i)\n  for (k = 0; k < 10; k++) for (i = k; i < 100; i++) a[i] = 0; }\n", "XMP0302"),
        ("loop_index_of_other_dim", "#pragma xmp nodes q[2][2]\n#pragma xmp template t2[10][10]\n#pragma xmp distribute t2[block][block] onto q\nint c[10][10];\n#pragma xmp align c[i][j] with t2[i][j]\nvoid g(void) { int i, j;\n#pragma xmp loop on t2[j][i]\n  for (i = 0; i < 10; i++) for (j = 0; j < 10; j++) c[i][j] = 0; }\n", "XMP0302"),
        ("loop_index_of_other_template", "#pragma xmp template tc(0:99)\n#pragma xmp distribute tc(cyclic) onto p\nvoid g(void) { int i;\n#pragma xmp loop on tc(i)\n  for (i = 0; i < 100; i++) a[i] = 0; }\n", "XMP0302"),
        ("goto_out_of_task", "int g(void) {\n#pragma xmp task on p(1)\n  { goto out; }\n out: return 0; }\n", "XMP0307"),
        ("param_plain_argument", "void f(double b[100]) {\n#pragma xmp align b[i] with t(i)\n  b[0] = 1; }\nvoid g(void) { double l[100]; f(l); }\n", "XMP0303"),
        ("param_other_template", "#pragma xmp template tc(0:99)\n#pragma xmp distribute tc(cyclic) onto p\nvoid f(double b[100]) {\n#pragma xmp align b[i] with tc(i)\n  b[0] = 1; }\nvoid g(void) { f(a); }\n", "XMP0303"),
        ("param_not_aligned", "void f(double *b) { b[0] = 1; }\nvoid g(void) { f(a); }\n", "XMP0301"),
        ("late_global_used_elsewhere", "double c[100];\nvoid h(void) { c[0] = 1; }\nvoid g(void) {\n#pragma xmp align c[i] with t(i)\n}\n", "XMP0303"),
        ("late_global_used_before", "double c[100];\nvoid g(void) { c[0] = 1;\n#pragma xmp align c[i] with t(i)\n}\n", "XMP0303"),
        ("struct_whole_use", "struct s { double x[100]; };\n#pragma xmp align s.x[i] with t(i)\nstruct s v, w;\nvoid g(void) { w = v; }\n", "XMP0301"),
        ("struct_member_unsubscripted", "struct s { double x[100]; };\n#pragma xmp align s.x[i] with t(i)\nstruct s v;\ndouble *g(void) { return v.x; }\n", "XMP0301"),
        ("struct_local", "struct s { double x[100]; };\n#pragma xmp align s.x[i] with t(i)\nvoid g(void) { struct s v; v.x[0] = 1; }\n", "XMP0303"),
        ("struct_array_of", "struct s { double x[100]; };\n#pragma xmp align s.x[i] with t(i)\nstruct s v[2];\n", "XMP0303"),
        ("struct_member_align_in_function", "struct s { double x[100]; };\nstruct s v;\nvoid g(void) {\n#pragma xmp align v.x[i] with t(i)\n}\n", "XMP0303"),
        ("struct_unknown", "#pragma xmp align nosuch.x[i] with t(i)\n", "XMP0103"),
        ("macro_reference", "#define A(i) a[i]\nvoid g(void) { }\n", "XMP0305"),
        ("bcast_distributed", "void g(void) {\n#pragma xmp bcast (a)\n}\n", "XMP0303"),
        ("gmove_not_assignment", "void g(void) { int x = 0;\n#pragma xmp gmove\n  x++;\n}\n", "XMP0306"),
        ("expand_cyclic", "#pragma xmp template tc(0:99)\n#pragma xmp distribute tc(cyclic) onto p\nvoid g(void) { int i, s = 0;\n#pragma xmp loop on tc(i) expand(1)\n  for (i = 0; i < 100; i++) s++; }\n", "XMP0304"),
        ("margin_step_2", "void g(void) { int i;\n#pragma xmp loop on t(i) margin(1)\n  for (i = 0; i < 100; i += 2) a[i] = 0; }\n", "XMP0304"),
        ("expand_width_count", "void g(void) { int i;\n#pragma xmp loop on t(i) expand(1, 1)\n  for (i = 0; i < 100; i++) a[i] = 0; }\n", "XMP0304"),
    ];
    for (name, body, code) in cases {
        let text = format!("{HEAD}{body}");
        let parsed = xmpc_frontend::parse_source(0, name, &text, Lang::C);
        assert!(parsed.diags.iter().all(|d| d.severity < Severity::Error), "{name}: {:?}", parsed.diags);
        match xmpc_backends::c::translate(&parsed.unit, &text) {
            Ok(_) => panic!("{name}: translated without an error"),
            Err(d) => {
                let r = xmpc_ir::diag::render_plain(&format!("{name}.c"), &text, &d);
                assert!(r.contains(&format!("error[{code}]")) && r.contains(&format!("{name}.c:")), "{name}: expected {code}, got\n{r}");
            }
        }
    }
}

/// A macro's own parameters are not references to a distributed array of the same
/// name (a `#define A(i) a[i]` body still is: see `macro_reference` above).
#[test]
fn macro_parameters_named_like_arrays_are_fine() {
    let text = "#pragma xmp nodes p(*)\n#pragma xmp template t(0:9)\n#pragma xmp distribute t(block) onto p\nint c[10];\n#pragma xmp align c[i] with t(i)\n#define CHECK(c) \\\n  if (!(c)) return 1\nint g(int x) { CHECK(x > 0); return 0; }\n";
    let parsed = xmpc_frontend::parse_source(0, "m.c", text, Lang::C);
    assert!(parsed.diags.iter().all(|d| d.severity < Severity::Error), "{:?}", parsed.diags);
    if let Err(d) = xmpc_backends::c::translate(&parsed.unit, text) {
        panic!("{}", xmpc_ir::diag::render_plain("m.c", text, &d));
    }
}

/// Every program whose translation is golden above is also compiled with the `xmpc`
/// driver and run under `mpiexec` at each process count its header declares: it must
/// exit 0 and print PASS exactly once.
#[test]
fn every_snapshot_program_runs() {
    use xmpc_testsuite::conformance::{parse_header, run_program, Options, Program};
    let opts = Options::defaults();
    if !opts.xmpc.is_file() {
        // `cargo test --workspace` (CI) always builds it; a lone `-p` run may not.
        panic!("{} not built: run `cargo build -p xmpc -p xmpc-rt` or the whole workspace", opts.xmpc.display());
    }
    let dir = tempfile::tempdir().unwrap();
    let mut opts = opts;
    opts.work = dir.path().to_path_buf();
    let mut failures = Vec::new();
    for (name, file, text) in programs() {
        let path = dir.path().join(&file);
        std::fs::write(&path, &text).unwrap();
        let (nps, _) = parse_header(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let p = Program { path, name: format!("golden_{name}"), family: "golden", nps: nps.clone(), expect_fail: None };
        for r in run_program(&p, &nps, &opts, false) {
            if !r.passed {
                failures.push(format!("{file} np={}: {}", r.np, r.detail));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
