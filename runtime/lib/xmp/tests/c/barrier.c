/* xmpc_barrier (FBS flags on a node, MPI among node leaders): over many
 * barrier points, each process adds 1 to a per-point counter in a window
 * shared by all processes before the barrier and, after it, must find every
 * process's addition there and none for a later point. Also on node subsets
 * (other communicators), with random delays, and with an MPI message that
 * needs the sender's progress while the sender waits in the barrier.
 * XMPC_TEST_ITERS: iterations (default 5000). Prints "fbs points N" (barriers that
 * went through FBS on this process) from node 1. */
#include "check.h"
#include <mpi.h>

#define RING 4

static unsigned long long *ring;

static void point(long i, long n, xmpc_nodes *on) {
  unsigned long long *c = &ring[i % RING];
  __atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
  xmpc_barrier(&L, on);
  unsigned long long want = (unsigned long long)n * (i / RING + 1);
  unsigned long long got = __atomic_load_n(c, __ATOMIC_RELAXED);
  if (got != want) {
    fprintf(stderr, "[node %d] point %ld: %llu arrivals, want %llu\n", xmp_all_node_num(), i, got, want);
    fails++;
  }
}

int main(int argc, char **argv) {
  xmpc_init(&argc, &argv);
  const char *it = getenv("XMPC_TEST_ITERS");
  long iters = it ? atol(it) : 5000;
  int me = xmp_node_num(), n = xmp_num_nodes();
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int nn;
  MPI_Comm_size(node, &nn);
  CHECK(nn == n); /* the counters need every process on this machine */
  /* counters: 2 rings (all nodes; the subset), in node rank 0's part */
  MPI_Win win;
  unsigned long long *mine;
  MPI_Win_allocate_shared(me == 1 ? 2 * RING * sizeof *ring : 0, 1, MPI_INFO_NULL, node, &mine, &win);
  MPI_Aint sz;
  int du;
  MPI_Win_shared_query(win, 0, &sz, &du, &ring);
  if (me == 1) memset(ring, 0, 2 * RING * sizeof *ring);
  MPI_Barrier(MPI_COMM_WORLD);

  unsigned seed = 12345u * me;
  for (long i = 0; i < iters; i++) {
    if (rand_r(&seed) % 64 == 0)
      for (volatile int k = rand_r(&seed) % 5000; k > 0; k--) {
      }
    point(i, n, NULL);
  }
  /* a node subset: nodes 1..n-1 (its own communicator and flags) */
  xmpc_nodes *p = nodes1(0);
  ring += RING;
  long lo = 1, hi = n > 1 ? n - 1 : 1, st = 1;
  if (xmpc_task_begin(&L, p, &lo, &hi, &st, 0)) {
    for (long i = 0; i < iters / 4; i++) point(i, hi, NULL);
    xmpc_task_end();
  }
  ring -= RING;
  /* node 1 sends a large message and enters the barrier before waiting for
   * it; node n receives it before entering: it completes only if the sender
   * makes MPI progress while it waits in the barrier */
  if (n > 1) {
    int len = 1 << 22;
    char *buf = malloc(len);
    memset(buf, me, len);
    MPI_Request rq = MPI_REQUEST_NULL;
    if (me == 1) MPI_Isend(buf, len, MPI_CHAR, n - 1, 7, MPI_COMM_WORLD, &rq);
    if (me == n) {
      MPI_Recv(buf, len, MPI_CHAR, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(buf[0] == 1 && buf[len - 1] == 1);
    }
    xmpc_barrier(&L, NULL);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    free(buf);
  }
  long pts = xmpc_rt_fbs_points();
  if (me == 1) printf("fbs points %ld\n", pts);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  return finish();
}
