/* The FBS barrier's spin policy asks how many CPUs the processes of a node may
 * use together (xs_team_cpus: the union of their affinity masks), not how many
 * this process may use: under `mpiexec -bind-to core` each process's own mask
 * holds one CPU, and judged per process 2 bound processes looked oversubscribed
 * (the barrier then yielded and slept at once; issue 22). Run bound and unbound:
 * the team count must be the distinct CPUs of all masks, whatever each one's own. */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
#include "check.h"
#include <mpi.h>

extern int xs_team_cpus(MPI_Fint c);

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  cpu_set_t own, all;
  CHECK(sched_getaffinity(0, sizeof own, &own) == 0);
  MPI_Allreduce(&own, &all, (int)sizeof own, MPI_UNSIGNED_CHAR, MPI_BOR, MPI_COMM_WORLD);
  int team = xs_team_cpus(MPI_Comm_c2f(MPI_COMM_WORLD));
  CHECK(team == CPU_COUNT(&all));
  CHECK(team >= CPU_COUNT(&own));
  if (xmp_all_node_num() == 1) printf("own %d team %d\n", CPU_COUNT(&own), team);
  return finish();
}
