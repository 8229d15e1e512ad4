/* The mapping inquiry routines of the XMP 1.4 library chapter that are not in
 * inquiry_desc: xmp_align_axis/offset/replicated, xmp_dist_axis/format/blocksize/
 * gblockmap, xmp_array_gtol (the local index on the owning node, shadow included),
 * xmp_nodes_equiv/attr, xmpc_node_num and xmp_test_async, with the answers
 * worked out by hand for this mapping.
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
#pragma xmp nodes p(2,2)
#pragma xmp nodes q(2) = p(1:2, 2)
#pragma xmp template t(0:9, 0:7, 0:5)
#pragma xmp distribute t(block, cyclic(2), *) onto p
#pragma xmp template g(0:9)
int m[2] = {3, 7};
#pragma xmp distribute g(gblock(m)) onto q
int a[6][8][10], b[8];
#pragma xmp align a[i][j][k] with t(k, j, i)
#pragma xmp align b[j] with t(*, j + 0, *)
#pragma xmp shadow a[0][0][2:1]
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 8) printf("ERROR line %d (node %d): %s\n", __LINE__, xmp_node_num(), #c); } } while (0)
int main(void)
{
    int v = -1, lb[2], ub[2], st[2], map[2] = {0, 0};
    xmp_desc_t da = xmp_desc_of(a), db = xmp_desc_of(b), dt = xmp_desc_of(t), dq = xmp_desc_of(q), dn = 0;
    int me = xmp_node_num();
    CHECK(xmpc_node_num() == me - 1);
    /* a's dims (C order) against t's dims (round order) */
    CHECK(xmp_align_axis(da, 1, &v) == 0 && v == 3);
    CHECK(xmp_align_axis(da, 2, &v) == 0 && v == 2);
    CHECK(xmp_align_axis(da, 3, &v) == 0 && v == 1);
    CHECK(xmp_align_offset(da, 3, &v) == 0 && v == 0);
    CHECK(xmp_align_replicated(da, 1, &v) == 0 && v == 0);
    CHECK(xmp_align_replicated(db, 1, &v) == 0 && v == 1);
    CHECK(xmp_align_replicated(db, 2, &v) == 0 && v == 0);
    CHECK(xmp_align_replicated(db, 3, &v) == 0 && v == 1);
    CHECK(xmp_align_axis(db, 1, &v) == 0 && v == 2);
    CHECK(xmp_dist_axis(dt, 1, &v) == 0 && v == 1);
    CHECK(xmp_dist_axis(dt, 2, &v) == 0 && v == 2);
    CHECK(xmp_dist_axis(dt, 3, &v) == 0 && v == 0);
    CHECK(xmp_dist_format(dt, 1, &v) == 0 && v == XMP_BLOCK);
    CHECK(xmp_dist_format(dt, 2, &v) == 0 && v == XMP_CYCLIC);
    CHECK(xmp_dist_format(dt, 3, &v) == 0 && v == XMP_NOT_DISTRIBUTED);
    CHECK(xmp_dist_blocksize(dt, 1, &v) == 0 && v == 5);
    CHECK(xmp_dist_blocksize(dt, 2, &v) == 0 && v == 2);
    CHECK(xmp_dist_format(xmp_desc_of(g), 1, &v) == 0 && v == XMP_GBLOCK);
    CHECK(xmp_dist_gblockmap(xmp_desc_of(g), 1, map) == 0 && map[0] == 3 && map[1] == 7);
    CHECK(xmp_dist_gblockmap(dt, 1, map) != 0);
    /* gtol: dim 3 (block, width 5, shadow 2): 7 is element 2 of node 2's block,
     * after 2 shadow elements; dim 2 (cyclic(2) over 2 nodes): 6 is the 2nd element
     * of node 2's 2nd block (local 3); dim 1 is not distributed */
    CHECK(xmp_array_gtol(da, 3, 7, &v) == 0 && v == 4);
    CHECK(xmp_array_gtol(da, 3, 1, &v) == 0 && v == 3);
    CHECK(xmp_array_gtol(da, 2, 6, &v) == 0 && v == 2);
    CHECK(xmp_array_gtol(da, 2, 7, &v) == 0 && v == 3);
    CHECK(xmp_array_gtol(da, 1, 4, &v) == 0 && v == 4);
    CHECK(xmp_array_gtol(da, 1, 6, &v) != 0);
    /* q = p(1:2, 2) */
    CHECK(xmp_nodes_equiv(dq, &dn, lb, ub, st) == 0 && dn == xmp_desc_of(p));
    CHECK(lb[0] == 1 && ub[0] == 2 && st[0] == 1 && lb[1] == 2 && ub[1] == 2);
    CHECK(xmp_nodes_attr(dq, &v) == 0 && v == XMP_EQUIVALENCE_NODES);
    CHECK(xmp_nodes_attr(xmp_desc_of(p), &v) == 0 && v == XMP_PRIMARY_NODES);
    CHECK(xmp_test_async(7) == 1);
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 1) printf("PASS\n");
    return 0;
}
