/* The process entry of a BSIM skeleton with both back ends (archive
 * libxmpc_bsim_mpi.a, link with mpicc instead of libxmpc_bsim_main.a).
 * BSIM_BACKEND=mpi: every rank is a real MPI process; the Rust side
 * (src/mpi_backend.rs) reaches MPI only through the table `ops` below, so
 * libxmpc_bsim.a itself never references an MPI symbol and the threads-only
 * link line needs no MPI library. Otherwise: the threads back end, no MPI_Init.
 *
 * Handles: requests and communicators are small ints indexing tables here
 * (MPI_Request / MPI_Comm are not ints in every MPI). Communicators 0, 1, 2
 * are duplicates of MPI_COMM_WORLD (messages), MPI_COMM_WORLD (rendezvous
 * replies) and MPI_COMM_SELF. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bsim_main(int argc, char **argv) __attribute__((weak));
void bsim_main_f_(void) __attribute__((weak));
void _gfortran_set_args(int argc, char **argv) __attribute__((weak));
int bsim_start(int argc, char **argv, int (*cmain)(int, char **), void (*fmain)(void));
void bsim_rank_section(char *start, char *stop);
/* per-rank variables (BSIM_RANK_VAR): bounds of section bsim_rank, null when none */
extern char __start_bsim_rank[] __attribute__((weak));
extern char __stop_bsim_rank[] __attribute__((weak));

struct bsim_mpi_ops {
    const char *marker;
    int rank, size, tag_ub;
    int (*isend)(const void *buf, int bytes, int dest, int tag, int comm);
    int (*irecv)(void *buf, int bytes, int src, int tag, int comm);
    int (*test)(int req, int *src, int *tag);
    void (*waitany)(int n, const int *reqs);
    void (*wait)(int req);
    void (*allgather)(const void *s, int bytes, void *r, int comm);
    void (*gather)(const void *s, int bytes, void *r, int comm);
    void (*gatherv)(const void *s, int bytes, void *r, const int *counts, const int *displs, int comm);
    int (*split)(int comm, int color, int key);
    void (*abort)(int code);
};
int bsim_start_mpi(int argc, char **argv, int (*cmain)(int, char **), void (*fmain)(void), const struct bsim_mpi_ops *ops);

struct slot {
    MPI_Request r;
    int used, done, src, tag;
};
static struct slot *slots;
static int nslots, cap;
static int *freelist, nfree;
static MPI_Comm *comms;
static int ncomms;

static void *grow(void *p, size_t n) {
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "bsim: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return q;
}

static int new_slot(void) {
    int h;
    if (nfree > 0) {
        h = freelist[--nfree];
    } else {
        if (nslots == cap) {
            cap = cap ? 2 * cap : 64;
            slots = grow(slots, cap * sizeof *slots);
            freelist = grow(freelist, cap * sizeof *freelist);
        }
        h = nslots++;
    }
    slots[h].used = 1;
    slots[h].done = 0;
    return h;
}

static void release(int h) {
    slots[h].used = 0;
    freelist[nfree++] = h;
}

static int add_comm(MPI_Comm c) {
    comms = grow(comms, (ncomms + 1) * sizeof *comms);
    comms[ncomms] = c;
    return ncomms++;
}

static int op_isend(const void *buf, int bytes, int dest, int tag, int comm) {
    int h = new_slot();
    MPI_Isend(buf, bytes, MPI_BYTE, dest, tag, comms[comm], &slots[h].r);
    return h;
}

static int op_irecv(void *buf, int bytes, int src, int tag, int comm) {
    int h = new_slot();
    MPI_Irecv(buf, bytes, MPI_BYTE, src < 0 ? MPI_ANY_SOURCE : src, tag < 0 ? MPI_ANY_TAG : tag, comms[comm], &slots[h].r);
    return h;
}

static void mark(int h, MPI_Status *st) {
    slots[h].done = 1;
    slots[h].src = st->MPI_SOURCE;
    slots[h].tag = st->MPI_TAG;
}

/* 1 (and the request is released) when complete. */
static int op_test(int h, int *src, int *tag) {
    if (!slots[h].done) {
        int flag = 0;
        MPI_Status st;
        MPI_Test(&slots[h].r, &flag, &st);
        if (!flag)
            return 0;
        mark(h, &st);
    }
    if (src)
        *src = slots[h].src;
    if (tag)
        *tag = slots[h].tag;
    release(h);
    return 1;
}

/* Block until one of the requests completes (it stays for op_test to collect). */
static void op_waitany(int n, const int *hs) {
    MPI_Request *rs = malloc((n > 0 ? n : 1) * sizeof *rs);
    for (int i = 0; i < n; i++) {
        if (slots[hs[i]].done) {
            free(rs);
            return;
        }
        rs[i] = slots[hs[i]].r;
    }
    int idx;
    MPI_Status st;
    MPI_Waitany(n, rs, &idx, &st);
    if (idx != MPI_UNDEFINED) {
        slots[hs[idx]].r = rs[idx];
        mark(hs[idx], &st);
    }
    free(rs);
}

static void op_wait(int h) {
    if (!slots[h].done)
        MPI_Wait(&slots[h].r, MPI_STATUS_IGNORE);
    release(h);
}

static void op_allgather(const void *s, int bytes, void *r, int comm) {
    MPI_Allgather(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, comms[comm]);
}

static void op_gather(const void *s, int bytes, void *r, int comm) {
    MPI_Gather(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, 0, comms[comm]);
}

static void op_gatherv(const void *s, int bytes, void *r, const int *counts, const int *displs, int comm) {
    MPI_Gatherv(s, bytes, MPI_BYTE, r, counts, displs, MPI_BYTE, 0, comms[comm]);
}

/* MPI_Comm_split; color < 0 is MPI_UNDEFINED. Returns -1 for MPI_COMM_NULL. */
static int op_split(int comm, int color, int key) {
    MPI_Comm nc;
    MPI_Comm_split(comms[comm], color < 0 ? MPI_UNDEFINED : color, key, &nc);
    return nc == MPI_COMM_NULL ? -1 : add_comm(nc);
}

static void op_abort(int code) {
    MPI_Abort(MPI_COMM_WORLD, code);
}

int main(int argc, char **argv) {
    if (_gfortran_set_args)
        _gfortran_set_args(argc, argv);
    const char *b = getenv("BSIM_BACKEND");
    if (!b || strcmp(b, "mpi") != 0) {
        bsim_rank_section(__start_bsim_rank, __stop_bsim_rank);
        return bsim_start(argc, argv, bsim_main, bsim_main_f_);
    }
    MPI_Init(&argc, &argv);
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    add_comm(c);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    add_comm(c);
    MPI_Comm_dup(MPI_COMM_SELF, &c);
    add_comm(c);
    struct bsim_mpi_ops ops = {
        .marker = "xmpc-bsim-mpi-main",
        .isend = op_isend, .irecv = op_irecv, .test = op_test, .waitany = op_waitany,
        .wait = op_wait, .allgather = op_allgather, .gather = op_gather,
        .gatherv = op_gatherv, .split = op_split, .abort = op_abort,
    };
    MPI_Comm_rank(MPI_COMM_WORLD, &ops.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ops.size);
    int *ub, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    ops.tag_ub = flag ? *ub : 32767;
    int rc = bsim_start_mpi(argc, argv, bsim_main, bsim_main_f_, &ops);
    MPI_Finalize();
    return rc;
}
