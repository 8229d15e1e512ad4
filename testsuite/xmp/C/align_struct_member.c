/* Distributed structure members (Omni's structure/ tests, further): a member aligned
 * through the structure's tag (every variable of the type: two of them, independent),
 * through a typedef name, and through a variable; block and cyclic templates, a 2-D
 * member with a `*` dimension, a shadow declared on the type and reflected, gmove
 * between members and local arrays, the `array` directive, and the other members used
 * as usual.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 12
#define M 3
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp distribute t[block] onto p
#pragma xmp template tc[N]
#pragma xmp distribute tc[cyclic] onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)

struct field {
    int n;
    double a[N];
    int b[M][N];
};
#pragma xmp align field.a[i] with t[i]
#pragma xmp align field.b[*][i] with tc[i]
#pragma xmp shadow field.a[1]
struct field c, d;

typedef struct {
    long v[N];
    long tag;
} rec_t;
#pragma xmp align rec_t.v[i] with tc[i]
rec_t r;

struct plain {
    int a[N];
};
struct plain e;
#pragma xmp align e.a[i] with t[i]

int main(void)
{
    c.n = 7;
    d.n = 8;
    r.tag = 5;
#pragma xmp loop on t[i]
    for (int i = 0; i < N; i++) {
        c.a[i] = i;
        d.a[i] = 100 + i;
        e.a[i] = 2 * i;
    }
#pragma xmp loop on tc[i]
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < M; k++) {
            c.b[k][i] = k * N + i;
            d.b[k][i] = -1;
        }
        r.v[i] = 10 * i;
    }
    /* reductions over each member */
    double sa = 0, sd = 0;
    long sv = 0, sb = 0, se = 0;
#pragma xmp loop on t[i] reduction(+:sa, sd, se)
    for (int i = 0; i < N; i++) {
        sa += c.a[i];
        sd += d.a[i];
        se += e.a[i];
    }
#pragma xmp loop on tc[i] reduction(+:sv, sb)
    for (int i = 0; i < N; i++) {
        sv += r.v[i];
        for (int k = 0; k < M; k++)
            sb += c.b[k][i];
    }
    CHECK(sa == N * (N - 1) / 2);
    CHECK(sd == 100 * N + N * (N - 1) / 2);
    CHECK(se == N * (N - 1));
    CHECK(sv == 10 * N * (N - 1) / 2);
    CHECK(sb == (M * N) * (M * N - 1) / 2);
    CHECK(c.n == 7 && d.n == 8 && r.tag == 5);

    /* the shadow declared on the type: neighbours after reflect */
#pragma xmp reflect (c.a)
    int bad = 0;
#pragma xmp loop on t[i] reduction(+:bad)
    for (int i = 1; i < N - 1; i++)
        bad += (c.a[i - 1] != i - 1) + (c.a[i + 1] != i + 1);
    CHECK(bad == 0);

    /* gmove: member to local, member to member (different templates), local to member */
    double loc[N];
    for (int i = 0; i < N; i++)
        loc[i] = -1;
#pragma xmp gmove
    loc[2:5] = d.a[4:5];
    for (int i = 0; i < N; i++)
        CHECK(loc[i] == ((i >= 2 && i < 7) ? 100 + i + 2 : -1));
#pragma xmp gmove
    d.b[1][0:N] = c.b[2][0:N];
    long lv[N];
    for (int i = 0; i < N; i++)
        lv[i] = 1000 + i;
#pragma xmp gmove
    r.v[0:N] = lv[0:N];
    bad = 0;
#pragma xmp loop on tc[i] reduction(+:bad)
    for (int i = 0; i < N; i++)
        bad += (d.b[1][i] != 2 * N + i) + (d.b[0][i] != -1) + (r.v[i] != 1000 + i);
    CHECK(bad == 0);

    /* the array directive on a member */
#pragma xmp array on t[:]
    e.a[:] = 4;
    se = 0;
#pragma xmp loop on t[i] reduction(+:se)
    for (int i = 0; i < N; i++)
        se += e.a[i];
    CHECK(se == 4 * N);

#pragma xmp reduction(+:nerr)
    if (xmpc_node_num() == 0)
        printf(nerr ? "ERROR: %d failure(s)\n" : "PASS\n", nerr);
    return nerr != 0;
}
