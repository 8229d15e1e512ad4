/* libgomp's `#pragma omp barrier` in the same protocol as benches/barrier.rs:
 * argv: threads, samples, batch, warm-up episodes. Each thread pins itself to
 * CPU (thread id mod CPUs this process may use); thread 0 prints one line per
 * sample: nanoseconds per barrier over `batch` episodes. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  long samples = atol(argv[2]), batch = atol(argv[3]), warm = atol(argv[4]);
  double *out = malloc(sizeof(double) * samples);
  cpu_set_t all;
  sched_getaffinity(0, sizeof all, &all);
  int cpus[CPU_SETSIZE], nc = 0;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET(c, &all)) cpus[nc++] = c;
#pragma omp parallel num_threads(n)
  {
    int me = omp_get_thread_num();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus[me % nc], &one);
    sched_setaffinity(0, sizeof one, &one);
    for (long e = 0; e < warm; e++) {
#pragma omp barrier
    }
    for (long s = 0; s < samples; s++) {
      double t0 = now();
      for (long e = 0; e < batch; e++) {
#pragma omp barrier
      }
      if (me == 0) out[s] = (now() - t0) / batch;
    }
  }
  for (long s = 0; s < samples; s++) printf("%.2f\n", out[s]);
  return 0;
}
