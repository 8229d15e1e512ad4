/* `acc host_data use_device(a)` with a distributed `a`: inside it the bare name is
 * the device address of the node's local block, as in Omni (XACC
 * reflect_reallocated.c: `acc_a_0 = a;`). Under gcc's host fallback that is the
 * host block, xmp_array_laddr's address.
 * xmpc-test: np=1,2,4
 */
#include <stdio.h>
#include <xmp.h>
#include <openacc.h>
#define N 32
#pragma xmp nodes p[*]
#pragma xmp template t[N]
#pragma xmp distribute t[block] onto p
static int nerr;
#define CHECK(c) do { if (!(c)) { if (nerr++ < 5) printf("ERROR line %d node %d: %s\n", __LINE__, xmp_node_num(), #c); } } while (0)

int main(void)
{
    int a[N];
    double b[N][3];
#pragma xmp align a[i] with t[i]
#pragma xmp align b[i][*] with t[i]
#pragma xmp shadow a[1:1]
    void *da = 0, *db = 0, *ha = 0, *hb = 0;
#pragma xmp loop [i] on t[i]
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma acc data copy(a, b)
    {
#pragma acc host_data use_device(a, b)
        {
            da = a;
            db = b;
        }
    }
    xmp_array_laddr(xmp_desc_of(a), &ha);
    xmp_array_laddr(xmp_desc_of(b), &hb);
    if (acc_get_device_type() == acc_device_host) {
        CHECK(da == ha);
        CHECK(db == hb);
    }
    CHECK(da != 0 && db != 0 && da != db);
#pragma xmp reduction (+:nerr)
    if (nerr) {
        printf("ERROR: %d failed checks\n", nerr);
        return 1;
    }
#pragma xmp task on p[0]
    printf("PASS\n");
    return 0;
}
