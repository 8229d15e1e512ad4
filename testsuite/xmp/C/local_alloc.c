/* Local view: an allocated coarray (the runtime's xmpc_co_alloc, MPI_Win_allocate)
 * used through a pointer with explicit-length coindexed sections, then freed; a
 * second allocation of another size. Values checked against closed forms.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <stdlib.h>
#include <xmp.h>
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d: %s\n", __LINE__, #c); } } while (0)
int main(void)
{
    int me = xmpc_this_image(), n = xmp_num_images();
    int to = (me + 1) % n, from = (me + n - 1) % n;
    for (int round = 0; round < 3; round++) {
        int len = 8 + 4 * round;
        int *p = xmpc_co_alloc(sizeof(int) * len);
        for (int i = 0; i < len; i++) CHECK(p[i] == 0);
        int loc[16];
        for (int i = 0; i < len; i++) loc[i] = 100 * me + i + round;
        xmp_sync_all(NULL);
        p[0:len]:[to] = loc[0:len];
        xmp_sync_all(NULL);
        for (int i = 0; i < len; i++) CHECK(p[i] == 100 * from + i + round);
        int got[8];
        got[0:4] = p[1:4:2]:[to];
        for (int i = 0; i < 4; i++) CHECK(got[i] == 100 * me + 1 + 2 * i + round);
        CHECK(p[len - 1]:[from] == 100 * ((from + n - 1) % n) + len - 1 + round);
        xmp_sync_all(NULL);
        xmpc_co_dealloc(p);
    }
#pragma xmp reduction(+:nerr)
    if (nerr) exit(1);
    if (me == 0) printf("PASS\n");
    return 0;
}
