/* shared between mpiete.c and mpiete_f.c */
#ifndef XMPC_MPIETE_INT_H
#define XMPC_MPIETE_INT_H
#include <mpi.h>
#include <stdint.h>

#define ME_COMPUTE 1
#define ME_TRACE 2
#define ME_TOKEN 4
#define ME_MEASURE 8

/* trace records (docs/mpiete.md) */
#define TRACE_MAGIC "XMPETRC1"
#define REC_BLOCK 1
#define REC_ISEND 2
#define REC_IRECV 3
#define REC_WAIT 4
#define REC_REGION 5

extern int me_mode, me_p2p;
extern uint64_t me_mpi_ns, me_mpi_cpu_ns;
extern int me_yield;
extern __thread int me_in_f;
int me_wait_yield(MPI_Request *r, MPI_Status *st);

void me_after_init(void);
void me_before_finalize(void);
int me_isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
             MPI_Request *req);
int me_irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
             MPI_Request *req);
int me_wait(MPI_Request *h, MPI_Status *st);
int me_waitall(int n, MPI_Request *hs, MPI_Status *sts);
int me_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm);
int me_recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
            MPI_Status *st);
int me_sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf,
                int rcount, MPI_Datatype rdt, int src, int rtag, MPI_Comm comm, MPI_Status *st);
int me_test(MPI_Request *h, int *flag, MPI_Status *st);
int me_testall(int n, MPI_Request *hs, int *flag, MPI_Status *sts);
int me_waitany(int n, MPI_Request *hs, int *idx, MPI_Status *st);
uint64_t me_now_ns(void);
uint64_t me_cpu_ns(void);
int y_send(const void *b, int n, MPI_Datatype dt, int d, int tag, MPI_Comm c);
int y_recv(void *b, int n, MPI_Datatype dt, int s, int tag, MPI_Comm c, MPI_Status *st);
int y_waitall(int n, MPI_Request *rs, MPI_Status *sts);
int y_sendrecv(const void *sb, int sn, MPI_Datatype sdt, int d, int stag, void *rb, int rn,
               MPI_Datatype rdt, int src, int rtag, MPI_Comm c, MPI_Status *st);
int y_barrier(MPI_Comm c);
int y_bcast(void *b, int n, MPI_Datatype dt, int root, MPI_Comm c);
int y_reduce(const void *sb, void *rb, int n, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm c);
int y_allreduce(const void *sb, void *rb, int n, MPI_Datatype dt, MPI_Op op, MPI_Comm c);
int y_allgather(const void *sb, int sn, MPI_Datatype sdt, void *rb, int rn, MPI_Datatype rdt,
                MPI_Comm c);
int y_alltoall(const void *sb, int sn, MPI_Datatype sdt, void *rb, int rn, MPI_Datatype rdt,
               MPI_Comm c);
int y_waitany(int n, MPI_Request *rs, int *idx, MPI_Status *st);
int y_gather(const void *sb, int sn, MPI_Datatype sdt, void *rb, int rn, MPI_Datatype rdt, int root,
             MPI_Comm c);
int y_scatter(const void *sb, int sn, MPI_Datatype sdt, void *rb, int rn, MPI_Datatype rdt, int root,
              MPI_Comm c);
int me_waitsome(int n, MPI_Request *hs, int *outcount, int *idx, MPI_Status *sts);
int me_testsome(int n, MPI_Request *hs, int *outcount, int *idx, MPI_Status *sts);
int me_testany(int n, MPI_Request *hs, int *idx, int *flag, MPI_Status *st);
int me_send_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                 MPI_Request *req);
int me_recv_init(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                 MPI_Request *req);
int me_start(MPI_Request *h);
int me_startall(int n, MPI_Request *hs);
int me_request_free(MPI_Request *h);
int y_waitsome(int n, MPI_Request *rs, int *out, int *idx, MPI_Status *sts);
int y_gatherv(const void *sb, int sn, MPI_Datatype sdt, void *rb, const int *rn, const int *dis,
              MPI_Datatype rdt, int root, MPI_Comm c);
int y_scatterv(const void *sb, const int *sn, const int *dis, MPI_Datatype sdt, void *rb, int rn,
               MPI_Datatype rdt, int root, MPI_Comm c);
int y_allgatherv(const void *sb, int sn, MPI_Datatype sdt, void *rb, const int *rn, const int *dis,
                 MPI_Datatype rdt, MPI_Comm c);
int y_alltoallv(const void *sb, const int *sn, const int *sd, MPI_Datatype sdt, void *rb,
                const int *rn, const int *rd, MPI_Datatype rdt, MPI_Comm c);
#endif
