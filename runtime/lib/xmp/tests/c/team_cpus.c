/* The FBS barrier's spin policy asks how many CPUs the processes of a node may
 * use together (xs_team_cpus: the union of their affinity masks), not how many
 * this process may use: under `mpiexec -bind-to core` each process's own mask
 * holds one CPU, and judged per process 2 bound processes looked oversubscribed
 * (the barrier then yielded and slept at once; issue 22). Run bound and unbound:
 * the team count must be the distinct CPUs of all masks, whatever each one's own.
 * xs_pinned_team (the shared-memory reflect's waiters then never yield) must hold
 * exactly when every mask is one CPU and they are distinct. */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
#include "check.h"
#include <mpi.h>

extern int xs_team_cpus(MPI_Fint c);
extern int xs_pinned_team(MPI_Fint c);

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  cpu_set_t own, all;
  CHECK(sched_getaffinity(0, sizeof own, &own) == 0);
  MPI_Allreduce(&own, &all, (int)sizeof own, MPI_UNSIGNED_CHAR, MPI_BOR, MPI_COMM_WORLD);
  int team = xs_team_cpus(MPI_Comm_c2f(MPI_COMM_WORLD));
  CHECK(team == CPU_COUNT(&all));
  CHECK(team >= CPU_COUNT(&own));
  /* pinned (reflect waiters never yield): one CPU each, all distinct */
  int n, one = CPU_COUNT(&own) == 1, all_one;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Allreduce(&one, &all_one, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  int pinned = xs_pinned_team(MPI_Comm_c2f(MPI_COMM_WORLD));
  CHECK(pinned == (all_one && team == n));
  if (xmp_all_node_num() == 1) printf("own %d team %d pinned %d\n", CPU_COUNT(&own), team, pinned);
  return finish();
}
