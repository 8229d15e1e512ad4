/* libxmpc_mpiete: MPIETE measurement runtime (docs/mpiete.md).
 *
 * Block calls inserted by `xmpc --blocks --instrument=compute|trace` (or by
 * hand). Behaviour is chosen at run time by MPIETE_MODE (comma list of
 * compute, trace, token, measure; token implies compute) and MPIETE_OUT
 * (output directory, default "."). Without MPIETE_MODE every call is a no-op
 * and MPI calls go straight to PMPI. */
#ifndef XMPC_MPIETE_H
#define XMPC_MPIETE_H
#include <mpi.h>
#ifdef __cplusplus
extern "C" {
#endif

/* start / end of the timed region of compute block `id` (also records the
 * block in trace mode) */
void mpiete_block_begin(int id);
void mpiete_block_end(int id);
/* block `id` starts (trace mode; no timing): the next MPI record carries the
 * id, else it is recorded as a block of its own */
void mpiete_mark(int id);
/* block id carried by the next MPI records (communication / wait blocks) */
void mpiete_comm_block(int id);

/* the predicted region (the paper's start and end lines): measure mode times
 * only this part; traces carry markers. Call each once, on every rank. */
void mpiete_region_begin(void);
void mpiete_region_end(void);

/* Fortran (gfortran mangling) */
void mpiete_region_begin_(void);
void mpiete_region_end_(void);
void mpiete_block_begin_(int *id);
void mpiete_block_end_(int *id);
void mpiete_mark_(int *id);
void mpiete_comm_block_(int *id);

/* Collectives as point-to-point (the modelling transform calls these; the
 * MPI_* wrappers use them too in trace and token modes). */
int mpiete_barrier(MPI_Comm comm);
int mpiete_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm);
int mpiete_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                  MPI_Comm comm);
int mpiete_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm);
int mpiete_allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                     MPI_Datatype rdt, MPI_Comm comm);
int mpiete_alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                    MPI_Datatype rdt, MPI_Comm comm);
int mpiete_gather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                  MPI_Datatype rdt, int root, MPI_Comm comm);
int mpiete_scatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                   MPI_Datatype rdt, int root, MPI_Comm comm);
int mpiete_gatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int *rcounts,
                   const int *displs, MPI_Datatype rdt, int root, MPI_Comm comm);
int mpiete_scatterv(const void *sbuf, const int *scounts, const int *displs, MPI_Datatype sdt,
                    void *rbuf, int rcount, MPI_Datatype rdt, int root, MPI_Comm comm);
int mpiete_allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int *rcounts,
                      const int *displs, MPI_Datatype rdt, MPI_Comm comm);
int mpiete_alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype sdt,
                     void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rdt,
                     MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif
