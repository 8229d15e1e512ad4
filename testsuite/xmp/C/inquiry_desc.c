/* Mapping inquiry through descriptors: xmp_desc_of on an aligned array, a template
 * and a node set; xmp_array_ndims, xmp_array_lbound/ubound (global bounds of each
 * dimension, dimensions numbered from 1), xmp_template_ndims/lbound/ubound,
 * xmp_nodes_ndims and xmp_nodes_size.
 * xmpc-test: np=2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#define N 30
#define M 8
#pragma xmp nodes p(2,*)
#pragma xmp template t(0:M-1, 5:N+4)
#pragma xmp distribute t(block, block) onto p
int a[N][M];
#pragma xmp align a[i][j] with t(j, i+5)
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmp_node_num(), P = xmp_num_nodes(), v = -1, lb = -1, ub = -1;
    xmp_desc_t da = xmp_desc_of(a), dt = xmp_desc_of(t), dp = xmp_desc_of(p);
    CHECK(xmp_array_ndims(da, &v) == 0 && v == 2);
    CHECK(xmp_array_lbound(da, 1, &lb) == 0 && lb == 0);
    CHECK(xmp_array_ubound(da, 1, &ub) == 0 && ub == N - 1);
    CHECK(xmp_array_ubound(da, 2, &ub) == 0 && ub == M - 1);
    CHECK(xmp_template_ndims(dt, &v) == 0 && v == 2);
    CHECK(xmp_template_lbound(dt, 2, &lb) == 0 && lb == 5);
    CHECK(xmp_template_ubound(dt, 2, &ub) == 0 && ub == N + 4);
    CHECK(xmp_template_ubound(dt, 1, &ub) == 0 && ub == M - 1);
    CHECK(xmp_nodes_ndims(dp, &v) == 0 && v == 2);
    CHECK(xmp_nodes_size(dp, 1, &v) == 0 && v == 2);
    CHECK(xmp_nodes_size(dp, 2, &v) == 0 && v == P / 2);
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
