/* bcast ... from t[j][:]: the node owning template row j (Omni bcast6), with and without
 * an `on` template reference.
 * xmpc-test: np=1,2,3,4
 */
#include <stdio.h>
#include <xmp.h>
#define N 16
#pragma xmp nodes p[*]
#pragma xmp template t[N][N]
#pragma xmp distribute t[block][*] onto p
int main(void) {
  int err = 0;
  for (int j = 0; j < N; j++) {
    int a = xmp_node_num();
    double v[3] = {a, a + 1, a + 2};
#pragma xmp bcast (a) from t[j][:] on t[:][:]
#pragma xmp bcast (v) from t[j][:]
    int w = (N + xmp_num_nodes() - 1) / xmp_num_nodes();
    int ans = j / w + 1;
    if (a != ans || v[2] != ans + 2) err++;
  }
#pragma xmp reduction(+:err)
  if (err) { printf("ERROR %d\n", err); return 1; }
  if (xmp_node_num() == 1) printf("PASS\n");
  return 0;
}
