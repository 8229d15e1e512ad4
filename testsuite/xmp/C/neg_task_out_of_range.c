/* Negative: a node reference outside the node set (task on p(k) with k = P + 1
 * computed at run time) must stop with a runtime error.
 * xmpc-test: np=2 expect-fail="xmpc runtime error: ;neg_task_out_of_range.c:11:"
 */
#include <stdio.h>
#include <xmp.h>
#pragma xmp nodes p(*)
int main(void)
{
    int k = xmp_num_nodes() + 1, x = 0;
#pragma xmp task on p(k)
    x = 1;
#pragma xmp bcast (x) from p(k)
    printf("PASS\n");
    return x;
}
