/* Negative: nodes p(2,2) on 3 processes (the product 4 differs from 3).
 * xmpc-test: np=3 expect-fail="xmpc runtime error: ;neg_nodes_2d_size.c:6:;4;3"
 */
#include <stdio.h>
#include <xmp.h>
#pragma xmp nodes p(2,2)
#pragma xmp template t(0:9, 0:9)
#pragma xmp distribute t(block, block) onto p
int main(void)
{
    printf("PASS\n");
    return 0;
}
