/*
 * Fortran (gfortran mangling; mpif.h and `use mpi`) wrappers. Without a
 * decomposing mode they forward to the library's own pmpi_*_ (so sentinels
 * keep their meaning); in trace and token modes they convert handles and
 * call the C point-to-point layer. MPI_IN_PLACE is recognised through
 * MPICH's MPIPRIV1 common block.
 */
#include "mpiete.h"
#include "mpiete_int.h"

#include <stddef.h>
#include <stdlib.h>

typedef MPI_Fint F;

/* MPICH: COMMON /MPIPRIV1/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE */
extern F mpipriv1_[];
#define F_IN_PLACE(p) ((const void *)(p) == (const void *)&mpipriv1_[1])
#define INP(p) (F_IN_PLACE(p) ? MPI_IN_PLACE : (p))

void pmpi_init_(F *);
void pmpi_init_thread_(F *, F *, F *);
void pmpi_finalize_(F *);
void pmpi_send_(const void *, F *, F *, F *, F *, F *, F *);
void pmpi_ssend_(const void *, F *, F *, F *, F *, F *, F *);
void pmpi_recv_(void *, F *, F *, F *, F *, F *, F *, F *);
void pmpi_isend_(const void *, F *, F *, F *, F *, F *, F *, F *);
void pmpi_irecv_(void *, F *, F *, F *, F *, F *, F *, F *);
void pmpi_wait_(F *, F *, F *);
void pmpi_waitall_(F *, F *, F *, F *);
void pmpi_sendrecv_(const void *, F *, F *, F *, F *, void *, F *, F *, F *, F *, F *, F *, F *);
void pmpi_barrier_(F *, F *);
void pmpi_bcast_(void *, F *, F *, F *, F *, F *);
void pmpi_reduce_(const void *, void *, F *, F *, F *, F *, F *, F *);
void pmpi_allreduce_(const void *, void *, F *, F *, F *, F *, F *);
void pmpi_allgather_(const void *, F *, F *, void *, F *, F *, F *, F *);
void pmpi_alltoall_(const void *, F *, F *, void *, F *, F *, F *, F *);
void pmpi_gather_(const void *, F *, F *, void *, F *, F *, F *, F *, F *);
void pmpi_scatter_(const void *, F *, F *, void *, F *, F *, F *, F *, F *);
void pmpi_test_(F *, F *, F *, F *);
void pmpi_testall_(F *, F *, F *, F *, F *);
void pmpi_waitany_(F *, F *, F *, F *, F *);
void pmpi_waitsome_(F *, F *, F *, F *, F *, F *);
void pmpi_testany_(F *, F *, F *, F *, F *, F *);
void pmpi_testsome_(F *, F *, F *, F *, F *, F *);
void pmpi_gatherv_(const void *, F *, F *, void *, F *, F *, F *, F *, F *, F *);
void pmpi_scatterv_(const void *, F *, F *, F *, void *, F *, F *, F *, F *, F *);
void pmpi_allgatherv_(const void *, F *, F *, void *, F *, F *, F *, F *, F *);
void pmpi_alltoallv_(const void *, F *, F *, F *, void *, F *, F *, F *, F *, F *);
void pmpi_send_init_(const void *, F *, F *, F *, F *, F *, F *, F *);
void pmpi_recv_init_(void *, F *, F *, F *, F *, F *, F *, F *);
void pmpi_start_(F *, F *);
void pmpi_startall_(F *, F *, F *);
void pmpi_request_free_(F *, F *);

/* timed here; me_in_f keeps the C wrapper that MPICH's pmpi_*_ reaches from
 * timing (or yielding) the same call again */
#define FMEAS(call)                                                                              \
    do {                                                                                         \
        me_in_f++;                                                                               \
        if (me_mode & ME_MEASURE) {                                                              \
            uint64_t t0_ = me_now_ns(), c0_ = me_cpu_ns();                                       \
            call;                                                                                \
            me_mpi_cpu_ns += me_cpu_ns() - c0_;                                                  \
            me_mpi_ns += me_now_ns() - t0_;                                                      \
        } else {                                                                                 \
            call;                                                                                \
        }                                                                                        \
        me_in_f--;                                                                               \
    } while (0)

static void st_out(MPI_Status *c, F *f) {
    if (f != MPI_F_STATUS_IGNORE) PMPI_Status_c2f(c, f);
}

void mpi_init_(F *ierr) {
    pmpi_init_(ierr);
    if (*ierr == MPI_SUCCESS) me_after_init();
}

void mpi_init_thread_(F *req, F *prov, F *ierr) {
    pmpi_init_thread_(req, prov, ierr);
    if (*ierr == MPI_SUCCESS) me_after_init();
}

void mpi_finalize_(F *ierr) {
    me_before_finalize();
    pmpi_finalize_(ierr);
}

void mpi_send_(const void *b, F *n, F *dt, F *dst, F *tag, F *comm, F *ierr) {
    if (me_p2p) {
        *ierr = me_send(b, *n, PMPI_Type_f2c(*dt), *dst, *tag, PMPI_Comm_f2c(*comm));
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_send(b, *n, PMPI_Type_f2c(*dt), *dst, *tag, PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_send_(b, n, dt, dst, tag, comm, ierr));
}

void mpi_ssend_(const void *b, F *n, F *dt, F *dst, F *tag, F *comm, F *ierr) {
    if (me_p2p) {
        *ierr = me_send(b, *n, PMPI_Type_f2c(*dt), *dst, *tag, PMPI_Comm_f2c(*comm));
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_send(b, *n, PMPI_Type_f2c(*dt), *dst, *tag, PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_ssend_(b, n, dt, dst, tag, comm, ierr));
}

void mpi_recv_(void *b, F *n, F *dt, F *src, F *tag, F *comm, F *st, F *ierr) {
    if (me_p2p) {
        MPI_Status c;
        *ierr = me_recv(b, *n, PMPI_Type_f2c(*dt), *src, *tag, PMPI_Comm_f2c(*comm), &c);
        st_out(&c, st);
        return;
    }
    if (me_yield) {
        MPI_Status c;
        FMEAS(*ierr = y_recv(b, *n, PMPI_Type_f2c(*dt), *src, *tag, PMPI_Comm_f2c(*comm), &c));
        st_out(&c, st);
        return;
    }
    FMEAS(pmpi_recv_(b, n, dt, src, tag, comm, st, ierr));
}

void mpi_isend_(const void *b, F *n, F *dt, F *dst, F *tag, F *comm, F *req, F *ierr) {
    if (me_p2p) {
        MPI_Request r;
        *ierr = me_isend(b, *n, PMPI_Type_f2c(*dt), *dst, *tag, PMPI_Comm_f2c(*comm), &r);
        *req = PMPI_Request_c2f(r);
        return;
    }
    FMEAS(pmpi_isend_(b, n, dt, dst, tag, comm, req, ierr));
}

void mpi_irecv_(void *b, F *n, F *dt, F *src, F *tag, F *comm, F *req, F *ierr) {
    if (me_p2p) {
        MPI_Request r;
        *ierr = me_irecv(b, *n, PMPI_Type_f2c(*dt), *src, *tag, PMPI_Comm_f2c(*comm), &r);
        *req = PMPI_Request_c2f(r);
        return;
    }
    FMEAS(pmpi_irecv_(b, n, dt, src, tag, comm, req, ierr));
}

void mpi_wait_(F *req, F *st, F *ierr) {
    if (me_p2p) {
        MPI_Request r = PMPI_Request_f2c(*req);
        MPI_Status c;
        *ierr = me_wait(&r, &c);
        *req = PMPI_Request_c2f(r);
        st_out(&c, st);
        return;
    }
    if (me_yield) {
        MPI_Request r = PMPI_Request_f2c(*req);
        MPI_Status c;
        FMEAS(*ierr = me_wait_yield(&r, &c));
        *req = PMPI_Request_c2f(r);
        st_out(&c, st);
        return;
    }
    FMEAS(pmpi_wait_(req, st, ierr));
}

void mpi_waitall_(F *n, F *reqs, F *sts, F *ierr) {
    if (me_p2p) {
        *ierr = MPI_SUCCESS;
        for (int i = 0; i < *n; i++) {
            MPI_Request r = PMPI_Request_f2c(reqs[i]);
            MPI_Status c;
            int rc = me_wait(&r, &c);
            if (rc != MPI_SUCCESS) *ierr = rc;
            reqs[i] = PMPI_Request_c2f(r);
            if (sts != MPI_F_STATUSES_IGNORE) PMPI_Status_c2f(&c, sts + (size_t)i * MPI_F_STATUS_SIZE);
        }
        return;
    }
    if (me_yield) {
        *ierr = MPI_SUCCESS;
        for (int i = 0; i < *n; i++) {
            MPI_Request r = PMPI_Request_f2c(reqs[i]);
            MPI_Status c;
            int rc;
            FMEAS(rc = me_wait_yield(&r, &c));
            if (rc != MPI_SUCCESS) *ierr = rc;
            reqs[i] = PMPI_Request_c2f(r);
            if (sts != MPI_F_STATUSES_IGNORE) PMPI_Status_c2f(&c, sts + (size_t)i * MPI_F_STATUS_SIZE);
        }
        return;
    }
    FMEAS(pmpi_waitall_(n, reqs, sts, ierr));
}

void mpi_sendrecv_(const void *sb, F *sn, F *sdt, F *dst, F *stag, void *rb, F *rn, F *rdt, F *src,
                   F *rtag, F *comm, F *st, F *ierr) {
    if (me_p2p) {
        MPI_Status c;
        *ierr = me_sendrecv(sb, *sn, PMPI_Type_f2c(*sdt), *dst, *stag, rb, *rn, PMPI_Type_f2c(*rdt),
                            *src, *rtag, PMPI_Comm_f2c(*comm), &c);
        st_out(&c, st);
        return;
    }
    if (me_yield) {
        MPI_Status c;
        FMEAS(*ierr = y_sendrecv(sb, *sn, PMPI_Type_f2c(*sdt), *dst, *stag, rb, *rn, PMPI_Type_f2c(*rdt), *src, *rtag, PMPI_Comm_f2c(*comm), &c));
        st_out(&c, st);
        return;
    }
    FMEAS(pmpi_sendrecv_(sb, sn, sdt, dst, stag, rb, rn, rdt, src, rtag, comm, st, ierr));
}

void mpi_barrier_(F *comm, F *ierr) {
    if (me_p2p) {
        *ierr = mpiete_barrier(PMPI_Comm_f2c(*comm));
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_barrier(PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_barrier_(comm, ierr));
}

void mpi_bcast_(void *b, F *n, F *dt, F *root, F *comm, F *ierr) {
    if (me_p2p) {
        *ierr = mpiete_bcast(b, *n, PMPI_Type_f2c(*dt), *root, PMPI_Comm_f2c(*comm));
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_bcast(b, *n, PMPI_Type_f2c(*dt), *root, PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_bcast_(b, n, dt, root, comm, ierr));
}

void mpi_reduce_(const void *sb, void *rb, F *n, F *dt, F *op, F *root, F *comm, F *ierr) {
    if (me_p2p) {
        *ierr = mpiete_reduce(INP(sb), rb, *n, PMPI_Type_f2c(*dt), PMPI_Op_f2c(*op), *root,
                              PMPI_Comm_f2c(*comm));
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_reduce(INP(sb), rb, *n, PMPI_Type_f2c(*dt), PMPI_Op_f2c(*op), *root, PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_reduce_(sb, rb, n, dt, op, root, comm, ierr));
}

void mpi_allreduce_(const void *sb, void *rb, F *n, F *dt, F *op, F *comm, F *ierr) {
    if (me_p2p) {
        *ierr = mpiete_allreduce(INP(sb), rb, *n, PMPI_Type_f2c(*dt), PMPI_Op_f2c(*op),
                                 PMPI_Comm_f2c(*comm));
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_allreduce(INP(sb), rb, *n, PMPI_Type_f2c(*dt), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_allreduce_(sb, rb, n, dt, op, comm, ierr));
}

void mpi_allgather_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *rdt, F *comm, F *ierr) {
    if (me_p2p) {
        *ierr = mpiete_allgather(INP(sb), *sn, PMPI_Type_f2c(*sdt), rb, *rn, PMPI_Type_f2c(*rdt),
                                 PMPI_Comm_f2c(*comm));
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_allgather(INP(sb), *sn, PMPI_Type_f2c(*sdt), rb, *rn, PMPI_Type_f2c(*rdt), PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_allgather_(sb, sn, sdt, rb, rn, rdt, comm, ierr));
}

void mpi_alltoall_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *rdt, F *comm, F *ierr) {
    if (me_p2p) {
        *ierr = mpiete_alltoall(sb, *sn, PMPI_Type_f2c(*sdt), rb, *rn, PMPI_Type_f2c(*rdt),
                                PMPI_Comm_f2c(*comm));
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_alltoall(sb, *sn, PMPI_Type_f2c(*sdt), rb, *rn, PMPI_Type_f2c(*rdt), PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_alltoall_(sb, sn, sdt, rb, rn, rdt, comm, ierr));
}

/* Fortran bindings of the p2p collectives, for the modelling transform */
void mpiete_allreduce_(const void *sb, void *rb, F *n, F *dt, F *op, F *comm, F *ierr) {
    *ierr = mpiete_allreduce(INP(sb), rb, *n, PMPI_Type_f2c(*dt), PMPI_Op_f2c(*op),
                             PMPI_Comm_f2c(*comm));
}
void mpiete_reduce_(const void *sb, void *rb, F *n, F *dt, F *op, F *root, F *comm, F *ierr) {
    *ierr = mpiete_reduce(INP(sb), rb, *n, PMPI_Type_f2c(*dt), PMPI_Op_f2c(*op), *root,
                          PMPI_Comm_f2c(*comm));
}
void mpiete_bcast_(void *b, F *n, F *dt, F *root, F *comm, F *ierr) {
    *ierr = mpiete_bcast(b, *n, PMPI_Type_f2c(*dt), *root, PMPI_Comm_f2c(*comm));
}
void mpiete_barrier_(F *comm, F *ierr) { *ierr = mpiete_barrier(PMPI_Comm_f2c(*comm)); }
void mpiete_allgather_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *rdt, F *comm, F *ierr) {
    *ierr = mpiete_allgather(INP(sb), *sn, PMPI_Type_f2c(*sdt), rb, *rn, PMPI_Type_f2c(*rdt),
                             PMPI_Comm_f2c(*comm));
}
void mpiete_alltoall_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *rdt, F *comm, F *ierr) {
    *ierr = mpiete_alltoall(sb, *sn, PMPI_Type_f2c(*sdt), rb, *rn, PMPI_Type_f2c(*rdt),
                            PMPI_Comm_f2c(*comm));
}

void mpiete_gather_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *rdt, F *root, F *comm,
                    F *ierr) {
    *ierr = mpiete_gather(INP(sb), *sn, PMPI_Type_f2c(*sdt), rb, *rn, PMPI_Type_f2c(*rdt), *root,
                          PMPI_Comm_f2c(*comm));
}
void mpiete_scatter_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *rdt, F *root, F *comm,
                     F *ierr) {
    *ierr = mpiete_scatter(sb, *sn, PMPI_Type_f2c(*sdt), (void *)INP(rb), *rn, PMPI_Type_f2c(*rdt),
                           *root, PMPI_Comm_f2c(*comm));
}

void mpi_gather_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *rdt, F *root, F *comm, F *ierr) {
    if (me_p2p) {
        mpiete_gather_(sb, sn, sdt, rb, rn, rdt, root, comm, ierr);
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_gather(INP(sb), *sn, PMPI_Type_f2c(*sdt), rb, *rn, PMPI_Type_f2c(*rdt), *root, PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_gather_(sb, sn, sdt, rb, rn, rdt, root, comm, ierr));
}

void mpi_scatter_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *rdt, F *root, F *comm,
                  F *ierr) {
    if (me_p2p) {
        mpiete_scatter_(sb, sn, sdt, rb, rn, rdt, root, comm, ierr);
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_scatter(sb, *sn, PMPI_Type_f2c(*sdt), (void *)INP(rb), *rn, PMPI_Type_f2c(*rdt), *root, PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_scatter_(sb, sn, sdt, rb, rn, rdt, root, comm, ierr));
}

/* logicals: gfortran .true. is 1 */
void mpi_test_(F *req, F *flag, F *st, F *ierr) {
    if (me_p2p) {
        MPI_Request r = PMPI_Request_f2c(*req);
        MPI_Status c;
        int f = 0;
        *ierr = me_test(&r, &f, &c);
        *req = PMPI_Request_c2f(r);
        *flag = f ? 1 : 0;
        if (f) st_out(&c, st);
        return;
    }
    FMEAS(pmpi_test_(req, flag, st, ierr));
}

void mpi_testall_(F *n, F *reqs, F *flag, F *sts, F *ierr) {
    if (me_p2p) {
        int k = *n > 0 ? *n : 1, f = 0;
        MPI_Request *r = malloc((size_t)k * sizeof *r);
        MPI_Status *c = malloc((size_t)k * sizeof *c);
        for (int i = 0; i < *n; i++) r[i] = PMPI_Request_f2c(reqs[i]);
        *ierr = me_testall(*n, r, &f, c);
        for (int i = 0; i < *n; i++) {
            reqs[i] = PMPI_Request_c2f(r[i]);
            if (f && sts != MPI_F_STATUSES_IGNORE) PMPI_Status_c2f(&c[i], sts + (size_t)i * MPI_F_STATUS_SIZE);
        }
        *flag = f ? 1 : 0;
        free(r);
        free(c);
        return;
    }
    FMEAS(pmpi_testall_(n, reqs, flag, sts, ierr));
}

/* index: 1-based in Fortran */
void mpi_waitany_(F *n, F *reqs, F *idx, F *st, F *ierr) {
    if (me_p2p) {
        int k = *n > 0 ? *n : 1, i0 = MPI_UNDEFINED;
        MPI_Request *r = malloc((size_t)k * sizeof *r);
        MPI_Status c;
        for (int i = 0; i < *n; i++) r[i] = PMPI_Request_f2c(reqs[i]);
        *ierr = me_waitany(*n, r, &i0, &c);
        for (int i = 0; i < *n; i++) reqs[i] = PMPI_Request_c2f(r[i]);
        *idx = i0 == MPI_UNDEFINED ? MPI_UNDEFINED : i0 + 1;
        if (i0 != MPI_UNDEFINED) st_out(&c, st);
        free(r);
        return;
    }
    FMEAS(pmpi_waitany_(n, reqs, idx, st, ierr));
}

/* ---- Waitsome / Testany / Testsome (indices 1-based) ---------------------- */

static MPI_Request *reqs_in(F n, const F *reqs) {
    MPI_Request *r = malloc((size_t)(n > 0 ? n : 1) * sizeof *r);
    for (int i = 0; i < n; i++) r[i] = PMPI_Request_f2c(reqs[i]);
    return r;
}

static void reqs_out(F n, F *reqs, MPI_Request *r) {
    for (int i = 0; i < n; i++) reqs[i] = PMPI_Request_c2f(r[i]);
    free(r);
}

/* outcount (MPI_UNDEFINED or k), indices + 1, statuses */
static void some_out(int k, const int *ix, const MPI_Status *c, F *out, F *idx, F *sts) {
    *out = k;
    for (int j = 0; k != MPI_UNDEFINED && j < k; j++) {
        idx[j] = ix[j] + 1;
        if (sts != MPI_F_STATUSES_IGNORE) PMPI_Status_c2f(&c[j], sts + (size_t)j * MPI_F_STATUS_SIZE);
    }
}

static void some_(int wait, F *n, F *reqs, F *out, F *idx, F *sts, F *ierr) {
    int m = *n > 0 ? *n : 1, k = 0;
    MPI_Request *r = reqs_in(*n, reqs);
    int *ix = malloc((size_t)m * sizeof *ix);
    MPI_Status *c = malloc((size_t)m * sizeof *c);
    *ierr = wait ? me_waitsome(*n, r, &k, ix, c) : me_testsome(*n, r, &k, ix, c);
    reqs_out(*n, reqs, r);
    some_out(k, ix, c, out, idx, sts);
    free(ix);
    free(c);
}

void mpi_waitsome_(F *n, F *reqs, F *out, F *idx, F *sts, F *ierr) {
    if (me_p2p) {
        some_(1, n, reqs, out, idx, sts, ierr);
        return;
    }
    FMEAS(pmpi_waitsome_(n, reqs, out, idx, sts, ierr));
}

void mpi_testsome_(F *n, F *reqs, F *out, F *idx, F *sts, F *ierr) {
    if (me_p2p) {
        some_(0, n, reqs, out, idx, sts, ierr);
        return;
    }
    FMEAS(pmpi_testsome_(n, reqs, out, idx, sts, ierr));
}

void mpi_testany_(F *n, F *reqs, F *idx, F *flag, F *st, F *ierr) {
    if (me_p2p) {
        int i0 = MPI_UNDEFINED, f = 0;
        MPI_Status c;
        MPI_Request *r = reqs_in(*n, reqs);
        *ierr = me_testany(*n, r, &i0, &f, &c);
        reqs_out(*n, reqs, r);
        *flag = f ? 1 : 0;
        *idx = i0 == MPI_UNDEFINED ? MPI_UNDEFINED : i0 + 1;
        if (f && i0 != MPI_UNDEFINED) st_out(&c, st);
        return;
    }
    FMEAS(pmpi_testany_(n, reqs, idx, flag, st, ierr));
}

/* ---- v-collectives ------------------------------------------------------- */

void mpiete_gatherv_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *dis, F *rdt, F *root,
                     F *comm, F *ierr) {
    *ierr = mpiete_gatherv(INP(sb), *sn, PMPI_Type_f2c(*sdt), rb, rn, dis, PMPI_Type_f2c(*rdt),
                           *root, PMPI_Comm_f2c(*comm));
}
void mpiete_scatterv_(const void *sb, F *sn, F *dis, F *sdt, void *rb, F *rn, F *rdt, F *root,
                      F *comm, F *ierr) {
    *ierr = mpiete_scatterv(sb, sn, dis, PMPI_Type_f2c(*sdt), (void *)INP(rb), *rn,
                            PMPI_Type_f2c(*rdt), *root, PMPI_Comm_f2c(*comm));
}
void mpiete_allgatherv_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *dis, F *rdt, F *comm,
                        F *ierr) {
    *ierr = mpiete_allgatherv(INP(sb), *sn, PMPI_Type_f2c(*sdt), rb, rn, dis, PMPI_Type_f2c(*rdt),
                              PMPI_Comm_f2c(*comm));
}
void mpiete_alltoallv_(const void *sb, F *sn, F *sd, F *sdt, void *rb, F *rn, F *rd, F *rdt,
                       F *comm, F *ierr) {
    *ierr = mpiete_alltoallv(INP(sb), sn, sd, PMPI_Type_f2c(*sdt), rb, rn, rd, PMPI_Type_f2c(*rdt),
                             PMPI_Comm_f2c(*comm));
}

void mpi_gatherv_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *dis, F *rdt, F *root, F *comm,
                  F *ierr) {
    if (me_p2p) {
        mpiete_gatherv_(sb, sn, sdt, rb, rn, dis, rdt, root, comm, ierr);
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_gatherv(INP(sb), *sn, PMPI_Type_f2c(*sdt), rb, rn, dis, PMPI_Type_f2c(*rdt), *root, PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_gatherv_(sb, sn, sdt, rb, rn, dis, rdt, root, comm, ierr));
}

void mpi_scatterv_(const void *sb, F *sn, F *dis, F *sdt, void *rb, F *rn, F *rdt, F *root,
                   F *comm, F *ierr) {
    if (me_p2p) {
        mpiete_scatterv_(sb, sn, dis, sdt, rb, rn, rdt, root, comm, ierr);
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_scatterv(sb, sn, dis, PMPI_Type_f2c(*sdt), (void *)INP(rb), *rn, PMPI_Type_f2c(*rdt), *root, PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_scatterv_(sb, sn, dis, sdt, rb, rn, rdt, root, comm, ierr));
}

void mpi_allgatherv_(const void *sb, F *sn, F *sdt, void *rb, F *rn, F *dis, F *rdt, F *comm,
                     F *ierr) {
    if (me_p2p) {
        mpiete_allgatherv_(sb, sn, sdt, rb, rn, dis, rdt, comm, ierr);
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_allgatherv(INP(sb), *sn, PMPI_Type_f2c(*sdt), rb, rn, dis, PMPI_Type_f2c(*rdt), PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_allgatherv_(sb, sn, sdt, rb, rn, dis, rdt, comm, ierr));
}

void mpi_alltoallv_(const void *sb, F *sn, F *sd, F *sdt, void *rb, F *rn, F *rd, F *rdt, F *comm,
                    F *ierr) {
    if (me_p2p) {
        mpiete_alltoallv_(sb, sn, sd, sdt, rb, rn, rd, rdt, comm, ierr);
        return;
    }
    if (me_yield) {
        FMEAS(*ierr = y_alltoallv(INP(sb), sn, sd, PMPI_Type_f2c(*sdt), rb, rn, rd, PMPI_Type_f2c(*rdt), PMPI_Comm_f2c(*comm)));
        return;
    }
    FMEAS(pmpi_alltoallv_(sb, sn, sd, sdt, rb, rn, rd, rdt, comm, ierr));
}

/* ---- persistent requests ------------------------------------------------- */

void mpi_send_init_(const void *b, F *n, F *dt, F *dst, F *tag, F *comm, F *req, F *ierr) {
    if (me_p2p) {
        MPI_Request r;
        *ierr = me_send_init(b, *n, PMPI_Type_f2c(*dt), *dst, *tag, PMPI_Comm_f2c(*comm), &r);
        *req = PMPI_Request_c2f(r);
        return;
    }
    FMEAS(pmpi_send_init_(b, n, dt, dst, tag, comm, req, ierr));
}

void mpi_recv_init_(void *b, F *n, F *dt, F *src, F *tag, F *comm, F *req, F *ierr) {
    if (me_p2p) {
        MPI_Request r;
        *ierr = me_recv_init(b, *n, PMPI_Type_f2c(*dt), *src, *tag, PMPI_Comm_f2c(*comm), &r);
        *req = PMPI_Request_c2f(r);
        return;
    }
    FMEAS(pmpi_recv_init_(b, n, dt, src, tag, comm, req, ierr));
}

void mpi_start_(F *req, F *ierr) {
    if (me_p2p) {
        MPI_Request r = PMPI_Request_f2c(*req);
        *ierr = me_start(&r);
        *req = PMPI_Request_c2f(r);
        return;
    }
    FMEAS(pmpi_start_(req, ierr));
}

void mpi_startall_(F *n, F *reqs, F *ierr) {
    if (me_p2p) {
        MPI_Request *r = reqs_in(*n, reqs);
        *ierr = me_startall(*n, r);
        reqs_out(*n, reqs, r);
        return;
    }
    FMEAS(pmpi_startall_(n, reqs, ierr));
}

void mpi_request_free_(F *req, F *ierr) {
    if (me_p2p) {
        MPI_Request r = PMPI_Request_f2c(*req);
        *ierr = me_request_free(&r);
        *req = PMPI_Request_c2f(r);
        return;
    }
    FMEAS(pmpi_request_free_(req, ierr));
}
