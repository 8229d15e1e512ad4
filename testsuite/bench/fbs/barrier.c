/* Process barrier benchmark (run.py): argv[1] "xmp" (xmpc_barrier: FBS flags
 * unless XMPC_FBS=0) or "mpi" (MPI_Barrier on MPI_COMM_WORLD); argv[2]
 * samples, argv[3] episodes per sample. Node 1 prints one line per sample:
 * nanoseconds per barrier, then "fbs points N". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xmpc_rt.h"
#include "xmp.h"

static const xmpc_loc L = {__FILE__, 1, "barrier"};

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  int xmp = argc > 1 && strcmp(argv[1], "xmp") == 0;
  long samples = argc > 2 ? atol(argv[2]) : 100, batch = argc > 3 ? atol(argv[3]) : 1000;
  double *t = malloc(sizeof(double) * samples);
  for (long e = 0; e < batch; e++) xmp ? xmpc_barrier(&L, NULL) : (void)MPI_Barrier(MPI_COMM_WORLD);
  for (long s = 0; s < samples; s++) {
    double t0 = MPI_Wtime();
    if (xmp)
      for (long e = 0; e < batch; e++) xmpc_barrier(&L, NULL);
    else
      for (long e = 0; e < batch; e++) MPI_Barrier(MPI_COMM_WORLD);
    t[s] = (MPI_Wtime() - t0) * 1e9 / batch;
  }
  if (xmp_all_node_num() == 1) {
    for (long s = 0; s < samples; s++) printf("%.1f\n", t[s]);
    printf("fbs points %ld\n", xmpc_rt_fbs_points());
  }
  return xmpc_finalize(0);
}
