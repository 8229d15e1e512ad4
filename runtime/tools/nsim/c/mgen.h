/* mgen.h: the MGEN API of the xmpc NSIM interconnect simulator.
 *
 * Write an MPI-like program with the prefix MGEN_ instead of MPI_ and the entry
 * point MGEN_Main instead of main, then link it with mgen_main.c and the
 * simulator library:
 *
 *   cc -O2 prog.c runtime/tools/nsim/c/mgen_main.c -I runtime/tools/nsim/c \
 *      target/release/libxmpc_nsim.a -lpthread -ldl -lm -o prog
 *   ./prog --nsim-config=torus.toml --nsim-ranks=1024 [program arguments]
 *
 * Every rank runs MGEN_Main on its own thread; the simulator resumes one rank
 * at a time at its virtual time. Payloads are not transferred (only sizes,
 * sources and tags), and C globals are shared between ranks.
 * Datatypes are their size in bytes.
 */
#ifndef XMPC_MGEN_H
#define XMPC_MGEN_H
#ifdef __cplusplus
extern "C" {
#endif

typedef int MGEN_Comm;
typedef int MGEN_Datatype;
typedef int MGEN_Request;
typedef int MGEN_Op;
typedef struct MGEN_Status {
    int MGEN_SOURCE;
    int MGEN_TAG;
    int MGEN_ERROR;
    int count;
} MGEN_Status;

#define MGEN_SUCCESS 0
#define MGEN_COMM_WORLD 0
#define MGEN_ANY_SOURCE (-1)
#define MGEN_ANY_TAG (-1)
#define MGEN_REQUEST_NULL (-1)
#define MGEN_STATUS_IGNORE ((MGEN_Status *)0)
#define MGEN_STATUSES_IGNORE ((MGEN_Status *)0)
#define MGEN_IN_PLACE ((void *)1)

#define MGEN_CHAR 1
#define MGEN_BYTE 1
#define MGEN_SHORT 2
#define MGEN_INT 4
#define MGEN_FLOAT 4
#define MGEN_LONG 8
#define MGEN_LONG_LONG 8
#define MGEN_DOUBLE 8
#define MGEN_DOUBLE_COMPLEX 16

#define MGEN_SUM 0
#define MGEN_MAX 1
#define MGEN_MIN 2
#define MGEN_PROD 3

int MGEN_Main(int argc, char **argv); /* written by the user */

int MGEN_Init(int *argc, char ***argv);
int MGEN_Finalize(void);
int MGEN_Comm_rank(MGEN_Comm comm, int *rank);
int MGEN_Comm_size(MGEN_Comm comm, int *size);
double MGEN_Wtime(void);
/* model `seconds` of computation on the calling rank */
int MGEN_Compute(double seconds);

int MGEN_Send(const void *buf, int count, MGEN_Datatype dt, int dest, int tag, MGEN_Comm comm);
int MGEN_Recv(void *buf, int count, MGEN_Datatype dt, int source, int tag, MGEN_Comm comm, MGEN_Status *status);
int MGEN_Isend(const void *buf, int count, MGEN_Datatype dt, int dest, int tag, MGEN_Comm comm, MGEN_Request *req);
int MGEN_Irecv(void *buf, int count, MGEN_Datatype dt, int source, int tag, MGEN_Comm comm, MGEN_Request *req);
int MGEN_Wait(MGEN_Request *req, MGEN_Status *status);
int MGEN_Waitall(int count, MGEN_Request *reqs, MGEN_Status *statuses);
int MGEN_Sendrecv(const void *sbuf, int scount, MGEN_Datatype sdt, int dest, int stag,
                  void *rbuf, int rcount, MGEN_Datatype rdt, int source, int rtag,
                  MGEN_Comm comm, MGEN_Status *status);

int MGEN_Barrier(MGEN_Comm comm);
int MGEN_Bcast(void *buf, int count, MGEN_Datatype dt, int root, MGEN_Comm comm);
int MGEN_Reduce(const void *sbuf, void *rbuf, int count, MGEN_Datatype dt, MGEN_Op op, int root, MGEN_Comm comm);
int MGEN_Allreduce(const void *sbuf, void *rbuf, int count, MGEN_Datatype dt, MGEN_Op op, MGEN_Comm comm);
int MGEN_Alltoall(const void *sbuf, int scount, MGEN_Datatype sdt, void *rbuf, int rcount, MGEN_Datatype rdt, MGEN_Comm comm);
int MGEN_Allgather(const void *sbuf, int scount, MGEN_Datatype sdt, void *rbuf, int rcount, MGEN_Datatype rdt, MGEN_Comm comm);

/* provided by the simulator library; called by mgen_main.c */
int mgen_run(int argc, char **argv, int (*main_fn)(int, char **));

#ifdef __cplusplus
}
#endif
#endif
