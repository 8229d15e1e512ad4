/*
 * libxmpc_mpiete core: block timers (compute mode), the program trace writer
 * (trace mode), token-passing execution (token mode), time-in-MPI accounting
 * (measure mode), point-to-point collectives and the C PMPI wrappers.
 * Fortran wrappers are in mpiete_f.c (a separate object, so C programs do not
 * need the Fortran MPI library). Formats: docs/mpiete.md.
 *
 * Every MPI call the runtime makes itself goes to PMPI_*, so nothing is
 * recorded twice.
 */
#define _GNU_SOURCE
#include "mpiete.h"
#include "mpiete_int.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- state ------------------------------------------------------------ */

int me_mode = 0;     /* ME_* flags */
int me_p2p = 0;      /* collectives and blocking calls decomposed (trace/token) */
static int g_inited = 0, g_finalized = 0;
static int g_rank = 0, g_size = 1;
static char g_dir[4096] = ".";
static MPI_Comm g_collworld = MPI_COMM_NULL; /* collectives' p2p messages */
static MPI_Comm g_tokcomm = MPI_COMM_NULL;   /* token and release messages */
static MPI_Group g_worldgrp = MPI_GROUP_NULL;

static inline uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
uint64_t me_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
uint64_t me_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *msg) {
    fprintf(stderr, "mpiete: rank %d: %s\n", g_rank, msg);
    fflush(stderr);
    PMPI_Abort(MPI_COMM_WORLD, 1);
    _exit(1);
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) die("out of memory");
    return q;
}

/* ---- compute mode: per-block time and count --------------------------- */

static uint64_t *g_sum, *g_start, *g_cnt;
static double *g_sq; /* sum of squared durations (ns^2): the per-execution spread */
/* first, shortest and longest execution (ns): the first execution of a block pays
 * the first touch of its pages and cold caches, which the steady state does not */
static uint64_t *g_first, *g_min, *g_max;
static int g_nblk = 0; /* capacity (ids < g_nblk) */

static void blk_grow(int id) {
    int n = g_nblk ? g_nblk : 64;
    while (n <= id) n *= 2;
    g_sum = xrealloc(g_sum, n * sizeof *g_sum);
    g_start = xrealloc(g_start, n * sizeof *g_start);
    g_cnt = xrealloc(g_cnt, n * sizeof *g_cnt);
    g_sq = xrealloc(g_sq, n * sizeof *g_sq);
    g_first = xrealloc(g_first, n * sizeof *g_first);
    g_min = xrealloc(g_min, n * sizeof *g_min);
    g_max = xrealloc(g_max, n * sizeof *g_max);
    memset(g_sum + g_nblk, 0, (n - g_nblk) * sizeof *g_sum);
    memset(g_start + g_nblk, 0, (n - g_nblk) * sizeof *g_start);
    memset(g_cnt + g_nblk, 0, (n - g_nblk) * sizeof *g_cnt);
    memset(g_sq + g_nblk, 0, (n - g_nblk) * sizeof *g_sq);
    memset(g_first + g_nblk, 0, (n - g_nblk) * sizeof *g_first);
    memset(g_min + g_nblk, 0, (n - g_nblk) * sizeof *g_min);
    memset(g_max + g_nblk, 0, (n - g_nblk) * sizeof *g_max);
    g_nblk = n;
}

/* ---- trace mode: streamed binary records ------------------------------ */

#define TBUF (64 * 1024)
static unsigned char g_tbuf[TBUF];
static size_t g_tlen = 0;
static int g_tfd = -1;
static char g_tpath[4200], g_ttmp[4500];
static uint32_t g_comm_id = 0; /* id for the next MPI records */
static uint32_t g_reqseq = 0;

static void t_flush(void) {
    size_t off = 0;
    while (off < g_tlen) {
        ssize_t w = write(g_tfd, g_tbuf + off, g_tlen - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            die("cannot write the trace file");
        }
        off += (size_t)w;
    }
    g_tlen = 0;
}

static inline void t_put(const void *p, size_t n) {
    if (g_tlen + n > TBUF) t_flush();
    memcpy(g_tbuf + g_tlen, p, n);
    g_tlen += n;
}
static inline void t_u8(uint8_t v) { t_put(&v, 1); }
static inline void t_u32(uint32_t v) { t_put(&v, 4); } /* x86/ARM: little-endian */
static inline void t_i32(int32_t v) { t_put(&v, 4); }
static inline void t_u64(uint64_t v) { t_put(&v, 8); }

/* `mpiete_mark(id)` waits here: the next MPI record takes it as its block id
 * (a communication or wait block); anything else writes it as a BLOCK record */
static int64_t g_pending = -1;

static void t_raw_block(uint32_t id) {
    if (g_tlen + 5 > TBUF) t_flush();
    g_tbuf[g_tlen] = REC_BLOCK;
    memcpy(g_tbuf + g_tlen + 1, &id, 4);
    g_tlen += 5;
}

static inline void t_pending_flush(void) {
    if (g_pending >= 0) {
        t_raw_block((uint32_t)g_pending);
        g_pending = -1;
    }
}

static inline void t_block(uint32_t id) {
    t_pending_flush();
    t_raw_block(id);
}

/* block id of the next MPI record */
static inline uint32_t t_comm_id(void) {
    if (g_pending >= 0) {
        uint32_t id = (uint32_t)g_pending;
        g_pending = -1;
        return id;
    }
    return g_comm_id;
}

/* ---- block ABI ---------------------------------------------------------- */

/* MPIETE_CLOCK=cpu: block times in thread CPU time (time the process was
 * descheduled, e.g. by unrelated load on the core, does not count) */
static int g_cpuclock = 0;

static inline uint64_t blk_now(void) { return g_cpuclock ? me_cpu_ns() : now_ns(); }

void mpiete_block_begin(int id) {
    if (!me_mode || id < 0) return;
    if (me_mode & ME_TRACE) t_block((uint32_t)id);
    if (me_mode & ME_COMPUTE) {
        if (id >= g_nblk) blk_grow(id);
        g_start[id] = blk_now();
    }
}

void mpiete_block_end(int id) {
    if (!(me_mode & ME_COMPUTE) || id < 0) return;
    uint64_t t = blk_now();
    if (id >= g_nblk) blk_grow(id);
    if (g_start[id]) {
        uint64_t d = t - g_start[id];
        g_sum[id] += d;
        g_sq[id] += (double)d * (double)d;
        if (g_cnt[id] == 0) g_first[id] = g_min[id] = g_max[id] = d;
        if (d < g_min[id]) g_min[id] = d;
        if (d > g_max[id]) g_max[id] = d;
        g_cnt[id]++;
        g_start[id] = 0;
    }
}

void mpiete_mark(int id) {
    if ((me_mode & ME_TRACE) && id >= 0) {
        t_pending_flush();
        g_pending = id;
    }
}

void mpiete_comm_block(int id) { g_comm_id = id < 0 ? 0 : (uint32_t)id; }

/* measure mode */
uint64_t me_mpi_ns = 0, me_mpi_cpu_ns = 0;
int me_yield = 0;
static uint64_t g_t_init = 0, g_t_end = 0, g_mpi_end = 0;
static uint64_t g_c_init = 0, g_c_end = 0, g_mpic_end = 0;
static int g_region = 0; /* 0 none yet, 1 inside, 2 after */

void mpiete_region_begin(void) {
    if (!me_mode || g_region) return;
    g_region = 1;
    if (me_mode & ME_TRACE) {
        t_pending_flush();
        t_u8(REC_REGION);
        t_u32(0);
    }
    g_t_init = now_ns();
    g_c_init = me_cpu_ns();
    me_mpi_ns = 0;
    me_mpi_cpu_ns = 0;
}

void mpiete_region_end(void) {
    if (!me_mode || g_region != 1) return;
    g_region = 2;
    if (me_mode & ME_TRACE) {
        t_pending_flush();
        t_u8(REC_REGION);
        t_u32(1);
    }
    g_t_end = now_ns();
    g_mpi_end = me_mpi_ns;
    g_c_end = me_cpu_ns();
    g_mpic_end = me_mpi_cpu_ns;
}
void mpiete_region_begin_(void) { mpiete_region_begin(); }
void mpiete_region_end_(void) { mpiete_region_end(); }

int me_wait_yield(MPI_Request *r, MPI_Status *st) {
    int f = 0;
    for (;;) {
        int rc = PMPI_Test(r, &f, st);
        if (rc != MPI_SUCCESS || f) return rc;
        sched_yield();
    }
}

void mpiete_block_begin_(int *id) { mpiete_block_begin(*id); }
void mpiete_block_end_(int *id) { mpiete_block_end(*id); }
void mpiete_mark_(int *id) { mpiete_mark(*id); }
void mpiete_comm_block_(int *id) { mpiete_comm_block(*id); }


/* ---- communicators: ids and world ranks ------------------------------- */

typedef struct {
    MPI_Comm comm;
    uint32_t id;
    int is_world;
    MPI_Group grp;
    MPI_Comm coll;
} CommEnt;
static CommEnt g_comms[256];
static int g_ncomm = 0;

static CommEnt *comm_add(MPI_Comm c, int is_world, MPI_Comm coll) {
    if (g_ncomm == 256) die("more than 256 communicators are not supported");
    CommEnt *e = &g_comms[g_ncomm];
    e->comm = c;
    e->id = (uint32_t)g_ncomm++;
    e->is_world = is_world;
    e->grp = MPI_GROUP_NULL;
    e->coll = coll;
    if (!is_world) PMPI_Comm_group(c, &e->grp);
    return e;
}

static void setup_comms(void);
static void out_dir_or_abort(void);

static CommEnt *comm_ent(MPI_Comm c) {
    if (g_collworld == MPI_COMM_NULL) setup_comms();
    for (int i = 0; i < g_ncomm; i++)
        if (g_comms[i].comm == c) return &g_comms[i];
    int res = MPI_UNEQUAL;
    PMPI_Comm_compare(c, MPI_COMM_WORLD, &res);
    return comm_add(c, res == MPI_IDENT || res == MPI_CONGRUENT, MPI_COMM_NULL);
}

/* world rank of rank r of the communicator (-1 for wildcards) */
static int to_world(CommEnt *e, int r) {
    if (r < 0) return -1;
    if (e->is_world) return r;
    int w = -1;
    PMPI_Group_translate_ranks(e->grp, 1, &r, g_worldgrp, &w);
    return w;
}

/* communicator for the point-to-point messages of a collective on c */
static MPI_Comm coll_comm(MPI_Comm c) {
    if (g_collworld == MPI_COMM_NULL) setup_comms();
    if (c == MPI_COMM_WORLD) return g_collworld;
    CommEnt *e = comm_ent(c);
    if (e->coll == MPI_COMM_NULL) {
        if (me_mode & ME_TOKEN) die("token mode supports collectives on MPI_COMM_WORLD only");
        MPI_Comm d;
        PMPI_Comm_dup(c, &d);
        e->coll = d;
        CommEnt *de = comm_add(d, e->is_world, MPI_COMM_NULL);
        (void)de;
    }
    return e->coll;
}

/* ---- outstanding requests ---------------------------------------------- */

typedef struct {
    MPI_Request h;
    uint32_t seq;
    int kind; /* 0 send, 1 receive */
    int peer; /* world rank, -1 any */
    int tag;  /* -1 any */
    uint32_t cid;
} Req;
static Req *g_reqs;
static int g_nreq = 0, g_capreq = 0;

static void req_add(MPI_Request h, uint32_t seq, int kind, int peer, int tag, uint32_t cid) {
    if (g_nreq == g_capreq) {
        g_capreq = g_capreq ? 2 * g_capreq : 64;
        g_reqs = xrealloc(g_reqs, g_capreq * sizeof *g_reqs);
    }
    g_reqs[g_nreq++] = (Req){h, seq, kind, peer, tag, cid};
}

static int req_find(MPI_Request h) {
    for (int i = g_nreq - 1; i >= 0; i--)
        if (g_reqs[i].h == h) return i;
    return -1;
}

static void req_del(int i) { g_reqs[i] = g_reqs[--g_nreq]; }

/* ---- token ---------------------------------------------------------------- */

#define TOK_TAG 7001
#define REL_TAG 7002
typedef struct {
    int src, dst, tag, cid, kind; /* kind 0: send posted, 1: receive posted */
} TokEnt;
static int g_have = 0;
static int *g_fin;          /* finished ranks */
static int g_nfin = 0;
static TokEnt *g_tok;
static int g_ntok = 0, g_captok = 0;
static int *g_tokbuf;
static int g_captokbuf = 0;
uint64_t me_token_passes = 0;

static void tok_add(int src, int dst, int tag, int cid, int kind) {
    if (g_ntok == g_captok) {
        g_captok = g_captok ? 2 * g_captok : 64;
        g_tok = xrealloc(g_tok, g_captok * sizeof *g_tok);
    }
    g_tok[g_ntok++] = (TokEnt){src, dst, tag, cid, kind};
}

static inline int wild_eq(int pattern, int v) { return pattern < 0 || v < 0 || pattern == v; }

/* first entry of `kind` that matches (wildcards on either side match) */
static int tok_find(int kind, int src, int dst, int tag, int cid) {
    for (int i = 0; i < g_ntok; i++) {
        TokEnt *t = &g_tok[i];
        if (t->kind == kind && t->cid == cid && t->dst == dst && wild_eq(t->src, src) &&
            wild_eq(t->tag, tag))
            return i;
    }
    return -1;
}

static void tok_del(int i) {
    memmove(&g_tok[i], &g_tok[i + 1], (size_t)(g_ntok - i - 1) * sizeof *g_tok);
    g_ntok--;
}

static void tokbuf_reserve(int n) {
    if (n > g_captokbuf) {
        g_captokbuf = n * 2;
        g_tokbuf = xrealloc(g_tokbuf, (size_t)g_captokbuf * sizeof(int));
    }
}

/* How a rank without the token waits: 1 spin (Iprobe + sched_yield, the core stays
 * busy), 0 nap (sleeps). Default: spin when this node's ranks may run on at least as
 * many CPUs as there are ranks (the union of their affinity masks); MPIETE_WAIT=spin
 * or nap overrides. A napping rank's CPU goes idle, and on a virtual machine an idle
 * vCPU is halted and its physical core lent to others: the rank came back to cold
 * caches and measured in-L2 blocks up to 1.9x slower than they run (2026-11-28,
 * jacobi2d 300x300 at 2 ranks on 2 vCPUs). Oversubscribed nodes nap, so waiting ranks
 * leave the core to the token holder. */
static int g_tokspin = 1;

static void tok_wait_policy(void) {
    /* the collective part first, on every rank, whatever MPIETE_WAIT says */
    MPI_Comm node;
    int local = 1;
    cpu_set_t mine, all;
    CPU_ZERO(&mine);
    CPU_ZERO(&all);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) CPU_SET(0, &mine);
    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        PMPI_Comm_size(node, &local);
        PMPI_Allreduce(&mine, &all, (int)(sizeof mine / sizeof(unsigned long)), MPI_UNSIGNED_LONG, MPI_BOR, node);
        PMPI_Comm_free(&node);
    } else {
        all = mine;
    }
    g_tokspin = local <= CPU_COUNT(&all);
    const char *w = getenv("MPIETE_WAIT");
    if (w && *w) {
        if (!strcmp(w, "spin")) g_tokspin = 1;
        else if (!strcmp(w, "nap")) g_tokspin = 0;
        else {
            fprintf(stderr, "mpiete: rank %d: MPIETE_WAIT must be spin or nap, not '%s'\n", g_rank, w);
            exit(2);
        }
    }
}

static void tok_wait(void) {
    MPI_Status st;
    int flag = 0;
    /* Iprobe keeps this process's MPI progressing (rendezvous sends);
     * sched_yield hands the core to the token holder, first ... */
    /* then (napping ranks) sleeps of growing length (5 us .. 200 us) so waiting
     * ranks leave the core to the holder */
    long nap = 0;
    for (int spin = 0;; spin++) {
        PMPI_Iprobe(MPI_ANY_SOURCE, TOK_TAG, g_tokcomm, &flag, &st);
        if (flag) break;
        if (spin < 64 || g_tokspin) {
            sched_yield();
        } else {
            nap = nap ? (nap * 2 > 200000 ? 200000 : nap * 2) : 5000;
            struct timespec ts = {0, nap};
            nanosleep(&ts, NULL);
        }
    }
    int n = 0;
    PMPI_Get_count(&st, MPI_INT, &n);
    tokbuf_reserve(n);
    PMPI_Recv(g_tokbuf, n, MPI_INT, st.MPI_SOURCE, TOK_TAG, g_tokcomm, MPI_STATUS_IGNORE);
    g_nfin = g_tokbuf[0];
    int ne = g_tokbuf[1];
    memcpy(g_fin, g_tokbuf + 2, (size_t)g_size * sizeof(int));
    g_ntok = 0;
    const int *e = g_tokbuf + 2 + g_size;
    for (int i = 0; i < ne; i++, e += 5) tok_add(e[0], e[1], e[2], e[3], e[4]);
    g_have = 1;
}

/* next unfinished rank after this one; this rank when it is the only one */
static int tok_next(void) {
    for (int k = 1; k <= g_size; k++) {
        int r = (g_rank + k) % g_size;
        if (!g_fin[r]) return r;
    }
    return g_rank;
}

static void tok_send(int to) {
    int n = 2 + g_size + 5 * g_ntok;
    tokbuf_reserve(n);
    g_tokbuf[0] = g_nfin;
    g_tokbuf[1] = g_ntok;
    memcpy(g_tokbuf + 2, g_fin, (size_t)g_size * sizeof(int));
    int *e = g_tokbuf + 2 + g_size;
    for (int i = 0; i < g_ntok; i++, e += 5) {
        e[0] = g_tok[i].src;
        e[1] = g_tok[i].dst;
        e[2] = g_tok[i].tag;
        e[3] = g_tok[i].cid;
        e[4] = g_tok[i].kind;
    }
    PMPI_Send(g_tokbuf, n, MPI_INT, to, TOK_TAG, g_tokcomm);
    g_have = 0;
    me_token_passes++;
}

/* pass the token on and wait until it comes back; 0 when no other rank runs */
static int tok_cycle(void) {
    int to = tok_next();
    if (to == g_rank) return 0;
    tok_send(to);
    tok_wait();
    return 1;
}

/* ---- point-to-point layer ---------------------------------------------- */

static inline int64_t nbytes(int count, MPI_Datatype dt) {
    int sz = 0;
    if (count <= 0) return 0;
    PMPI_Type_size(dt, &sz);
    return (int64_t)count * sz;
}

/* the start of a message (ISEND / IRECV record, open request, token entry);
 * w: world rank of the peer (-1 any), t: tag (-1 any) */
static void rec_start(int kind, MPI_Request h, int w, int t, uint32_t cid, uint64_t bytes) {
    uint32_t seq = ++g_reqseq;
    req_add(h, seq, kind, w, t, cid);
    if (me_mode & ME_TRACE) {
        t_u8(kind ? REC_IRECV : REC_ISEND);
        t_u32(t_comm_id());
        t_u32(seq);
        t_i32(w);
        t_i32(t);
        t_u32(cid);
        t_u64(bytes);
    }
    if (me_mode & ME_TOKEN) {
        if (kind)
            tok_add(w, g_rank, t, (int)cid, 1);
        else
            tok_add(g_rank, w, t, (int)cid, 0);
    }
}

int me_isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
             MPI_Request *req) {
    int rc = PMPI_Isend(buf, count, dt, dest, tag, comm, req);
    if (dest == MPI_PROC_NULL || rc != MPI_SUCCESS) return rc;
    CommEnt *e = comm_ent(comm);
    rec_start(0, *req, to_world(e, dest), tag, e->id, (uint64_t)nbytes(count, dt));
    return rc;
}

int me_irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
             MPI_Request *req) {
    int rc = PMPI_Irecv(buf, count, dt, src, tag, comm, req);
    if (src == MPI_PROC_NULL || rc != MPI_SUCCESS) return rc;
    CommEnt *e = comm_ent(comm);
    int w = src == MPI_ANY_SOURCE ? -1 : to_world(e, src);
    rec_start(1, *req, w, tag == MPI_ANY_TAG ? -1 : tag, e->id, (uint64_t)nbytes(count, dt));
    return rc;
}

/* ---- persistent requests: each MPI_Start records what an Isend / Irecv with
 * the stored arguments would ------------------------------------------------ */

typedef struct {
    MPI_Request h;
    int kind, peer, tag; /* as Req; peer -2: MPI_PROC_NULL (nothing recorded) */
    uint32_t cid;
    uint64_t bytes;
} Pers;
static Pers *g_pers;
static int g_npers = 0, g_cappers = 0;

static int pers_find(MPI_Request h) {
    for (int i = g_npers - 1; i >= 0; i--)
        if (g_pers[i].h == h) return i;
    return -1;
}

static void pers_add(int kind, MPI_Request h, int peer, int tag, MPI_Comm comm, int count,
                     MPI_Datatype dt) {
    int i = pers_find(h); /* a freed handle MPI hands out again */
    if (i < 0) {
        if (g_npers == g_cappers) {
            g_cappers = g_cappers ? 2 * g_cappers : 16;
            g_pers = xrealloc(g_pers, (size_t)g_cappers * sizeof *g_pers);
        }
        i = g_npers++;
    }
    CommEnt *e = comm_ent(comm);
    int w = peer == MPI_PROC_NULL ? -2 : peer == MPI_ANY_SOURCE ? -1 : to_world(e, peer);
    g_pers[i] = (Pers){h, kind, w, tag == MPI_ANY_TAG ? -1 : tag, e->id, (uint64_t)nbytes(count, dt)};
}

int me_send_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                 MPI_Request *req) {
    int rc = PMPI_Send_init(buf, count, dt, dest, tag, comm, req);
    if (rc == MPI_SUCCESS) pers_add(0, *req, dest, tag, comm, count, dt);
    return rc;
}

int me_recv_init(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                 MPI_Request *req) {
    int rc = PMPI_Recv_init(buf, count, dt, src, tag, comm, req);
    if (rc == MPI_SUCCESS) pers_add(1, *req, src, tag, comm, count, dt);
    return rc;
}

int me_start(MPI_Request *h) {
    int rc = PMPI_Start(h);
    int i = rc == MPI_SUCCESS ? pers_find(*h) : -1;
    if (i >= 0 && g_pers[i].peer != -2) {
        Pers *p = &g_pers[i];
        rec_start(p->kind, *h, p->peer, p->tag, p->cid, p->bytes);
    }
    return rc;
}

int me_startall(int n, MPI_Request *hs) {
    for (int i = 0; i < n; i++) {
        int rc = me_start(&hs[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

int me_request_free(MPI_Request *h) {
    MPI_Request old = *h;
    int rc = PMPI_Request_free(h);
    if (rc != MPI_SUCCESS) return rc;
    int i = pers_find(old);
    if (i >= 0) g_pers[i] = g_pers[--g_npers];
    /* an active request freed: MPI completes it unseen, so no WAIT is recorded */
    i = req_find(old);
    if (i >= 0) req_del(i);
    return rc;
}

/* token rules for one wait (the request is known and still active) */
static int tok_wait_req(Req *r, MPI_Request *h, MPI_Status *st) {
    for (;;) {
        if (r->kind == 1) {
            int i = tok_find(0, r->peer, g_rank, r->tag, (int)r->cid);
            if (i >= 0) {
                int rc = PMPI_Wait(h, st);
                /* consume the message actually received */
                CommEnt *e = &g_comms[r->cid];
                int src = to_world(e, st->MPI_SOURCE);
                int j = tok_find(0, src, g_rank, st->MPI_TAG, (int)r->cid);
                tok_del(j >= 0 ? j : i);
                for (int k = 0; k < g_ntok; k++) {
                    TokEnt *t = &g_tok[k];
                    if (t->kind == 1 && t->dst == g_rank && t->src == r->peer && t->tag == r->tag &&
                        t->cid == (int)r->cid) {
                        tok_del(k);
                        break;
                    }
                }
                return rc;
            }
        } else {
            int i = tok_find(1, g_rank, r->peer, r->tag, (int)r->cid);
            if (i >= 0) {
                tok_del(i);
                return PMPI_Wait(h, st);
            }
            int flag = 0;
            int rc = PMPI_Test(h, &flag, st);
            if (flag || rc != MPI_SUCCESS) return rc;
        }
        if (!tok_cycle()) {
            /* the other ranks have finished: only an eager send can still complete */
            if (r->kind == 0) return PMPI_Wait(h, st);
            die("token mode: waiting for a message that no running rank can send");
        }
    }
}

/* the WAIT record of a completed request (s: its status) */
static void t_wait_rec(const Req *r, MPI_Status *s) {
    int src = -1, tag = -1, cnt = 0;
    if (r->kind == 1) {
        src = to_world(&g_comms[r->cid], s->MPI_SOURCE);
        tag = s->MPI_TAG;
        PMPI_Get_count(s, MPI_BYTE, &cnt);
        if (cnt == MPI_UNDEFINED) cnt = 0;
    }
    t_u8(REC_WAIT);
    t_u32(t_comm_id());
    t_u32(r->seq);
    t_i32(src);
    t_i32(tag);
    t_u64((uint64_t)cnt);
}

int me_wait(MPI_Request *h, MPI_Status *st) {
    MPI_Status local;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &local : st;
    int i = *h == MPI_REQUEST_NULL ? -1 : req_find(*h);
    if (i < 0) return me_yield ? me_wait_yield(h, st) : PMPI_Wait(h, st);
    Req r = g_reqs[i];
    req_del(i);
    int rc;
    if (me_mode & ME_TOKEN)
        rc = tok_wait_req(&r, h, s);
    else if (me_yield)
        rc = me_wait_yield(h, s);
    else
        rc = PMPI_Wait(h, s);
    if (me_mode & ME_TRACE) t_wait_rec(&r, s);
    return rc;
}

/* token mode: would a wait on this (active) request complete without passing
 * the token? */
static int tok_ready(MPI_Request h) {
    int i = req_find(h);
    if (i < 0) {
        int f = 0;
        PMPI_Request_get_status(h, &f, MPI_STATUS_IGNORE);
        return f;
    }
    Req *r = &g_reqs[i];
    if (r->kind == 1) return tok_find(0, r->peer, g_rank, r->tag, (int)r->cid) >= 0;
    if (tok_find(1, g_rank, r->peer, r->tag, (int)r->cid) >= 0) return 1;
    int f = 0;
    PMPI_Request_get_status(h, &f, MPI_STATUS_IGNORE);
    return f;
}

/* A test that succeeds is recorded as the wait it is; a failed test is a poll
 * and records nothing (docs/mpiete.md). Token mode: a test that cannot
 * complete passes the token round once, so that a polling loop lets the
 * other ranks run. */
int me_test(MPI_Request *h, int *flag, MPI_Status *st) {
    MPI_Status local;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &local : st;
    int i = *h == MPI_REQUEST_NULL ? -1 : req_find(*h);
    if (i < 0) return PMPI_Test(h, flag, st);
    if (me_mode & ME_TOKEN) {
        if (tok_ready(*h)) {
            *flag = 1;
            return me_wait(h, st);
        }
        *flag = 0;
        if (!tok_cycle()) {
            *flag = 1;
            return me_wait(h, st);
        }
        return MPI_SUCCESS;
    }
    int rc = PMPI_Test(h, flag, s);
    if (rc != MPI_SUCCESS || !*flag) return rc;
    Req r = g_reqs[i];
    req_del(i);
    if (me_mode & ME_TRACE) t_wait_rec(&r, s);
    return rc;
}

/* all or nothing: when every request has completed, one WAIT per request in
 * array order (as MPI_Waitall) */
int me_testall(int n, MPI_Request *hs, int *flag, MPI_Status *sts) {
    if (me_mode & ME_TOKEN) {
        int all = 1;
        for (int i = 0; i < n && all; i++)
            if (hs[i] != MPI_REQUEST_NULL && !tok_ready(hs[i])) all = 0;
        if (all || !tok_cycle()) {
            *flag = 1;
            return me_waitall(n, hs, sts);
        }
        *flag = 0;
        return MPI_SUCCESS;
    }
    MPI_Request *old = xrealloc(NULL, (size_t)(n > 0 ? n : 1) * sizeof *old);
    MPI_Status *ss = sts;
    if (sts == MPI_STATUSES_IGNORE) ss = xrealloc(NULL, (size_t)(n > 0 ? n : 1) * sizeof *ss);
    memcpy(old, hs, (size_t)n * sizeof *old);
    int rc = PMPI_Testall(n, hs, flag, ss);
    if (rc == MPI_SUCCESS && *flag) {
        for (int i = 0; i < n; i++) {
            int k = old[i] == MPI_REQUEST_NULL ? -1 : req_find(old[i]);
            if (k < 0) continue;
            Req r = g_reqs[k];
            req_del(k);
            if (me_mode & ME_TRACE) t_wait_rec(&r, &ss[i]);
        }
    }
    if (ss != sts) free(ss);
    free(old);
    return rc;
}

/* the request that real MPI completes is the one recorded, so the replay
 * follows the same order */
int me_waitany(int n, MPI_Request *hs, int *idx, MPI_Status *st) {
    MPI_Status local;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &local : st;
    *idx = MPI_UNDEFINED;
    if (me_mode & ME_TOKEN) {
        for (;;) {
            int active = -1;
            for (int i = 0; i < n; i++) {
                if (hs[i] == MPI_REQUEST_NULL) continue;
                if (active < 0) active = i;
                if (tok_ready(hs[i])) {
                    *idx = i;
                    return me_wait(&hs[i], st);
                }
            }
            if (active < 0) return MPI_SUCCESS;
            if (!tok_cycle()) {
                *idx = active;
                return me_wait(&hs[active], st);
            }
        }
    }
    MPI_Request *old = xrealloc(NULL, (size_t)(n > 0 ? n : 1) * sizeof *old);
    memcpy(old, hs, (size_t)n * sizeof *old);
    int rc = me_yield ? y_waitany(n, hs, idx, s) : PMPI_Waitany(n, hs, idx, s);
    if (rc == MPI_SUCCESS && *idx != MPI_UNDEFINED) {
        int k = req_find(old[*idx]);
        if (k >= 0) {
            Req r = g_reqs[k];
            req_del(k);
            if (me_mode & ME_TRACE) t_wait_rec(&r, s);
        }
    }
    free(old);
    return rc;
}

/* the WAIT records of the requests real MPI completed: `old` holds the handles
 * before the call, idx[0..k) the indices it returned (in its order) */
static void rec_done(const MPI_Request *old, int k, const int *idx, MPI_Status *ss) {
    for (int j = 0; j < k; j++) {
        int q = old[idx[j]] == MPI_REQUEST_NULL ? -1 : req_find(old[idx[j]]);
        if (q < 0) continue;
        Req r = g_reqs[q];
        req_del(q);
        if (me_mode & ME_TRACE) t_wait_rec(&r, &ss[j]);
    }
}

/* token mode for Waitsome / Testsome / Testany: completes (with me_wait) every
 * request the token rules allow now, at most `max`; when none can and `poll`,
 * passes the token round once; otherwise passes it until one can. Returns the
 * number completed, or MPI_UNDEFINED when every request is null. */
static int tok_some(int n, MPI_Request *hs, int *idx, MPI_Status *sts, int max, int poll) {
    for (;;) {
        int k = 0, active = -1;
        for (int i = 0; i < n && k < max; i++) {
            if (hs[i] == MPI_REQUEST_NULL) continue;
            if (active < 0) active = i;
            if (tok_ready(hs[i])) {
                idx[k] = i;
                me_wait(&hs[i], sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[k]);
                k++;
            }
        }
        if (k > 0) return k;
        if (active < 0) return MPI_UNDEFINED;
        if (!tok_cycle()) {
            idx[0] = active;
            me_wait(&hs[active], sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[0]);
            return 1;
        }
        if (poll) return 0;
    }
}

/* as MPI_Waitany: one WAIT per request MPI completed, in the order it lists them */
int me_waitsome(int n, MPI_Request *hs, int *outcount, int *idx, MPI_Status *sts) {
    if (me_mode & ME_TOKEN) {
        *outcount = tok_some(n, hs, idx, sts, n, 0);
        return MPI_SUCCESS;
    }
    int m = n > 0 ? n : 1;
    MPI_Request *old = xrealloc(NULL, (size_t)m * sizeof *old);
    MPI_Status *ss = sts == MPI_STATUSES_IGNORE ? xrealloc(NULL, (size_t)m * sizeof *ss) : sts;
    memcpy(old, hs, (size_t)n * sizeof *old);
    int rc = me_yield ? y_waitsome(n, hs, outcount, idx, ss) : PMPI_Waitsome(n, hs, outcount, idx, ss);
    if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED) rec_done(old, *outcount, idx, ss);
    if (ss != sts) free(ss);
    free(old);
    return rc;
}

/* a failed test is a poll and records nothing (as MPI_Test) */
int me_testsome(int n, MPI_Request *hs, int *outcount, int *idx, MPI_Status *sts) {
    if (me_mode & ME_TOKEN) {
        *outcount = tok_some(n, hs, idx, sts, n, 1);
        return MPI_SUCCESS;
    }
    int m = n > 0 ? n : 1;
    MPI_Request *old = xrealloc(NULL, (size_t)m * sizeof *old);
    MPI_Status *ss = sts == MPI_STATUSES_IGNORE ? xrealloc(NULL, (size_t)m * sizeof *ss) : sts;
    memcpy(old, hs, (size_t)n * sizeof *old);
    int rc = PMPI_Testsome(n, hs, outcount, idx, ss);
    if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED) rec_done(old, *outcount, idx, ss);
    if (ss != sts) free(ss);
    free(old);
    return rc;
}

int me_testany(int n, MPI_Request *hs, int *idx, int *flag, MPI_Status *st) {
    MPI_Status local;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &local : st;
    if (me_mode & ME_TOKEN) {
        int k = tok_some(n, hs, idx, s, 1, 1);
        *flag = k != 0;
        if (k == MPI_UNDEFINED) *idx = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    MPI_Request *old = xrealloc(NULL, (size_t)(n > 0 ? n : 1) * sizeof *old);
    memcpy(old, hs, (size_t)n * sizeof *old);
    int rc = PMPI_Testany(n, hs, idx, flag, s);
    if (rc == MPI_SUCCESS && *flag && *idx != MPI_UNDEFINED) rec_done(old, 1, idx, s);
    free(old);
    return rc;
}

int me_waitall(int n, MPI_Request *hs, MPI_Status *sts) {
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        int r = me_wait(&hs[i], sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i]);
        if (r != MPI_SUCCESS) rc = r;
    }
    return rc;
}

int me_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) {
    MPI_Request r;
    int rc = me_isend(buf, count, dt, dest, tag, comm, &r);
    if (rc != MPI_SUCCESS) return rc;
    return me_wait(&r, MPI_STATUS_IGNORE);
}

int me_recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
            MPI_Status *st) {
    MPI_Request r;
    int rc = me_irecv(buf, count, dt, src, tag, comm, &r);
    if (rc != MPI_SUCCESS) return rc;
    return me_wait(&r, st);
}

int me_sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf,
                int rcount, MPI_Datatype rdt, int src, int rtag, MPI_Comm comm, MPI_Status *st) {
    MPI_Request rs, rr;
    int rc = me_irecv(rbuf, rcount, rdt, src, rtag, comm, &rr);
    if (rc == MPI_SUCCESS) rc = me_isend(sbuf, scount, sdt, dest, stag, comm, &rs);
    if (rc != MPI_SUCCESS) return rc;
    rc = me_wait(&rr, st);
    int rc2 = me_wait(&rs, MPI_STATUS_IGNORE);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* ---- collectives as point-to-point (docs/mpiete.md lists the algorithms) - */

#define CTAG 0 /* collectives have their own communicator */

static size_t extent_of(MPI_Datatype dt) {
    MPI_Aint lb, ext;
    PMPI_Type_get_extent(dt, &lb, &ext);
    return (size_t)ext;
}

int mpiete_barrier(MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    /* dissemination */
    for (int k = 1; k < size; k *= 2)
        me_sendrecv(NULL, 0, MPI_BYTE, (rank + k) % size, CTAG, NULL, 0, MPI_BYTE,
                    (rank - k + size) % size, CTAG, c, MPI_STATUS_IGNORE);
    return MPI_SUCCESS;
}

int mpiete_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    /* binomial tree */
    int vr = (rank - root + size) % size, mask = 1;
    while (mask < size) {
        if (vr & mask) {
            me_recv(buf, count, dt, (vr - mask + root) % size, CTAG, c, MPI_STATUS_IGNORE);
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    while (mask > 0) {
        if (vr + mask < size) me_send(buf, count, dt, (vr + mask + root) % size, CTAG, c);
        mask >>= 1;
    }
    return MPI_SUCCESS;
}

int mpiete_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                  MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    size_t bytes = (size_t)count * extent_of(dt);
    char *acc = xrealloc(NULL, bytes), *tmp = xrealloc(NULL, bytes);
    memcpy(acc, sbuf == MPI_IN_PLACE ? rbuf : sbuf, bytes);
    /* binomial tree (commutative operations) */
    int vr = (rank - root + size) % size, mask = 1;
    while (mask < size) {
        if ((vr & mask) == 0) {
            int src = vr | mask;
            if (src < size) {
                me_recv(tmp, count, dt, (src + root) % size, CTAG, c, MPI_STATUS_IGNORE);
                PMPI_Reduce_local(tmp, acc, count, dt, op);
            }
        } else {
            me_send(acc, count, dt, ((vr & ~mask) + root) % size, CTAG, c);
            break;
        }
        mask <<= 1;
    }
    if (rank == root) memcpy(rbuf, acc, bytes);
    free(acc);
    free(tmp);
    return MPI_SUCCESS;
}

int mpiete_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    size_t bytes = (size_t)count * extent_of(dt);
    if (sbuf != MPI_IN_PLACE) memcpy(rbuf, sbuf, bytes);
    char *tmp = xrealloc(NULL, bytes);
    /* recursive doubling; the ranks beyond the largest power of two first
     * fold into their even neighbour (as MPICH does) */
    int pof2 = 1;
    while (pof2 * 2 <= size) pof2 *= 2;
    int rem = size - pof2, newrank;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            me_send(rbuf, count, dt, rank + 1, CTAG, c);
            newrank = -1;
        } else {
            me_recv(tmp, count, dt, rank - 1, CTAG, c, MPI_STATUS_IGNORE);
            PMPI_Reduce_local(tmp, rbuf, count, dt, op);
            newrank = rank / 2;
        }
    } else {
        newrank = rank - rem;
    }
    if (newrank >= 0) {
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int nd = newrank ^ mask;
            int dst = nd < rem ? nd * 2 + 1 : nd + rem;
            me_sendrecv(rbuf, count, dt, dst, CTAG, tmp, count, dt, dst, CTAG, c,
                        MPI_STATUS_IGNORE);
            PMPI_Reduce_local(tmp, rbuf, count, dt, op);
        }
    }
    if (rank < 2 * rem) {
        if (rank % 2)
            me_send(rbuf, count, dt, rank - 1, CTAG, c);
        else
            me_recv(rbuf, count, dt, rank + 1, CTAG, c, MPI_STATUS_IGNORE);
    }
    free(tmp);
    return MPI_SUCCESS;
}

int mpiete_allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                     MPI_Datatype rdt, MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    size_t blk = (size_t)rcount * extent_of(rdt);
    char *r = rbuf;
    if (sbuf != MPI_IN_PLACE) memcpy(r + (size_t)rank * blk, sbuf, (size_t)scount * extent_of(sdt));
    if ((size & (size - 1)) == 0) {
        /* recursive doubling */
        for (int mask = 1, i = 0; mask < size; mask <<= 1, i++) {
            int dst = rank ^ mask;
            int mine = (rank >> i) << i, theirs = (dst >> i) << i;
            me_sendrecv(r + (size_t)mine * blk, rcount * mask, rdt, dst, CTAG,
                        r + (size_t)theirs * blk, rcount * mask, rdt, dst, CTAG, c,
                        MPI_STATUS_IGNORE);
        }
    } else {
        /* ring */
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;
        for (int s = 0; s < size - 1; s++) {
            int sb = (rank - s + size) % size, rb = (rank - s - 1 + size) % size;
            me_sendrecv(r + (size_t)sb * blk, rcount, rdt, right, CTAG, r + (size_t)rb * blk,
                        rcount, rdt, left, CTAG, c, MPI_STATUS_IGNORE);
        }
    }
    return MPI_SUCCESS;
}

int mpiete_alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                    MPI_Datatype rdt, MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    size_t sb = (size_t)scount * extent_of(sdt), rb = (size_t)rcount * extent_of(rdt);
    const char *s = sbuf;
    char *r = rbuf;
    memcpy(r + (size_t)rank * rb, s + (size_t)rank * sb, sb);
    /* pairwise exchange: step i sends to rank+i, receives from rank-i */
    for (int i = 1; i < size; i++) {
        int dst = (rank + i) % size, src = (rank - i + size) % size;
        me_sendrecv(s + (size_t)dst * sb, scount, sdt, dst, CTAG, r + (size_t)src * rb, rcount,
                    rdt, src, CTAG, c, MPI_STATUS_IGNORE);
    }
    return MPI_SUCCESS;
}

/* Binomial trees as MPICH's MPIR_Gather/Scatter_intra_binomial (its default
 * for every size on an intracommunicator): relative rank vr = rank - root;
 * a node holds the blocks of its subtree vr .. vr + min(2^k, P - vr) - 1 in a
 * contiguous buffer, sent as bytes. Contiguous datatypes only (as the others). */
int mpiete_gather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                  MPI_Datatype rdt, int root, MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    int vr = (rank - root + size) % size;
    size_t blk = rank == root ? (size_t)rcount * extent_of(rdt) : (size_t)scount * extent_of(sdt);
    const void *mine = sbuf == MPI_IN_PLACE ? (const char *)rbuf + (size_t)rank * blk : sbuf;
    char *tmp = xrealloc(NULL, blk * (size_t)size + 1);
    memcpy(tmp, mine, blk);
    for (int mask = 1; mask < size; mask <<= 1) {
        if ((vr & mask) == 0) {
            int src = vr | mask;
            if (src < size) {
                int nb = mask < size - src ? mask : size - src;
                me_recv(tmp + (size_t)mask * blk, (int)(nb * blk), MPI_BYTE, (src + root) % size,
                        CTAG, c, MPI_STATUS_IGNORE);
            }
        } else {
            int nb = mask < size - vr ? mask : size - vr;
            me_send(tmp, (int)(nb * blk), MPI_BYTE, ((vr & ~mask) + root) % size, CTAG, c);
            break;
        }
    }
    if (rank == root)
        for (int i = 0; i < size; i++)
            memcpy((char *)rbuf + (size_t)((i + root) % size) * blk, tmp + (size_t)i * blk, blk);
    free(tmp);
    return MPI_SUCCESS;
}

int mpiete_scatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                   MPI_Datatype rdt, int root, MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    int vr = (rank - root + size) % size;
    size_t blk = rank == root ? (size_t)scount * extent_of(sdt) : (size_t)rcount * extent_of(rdt);
    char *tmp = xrealloc(NULL, blk * (size_t)size + 1);
    int mask = 1;
    if (rank == root) {
        for (int i = 0; i < size; i++)
            memcpy(tmp + (size_t)i * blk, (const char *)sbuf + (size_t)((i + root) % size) * blk, blk);
        while (mask < size) mask <<= 1;
    } else {
        while (!(vr & mask)) mask <<= 1;
        int nb = mask < size - vr ? mask : size - vr;
        me_recv(tmp, (int)(nb * blk), MPI_BYTE, (vr - mask + root) % size, CTAG, c,
                MPI_STATUS_IGNORE);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < size) {
            int nb = mask < size - vr - mask ? mask : size - vr - mask;
            me_send(tmp + (size_t)mask * blk, (int)(nb * blk), MPI_BYTE, (vr + mask + root) % size,
                    CTAG, c);
        }
    if (rbuf != MPI_IN_PLACE) memcpy(rbuf, tmp, blk);
    free(tmp);
    return MPI_SUCCESS;
}

/* The v-variants as MPICH's linear algorithms (MPIR_Gatherv/Scatterv_allcomm_linear,
 * its defaults): the root posts one receive (send) per other rank with a
 * non-zero count, in rank order, then waits for all in that order; the others
 * send (receive) once. The root's own block is a local copy (not traced). */
#define LOCAL_TAG 1 /* local copies on the collective communicator, untraced */

static void local_copy(const void *sb, int sn, MPI_Datatype sdt, void *rb, int rn, MPI_Datatype rdt,
                       MPI_Comm c, int rank) {
    PMPI_Sendrecv(sb, sn, sdt, rank, LOCAL_TAG, rb, rn, rdt, rank, LOCAL_TAG, c, MPI_STATUS_IGNORE);
}

int mpiete_gatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int *rcounts,
                   const int *displs, MPI_Datatype rdt, int root, MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    if (rank != root) {
        if (scount) me_send(sbuf, scount, sdt, root, CTAG, c);
        return MPI_SUCCESS;
    }
    size_t ext = extent_of(rdt);
    MPI_Request *rq = xrealloc(NULL, (size_t)size * sizeof *rq);
    int n = 0;
    for (int i = 0; i < size; i++) {
        if (!rcounts[i]) continue;
        char *at = (char *)rbuf + (size_t)displs[i] * ext;
        if (i == rank) {
            if (sbuf != MPI_IN_PLACE) local_copy(sbuf, scount, sdt, at, rcounts[i], rdt, c, rank);
        } else {
            me_irecv(at, rcounts[i], rdt, i, CTAG, c, &rq[n++]);
        }
    }
    me_waitall(n, rq, MPI_STATUSES_IGNORE);
    free(rq);
    return MPI_SUCCESS;
}

int mpiete_scatterv(const void *sbuf, const int *scounts, const int *displs, MPI_Datatype sdt,
                    void *rbuf, int rcount, MPI_Datatype rdt, int root, MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    if (rank != root) {
        if (rcount) me_recv(rbuf, rcount, rdt, root, CTAG, c, MPI_STATUS_IGNORE);
        return MPI_SUCCESS;
    }
    size_t ext = extent_of(sdt);
    MPI_Request *rq = xrealloc(NULL, (size_t)size * sizeof *rq);
    int n = 0;
    for (int i = 0; i < size; i++) {
        if (!scounts[i]) continue;
        const char *at = (const char *)sbuf + (size_t)displs[i] * ext;
        if (i == rank) {
            if (rbuf != MPI_IN_PLACE) local_copy(at, scounts[i], sdt, rbuf, rcount, rdt, c, rank);
        } else {
            me_isend(at, scounts[i], sdt, i, CTAG, c, &rq[n++]);
        }
    }
    me_waitall(n, rq, MPI_STATUSES_IGNORE);
    free(rq);
    return MPI_SUCCESS;
}

/* ring (MPICH's MPIR_Allgatherv_intra_ring): step s sends block rank-s to the
 * right, receives block rank-s-1 from the left, each with its own count */
int mpiete_allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int *rcounts,
                      const int *displs, MPI_Datatype rdt, MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    size_t ext = extent_of(rdt);
    char *r = rbuf;
    if (sbuf != MPI_IN_PLACE)
        local_copy(sbuf, scount, sdt, r + (size_t)displs[rank] * ext, rcounts[rank], rdt, c, rank);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    for (int s = 0; s < size - 1; s++) {
        int sb = (rank - s + size) % size, rb = (rank - s - 1 + size) % size;
        me_sendrecv(r + (size_t)displs[sb] * ext, rcounts[sb], rdt, right, CTAG,
                    r + (size_t)displs[rb] * ext, rcounts[rb], rdt, left, CTAG, c, MPI_STATUS_IGNORE);
    }
    return MPI_SUCCESS;
}

/* MPICH's MPIR_Alltoallv_intra_scattered (throttle 32): in batches of 32
 * peers, receives from rank+i are posted, then sends to rank-i, then all are
 * waited for in posting order; zero counts post nothing. The block to itself
 * is a local copy. */
int mpiete_alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype sdt,
                     void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rdt,
                     MPI_Comm comm) {
    MPI_Comm c = coll_comm(comm);
    int rank, size;
    PMPI_Comm_rank(c, &rank);
    PMPI_Comm_size(c, &size);
    size_t se = extent_of(sdt), re = extent_of(rdt);
    const char *s = sbuf;
    char *r = rbuf;
    if (sbuf == MPI_IN_PLACE) die("MPI_Alltoallv with MPI_IN_PLACE is not supported");
    local_copy(s + (size_t)sdispls[rank] * se, scounts[rank], sdt, r + (size_t)rdispls[rank] * re,
               rcounts[rank], rdt, c, rank);
    MPI_Request rq[64];
    for (int ii = 0; ii < size; ii += 32) {
        int ss = size - ii < 32 ? size - ii : 32, n = 0;
        for (int i = 0; i < ss; i++) {
            int p = (rank + i + ii) % size;
            if (p != rank && rcounts[p])
                me_irecv(r + (size_t)rdispls[p] * re, rcounts[p], rdt, p, CTAG, c, &rq[n++]);
        }
        for (int i = 0; i < ss; i++) {
            int p = (rank - i - ii + size) % size;
            if (p != rank && scounts[p])
                me_isend(s + (size_t)sdispls[p] * se, scounts[p], sdt, p, CTAG, c, &rq[n++]);
        }
        me_waitall(n, rq, MPI_STATUSES_IGNORE);
    }
    return MPI_SUCCESS;
}

/* ---- init / finalize --------------------------------------------------- */

static int parse_mode(const char *s) {
    int m = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", ")) {
        if (!strcmp(tok, "compute")) m |= ME_COMPUTE;
        else if (!strcmp(tok, "trace")) m |= ME_TRACE;
        else if (!strcmp(tok, "token")) m |= ME_TOKEN | ME_COMPUTE;
        else if (!strcmp(tok, "measure")) m |= ME_MEASURE;
        else if (!strcmp(tok, "off") || !*tok) {
        } else {
            fprintf(stderr,
                    "mpiete: unknown MPIETE_MODE entry '%s' (expected compute, trace, token, measure)\n",
                    tok);
            exit(2);
        }
    }
    return m;
}

/* ---- output files: the policy of every xmpc tool (docs/diagnostics.md) ----
 * A file is written under a temporary name beside its target (created with
 * O_EXCL | O_NOFOLLOW, mode 0666 less the umask) and renamed over the target when
 * complete; a target that exists and is not a regular file (a symbolic link, FIFO,
 * device, socket, directory) is refused, never written through or replaced. A failure
 * names the rank and the file and leaves nothing; the program itself goes on. */

/* 0 when `path` does not exist or is a regular file; otherwise prints why (naming the
 * rank and the file) and returns -1. */
static int out_target_ok(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return 0;
    if (S_ISREG(st.st_mode)) return 0;
    fprintf(stderr, "mpiete: rank %d: '%s' is %s; refusing to write it\n", g_rank, path,
            S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ? "a directory"
                                                  : "not a regular file (a FIFO, socket or device)");
    return -1;
}

/* Creates the temporary file for `path` (its name in tmp[n]); -1 (reported) on error. */
static int out_create(const char *path, char *tmp, size_t n) {
    if (out_target_ok(path) != 0) return -1;
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path + 1) : 0;
    for (int i = 0; i < 1000; i++) {
        snprintf(tmp, n, "%.*s.%s.%d.%d.tmp", dl, path, slash ? slash + 1 : path, (int)getpid(), i);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        if (errno != EEXIST) break;
    }
    fprintf(stderr, "mpiete: rank %d: cannot create a file beside '%s': %s\n", g_rank, path,
            strerror(errno));
    return -1;
}

/* Puts the finished temporary file in place (the target checked again); 0 or -1
 * (reported, the temporary removed). */
static int out_commit(const char *tmp, const char *path) {
    if (out_target_ok(path) != 0) {
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        fprintf(stderr, "mpiete: rank %d: cannot write '%s': %s\n", g_rank, path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

void me_after_init(void) {
    if (g_inited) return;
    g_inited = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &g_size);
    const char *m = getenv("MPIETE_MODE");
    int mode = m ? parse_mode(m) : 0;
    const char *ck = getenv("MPIETE_CLOCK");
    if (ck && *ck) {
        if (!strcmp(ck, "cpu")) g_cpuclock = 1;
        else if (strcmp(ck, "wall") != 0) {
            fprintf(stderr, "mpiete: MPIETE_CLOCK must be wall or cpu, not '%s'\n", ck);
            exit(2);
        }
    }
    const char *y = getenv("MPIETE_YIELD");
    me_yield = y && *y && strcmp(y, "0") != 0;
    const char *d = getenv("MPIETE_OUT");
    if (d && *d) snprintf(g_dir, sizeof g_dir, "%s", d);
    if (!mode) return;
    out_dir_or_abort();
    setup_comms();
    PMPI_Comm_dup(MPI_COMM_WORLD, &g_tokcomm);
    if (mode & ME_TRACE) {
        snprintf(g_tpath, sizeof g_tpath, "%s/trace.%d.bin", g_dir, g_rank);
        g_tfd = out_create(g_tpath, g_ttmp, sizeof g_ttmp);
        if (g_tfd < 0) PMPI_Abort(MPI_COMM_WORLD, 1); /* reported: trace mode cannot run */
        t_put(TRACE_MAGIC, 8);
        t_u32(1);
        t_u32((uint32_t)g_rank);
        t_u32((uint32_t)g_size);
        t_u32(0);
    }
    me_mode = mode;
    me_p2p = (mode & (ME_TRACE | ME_TOKEN)) != 0;
    /* token mode measures interference-free block times: thread CPU time unless
     * MPIETE_CLOCK=wall */
    if ((mode & ME_TOKEN) && !(ck && *ck)) g_cpuclock = 1;
    if (mode & ME_TOKEN) {
        tok_wait_policy();
        g_fin = xrealloc(NULL, (size_t)g_size * sizeof(int));
        memset(g_fin, 0, (size_t)g_size * sizeof(int));
        PMPI_Barrier(MPI_COMM_WORLD);
        if (g_rank == 0)
            g_have = 1;
        else
            tok_wait();
    }
    g_t_init = now_ns();
    g_c_init = me_cpu_ns();
}

/* MPIETE_OUT must be a directory: without one the run measured for nothing and exited
 * 0 (issue 39). Rank 0 says why, then every rank aborts (exit status 2). */
static void out_dir_or_abort(void) {
    struct stat st;
    int bad = 0, err = 0, any = 0;
    if (stat(g_dir, &st) != 0) {
        bad = 1;
        err = errno;
    } else if (!S_ISDIR(st.st_mode)) {
        bad = 1;
    }
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any) return;
    if (g_rank == 0)
        fprintf(stderr, "mpiete: error: MPIETE_OUT='%s': %s (the output directory must exist; create it first)\n", g_dir,
                err ? strerror(err) : bad ? "not a directory" : "missing on another node");
    PMPI_Barrier(MPI_COMM_WORLD);
    PMPI_Abort(MPI_COMM_WORLD, 2);
}

/* world (id 0) and its collective twin (id 1); collective on MPI_COMM_WORLD */
static void setup_comms(void) {
    if (g_collworld != MPI_COMM_NULL) return;
    PMPI_Comm_group(MPI_COMM_WORLD, &g_worldgrp);
    PMPI_Comm_dup(MPI_COMM_WORLD, &g_collworld);
    comm_add(MPI_COMM_WORLD, 1, g_collworld);
    comm_add(g_collworld, 1, MPI_COMM_NULL);
}

/* writes `text` to g_dir/name under the output policy (out_create, out_commit) */
static void write_file(const char *name, const char *text, size_t len) {
    char path[4200], tmp[4500];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    int fd = out_create(path, tmp, sizeof tmp);
    if (fd < 0) return;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        off += (size_t)w;
    }
    if (off != len || close(fd) != 0) {
        fprintf(stderr, "mpiete: rank %d: cannot write '%s': %s\n", g_rank, path, strerror(errno));
        if (off != len) close(fd);
        unlink(tmp);
        return;
    }
    out_commit(tmp, path);
}

typedef struct {
    char *s;
    size_t len, cap;
} Str;
static void sappend(Str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void sappend(Str *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (b->s && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        b->cap = (b->cap + (size_t)n + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
}

static void json_str(Str *b, const char *s) {
    sappend(b, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') sappend(b, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) sappend(b, "\\u%04x", *s);
        else sappend(b, "%c", *s);
    }
    sappend(b, "\"");
}

static void source_name(char *out, size_t n) {
    const char *s = getenv("MPIETE_SOURCE");
    if (s && *s) {
        snprintf(out, n, "%s", s);
        return;
    }
    char exe[4096];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k < 0) k = 0;
    exe[k] = 0;
    const char *b = strrchr(exe, '/');
    snprintf(out, n, "%s", b ? b + 1 : exe);
}

/* sqrt without libm (C programs are linked without -lm): Newton from above */
static double sqrt_pos(double v) {
    if (!(v > 0)) return 0;
    double x = v > 1 ? v : 1;
    for (int i = 0; i < 200; i++) {
        double y = 0.5 * (x + v / x);
        if (y >= x) break;
        x = y;
    }
    return x;
}

static void write_blocktimes(int mode) {
    int n = g_nblk, nmax = 0;
    PMPI_Allreduce(&n, &nmax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    enum { V = 6 }; /* per block: sum, count, sum of squares, first, min, max */
    double *mine = calloc((size_t)nmax * V + 1, sizeof(double));
    for (int i = 0; i < g_nblk; i++) {
        mine[V * i] = (double)g_sum[i] * 1e-9;
        mine[V * i + 1] = (double)g_cnt[i];
        mine[V * i + 2] = g_sq[i] * 1e-18;
        mine[V * i + 3] = (double)g_first[i] * 1e-9;
        mine[V * i + 4] = (double)g_min[i] * 1e-9;
        mine[V * i + 5] = (double)g_max[i] * 1e-9;
    }
    double *all = NULL;
    if (g_rank == 0) all = calloc((size_t)nmax * V * g_size + 1, sizeof(double));
    PMPI_Gather(mine, nmax * V, MPI_DOUBLE, all, nmax * V, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (g_rank == 0) {
        Str b = {0};
        char src[4096];
        source_name(src, sizeof src);
        sappend(&b, "{\"format\":\"xmpc-blocktimes/1\",\"source\":");
        json_str(&b, src);
        sappend(&b, ",\"ranks\":%d,\"token\":%s,", g_size, (mode & ME_TOKEN) ? "true" : "false");
        if (mode & ME_TOKEN) sappend(&b, "\"token_wait\":\"%s\",", g_tokspin ? "spin" : "nap");
        sappend(&b, "\"blocks\":[");
        int first = 1;
        for (int id = 0; id < nmax; id++) {
            double sum = 0, cnt = 0;
            for (int r = 0; r < g_size; r++) {
                sum += all[(size_t)r * nmax * V + V * id];
                cnt += all[(size_t)r * nmax * V + V * id + 1];
            }
            if (cnt == 0) continue;
            sappend(&b, "%s\n{\"id\":%d,\"mean_s\":%.9e,\"count\":%.0f,\"per_rank\":[", first ? "" : ",",
                    id, sum / cnt, cnt);
            first = 0;
            for (int r = 0; r < g_size; r++) {
                const double *e = all + (size_t)r * nmax * V + V * id;
                double s = e[0], k = e[1], m = k > 0 ? s / k : 0.0;
                /* standard deviation of one execution (population; 0 for one execution) */
                double var = k > 1 ? e[2] / k - m * m : 0.0;
                sappend(&b, "%s{\"mean_s\":%.9e,\"count\":%.0f,\"sd_s\":%.3e", r ? "," : "", m, k,
                        sqrt_pos(var));
                if (k > 0)
                    sappend(&b, ",\"first_s\":%.9e,\"min_s\":%.9e,\"max_s\":%.9e", e[3], e[4], e[5]);
                sappend(&b, "}");
            }
            sappend(&b, "]}");
        }
        sappend(&b, "\n]}\n");
        write_file("blocktimes.json", b.s, b.len);
        free(b.s);
        free(all);
    }
    free(mine);
}

static void write_measured(uint64_t total_ns) {
    double mine[3] = {(double)total_ns * 1e-9, (double)g_mpi_end * 1e-9,
                      ((double)(g_c_end - g_c_init) - (double)g_mpic_end) * 1e-9};
    double *all = g_rank == 0 ? calloc((size_t)g_size * 3, sizeof(double)) : NULL;
    PMPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (g_rank != 0) return;
    Str b = {0};
    char src[4096];
    source_name(src, sizeof src);
    sappend(&b, "{\"format\":\"xmpc-measured/1\",\"source\":");
    json_str(&b, src);
    sappend(&b, ",\"ranks\":%d,\"per_rank\":[", g_size);
    for (int r = 0; r < g_size; r++)
        sappend(&b, "%s\n{\"total_s\":%.9e,\"mpi_s\":%.9e,\"compute_cpu_s\":%.9e}", r ? "," : "",
                all[3 * r], all[3 * r + 1], all[3 * r + 2]);
    sappend(&b, "\n]}\n");
    write_file("measured.json", b.s, b.len);
    free(b.s);
    free(all);
}

void me_before_finalize(void) {
    if (!me_mode || g_finalized) return;
    g_finalized = 1;
    if (g_region != 2) {
        g_t_end = now_ns();
        g_mpi_end = me_mpi_ns;
        g_c_end = me_cpu_ns();
        g_mpic_end = me_mpi_cpu_ns;
    }
    uint64_t total = g_t_end - g_t_init;
    int mode = me_mode;
    if (mode & ME_TOKEN) {
        g_fin[g_rank] = 1;
        g_nfin++;
        if (g_nfin == g_size) {
            for (int r = 0; r < g_size; r++)
                if (r != g_rank) PMPI_Send(NULL, 0, MPI_INT, r, REL_TAG, g_tokcomm);
        } else {
            tok_send(tok_next());
            /* sleep-poll: the ranks still running keep the core */
            int flag = 0;
            while (!flag) {
                PMPI_Iprobe(MPI_ANY_SOURCE, REL_TAG, g_tokcomm, &flag, MPI_STATUS_IGNORE);
                if (!flag) {
                    struct timespec ts = {0, 100000};
                    nanosleep(&ts, NULL);
                }
            }
            PMPI_Recv(NULL, 0, MPI_INT, MPI_ANY_SOURCE, REL_TAG, g_tokcomm, MPI_STATUS_IGNORE);
        }
    }
    me_mode = 0; /* from here on wrappers forward straight to PMPI */
    me_p2p = 0;
    if (mode & ME_TRACE) {
        t_pending_flush();
        t_flush();
        if (close(g_tfd) != 0) {
            fprintf(stderr, "mpiete: rank %d: cannot write '%s': %s\n", g_rank, g_tpath,
                    strerror(errno));
            unlink(g_ttmp);
        } else
            out_commit(g_ttmp, g_tpath);
        g_tfd = -1;
    }
    if (mode & ME_COMPUTE) write_blocktimes(mode);
    if (mode & ME_MEASURE) write_measured(total);
}

/* ---- MPIETE_YIELD: blocking calls as nonblocking + test/sched_yield, so
 * ranks sharing a core give it to the one computing (as Open MPI's
 * mpi_yield_when_idle) --------------------------------------------------- */

#define YW(start)                                                                                \
    MPI_Request r_;                                                                              \
    int rc_ = (start);                                                                           \
    return rc_ != MPI_SUCCESS ? rc_ : me_wait_yield(&r_, MPI_STATUS_IGNORE)

int y_send(const void *b, int n, MPI_Datatype dt, int d, int tag, MPI_Comm c) {
    YW(PMPI_Isend(b, n, dt, d, tag, c, &r_));
}
int y_recv(void *b, int n, MPI_Datatype dt, int s, int tag, MPI_Comm c, MPI_Status *st) {
    MPI_Request r;
    int rc = PMPI_Irecv(b, n, dt, s, tag, c, &r);
    return rc != MPI_SUCCESS ? rc : me_wait_yield(&r, st);
}
int y_waitall(int n, MPI_Request *rs, MPI_Status *sts) {
    for (int i = 0; i < n; i++) {
        int rc = me_wait_yield(&rs[i], sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}
int y_sendrecv(const void *sb, int sn, MPI_Datatype sdt, int d, int stag, void *rb, int rn,
               MPI_Datatype rdt, int src, int rtag, MPI_Comm c, MPI_Status *st) {
    MPI_Request rr, rs;
    int rc = PMPI_Irecv(rb, rn, rdt, src, rtag, c, &rr);
    if (rc == MPI_SUCCESS) rc = PMPI_Isend(sb, sn, sdt, d, stag, c, &rs);
    if (rc != MPI_SUCCESS) return rc;
    rc = me_wait_yield(&rr, st);
    int rc2 = me_wait_yield(&rs, MPI_STATUS_IGNORE);
    return rc != MPI_SUCCESS ? rc : rc2;
}
int y_barrier(MPI_Comm c) { YW(PMPI_Ibarrier(c, &r_)); }
int y_bcast(void *b, int n, MPI_Datatype dt, int root, MPI_Comm c) {
    YW(PMPI_Ibcast(b, n, dt, root, c, &r_));
}
int y_reduce(const void *sb, void *rb, int n, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm c) {
    YW(PMPI_Ireduce(sb, rb, n, dt, op, root, c, &r_));
}
int y_allreduce(const void *sb, void *rb, int n, MPI_Datatype dt, MPI_Op op, MPI_Comm c) {
    YW(PMPI_Iallreduce(sb, rb, n, dt, op, c, &r_));
}
int y_allgather(const void *sb, int sn, MPI_Datatype sdt, void *rb, int rn, MPI_Datatype rdt,
                MPI_Comm c) {
    YW(PMPI_Iallgather(sb, sn, sdt, rb, rn, rdt, c, &r_));
}
int y_alltoall(const void *sb, int sn, MPI_Datatype sdt, void *rb, int rn, MPI_Datatype rdt,
               MPI_Comm c) {
    YW(PMPI_Ialltoall(sb, sn, sdt, rb, rn, rdt, c, &r_));
}

int y_waitany(int n, MPI_Request *rs, int *idx, MPI_Status *st) {
    int f = 0, rc;
    while ((rc = PMPI_Testany(n, rs, idx, &f, st)) == MPI_SUCCESS && !f) sched_yield();
    return rc;
}
int y_gather(const void *sb, int sn, MPI_Datatype sdt, void *rb, int rn, MPI_Datatype rdt, int root,
             MPI_Comm c) {
    YW(PMPI_Igather(sb, sn, sdt, rb, rn, rdt, root, c, &r_));
}
int y_scatter(const void *sb, int sn, MPI_Datatype sdt, void *rb, int rn, MPI_Datatype rdt, int root,
              MPI_Comm c) {
    YW(PMPI_Iscatter(sb, sn, sdt, rb, rn, rdt, root, c, &r_));
}

int y_waitsome(int n, MPI_Request *rs, int *out, int *idx, MPI_Status *sts) {
    int rc;
    while ((rc = PMPI_Testsome(n, rs, out, idx, sts)) == MPI_SUCCESS && *out == 0) sched_yield();
    return rc;
}
int y_gatherv(const void *sb, int sn, MPI_Datatype sdt, void *rb, const int *rn, const int *dis,
              MPI_Datatype rdt, int root, MPI_Comm c) {
    YW(PMPI_Igatherv(sb, sn, sdt, rb, rn, dis, rdt, root, c, &r_));
}
int y_scatterv(const void *sb, const int *sn, const int *dis, MPI_Datatype sdt, void *rb, int rn,
               MPI_Datatype rdt, int root, MPI_Comm c) {
    YW(PMPI_Iscatterv(sb, sn, dis, sdt, rb, rn, rdt, root, c, &r_));
}
int y_allgatherv(const void *sb, int sn, MPI_Datatype sdt, void *rb, const int *rn, const int *dis,
                 MPI_Datatype rdt, MPI_Comm c) {
    YW(PMPI_Iallgatherv(sb, sn, sdt, rb, rn, dis, rdt, c, &r_));
}
int y_alltoallv(const void *sb, const int *sn, const int *sd, MPI_Datatype sdt, void *rb,
                const int *rn, const int *rd, MPI_Datatype rdt, MPI_Comm c) {
    YW(PMPI_Ialltoallv(sb, sn, sd, sdt, rb, rn, rd, rdt, c, &r_));
}

/* ---- C wrappers ---------------------------------------------------------- */

/* MPICH's Fortran pmpi_*_ call the C MPI_* entry points: a call that comes
 * from a Fortran wrapper (me_in_f) is timed there, not again here */
__thread int me_in_f = 0;

#define MEAS(call)                                                                               \
    do {                                                                                         \
        if (me_in_f) return (call);                                                              \
        if (me_mode & ME_MEASURE) {                                                              \
            uint64_t t0_ = now_ns(), c0_ = me_cpu_ns();                                          \
            int rc_ = (call);                                                                    \
            me_mpi_cpu_ns += me_cpu_ns() - c0_;                                                  \
            me_mpi_ns += now_ns() - t0_;                                                         \
            return rc_;                                                                          \
        }                                                                                        \
        return (call);                                                                           \
    } while (0)

int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) me_after_init();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int req, int *prov) {
    int rc = PMPI_Init_thread(argc, argv, req, prov);
    if (rc == MPI_SUCCESS) me_after_init();
    return rc;
}

int MPI_Finalize(void) {
    me_before_finalize();
    return PMPI_Finalize();
}

int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) {
    if (me_p2p) return me_send(buf, count, dt, dest, tag, comm);
    if (me_yield) MEAS(y_send(buf, count, dt, dest, tag, comm));
    MEAS(PMPI_Send(buf, count, dt, dest, tag, comm));
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) {
    if (me_p2p) return me_send(buf, count, dt, dest, tag, comm);
    if (me_yield) MEAS(y_send(buf, count, dt, dest, tag, comm));
    MEAS(PMPI_Ssend(buf, count, dt, dest, tag, comm));
}

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
             MPI_Status *st) {
    if (me_p2p) return me_recv(buf, count, dt, src, tag, comm, st);
    if (me_yield) MEAS(y_recv(buf, count, dt, src, tag, comm, st));
    MEAS(PMPI_Recv(buf, count, dt, src, tag, comm, st));
}

int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              MPI_Request *req) {
    if (me_p2p) return me_isend(buf, count, dt, dest, tag, comm, req);
    MEAS(PMPI_Isend(buf, count, dt, dest, tag, comm, req));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
              MPI_Request *req) {
    if (me_p2p) return me_irecv(buf, count, dt, src, tag, comm, req);
    MEAS(PMPI_Irecv(buf, count, dt, src, tag, comm, req));
}

int MPI_Wait(MPI_Request *req, MPI_Status *st) {
    if (me_p2p) return me_wait(req, st);
    if (me_yield) MEAS(me_wait_yield(req, st));
    MEAS(PMPI_Wait(req, st));
}

int MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *sts) {
    if (me_p2p) return me_waitall(n, reqs, sts);
    if (me_yield) MEAS(y_waitall(n, reqs, sts));
    MEAS(PMPI_Waitall(n, reqs, sts));
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rdt, int src, int rtag, MPI_Comm comm, MPI_Status *st) {
    if (me_p2p)
        return me_sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st);
    if (me_yield) MEAS(y_sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st));
    MEAS(PMPI_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st));
}

int MPI_Barrier(MPI_Comm comm) {
    if (me_p2p) return mpiete_barrier(comm);
    if (me_yield) MEAS(y_barrier(comm));
    MEAS(PMPI_Barrier(comm));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
    if (me_p2p) return mpiete_bcast(buf, count, dt, root, comm);
    if (me_yield) MEAS(y_bcast(buf, count, dt, root, comm));
    MEAS(PMPI_Bcast(buf, count, dt, root, comm));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
               MPI_Comm comm) {
    if (me_p2p) return mpiete_reduce(sbuf, rbuf, count, dt, op, root, comm);
    if (me_yield) MEAS(y_reduce(sbuf, rbuf, count, dt, op, root, comm));
    MEAS(PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                  MPI_Comm comm) {
    if (me_p2p) return mpiete_allreduce(sbuf, rbuf, count, dt, op, comm);
    if (me_yield) MEAS(y_allreduce(sbuf, rbuf, count, dt, op, comm));
    MEAS(PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm));
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                  MPI_Datatype rdt, MPI_Comm comm) {
    if (me_p2p) return mpiete_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
    if (me_yield) MEAS(y_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm));
    MEAS(PMPI_Allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                 MPI_Datatype rdt, MPI_Comm comm) {
    if (me_p2p) return mpiete_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
    if (me_yield) MEAS(y_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm));
    MEAS(PMPI_Alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
               MPI_Datatype rdt, int root, MPI_Comm comm) {
    if (me_p2p) return mpiete_gather(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
    if (me_yield) MEAS(y_gather(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm));
    MEAS(PMPI_Gather(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm));
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                MPI_Datatype rdt, int root, MPI_Comm comm) {
    if (me_p2p) return mpiete_scatter(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
    if (me_yield) MEAS(y_scatter(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm));
    MEAS(PMPI_Scatter(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm));
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st) {
    if (me_p2p) return me_test(req, flag, st);
    MEAS(PMPI_Test(req, flag, st));
}

int MPI_Testall(int n, MPI_Request *reqs, int *flag, MPI_Status *sts) {
    if (me_p2p) return me_testall(n, reqs, flag, sts);
    MEAS(PMPI_Testall(n, reqs, flag, sts));
}

int MPI_Waitany(int n, MPI_Request *reqs, int *idx, MPI_Status *st) {
    if (me_p2p) return me_waitany(n, reqs, idx, st);
    if (me_yield) MEAS(y_waitany(n, reqs, idx, st));
    MEAS(PMPI_Waitany(n, reqs, idx, st));
}

int MPI_Waitsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *sts) {
    if (me_p2p) return me_waitsome(n, reqs, out, idx, sts);
    if (me_yield) MEAS(y_waitsome(n, reqs, out, idx, sts));
    MEAS(PMPI_Waitsome(n, reqs, out, idx, sts));
}

int MPI_Testany(int n, MPI_Request *reqs, int *idx, int *flag, MPI_Status *st) {
    if (me_p2p) return me_testany(n, reqs, idx, flag, st);
    MEAS(PMPI_Testany(n, reqs, idx, flag, st));
}

int MPI_Testsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *sts) {
    if (me_p2p) return me_testsome(n, reqs, out, idx, sts);
    MEAS(PMPI_Testsome(n, reqs, out, idx, sts));
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm) {
    if (me_p2p) return mpiete_gatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm);
    if (me_yield) MEAS(y_gatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm));
    MEAS(PMPI_Gatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm));
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt,
                 void *rbuf, int rcount, MPI_Datatype rdt, int root, MPI_Comm comm) {
    if (me_p2p) return mpiete_scatterv(sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm);
    if (me_yield) MEAS(y_scatterv(sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm));
    MEAS(PMPI_Scatterv(sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm));
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                   const int displs[], MPI_Datatype rdt, MPI_Comm comm) {
    if (me_p2p) return mpiete_allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm);
    if (me_yield) MEAS(y_allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm));
    MEAS(PMPI_Allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm));
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rdt,
                  MPI_Comm comm) {
    if (me_p2p)
        return mpiete_alltoallv(sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm);
    if (me_yield) MEAS(y_alltoallv(sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm));
    MEAS(PMPI_Alltoallv(sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm));
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                  MPI_Request *req) {
    if (me_p2p) return me_send_init(buf, count, dt, dest, tag, comm, req);
    MEAS(PMPI_Send_init(buf, count, dt, dest, tag, comm, req));
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                  MPI_Request *req) {
    if (me_p2p) return me_recv_init(buf, count, dt, src, tag, comm, req);
    MEAS(PMPI_Recv_init(buf, count, dt, src, tag, comm, req));
}

int MPI_Start(MPI_Request *req) {
    if (me_p2p) return me_start(req);
    MEAS(PMPI_Start(req));
}

int MPI_Startall(int n, MPI_Request reqs[]) {
    if (me_p2p) return me_startall(n, reqs);
    MEAS(PMPI_Startall(n, reqs));
}

int MPI_Request_free(MPI_Request *req) {
    if (me_p2p) return me_request_free(req);
    MEAS(PMPI_Request_free(req));
}
