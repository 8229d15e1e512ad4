/* lmpi.h: the LMPI interface of BSIM (xmpc runtime/tools/bsim). A skeleton is an MPI
 * program with every MPI_ identifier renamed LMPI_; this header declares the
 * same calls and constants under the LMPI_ prefix. Handles are plain ints.
 * See docs/bsim.md. */
#ifndef LMPI_H
#define LMPI_H

/* A variable of which every simulated rank has its own copy (the skeletonizer
 * writes it before file-scope and static local variables). Default: it goes in
 * the linker section bsim_rank, whose bytes the contexts back end swaps per
 * rank. With -DBSIM_THREAD_LOCAL_VARS it is _Thread_local (threads back end). */
#ifndef BSIM_RANK_VAR
#ifdef BSIM_THREAD_LOCAL_VARS
#define BSIM_RANK_VAR _Thread_local
#else
#define BSIM_RANK_VAR __attribute__((section("bsim_rank")))
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int LMPI_Comm;
typedef int LMPI_Datatype;
typedef int LMPI_Op;
typedef int LMPI_Request;

typedef struct {
    int LMPI_SOURCE;
    int LMPI_TAG;
    int LMPI_ERROR;
    int lmpi_reserved;
    long long lmpi_bytes;
} LMPI_Status;

#define LMPI_SUCCESS 0
#define LMPI_ERR_OTHER 15
#define LMPI_UNDEFINED (-32766)
#define LMPI_ANY_SOURCE (-1)
#define LMPI_ANY_TAG (-1)
#define LMPI_PROC_NULL (-2)
#define LMPI_MAX_PROCESSOR_NAME 256
#define LMPI_THREAD_SINGLE 0
#define LMPI_THREAD_FUNNELED 1
#define LMPI_THREAD_SERIALIZED 2
#define LMPI_THREAD_MULTIPLE 3

#define LMPI_COMM_NULL ((LMPI_Comm)0)
#define LMPI_COMM_WORLD ((LMPI_Comm)1)
#define LMPI_COMM_SELF ((LMPI_Comm)2)
#define LMPI_REQUEST_NULL ((LMPI_Request)0)
#define LMPI_DATATYPE_NULL ((LMPI_Datatype)0)
#define LMPI_OP_NULL ((LMPI_Op)0)
#define LMPI_STATUS_IGNORE ((LMPI_Status *)0)
#define LMPI_STATUSES_IGNORE ((LMPI_Status *)0)
#define LMPI_IN_PLACE ((void *)-1)
#define LMPI_BOTTOM ((void *)0)

#define LMPI_CHAR ((LMPI_Datatype)1)
#define LMPI_BYTE ((LMPI_Datatype)2)
#define LMPI_INT ((LMPI_Datatype)3)
#define LMPI_LONG ((LMPI_Datatype)4)
#define LMPI_LONG_LONG ((LMPI_Datatype)5)
#define LMPI_LONG_LONG_INT ((LMPI_Datatype)5)
#define LMPI_UNSIGNED ((LMPI_Datatype)6)
#define LMPI_FLOAT ((LMPI_Datatype)7)
#define LMPI_DOUBLE ((LMPI_Datatype)8)
#define LMPI_DOUBLE_INT ((LMPI_Datatype)9)
#define LMPI_FLOAT_INT ((LMPI_Datatype)10)
#define LMPI_2INT ((LMPI_Datatype)11)
#define LMPI_LONG_INT ((LMPI_Datatype)12)
#define LMPI_SHORT ((LMPI_Datatype)13)
#define LMPI_UNSIGNED_CHAR ((LMPI_Datatype)14)
#define LMPI_UNSIGNED_LONG ((LMPI_Datatype)15)
#define LMPI_UNSIGNED_LONG_LONG ((LMPI_Datatype)16)
#define LMPI_PACKED ((LMPI_Datatype)17)
#define LMPI_LONG_DOUBLE ((LMPI_Datatype)18)
#define LMPI_SIGNED_CHAR ((LMPI_Datatype)19)
#define LMPI_UNSIGNED_SHORT ((LMPI_Datatype)20)
#define LMPI_INT32_T ((LMPI_Datatype)21)
#define LMPI_INT64_T ((LMPI_Datatype)22)
#define LMPI_UINT64_T ((LMPI_Datatype)23)
#define LMPI_C_BOOL ((LMPI_Datatype)24)

#define LMPI_SUM ((LMPI_Op)1)
#define LMPI_MAX ((LMPI_Op)2)
#define LMPI_MIN ((LMPI_Op)3)
#define LMPI_PROD ((LMPI_Op)4)
#define LMPI_LAND ((LMPI_Op)5)
#define LMPI_LOR ((LMPI_Op)6)
#define LMPI_BAND ((LMPI_Op)7)
#define LMPI_BOR ((LMPI_Op)8)
#define LMPI_MAXLOC ((LMPI_Op)9)
#define LMPI_MINLOC ((LMPI_Op)10)
#define LMPI_LXOR ((LMPI_Op)11)
#define LMPI_BXOR ((LMPI_Op)12)

/* BSIM */
void BSIM_Add_time(double seconds);
/* ranks of the world on the caller's node (the platform's [nodes]) */
int BSIM_Node_ranks(void);
void BSIM_Event(const char *name);
int BSIM_Rank(void);
double BSIM_Time(void);
/* a compute block without a time, run in the skeleton: its host (thread CPU) time is charged */
void BSIM_Block_begin(int block);
void BSIM_Block_end(int block);
/* the next LMPI call moves its data: 1 send buffer, 2 receive buffer (docs/bsim.md) */
void BSIM_Carry(int flags);

/* environment */
int LMPI_Init(int *argc, char ***argv);
int LMPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int LMPI_Finalize(void);
int LMPI_Initialized(int *flag);
int LMPI_Finalized(int *flag);
int LMPI_Abort(LMPI_Comm comm, int code);
double LMPI_Wtime(void);
double LMPI_Wtick(void);
int LMPI_Get_processor_name(char *name, int *len);
int LMPI_Get_count(const LMPI_Status *status, LMPI_Datatype type, int *count);
int LMPI_Type_size(LMPI_Datatype type, int *size);
int LMPI_Type_contiguous(int count, LMPI_Datatype old, LMPI_Datatype *newtype);
int LMPI_Type_vector(int count, int blocklen, int stride, LMPI_Datatype old, LMPI_Datatype *newtype);
int LMPI_Type_commit(LMPI_Datatype *type);
int LMPI_Type_free(LMPI_Datatype *type);

/* communicators */
int LMPI_Comm_rank(LMPI_Comm comm, int *rank);
int LMPI_Comm_size(LMPI_Comm comm, int *size);
int LMPI_Comm_dup(LMPI_Comm comm, LMPI_Comm *newcomm);
int LMPI_Comm_split(LMPI_Comm comm, int color, int key, LMPI_Comm *newcomm);
int LMPI_Comm_free(LMPI_Comm *comm);

/* point to point */
int LMPI_Send(const void *buf, int count, LMPI_Datatype type, int dest, int tag, LMPI_Comm comm);
int LMPI_Ssend(const void *buf, int count, LMPI_Datatype type, int dest, int tag, LMPI_Comm comm);
int LMPI_Rsend(const void *buf, int count, LMPI_Datatype type, int dest, int tag, LMPI_Comm comm);
int LMPI_Bsend(const void *buf, int count, LMPI_Datatype type, int dest, int tag, LMPI_Comm comm);
int LMPI_Recv(void *buf, int count, LMPI_Datatype type, int source, int tag, LMPI_Comm comm, LMPI_Status *status);
int LMPI_Isend(const void *buf, int count, LMPI_Datatype type, int dest, int tag, LMPI_Comm comm, LMPI_Request *req);
int LMPI_Issend(const void *buf, int count, LMPI_Datatype type, int dest, int tag, LMPI_Comm comm, LMPI_Request *req);
int LMPI_Irecv(void *buf, int count, LMPI_Datatype type, int source, int tag, LMPI_Comm comm, LMPI_Request *req);
int LMPI_Sendrecv(const void *sbuf, int scount, LMPI_Datatype stype, int dest, int stag,
                  void *rbuf, int rcount, LMPI_Datatype rtype, int source, int rtag,
                  LMPI_Comm comm, LMPI_Status *status);
int LMPI_Sendrecv_replace(void *buf, int count, LMPI_Datatype type, int dest, int stag,
                          int source, int rtag, LMPI_Comm comm, LMPI_Status *status);
int LMPI_Wait(LMPI_Request *req, LMPI_Status *status);
int LMPI_Waitall(int n, LMPI_Request reqs[], LMPI_Status statuses[]);
int LMPI_Waitany(int n, LMPI_Request reqs[], int *index, LMPI_Status *status);
int LMPI_Test(LMPI_Request *req, int *flag, LMPI_Status *status);
int LMPI_Testall(int n, LMPI_Request reqs[], int *flag, LMPI_Status statuses[]);
int LMPI_Request_free(LMPI_Request *req);
int LMPI_Waitsome(int n, LMPI_Request reqs[], int *outcount, int indices[], LMPI_Status statuses[]);
int LMPI_Testany(int n, LMPI_Request reqs[], int *index, int *flag, LMPI_Status *status);
int LMPI_Testsome(int n, LMPI_Request reqs[], int *outcount, int indices[], LMPI_Status statuses[]);
int LMPI_Probe(int source, int tag, LMPI_Comm comm, LMPI_Status *status);
int LMPI_Iprobe(int source, int tag, LMPI_Comm comm, int *flag, LMPI_Status *status);
int LMPI_Send_init(const void *buf, int count, LMPI_Datatype type, int dest, int tag, LMPI_Comm comm, LMPI_Request *req);
int LMPI_Recv_init(void *buf, int count, LMPI_Datatype type, int source, int tag, LMPI_Comm comm, LMPI_Request *req);
int LMPI_Start(LMPI_Request *req);
int LMPI_Startall(int n, LMPI_Request reqs[]);

/* collectives */
int LMPI_Barrier(LMPI_Comm comm);
int LMPI_Bcast(void *buf, int count, LMPI_Datatype type, int root, LMPI_Comm comm);
int LMPI_Reduce(const void *sbuf, void *rbuf, int count, LMPI_Datatype type, LMPI_Op op, int root, LMPI_Comm comm);
int LMPI_Allreduce(const void *sbuf, void *rbuf, int count, LMPI_Datatype type, LMPI_Op op, LMPI_Comm comm);
int LMPI_Gather(const void *sbuf, int scount, LMPI_Datatype stype, void *rbuf, int rcount, LMPI_Datatype rtype, int root, LMPI_Comm comm);
int LMPI_Gatherv(const void *sbuf, int scount, LMPI_Datatype stype, void *rbuf, const int rcounts[], const int displs[], LMPI_Datatype rtype, int root, LMPI_Comm comm);
int LMPI_Scatter(const void *sbuf, int scount, LMPI_Datatype stype, void *rbuf, int rcount, LMPI_Datatype rtype, int root, LMPI_Comm comm);
int LMPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], LMPI_Datatype stype, void *rbuf, int rcount, LMPI_Datatype rtype, int root, LMPI_Comm comm);
int LMPI_Allgather(const void *sbuf, int scount, LMPI_Datatype stype, void *rbuf, int rcount, LMPI_Datatype rtype, LMPI_Comm comm);
int LMPI_Allgatherv(const void *sbuf, int scount, LMPI_Datatype stype, void *rbuf, const int rcounts[], const int displs[], LMPI_Datatype rtype, LMPI_Comm comm);
int LMPI_Alltoall(const void *sbuf, int scount, LMPI_Datatype stype, void *rbuf, int rcount, LMPI_Datatype rtype, LMPI_Comm comm);
int LMPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], LMPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[], LMPI_Datatype rtype, LMPI_Comm comm);

/* nonblocking collectives (threads back end only) */
int LMPI_Ibarrier(LMPI_Comm comm, LMPI_Request *req);
int LMPI_Ibcast(void *buf, int count, LMPI_Datatype type, int root, LMPI_Comm comm, LMPI_Request *req);
int LMPI_Ireduce(const void *sbuf, void *rbuf, int count, LMPI_Datatype type, LMPI_Op op, int root, LMPI_Comm comm, LMPI_Request *req);
int LMPI_Iallreduce(const void *sbuf, void *rbuf, int count, LMPI_Datatype type, LMPI_Op op, LMPI_Comm comm, LMPI_Request *req);
int LMPI_Iallgather(const void *sbuf, int scount, LMPI_Datatype stype, void *rbuf, int rcount, LMPI_Datatype rtype, LMPI_Comm comm, LMPI_Request *req);
int LMPI_Ialltoall(const void *sbuf, int scount, LMPI_Datatype stype, void *rbuf, int rcount, LMPI_Datatype rtype, LMPI_Comm comm, LMPI_Request *req);

#ifdef __cplusplus
}
#endif
#endif
