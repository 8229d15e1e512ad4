/* Fortran bindings of the xmpc runtime (docs/fortran.md).
 *
 * gfortran name mangling: lower case + one trailing underscore; every argument by
 * reference; CHARACTER arguments carry a hidden length (size_t) appended after the
 * other arguments, in order. Handles (nodes, templates, arrays) are INTEGER(8);
 * counts and flags INTEGER (4 bytes); indices, sizes and widths INTEGER(8).
 * Array dimensions are given in Fortran order (dim 1 first, column-major) and are
 * reversed here, so the runtime's row-major layout of the reversed dims is the
 * Fortran column-major layout. Template and node dimensions are not reversed
 * (both sides use the round order). Node numbers are 1-based.
 *
 * The translator (backends/src/fortran) is the only intended caller of xmpf_*; the
 * xmp_* entry points are the user-callable library (declared by xmp_lib.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <stdio.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../include/xmpc_rt.h"

extern int xmp_array_gsize(void *, int);
extern int xmp_array_ndims(void *, int *);

extern void xs_abort(int code);
extern void xs_hugepage(void *p, size_t bytes);
extern int xmp_node_num(void);
extern int xmp_num_nodes(void);
extern int xmp_all_node_num(void);
extern int xmp_all_num_nodes(void);
extern double xmp_wtime(void);
extern double xmp_wtick(void);
extern size_t xmp_array_type_size(void *d);
extern void *xmp_desc_of(const void *addr);
extern int xmp_template_fixed(void *t, int *fixed);
extern int xmp_template_ubound(void *t, int dim, int *ub);

#define MAXD 16
typedef int64_t i8;

/* ---------------------------------------------------------------- locations */

/* A directive location, built once per (file, line, text) literal and kept: the
 * runtime may keep `loc` pointers (cached plans). */
struct locent { const char *f; int line; const char *t; xmpc_loc loc; };
static struct locent *locs;
static size_t nlocs, caplocs;

static char *dupn(const char *s, size_t n) {
  char *p = malloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

static const xmpc_loc *mkloc(const char *f, int line, const char *t, size_t fl, size_t tl) {
  for (size_t k = 0; k < nlocs; k++)
    if (locs[k].f == f && locs[k].line == line && locs[k].t == t) return &locs[k].loc;
  if (nlocs == caplocs) {
    caplocs = caplocs ? 2 * caplocs : 64;
    struct locent *n = malloc(caplocs * sizeof *n);
    /* loc pointers handed out before must stay valid: copy into new storage and
     * keep the old block alive (never freed). */
    if (nlocs) memcpy(n, locs, nlocs * sizeof *n);
    locs = n;
  }
  struct locent *e = &locs[nlocs++];
  e->f = f;
  e->line = line;
  e->t = t;
  e->loc.file = dupn(f, fl);
  e->loc.line = line;
  e->loc.text = dupn(t, tl);
  return &e->loc;
}
#define LOC mkloc(file, *line, text, file_len, text_len)
#define LOCARGS const char *file, const int *line, const char *text
#define LOCLENS size_t file_len, size_t text_len

static const void *H(const i8 *h) { return (const void *)(intptr_t)*h; }

/* ---------------------------------------------------------------- program */

void xmpf_caf_init(void);
int xmpf_caf_finalize(void);
void xmp_finalize(void);
void xmpf_init_(void) {
  xmpf_caf_init(); /* coarrays (caf_f.c): nothing without libcaf */
  xmpc_init(NULL, NULL);
}

/* End of the main program (status 0) or `stop n` anywhere: status 0 finalizes and
 * exits 0; another status aborts the job with it (a `stop 1` on one node must not
 * wait in MPI_Finalize for the others, and mpiexec must see the status). */
void xmpf_stop_(const int *status) {
  if (*status == 0) {
    xmp_finalize();      /* the runtime's MPI objects, before libcaf finalizes MPI */
    xmpf_caf_finalize(); /* caf_f.c */
    xmpc_finalize(0);
    exit(0);
  }
  xs_abort(*status);
  exit(*status);
}
void xmpf_exit_(const int *status) { xmpf_stop_(status); }

/* ---------------------------------------------------------------- library */

int xmp_node_num_(void) { return xmp_node_num(); }
int xmp_num_nodes_(void) { return xmp_num_nodes(); }
int xmp_all_node_num_(void) { return xmp_all_node_num(); }
int xmp_all_num_nodes_(void) { return xmp_all_num_nodes(); }
double xmp_wtime_(void) { return xmp_wtime(); }
double xmp_wtick_(void) { return xmp_wtick(); }
void xmp_exit_(const int *status) { xmpf_stop_(status); }

/* The MPI interface (docs/fortran.md): an XMP main program has MPI up before its first
 * statement, so `call xmp_init_mpi()` only makes sure of it; `xmp_finalize_mpi`
 * finalizes the runtime and MPI (as in C; the main program's end then does nothing
 * more). An MPI main calling XMP procedures calls `xmp_init(comm)` (shim.c) after
 * MPI_Init and `xmp_finalize()` before MPI_Finalize. */
void xmp_init_mpi(int *argc, char ***argv);
void xmp_finalize_mpi(void);
void xmp_init_mpi_(void) { xmp_init_mpi(NULL, NULL); }
void xmp_finalize_mpi_(void) { xmp_finalize_mpi(); }
void xmp_finalize_(void) { xmp_finalize(); }

/* ---------------------------------------------------------------- nodes, templates */

void xmpf_nodes_(i8 *h, LOCARGS, const int *ndims, const i8 *sizes, LOCLENS) {
  long s[MAXD];
  for (int d = 0; d < *ndims; d++) s[d] = (long)sizes[d];
  *h = (i8)(intptr_t)xmpc_nodes_new(LOC, *ndims, s);
}

/* One dimension of a node reference from the translator: st == 0 for a whole
 * dimension (`:`), st == -1 (XMPF_OWN) for `*`, the executing node's own index
 * (1-based lo == hi == its coordinate + 1, as the C translator computes it). */
#define XMPF_OWN (-1)
static void sel_dim(const xmpc_nodes *parent, int d, i8 lo, i8 hi, i8 st, long *l, long *u, long *t) {
  if (st == XMPF_OWN) {
    *l = *u = xmpc_nodes_coord(parent, d) + 1;
    *t = 1;
    return;
  }
  *l = (long)lo;
  *u = (long)hi;
  *t = (long)st;
}

/* The size (0-based dim) and the executing node's 0-based coordinate of a node set. */
i8 xmpf_nodes_size_(const i8 *h, const int *d) { return (i8)xmpc_nodes_dim_size(H(h), *d); }
i8 xmpf_nodes_coord_(const i8 *h, const int *d) { return (i8)xmpc_nodes_coord(H(h), *d); }

/* nodes q(sizes) = p(lo:hi:st, ...): per parent dim (sel_dim). */
void xmpf_nodes_sub_(i8 *h, LOCARGS, const int *ndims, const i8 *sizes, const i8 *parent, const int *pndims, const i8 *lo,
                     const i8 *hi, const i8 *st, LOCLENS) {
  long s[MAXD], l[MAXD], u[MAXD], t[MAXD];
  for (int d = 0; d < *ndims; d++) s[d] = (long)sizes[d];
  for (int d = 0; d < *pndims; d++) sel_dim(H(parent), d, lo[d], hi[d], st[d], &l[d], &u[d], &t[d]);
  *h = (i8)(intptr_t)xmpc_nodes_new_sub(LOC, *ndims, s, H(parent), l, u, t);
  for (int d = 0; d < *pndims; d++)
    if (st[d] == XMPF_OWN) xmpc_nodes_mark_per_node(H(h), d);
}

/* `on p(lo:hi:st, ...)` of a reduction, bcast or barrier: the subset keeps the
 * parent's rank; a dim of size (hi - lo) / st + 1, or the whole parent dim for `*`
 * (st == 0). Collective over the members only. */
void xmpf_nodes_on_(i8 *h, LOCARGS, const i8 *parent, const int *pndims, const i8 *lo, const i8 *hi, const i8 *st,
                    LOCLENS) {
  long s[MAXD], l[MAXD], u[MAXD], t[MAXD];
  for (int d = 0; d < *pndims; d++) {
    sel_dim(H(parent), d, lo[d], hi[d], st[d], &l[d], &u[d], &t[d]);
    if (u[d] == LONG_MAX) u[d] = xmpc_nodes_dim_size(H(parent), d); /* `p(k:)` */
    s[d] = t[d] == 0 ? xmpc_nodes_dim_size(H(parent), d) : (u[d] - l[d]) / t[d] + 1;
  }
  *h = (i8)(intptr_t)xmpc_nodes_new_sub(LOC, *pndims, s, H(parent), l, u, t);
}

/* `on t(lo:hi:st, ...)`: the nodes owning those template indices (st == 0: the whole
 * dim; lo = -huge-1 / hi = huge: the template's bound; ndims == 0: the whole template). */
void xmpf_template_nodes_on_(i8 *h, LOCARGS, const i8 *t, const int *ndims, const i8 *lo, const i8 *hi, const i8 *st,
                             LOCLENS) {
  if (*ndims == 0) {
    *h = (i8)(intptr_t)xmpc_template_nodes((const xmpc_template *)H(t));
    return;
  }
  long l[MAXD], u[MAXD], s[MAXD];
  for (int d = 0; d < *ndims; d++) {
    l[d] = (long)lo[d];
    u[d] = (long)hi[d];
    s[d] = (long)st[d];
  }
  *h = (i8)(intptr_t)xmpc_template_nodes_sub(LOC, (const xmpc_template *)H(t), l, u, s);
}

void xmpf_template_(i8 *h, LOCARGS, const int *ndims, const i8 *lower, const i8 *upper, const int *fixed, LOCLENS) {
  long l[MAXD], u[MAXD];
  for (int d = 0; d < *ndims; d++) {
    l[d] = (long)lower[d];
    u[d] = (long)upper[d];
  }
  *h = (i8)(intptr_t)xmpc_template_new(LOC, *ndims, *fixed ? l : NULL, *fixed ? u : NULL, *fixed);
}

void xmpf_template_fix_(const i8 *h, LOCARGS, const int *ndims, const i8 *lower, const i8 *upper, const int *given, LOCLENS) {
  long l[MAXD], u[MAXD];
  for (int d = 0; d < *ndims; d++) {
    l[d] = (long)lower[d];
    u[d] = (long)upper[d];
  }
  xmpc_template_fix(LOC, (xmpc_template *)H(h), *given ? l : NULL, *given ? u : NULL);
}

/* formats: XMPC_DIST_*; args: block/cyclic argument (0 = default); gb: all gblock
 * maps concatenated, gboff[d] = 1-based start of dim d's map in gb or 0. */
void xmpf_distribute_(const i8 *t, LOCARGS, const i8 *onto, const int *ndims, const int *formats, const i8 *args, const i8 *gb,
                      const int *gboff, LOCLENS) {
  long a[MAXD];
  const long *maps[MAXD];
  static long gbl[4096];
  int any = 0, n = 0;
  for (int d = 0; d < *ndims; d++) {
    a[d] = (long)args[d];
    maps[d] = NULL;
    if (gboff[d] > 0) {
      any = 1;
      int np = xmpc_nodes_dim_size(H(onto), n);
      for (int k = 0; k < np && k < 4096; k++) gbl[k] = (long)gb[gboff[d] - 1 + k];
      long *m = malloc(sizeof(long) * (np > 0 ? np : 1));
      memcpy(m, gbl, sizeof(long) * (np > 0 ? np : 0));
      maps[d] = m;
    }
    if (formats[d] != XMPC_DIST_DUP) n++;
  }
  xmpc_distribute(LOC, (xmpc_template *)H(t), H(onto), formats, a, any ? maps : NULL);
}

/* ---------------------------------------------------------------- arrays */

/* Arrays whose local part is the whole global array (aligned with a cyclic dim):
 * attached with xmpc_array_attach_whole (local index = global index, ownership per
 * the template, so gmove works on them); reflect of them is refused. Recorded here
 * for that check and for aligned dummies (found by address). */
static const void *full_arrays[1024];
static const void *full_addrs[1024];
static int nfull;
static int is_full(const void *a) {
  for (int k = 0; k < nfull; k++)
    if (full_arrays[k] == a) return 1;
  return 0;
}

/* Declared Fortran lower bounds of each allocated array (the runtime counts from 0):
 * the user library (xmp_array_lbound_, xmp_gather_ ...) answers in Fortran indices. */
static struct { const void *a; int n; long dl[MAXD]; } flbs[1024];
static int nflb;
static void flb_set(const void *a, int n, const i8 *dl) {
  int k = 0;
  while (k < nflb && flbs[k].a != a) k++;
  if (k == nflb) {
    if (nflb == 1024) return;
    nflb++;
  }
  flbs[k].a = a;
  flbs[k].n = n;
  for (int d = 0; d < n && d < MAXD; d++) flbs[k].dl[d] = (long)dl[d];
}
/* Lower bound of Fortran dim d (0-based); 1 when the array was not seen. */
static long flb_get(const void *a, int d) {
  for (int k = 0; k < nflb; k++)
    if (flbs[k].a == a && d >= 0 && d < flbs[k].n) return flbs[k].dl[d];
  return 1;
}

/* Fortran order in: extent, align_dim (0-based template dim, -1 for `*`), align
 * offset (template index of the array's first element minus 1... see the pass: the
 * offset c such that Fortran element (lb + g) is aligned with template index g + c). */
void xmpf_array_(i8 *h, LOCARGS, const i8 *t, const int *ndims, const int *elem, const i8 *extent, const int *adim, const i8 *aoff,
                 LOCLENS) {
  int n = *ndims;
  long e[MAXD], o[MAXD];
  int ad[MAXD];
  for (int d = 0; d < n; d++) {
    e[n - 1 - d] = (long)extent[d];
    ad[n - 1 - d] = adim[d];
    o[n - 1 - d] = (long)aoff[d];
  }
  *h = (i8)(intptr_t)xmpc_array_new(LOC, H(t), n, (size_t)*elem, e, ad, o);
}

/* The element type (XMPC_TYPE_*) of an array the library's arithmetic routines use. */
void xmpf_array_type_(const i8 *h, const int *ty) { xmpc_array_set_type((xmpc_array *)H(h), *ty); }

void xmpf_array_shadow_(const i8 *h, LOCARGS, const int *ndims, const i8 *lo, const i8 *hi, const int *full, LOCLENS) {
  int n = *ndims, f[MAXD];
  long l[MAXD], u[MAXD];
  for (int d = 0; d < n; d++) {
    l[n - 1 - d] = (long)lo[d];
    u[n - 1 - d] = (long)hi[d];
    f[n - 1 - d] = full[d];
  }
  xmpc_array_shadow(LOC, (xmpc_array *)H(h), l, u, f);
}

/* Allocates the local part. dl: declared Fortran lower bounds; out: the local lower
 * bounds (global index of the first stored element, shadows included) and extents,
 * Fortran order, and the address to map a Fortran pointer onto. Cyclic dims: the
 * whole global array is stored (see full_arrays). */
void xmpf_array_alloc_(const i8 *h, LOCARGS, const int *ndims, const i8 *dl, i8 *lb, i8 *ext, i8 *addr, LOCLENS) {
  xmpc_array *a = (xmpc_array *)H(h);
  int n = *ndims, cyc = 0;
  flb_set(a, n, dl);
  xmpc_dim dm[MAXD];
  for (int d = 0; d < n; d++) {
    xmpc_array_dim(a, n - 1 - d, &dm[d]);
    if (dm[d].format == XMPC_DIST_CYCLIC) cyc = 1;
  }
  if (cyc) {
    /* extent of every dim: the runtime's `alloc` is the local one; recompute the
     * global one from the dim layout of a non-distributed view is not available, so
     * the translator passes the global extent in `ext` on entry. */
    size_t total = 1;
    for (int d = 0; d < n; d++) {
      lb[d] = dl[d];
      total *= (size_t)(ext[d] > 0 ? ext[d] : 0);
    }
    size_t es = xmp_array_type_size(a);
    void *p = calloc(total ? total : 1, es);
    xmpc_array_attach_whole(LOC, a, p, total * es);
    *addr = (i8)(intptr_t)p;
    if (nfull < 1024) {
      full_arrays[nfull] = a;
      full_addrs[nfull++] = p;
    }
    return;
  }
  void *p = xmpc_array_alloc(LOC, a);
  for (int d = 0; d < n; d++) {
    lb[d] = dl[d] + dm[d].offset;
    ext[d] = dm[d].alloc;
  }
  *addr = (i8)(intptr_t)p;
}

/* ------------------------------------------------------------- cache colours
 * The translator allocates a distributed array as a Fortran allocatable (so
 * gfortran knows arrays do not alias): xmpf_array_layout, `allocate`, then
 * xmpf_array_attach. glibc serves large requests with mmap, at a page boundary
 * + 16 bytes, so element (i, j, k) of every array lies at the same address modulo
 * 4 KiB: a stencil streaming a dozen arrays (Himeno: 13 plus 9 columns of p) maps
 * them to one L1 set and thrashes it (cachegrind, D1 48 KiB 12-way, Himeno
 * 65x65x129: 3.7 L1 misses per point and iteration, 1.1 for the sequential
 * program, whose static arrays the linker packs back to back).
 * So between layout and attach the allocate is served from the heap (mmap off),
 * and a pad block allocated just before it places the array 320 bytes (5 cache
 * lines) further modulo 4 KiB than the previous one. Where the allocate will land
 * is found by asking: a probe of the same size is allocated and freed (the
 * allocate then gets the same block, at `at`). The pad must take the c bytes
 * (1056 or more: beyond glibc's thread cache) in front of `at`, not some free
 * chunk elsewhere (the heap holds many, freed during MPI start-up: pads of the
 * missing length alone landed there, and the first arrays of a program kept the
 * colour of the heap's top). So the pad is carved from the probe's place: a block
 * of c + `bytes` bytes is allocated (it lands at `at` too: the same best fit) and
 * shrunk in place to c bytes by realloc, which gives the tail back to the heap,
 * where the allocate then finds it, at `at` + c. Checked by probing again; at
 * most NTRY pads per array, and if the colour is not reached only the colour is
 * lost, never correctness. The pads live as long as the array (freed with it), so
 * no free chunk is left for a later allocation to be carved from.
 *
 * Huge pages: a transparent huge page needs its whole 2 MiB-aligned range inside
 * one advised mapping when it is first touched. Advising only the array's own
 * 2 MiB-aligned interior (as the runtime does for memory it is handed) left the
 * two partial 2 MiB ranges at its ends on 4 KiB pages: Himeno MIDDLE at 2
 * processes (14 arrays of 8.6-9.0 MB, 121 MB) kept 74% of them on huge pages, the
 * expert MPI version (one pool) 98%, and 4 KiB pages cost a stencil streaming 22
 * rows one TLB miss per 4 KiB of each. So while a large array is allocated the
 * heap grows with 4 MiB to spare (M_TOP_PAD), the partial range after the array
 * is mapped, and the advice covers the array rounded out to 2 MiB: the heap around it (the
 * previous array's tail, the free top) is advised with it, and the next array
 * starts in a range already on a huge page. glibc writes the header of the free
 * top just past the array (at the probe, and at the allocate) before the advice,
 * so that range already has a 4 KiB page: after the zeroing the two end ranges
 * are collapsed into huge pages (MADV_COLLAPSE, Linux 6.1; an older kernel
 * refuses it and they stay as they are). */
#define COLOURED (16 << 10)
#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_SPARE ((size_t)4 << 20)
#define NPAD 1024
#define NTRY 16
static uintptr_t last_addr;
static int colouring, top_padded;
static void *pend_pad[NTRY];
static int npend;
static const void *pad_of_arr[NPAD];
static void *pad_blk[NPAD][NTRY];
static int npad;

static void drop_pending(void) {
  while (npend > 0) free(pend_pad[--npend]);
}

/* Before the translator's allocate of `bytes` bytes. */
static void colour_before(size_t bytes) {
  if (bytes < COLOURED) return;
  drop_pending(); /* a layout call not followed by an attach */
  colouring = 1;
  mallopt(M_MMAP_MAX, 0);
  if (bytes >= HUGE_SPARE) top_padded = mallopt(M_TOP_PAD, HUGE_SPARE);
  if (!last_addr || npad >= NPAD) return;
  uintptr_t want = (last_addr + 320) & 4095;
  while (npend < NTRY) {
    void *q = malloc(bytes);
    if (!q) return;
    uintptr_t at = (uintptr_t)q;
    free(q);
    if ((at & 4095) == want) return;
    size_t c = (size_t)((want - at) & 4095);
    if (c < 1056) c += 4096;
    /* c + bytes from the probe's place, shrunk in place to the c-byte pad */
    char *big = malloc(c - 8 + bytes);
    if (!big) return;
    void *pad = realloc(big, c - 8);
    if (!pad) {
      free(big);
      return;
    }
    pend_pad[npend++] = pad;
  }
}

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
/* Start of the brk heap (start_brk, field 47 of /proc/self/stat), 0 if unknown. */
static uintptr_t heap_start(void) {
  static uintptr_t start = 1;
  if (start != 1) return start;
  start = 0;
  FILE *f = fopen("/proc/self/stat", "r");
  if (!f) return 0;
  char buf[1024];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *q = strrchr(buf, ')'); /* the command name may hold spaces */
  for (int field = 2; q && field < 47; field++) q = strchr(q + 1, ' ');
  if (q) start = (uintptr_t)strtoull(q + 1, NULL, 10);
  return start;
}

/* The array `p`, `bytes` long, rounded out to 2 MiB within the brk heap: 1 if it is
 * large and lies in the heap (glibc falls back to mmap when the break cannot grow),
 * with [*lo, *hi) the range to advise. */
static int heap_range(const void *p, size_t bytes, uintptr_t *lo, uintptr_t *hi) {
  uintptr_t a = (uintptr_t)p, e = a + bytes, start = heap_start(), brk = (uintptr_t)sbrk(0);
  if (bytes < HUGE_SPARE || !start || a < start || e > brk) return 0;
  *lo = a & ~(uintptr_t)(HUGE_PAGE - 1);
  if (*lo < start) *lo = start;
  *hi = (e + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
  if (*hi > brk) *hi = brk & ~(uintptr_t)4095;
  return 1;
}

/* After the zeroing: the 2 MiB ranges holding the first and last byte of the
 * array `p`, `bytes` long, become huge pages, within [lo, hi), the range
 * colour_after advised (see above). */
static void collapse_ends(void *p, size_t bytes, uintptr_t lo, uintptr_t hi) {
  if (getenv("XMPC_NO_HUGEPAGE")) return;
  uintptr_t first = (uintptr_t)p & ~(uintptr_t)(HUGE_PAGE - 1);
  uintptr_t last = ((uintptr_t)p + bytes - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
  if (first >= lo) madvise((void *)first, HUGE_PAGE, MADV_COLLAPSE);
  if (last != first && last + HUGE_PAGE <= hi) madvise((void *)last, HUGE_PAGE, MADV_COLLAPSE);
}

/* After the allocate: the array `a` lives at `p`, `bytes` long. Returns 1 if it
 * was served from the heap and is large: [*lo, *hi) was advised (before the
 * zeroing, the first touch), and its ends are to be collapsed after it. */
static int colour_after(const void *a, void *p, size_t bytes, uintptr_t *lo, uintptr_t *hi) {
  if (!colouring) return 0;
  colouring = 0;
  mallopt(M_MMAP_MAX, 65536); /* glibc's defaults */
  if (top_padded) mallopt(M_TOP_PAD, 128 * 1024);
  top_padded = 0;
  int huge = heap_range(p, bytes, lo, hi);
  if (huge) xs_hugepage((void *)*lo, *hi - *lo);
  if (npend) {
    pad_of_arr[npad] = a;
    for (int k = 0; k < NTRY; k++) pad_blk[npad][k] = k < npend ? pend_pad[k] : NULL;
    npad++;
    npend = 0;
  }
  last_addr = (uintptr_t)p;
  return huge;
}

static void colour_free(const void *a) {
  for (int k = 0; k < npad; k++)
    if (pad_of_arr[k] == a) {
      for (int t = 0; t < NTRY; t++) free(pad_blk[k][t]);
      npad--;
      pad_of_arr[k] = pad_of_arr[npad];
      memcpy(pad_blk[k], pad_blk[npad], sizeof pad_blk[k]);
      return;
    }
}

/* Layout of the local part, for the translator's `allocate` of a Fortran
 * allocatable (xmpf_array_attach then hands it to the runtime): dl: declared Fortran
 * lower bounds; out: the local lower bounds (global index of the first stored
 * element, shadows included) and extents, Fortran order. Cyclic dims: the whole
 * global array (`ext` holds the global extents on entry and is left as is). */
void xmpf_array_layout_(const i8 *h, LOCARGS, const int *ndims, const i8 *dl, i8 *lb, i8 *ext, LOCLENS) {
  xmpc_array *a = (xmpc_array *)H(h);
  int n = *ndims, cyc = 0;
  flb_set(a, n, dl);
  xmpc_dim dm[MAXD];
  if (n > MAXD) xmpc_fatal(LOC, "too many array dimensions");
  for (int d = 0; d < n; d++) {
    xmpc_array_dim(a, n - 1 - d, &dm[d]);
    if (dm[d].format == XMPC_DIST_CYCLIC) cyc = 1;
  }
  size_t total = 1;
  for (int d = 0; d < n; d++) {
    lb[d] = cyc ? dl[d] : dl[d] + dm[d].offset;
    if (!cyc) ext[d] = dm[d].alloc;
    total *= (size_t)(ext[d] > 0 ? ext[d] : 0);
  }
  if (!cyc) colour_before(total * xmp_array_type_size(a));
}

/* The allocated local part `p` of ndims extents `ext` (the allocate's: those of
 * xmpf_array_layout, or bounds the translator knew) becomes the array's storage,
 * zeroed. Extents other than the layout's stop the program (an empty block may
 * differ in shape: outside the template's nodes the translator's `*` dimensions
 * keep their extent where the layout has 0). */
void xmpf_array_attach_(const i8 *h, LOCARGS, const int *ndims, const i8 *ext, void *p, LOCLENS) {
  xmpc_array *a = (xmpc_array *)H(h);
  int n = *ndims, cyc = 0, same = 1;
  size_t total = 1, want = 1;
  for (int d = 0; d < n; d++) {
    xmpc_dim dm;
    xmpc_array_dim(a, n - 1 - d, &dm);
    if (dm.format == XMPC_DIST_CYCLIC) cyc = 1;
    total *= (size_t)(ext[d] > 0 ? ext[d] : 0);
    want *= (size_t)(dm.alloc > 0 ? dm.alloc : 0);
    same &= ext[d] == dm.alloc || (ext[d] <= 0 && dm.alloc <= 0);
  }
  if (!cyc && !same && (total || want)) {
    char msg[200];
    snprintf(msg, sizeof msg, "local block of %zu elements allocated, the layout has %zu (or another shape): translator and runtime disagree", total, want);
    xmpc_fatal(LOC, msg);
  }
  size_t bytes = total * xmp_array_type_size(a);
  if (cyc) {
    xmpc_array_attach_whole(LOC, a, p, bytes);
    for (int k = 0; k < nfull; k++)
      if (full_arrays[k] == a) {
        full_addrs[k] = p;
        return;
      }
    if (nfull < 1024) {
      full_arrays[nfull] = a;
      full_addrs[nfull++] = p;
    }
    return;
  }
  uintptr_t lo, hi;
  int huge = colour_after(a, p, bytes, &lo, &hi);
  xmpc_array_attach(LOC, a, p, bytes);
  if (huge) collapse_ends(p, bytes, lo, hi);
}

/* End of a procedure's local or dummy aligned array (or deallocate of an
 * allocatable one): collective over the array's nodes. */
void xmpf_array_free_(const i8 *h) {
  xmpc_array *a = (xmpc_array *)H(h);
  for (int k = 0; k < nfull; k++)
    if (full_arrays[k] == a) {
      full_arrays[k] = full_arrays[nfull - 1];
      full_addrs[k] = full_addrs[--nfull];
      break;
    }
  colour_free(a);
  xmpc_array_free(NULL, a);
}

/* widths in Fortran order; has_width = 0: the declared shadow widths; async < 0: none. */
void xmpf_reflect_(const i8 *h, LOCARGS, const int *ndims, const int *has_width, const i8 *wlo, const i8 *whi, const int *periodic,
                   const int *async_id, LOCLENS) {
  const xmpc_loc *loc = LOC;
  /* An array stored whole (aligned with a cyclic dim): the translator lets only full
   * shadows (`*`) on its cyclic dims through; the runtime gathers them into place and
   * refuses any width a whole array has no room for. */
  int n = *ndims, p[MAXD];
  long l[MAXD], u[MAXD];
  for (int d = 0; d < n; d++) {
    l[n - 1 - d] = (long)wlo[d];
    u[n - 1 - d] = (long)whi[d];
    p[n - 1 - d] = periodic[d];
  }
  xmpc_reflect(loc, (xmpc_array *)H(h), *has_width ? l : NULL, *has_width ? u : NULL, p, *async_id);
}

void xmpf_wait_async_(LOCARGS, const int *async_id, LOCLENS) { xmpc_wait_async(LOC, *async_id); }

/* loop scheduling: s = (first, last, width, stride) of `do i = lo, hi, step` on
 * template dim `dim` (0-based). */
void xmpf_sched_(i8 *s, LOCARGS, const i8 *t, const int *dim, const i8 *lo, const i8 *hi, const i8 *step, LOCLENS) {
  if (*step < 0)
    xmpc_fatal(LOC, "the step of this DO loop is negative at run time but not written with a minus sign: "
                    "write it as `-k` (the loop then counts downwards over the node's iterations)");
  xmpc_sched r;
  xmpc_loop_sched(LOC, H(t), *dim, (long)*lo, (long)*hi, (long)*step, &r);
  s[0] = r.first;
  s[1] = r.last;
  s[2] = r.width;
  s[3] = r.stride;
}

/* The chunk sets of a loop over a cyclic(w) dimension (xmpc_loop_sched_multi): s is
 * integer(8) s(4, 8), each set (first, last, width, stride); n their number. */
void xmpf_sched_multi_(i8 *s, int *n, LOCARGS, const i8 *t, const int *dim, const i8 *lo, const i8 *hi, const i8 *step, LOCLENS) {
  const xmpc_loc *loc = LOC;
  if (*step < 0)
    xmpc_fatal(loc, "the step of this DO loop is negative at run time but not written with a minus sign: "
                    "write it as `-k` (the loop then counts downwards over the node's iterations)");
  xmpc_sched r[8];
  int k = xmpc_loop_sched_multi(loc, H(t), *dim, (long)*lo, (long)*hi, (long)*step, r, 8);
  if (k > 8) xmpc_fatal(loc, "loop step too large for a cyclic(w) distribution");
  for (int j = 0; j < k; j++) {
    s[4 * j] = r[j].first;
    s[4 * j + 1] = r[j].last;
    s[4 * j + 2] = r[j].width;
    s[4 * j + 3] = r[j].stride;
  }
  *n = k;
}

/* nodes handle for a reduction: on = node set handle (0 = executing nodes), or a
 * template's nodes when t != 0. */
static const xmpc_nodes *red_nodes(const i8 *on, const i8 *t) {
  if (*t) return xmpc_template_nodes(H(t));
  return H(on);
}

/* ty: XMPC_TYPE_*; op: XMPC_OP_*, or 100 for .eqv. and 101 for .neqv. (logicals). */
void xmpf_reduction_(void *addr, LOCARGS, const i8 *count, const int *ty, const int *op, const i8 *on, const i8 *t, LOCLENS) {
  const xmpc_loc *loc = LOC;
  const xmpc_nodes *n = red_nodes(on, t);
  if (n && !xmpc_nodes_is_member(n)) return;
  if (*op == 100 || *op == 101) {
    /* gfortran logicals are 0/1: .neqv. folds as xor; .eqv. as xor, flipped when the
     * number of partial results is even. */
    int *v = addr, size = n ? xmpc_nodes_size(n) : xmp_num_nodes();
    if (*ty != XMPC_TYPE_INT) xmpc_fatal(loc, ".eqv./.neqv. reductions take default logicals");
    xmpc_reduction(loc, addr, (long)*count, XMPC_TYPE_INT, XMPC_OP_BXOR, n);
    if (*op == 100 && size % 2 == 0)
      for (long k = 0; k < *count; k++) v[k] = !v[k];
    return;
  }
  xmpc_reduction(loc, addr, (long)*count, *ty, *op, n);
}

/* from_nodes = 0: from_index[0] is an executing-node number (or 0: the first node). */
void xmpf_bcast_(void *addr, LOCARGS, const i8 *bytes, const i8 *from_nodes, const int *nfrom, const i8 *from_index, const i8 *on,
                 LOCLENS) {
  long fi[MAXD];
  for (int d = 0; d < *nfrom; d++) fi[d] = (long)from_index[d];
  xmpc_bcast(LOC, addr, (size_t)*bytes, H(from_nodes), *nfrom ? fi : NULL, H(on));
}

void xmpf_barrier_(LOCARGS, const i8 *on, LOCLENS) { xmpc_barrier(LOC, H(on)); }

/* task on n(lo:hi:st, ...) (st == 0: the whole dim); *run = 1 when this node runs it. */
void xmpf_task_begin_(int *run, LOCARGS, const i8 *n, const int *ndims, const i8 *lo, const i8 *hi, const i8 *st, const int *nocomm,
                      LOCLENS) {
  long l[MAXD], u[MAXD], s[MAXD];
  for (int d = 0; d < *ndims; d++) {
    sel_dim(H(n), d, lo[d], hi[d], st[d], &l[d], &u[d], &s[d]);
    if (s[d] == 0) u[d] = xmpc_nodes_dim_size(H(n), d);
  }
  *run = xmpc_task_begin(LOC, H(n), l, u, s, *nocomm);
}

/* task on t(i, ...): star[d] != 0 for `*`. */
void xmpf_task_begin_t_(int *run, LOCARGS, const i8 *t, const int *ndims, const i8 *idx, const int *star, const int *nocomm, LOCLENS) {
  long x[MAXD];
  for (int d = 0; d < *ndims; d++) x[d] = star[d] ? LONG_MIN : (long)idx[d];
  *run = xmpc_task_begin_template(LOC, H(t), x, *nocomm);
}

void xmpf_task_end_(void) { xmpc_task_end(); }

/* gmove: per side the array handle (0: a local array or scalar at `base`), its rank,
 * element size and, in Fortran order, the declared extents and lower bounds and the
 * section lo:hi:st in Fortran indices. */
static void fill_section(xmpc_section *s, long *ext, long *lo, long *hi, long *st, const i8 *h, void *base, const int *nd, const int *es,
                         const i8 *e, const i8 *dl, const i8 *l, const i8 *u, const i8 *t) {
  int n = *nd;
  for (int d = 0; d < n; d++) {
    ext[n - 1 - d] = (long)e[d];
    lo[n - 1 - d] = (long)(l[d] - dl[d]);
    hi[n - 1 - d] = (long)(u[d] - dl[d]);
    st[n - 1 - d] = (long)t[d];
  }
  s->array = (xmpc_array *)H(h);
  s->base = *h ? xmpc_array_base(s->array) : base;
  s->ndims = n;
  s->elem_size = (size_t)*es;
  s->extent = ext;
  s->lo = lo;
  s->hi = hi;
  s->st = st;
}

void xmpf_gmove_(LOCARGS, const int *mode, const i8 *dh, void *dbase, const int *dnd, const int *des, const i8 *dext, const i8 *ddl,
                 const i8 *dlo, const i8 *dhi, const i8 *dst, const i8 *sh, void *sbase, const int *snd, const int *ses, const i8 *sext,
                 const i8 *sdl, const i8 *slo, const i8 *shi, const i8 *sst, LOCLENS) {
  const xmpc_loc *loc = LOC;
  long e1[MAXD], l1[MAXD], u1[MAXD], t1[MAXD], e2[MAXD], l2[MAXD], u2[MAXD], t2[MAXD];
  xmpc_section d, s;
  fill_section(&d, e1, l1, u1, t1, dh, dbase, dnd, des, dext, ddl, dlo, dhi, dst);
  fill_section(&s, e2, l2, u2, t2, sh, sbase, snd, ses, sext, sdl, slo, shi, sst);
  xmpc_gmove(loc, &d, &s, *mode, -1);
}

/* An aligned dummy argument: the caller's distributed array is found by the address
 * of its local block (the actual argument must be the whole aligned array). Out: its
 * handle, local lower bounds and extents (Fortran order) and the address. `ext` holds
 * the declared (global) extents on entry. */
void xmpf_dummy_(i8 *h, LOCARGS, void *addr, const int *ndims, const i8 *dl, i8 *lb, i8 *ext, i8 *cp, LOCLENS) {
  const xmpc_loc *loc = LOC;
  int n = *ndims;
  *cp = (i8)(intptr_t)addr;
  for (int k = 0; k < nfull; k++)
    if (full_addrs[k] == addr) {
      *h = (i8)(intptr_t)full_arrays[k];
      for (int d = 0; d < n; d++) lb[d] = dl[d];
      return;
    }
  xmpc_array *a = (xmpc_array *)xmp_desc_of(addr);
  if (!a) xmpc_fatal(loc, "the actual argument of an aligned dummy must be a whole distributed array");
  for (int d = 0; d < n; d++) {
    xmpc_dim dm;
    xmpc_array_dim(a, n - 1 - d, &dm);
    lb[d] = dl[d] + dm.offset;
    ext[d] = dm.alloc;
  }
  *h = (i8)(intptr_t)a;
}

/* After `p => b` for an aligned pointer array p: the runtime array whose local block
 * p now points to (found by its address, as xmp_desc_of), its declared lower bounds
 * gl and global extents gx (Fortran order). */
void xmpf_pointer_desc_(i8 *h, LOCARGS, const int *ndims, void *addr, i8 *gl, i8 *gx, LOCLENS) {
  const xmpc_loc *loc = LOC;
  int n = *ndims, an = 0;
  void *a = NULL;
  for (int k = 0; k < nfull && !a; k++)
    if (full_addrs[k] == addr) a = (void *)full_arrays[k];
  if (!a) a = xmp_desc_of(addr);
  if (!a) xmpc_fatal(loc, "the target of this aligned pointer is not a whole distributed array");
  xmp_array_ndims(a, &an);
  if (an != n) xmpc_fatal(loc, "the target of this aligned pointer has another rank");
  for (int d = 0; d < n; d++) {
    gl[d] = (i8)flb_get(a, d);
    gx[d] = (i8)xmp_array_gsize(a, n - d);
  }
  *h = (i8)(intptr_t)a;
}

/* Aligned dummies remapped at entry (xmpf_dummy_mapped): the dummy's own array, its
 * storage, and the caller's array and storage to copy back to at return. */
static struct {
  xmpc_array *mine, *act;
  void *mbase, *abase;
  long ext[MAXD];
  int n;
} remaps[64];
static int nremap;

static void whole_section(xmpc_section *s, xmpc_array *a, void *base, int n, const long *ext, long *lo, long *hi, long *st) {
  for (int c = 0; c < n; c++) {
    lo[c] = 0;
    hi[c] = ext[c] - 1;
    st[c] = 1;
  }
  *s = (xmpc_section){a, base, n, xmp_array_type_size(a), ext, lo, hi, st};
}

static void copy_whole(const xmpc_loc *loc, xmpc_array *dst, void *dbase, xmpc_array *src, void *sbase, int n, const long *ext) {
  long l1[MAXD], h1[MAXD], s1[MAXD], l2[MAXD], h2[MAXD], s2[MAXD];
  xmpc_section d, s;
  whole_section(&d, dst, dbase, n, ext, l1, h1, s1);
  whole_section(&s, src, sbase, n, ext, l2, h2, s2);
  xmpc_gmove(loc, &d, &s, XMPC_GMOVE_NORMAL, -1);
}

/* An explicit-shape aligned dummy whose unit gives its own template t and align
 * (adim, aoff as for xmpf_array; ext: the dummy's declared extents, Fortran order).
 * When the two mappings give every node the same elements in every dimension, the
 * caller's array and storage are used as they are (xmpf_dummy). Otherwise (Omni's
 * reduction/F/func: a cyclic dummy for a block actual; Omni reinterprets the
 * caller's local block in the dummy's layout, which xmpc, storing cyclic Fortran
 * arrays whole, cannot) the dummy gets an array of its own mapping, copied in from
 * the actual now and back at return (xmpf_dummy_release): the values the program
 * means, collective over the executing nodes. */
void xmpf_dummy_mapped_(i8 *h, LOCARGS, const i8 *t, const int *adim, const i8 *aoff, void *addr, const int *ndims, const i8 *dl, i8 *lb,
                        i8 *ext, i8 *cp, LOCLENS) {
  const xmpc_loc *loc = LOC;
  int n = *ndims, ad[MAXD];
  long e[MAXD], o[MAXD];
  i8 dext[MAXD];
  if (n > MAXD) xmpc_fatal(loc, "too many array dimensions");
  for (int d = 0; d < n; d++) {
    e[n - 1 - d] = (long)ext[d];
    ad[n - 1 - d] = adim[d];
    o[n - 1 - d] = (long)aoff[d];
    dext[d] = ext[d];
  }
  xmpf_dummy_(h, file, line, text, addr, ndims, dl, lb, ext, cp, file_len, text_len);
  xmpc_array *act = (xmpc_array *)H(h);
  xmpc_array *mine = xmpc_array_new(loc, H(t), n, xmp_array_type_size(act), e, ad, o);
  int differ = 0;
  for (int c = 0; c < n; c++) {
    xmpc_dim x, y;
    xmpc_array_dim(act, c, &x);
    xmpc_array_dim(mine, c, &y);
    long xl = x.upper >= x.lower ? x.lower : 0, xu = x.upper >= x.lower ? x.upper : -1;
    long yl = y.upper >= y.lower ? y.lower : 0, yu = y.upper >= y.lower ? y.upper : -1;
    int same = xl == yl && xu == yu;
    if (same && xu > xl && (x.format == XMPC_DIST_CYCLIC || y.format == XMPC_DIST_CYCLIC))
      same = x.format == y.format && x.procs == y.procs && x.width == y.width;
    differ |= !same;
  }
  xmpc_reduction(loc, &differ, 1, XMPC_TYPE_INT, XMPC_OP_MAX, NULL);
  if (!differ) {
    xmpc_array_free(loc, mine);
    return;
  }
  for (int c = 0; c < n; c++)
    if (xmp_array_gsize(act, c + 1) != e[c]) {
      char msg[256];
      snprintf(msg, sizeof msg,
               "the actual argument of this aligned dummy is mapped differently and has %d elements in dimension %d, the dummy %ld",
               xmp_array_gsize(act, c + 1), n - c, e[c]);
      xmpc_fatal(loc, msg);
    }
  if (nremap >= 64) xmpc_fatal(loc, "more than 64 remapped aligned dummy arguments at once");
  i8 hm = (i8)(intptr_t)mine, base = 0;
  for (int d = 0; d < n; d++) ext[d] = dext[d];
  xmpf_array_alloc_(&hm, file, line, text, ndims, dl, lb, ext, &base, file_len, text_len);
  copy_whole(loc, mine, (void *)(intptr_t)base, act, addr, n, e);
  remaps[nremap].mine = mine;
  remaps[nremap].act = act;
  remaps[nremap].mbase = (void *)(intptr_t)base;
  remaps[nremap].abase = addr;
  memcpy(remaps[nremap].ext, e, sizeof e);
  remaps[nremap].n = n;
  nremap++;
  *h = hm;
  *cp = base;
}

/* Return from a procedure with an explicit-shape aligned dummy: a dummy remapped at
 * entry is copied back into the actual argument and freed (collective). */
void xmpf_dummy_release_(const i8 *h) {
  for (int k = nremap - 1; k >= 0; k--)
    if (remaps[k].mine == (xmpc_array *)H(h)) {
      xmpc_loc loc = {"(aligned dummy argument)", 0, "return"};
      copy_whole(&loc, remaps[k].act, remaps[k].abase, remaps[k].mine, remaps[k].mbase, remaps[k].n, remaps[k].ext);
      remaps[k] = remaps[--nremap];
      xmpf_array_free_(h);
      return;
    }
}

/* An assumed-shape aligned dummy argument (`real :: x(:)` + `align x(i) with t(i)`):
 * a new array of the callee's template, align (adim, aoff as for xmpf_array) and
 * shadow (slo, shi, full), whose local block is the actual argument's storage at
 * `addr` (the caller's local block, shadows included, used as it is). In, Fortran
 * order: dl the dummy's lower bounds, ext the actual argument's extents. Global
 * extents (out: gext): an aligned dim runs from element dl to the template's upper
 * bound, a `*` dim is ext less its shadows. The local layout must be the actual's
 * extents (else: the actual is not the whole array aligned alike). Out: the handle
 * (the caller's array when it maps the block the same way, see xmpc_array_view),
 * the local lower bounds lb (global index of the first stored element) and cp. */
void xmpf_assumed_(i8 *h, LOCARGS, const i8 *t, const int *ndims, const int *elem, const int *adim, const i8 *aoff, const i8 *dl,
                   const i8 *slo, const i8 *shi, const int *full, void *addr, const i8 *ext, i8 *gext, i8 *lb, i8 *cp, LOCLENS) {
  const xmpc_loc *loc = LOC;
  int n = *ndims, ad[MAXD], f[MAXD];
  long e[MAXD], o[MAXD], l[MAXD], u[MAXD];
  if (n > MAXD) xmpc_fatal(loc, "too many array dimensions");
  for (int d = 0; d < n; d++) {
    int c = n - 1 - d;
    long g;
    if (adim[d] < 0) {
      g = full[d] ? (long)ext[d] : (long)(ext[d] - slo[d] - shi[d]);
    } else {
      int fixed = 0, tu = 0;
      if (xmp_template_fixed((void *)H(t), &fixed) || !fixed || xmp_template_ubound((void *)H(t), adim[d] + 1, &tu))
        xmpc_fatal(loc, "align of a dummy argument with a template that is not fixed");
      g = (long)tu - (long)aoff[d] + 1;
    }
    if (g < 0) g = 0;
    gext[d] = g;
    e[c] = g;
    ad[c] = adim[d];
    o[c] = (long)aoff[d];
    l[c] = (long)slo[d];
    u[c] = (long)shi[d];
    f[c] = full[d];
  }
  xmpc_array *a = xmpc_array_new(loc, H(t), n, (size_t)*elem, e, ad, o);
  xmpc_array_shadow(loc, a, l, u, f);
  size_t total = 1;
  for (int d = 0; d < n; d++) {
    xmpc_dim dm;
    xmpc_array_dim(a, n - 1 - d, &dm);
    if (dm.alloc != (long)ext[d]) {
      char msg[256];
      snprintf(msg, sizeof msg,
               "the actual argument has %ld elements in dimension %d on this node, the dummy's template, align and shadow give %ld: "
               "pass the whole distributed array, aligned and shadowed alike",
               (long)ext[d], d + 1, dm.alloc);
      xmpc_fatal(loc, msg);
    }
    lb[d] = dl[d] + dm.offset;
    total *= (size_t)(dm.alloc > 0 ? dm.alloc : 0);
  }
  *h = (i8)(intptr_t)xmpc_array_view(loc, a, addr, total * (size_t)*elem);
  *cp = (i8)(intptr_t)addr;
}

/* `reduction ... async(id)`: as xmpf_reduction, completed by xmpf_wait_async(id)
 * (the variable must not be used before). .eqv./.neqv. are done at once. */
void xmpf_reduction_async_(void *addr, LOCARGS, const i8 *count, const int *ty, const int *op, const i8 *on, const i8 *t,
                           const int *async_id, LOCLENS) {
  if (*op == 100 || *op == 101) {
    xmpf_reduction_(addr, file, line, text, count, ty, op, on, t, file_len, text_len);
    return;
  }
  const xmpc_nodes *n = red_nodes(on, t);
  if (n && !xmpc_nodes_is_member(n)) return;
  xmpc_reduction_async(LOC, addr, (long)*count, *ty, *op, n, *async_id);
}

/* `reduce_shadow (a) [width(...)] [async(id)]`: as xmpf_reflect, plus the element
 * type (XMPC_TYPE_*); done at once (async accepted). */
void xmpf_reduce_shadow_(const i8 *h, LOCARGS, const int *ndims, const int *has_width, const i8 *wlo, const i8 *whi, const int *periodic,
                         const int *ty, const int *async_id, LOCLENS) {
  const xmpc_loc *loc = LOC;
  int n = *ndims, p[MAXD];
  long l[MAXD], u[MAXD];
  if (is_full(H(h))) xmpc_fatal(loc, "reduce_shadow of an array aligned with a cyclic template dimension");
  for (int d = 0; d < n; d++) {
    l[n - 1 - d] = (long)wlo[d];
    u[n - 1 - d] = (long)whi[d];
    p[n - 1 - d] = periodic[d];
  }
  xmpc_reduce_shadow(loc, (xmpc_array *)H(h), *has_width ? l : NULL, *has_width ? u : NULL, p, *ty, *async_id);
}

/* One-loop form of a loop's share: s = (first, last, step) with `do i = first, last,
 * step` visiting exactly this node's iterations in the loop's own order; a negative
 * step (`do i = hi, lo, -k`) gives them from the largest down. Used for labelled DO
 * loops, under OpenMP, for steps written negative, and as the range check of a level
 * that keeps its own bounds. cyclic(w) with w > 1 cannot be written so (error). */
void xmpf_sched1_(i8 *s, LOCARGS, const i8 *t, const int *dim, const i8 *lo, const i8 *hi, const i8 *step, LOCLENS) {
  const xmpc_loc *loc = LOC;
  long a = (long)*lo, b = (long)*hi, st = (long)*step;
  const int down = st < 0;
  xmpc_sched r = {.first = 1, .last = 0}; /* no iteration */
  if (!down)
    xmpc_loop_sched(loc, H(t), *dim, a, b, st, &r);
  else if (a >= b) {
    /* the same iterations counted upwards: from the smallest, a - n*|st|, to a */
    st = -st;
    xmpc_loop_sched(loc, H(t), *dim, a - (a - b) / st * st, a, st, &r);
  }
  if (r.first > r.last) {
    if (down)
      s[0] = 0, s[1] = 1, s[2] = -1; /* `do i = 0, 1, -1`: no iteration */
    else
      s[0] = r.first, s[1] = r.last, s[2] = st;
    return;
  }
  long eff;
  if (r.stride > r.last - r.first)
    eff = st;
  else if (r.width == 1)
    eff = r.stride;
  else
    xmpc_fatal(loc, "this DO loop (labelled, under OpenMP, or counting downwards) runs over a cyclic(w) dimension, "
                    "whose iterations are not one progression: write it as DO ... END DO counting upwards");
  if (down) {
    s[0] = r.first + (r.last - r.first) / eff * eff; /* the largest owned iteration */
    s[1] = r.first;
    s[2] = -eff;
  } else {
    s[0] = r.first;
    s[1] = r.last;
    s[2] = eff;
  }
}

/* `array on t(...)` over a cyclic dimension: the indices lo, lo+st, ... (up to hi;
 * st may be negative, not 0) whose template index (index + off) this node owns, in
 * increasing order, into ix (cap entries); *n = how many. The translator uses them
 * as a vector subscript (arrays aligned with a cyclic dim are stored whole). */
static int cmp_i8(const void *a, const void *b) {
  i8 x = *(const i8 *)a, y = *(const i8 *)b;
  return (x > y) - (x < y);
}
void xmpf_owned_(i8 *ix, const i8 *cap, i8 *n, LOCARGS, const i8 *t, const int *dim, const i8 *off, const i8 *lo, const i8 *hi,
                 const i8 *st, LOCLENS) {
  const xmpc_loc *loc = LOC;
  long l = (long)*lo, h = (long)*hi, s = (long)*st;
  *n = 0;
  if (s == 0) xmpc_fatal(loc, "array section with a zero stride");
  if (s < 0) {
    if (l < h) return;
    long last = l + (h - l) / s * s; /* the section's smallest index */
    h = l;
    l = last;
    s = -s;
  }
  if (l > h) return;
  long o = (long)*off, nsets = s + 2;
  xmpc_sched *r = malloc(sizeof(xmpc_sched) * (size_t)nsets);
  if (!r) xmpc_fatal(loc, "out of memory");
  int k = xmpc_loop_sched_multi(loc, H(t), *dim, l + o, h + o, s, r, (int)nsets);
  if (k > nsets) k = (int)nsets;
  i8 m = 0;
  for (int q = 0; q < k; q++)
    for (long c = r[q].first; c <= r[q].last; c += r[q].stride)
      for (long i = c; i <= c + r[q].width - 1 && i <= r[q].last; i += s) {
        if (m >= *cap) xmpc_fatal(loc, "array: index list overflow");
        ix[m++] = (i8)(i - o);
      }
  free(r);
  qsort(ix, (size_t)m, sizeof(i8), cmp_i8);
  *n = m;
}

/* max/min/first.../last... of a scalar with 1-3 location variables (each with its
 * XMPC_TYPE_* code): every node gets the winner's value and locations. */
static void red_loc(void *addr, const xmpc_loc *loc, const int *ty, const int *op, const i8 *on, const i8 *t, int n, void **lv,
                    const int *lt) {
  const xmpc_nodes *nd = red_nodes(on, t);
  if (nd && !xmpc_nodes_is_member(nd)) return;
  xmpc_reduction_loc(loc, addr, *ty, *op, nd, n, lv, lt);
}
void xmpf_reduction_loc1_(void *addr, LOCARGS, const int *ty, const int *op, const i8 *on, const i8 *t, void *l1, const int *t1, LOCLENS) {
  void *lv[1] = {l1};
  int lt[1] = {*t1};
  red_loc(addr, LOC, ty, op, on, t, 1, lv, lt);
}
void xmpf_reduction_loc2_(void *addr, LOCARGS, const int *ty, const int *op, const i8 *on, const i8 *t, void *l1, const int *t1, void *l2,
                          const int *t2, LOCLENS) {
  void *lv[2] = {l1, l2};
  int lt[2] = {*t1, *t2};
  red_loc(addr, LOC, ty, op, on, t, 2, lv, lt);
}
void xmpf_reduction_loc3_(void *addr, LOCARGS, const int *ty, const int *op, const i8 *on, const i8 *t, void *l1, const int *t1, void *l2,
                          const int *t2, void *l3, const int *t3, LOCLENS) {
  void *lv[3] = {l1, l2, l3};
  int lt[3] = {*t1, *t2, *t3};
  red_loc(addr, LOC, ty, op, on, t, 3, lv, lt);
}

/* ---- The user library for Fortran (xmp_lib.h): type(xmp_desc) is a sequence type
 * holding the descriptor as INTEGER(8). Array dimension numbers are Fortran's (dim 1
 * first) and are reversed here; indices and bounds are Fortran's (declared lower
 * bound); template and node dimensions are passed through. xmp_matmul's operands
 * are swapped: Fortran x = a.b is x' = b'.a' on the reversed (row-major) arrays. */
typedef struct { i8 desc; } xmp_desc_f;
#define DF(p) ((void *)(intptr_t)(p)->desc)
extern int xmp_array_ndims(void *, int *);
extern int xmp_array_lbound(void *, int, int *);
extern int xmp_array_ubound(void *, int, int *);
extern int xmp_array_lsize(void *, int, int *);
extern int xmp_array_lshadow(void *, int, int *);
extern int xmp_array_ushadow(void *, int, int *);
extern int xmp_array_lead_dim(void *, int *);
extern int xmp_array_gtol(void *, int, int, int *);
extern int xmpf_array_gtol_compact(void *, int, int, int *);
extern int xmpf_array_shadow_width(void *, int, int, int *);
extern int xmp_align_axis(void *, int, int *);
extern int xmp_align_offset(void *, int, int *);
extern int xmp_align_replicated(void *, int, int *);
extern int xmp_align_template(void *, void **);
extern int xmp_template_ndims(void *, int *);
extern int xmp_template_lbound(void *, int, int *);
extern int xmp_dist_format(void *, int, int *);
extern int xmp_dist_blocksize(void *, int, int *);
extern int xmp_dist_gblockmap(void *, int, int *);
extern int xmp_dist_nodes(void *, void **);
extern int xmp_dist_axis(void *, int, int *);
extern int xmp_nodes_ndims(void *, int *);
extern int xmp_nodes_index(void *, int, int *);
extern int xmp_nodes_size(void *, int, int *);
extern int xmp_nodes_rank(void *, int *);
extern int xmp_nodes_equiv(void *, void **, int *, int *, int *);
extern int xmp_nodes_attr(void *, int *);
extern int xmp_test_async(int);
extern void xmp_pack(void *, void *, void *);
extern void xmp_unpack(void *, void *, void *);
extern void xmp_transpose(void *, void *, int);
extern void xmp_matmul(void *, void *, void *);
extern void xmp_sort_up(void *, void *);
extern void xmp_sort_down(void *, void *);
extern void xmpc_rt_gather(void *, void *, int, void *const *, const long *);
extern void xmpc_rt_scatter(void *, void *, int, void *const *, const long *);
extern int xmpc_rt_exec_comm(void);

/* xmp_desc_of(a): the distributed array whose local block `a` is (a whole array).
 * The descriptor of a template or node set is its translator handle: pass it as
 * xmp_desc_of(t) only where the translator rewrites it. */
xmp_desc_f xmp_desc_of_(void *addr) {
  xmp_desc_f d = {0};
  for (int k = 0; k < nfull; k++)
    if (full_addrs[k] == addr) {
      d.desc = (i8)(intptr_t)full_arrays[k];
      return d;
    }
  d.desc = (i8)(intptr_t)xmp_desc_of(addr);
  return d;
}
static int f_c_dim(void *a, int dim) {
  int n = 0;
  xmp_array_ndims(a, &n);
  return n + 1 - dim;
}
int xmp_get_mpi_comm_(void) { return xmpc_rt_exec_comm(); }
int xmp_array_ndims_(xmp_desc_f *d, int *n) { return xmp_array_ndims(DF(d), n); }
int xmp_array_lbound_(xmp_desc_f *d, int *dim, int *v) {
  int r = xmp_array_lbound(DF(d), f_c_dim(DF(d), *dim), v);
  if (!r) *v += (int)flb_get(DF(d), *dim - 1);
  return r;
}
int xmp_array_ubound_(xmp_desc_f *d, int *dim, int *v) {
  int r = xmp_array_ubound(DF(d), f_c_dim(DF(d), *dim), v);
  if (!r) *v += (int)flb_get(DF(d), *dim - 1);
  return r;
}
int xmp_array_lsize_(xmp_desc_f *d, int *dim, int *v) { return xmp_array_lsize(DF(d), f_c_dim(DF(d), *dim), v); }
int xmp_array_lshadow_(xmp_desc_f *d, int *dim, int *v) { return xmpf_array_shadow_width(DF(d), f_c_dim(DF(d), *dim), 0, v); }
int xmp_array_ushadow_(xmp_desc_f *d, int *dim, int *v) { return xmpf_array_shadow_width(DF(d), f_c_dim(DF(d), *dim), 1, v); }
int xmp_array_lead_dim_(xmp_desc_f *d, int *size) {
  int n = 0, s[MAXD];
  xmp_array_ndims(DF(d), &n);
  if (n > MAXD) return 1;
  int r = xmp_array_lead_dim(DF(d), s);
  for (int k = 0; !r && k < n; k++) size[k] = s[n - 1 - k];
  return r;
}
/* Fortran global index in; out, as Omni: the 0-based index in the block the owner
 * stores compactly, shadow included (docs/omni-compat.md). */
int xmp_array_gtol_(xmp_desc_f *d, int *dim, int *g, int *l) {
  long lb = flb_get(DF(d), *dim - 1);
  return xmpf_array_gtol_compact(DF(d), f_c_dim(DF(d), *dim), *g - (int)lb, l);
}
int xmp_align_axis_(xmp_desc_f *d, int *dim, int *v) { return xmp_align_axis(DF(d), f_c_dim(DF(d), *dim), v); }
/* `align a(i) with t(i + c)`: c (the runtime's offset counts from element 0). */
int xmp_align_offset_(xmp_desc_f *d, int *dim, int *v) {
  int r = xmp_align_offset(DF(d), f_c_dim(DF(d), *dim), v);
  if (!r) *v -= (int)flb_get(DF(d), *dim - 1);
  return r;
}
int xmp_align_replicated_(xmp_desc_f *d, int *dim, int *v) { return xmp_align_replicated(DF(d), *dim, v); }
int xmp_align_template_(xmp_desc_f *d, xmp_desc_f *t) {
  void *p = 0;
  int r = xmp_align_template(DF(d), &p);
  t->desc = (i8)(intptr_t)p;
  return r;
}
int xmp_template_fixed_(xmp_desc_f *d, int *v) { return xmp_template_fixed(DF(d), v); }
int xmp_template_ndims_(xmp_desc_f *d, int *v) { return xmp_template_ndims(DF(d), v); }
int xmp_template_lbound_(xmp_desc_f *d, int *dim, int *v) { return xmp_template_lbound(DF(d), *dim, v); }
int xmp_template_ubound_(xmp_desc_f *d, int *dim, int *v) { return xmp_template_ubound(DF(d), *dim, v); }
int xmp_dist_format_(xmp_desc_f *d, int *dim, int *v) { return xmp_dist_format(DF(d), *dim, v); }
int xmp_dist_blocksize_(xmp_desc_f *d, int *dim, int *v) { return xmp_dist_blocksize(DF(d), *dim, v); }
int xmp_dist_gblockmap_(xmp_desc_f *d, int *dim, int *map) { return xmp_dist_gblockmap(DF(d), *dim, map); }
int xmp_dist_nodes_(xmp_desc_f *d, xmp_desc_f *n) {
  void *p = 0;
  int r = xmp_dist_nodes(DF(d), &p);
  n->desc = (i8)(intptr_t)p;
  return r;
}
int xmp_dist_axis_(xmp_desc_f *d, int *dim, int *v) { return xmp_dist_axis(DF(d), *dim, v); }
int xmp_nodes_ndims_(xmp_desc_f *d, int *v) { return xmp_nodes_ndims(DF(d), v); }
int xmp_nodes_index_(xmp_desc_f *d, int *dim, int *v) { return xmp_nodes_index(DF(d), *dim, v); }
int xmp_nodes_size_(xmp_desc_f *d, int *dim, int *v) { return xmp_nodes_size(DF(d), *dim, v); }
int xmp_nodes_rank_(xmp_desc_f *d, int *v) { return xmp_nodes_rank(DF(d), v); }
int xmp_nodes_equiv_(xmp_desc_f *d, xmp_desc_f *dn, int *lb, int *ub, int *st) {
  void *p = 0;
  int r = xmp_nodes_equiv(DF(d), &p, lb, ub, st);
  dn->desc = (i8)(intptr_t)p;
  return r;
}
int xmp_nodes_attr_(xmp_desc_f *d, int *v) { return xmp_nodes_attr(DF(d), v); }
int xmp_test_async_(int *id) { return xmp_test_async(*id); }

/* Index arrays hold Fortran indices of the indexed array `arr` (at most 7 dims); its
 * dim k is the runtime's dim n-1-k. Returns n. */
static int fidx(void *arr, xmp_desc_f *const *in, void **out, long *base) {
  int n = 0;
  xmp_array_ndims(arr, &n);
  if (n > 7) n = 7;
  for (int k = 0; k < n; k++) {
    out[n - 1 - k] = DF(in[k]);
    base[n - 1 - k] = flb_get(arr, k);
  }
  return n;
}
void xmp_gather_(xmp_desc_f *x, xmp_desc_f *a, xmp_desc_f *i1, xmp_desc_f *i2, xmp_desc_f *i3, xmp_desc_f *i4,
                 xmp_desc_f *i5, xmp_desc_f *i6, xmp_desc_f *i7) {
  xmp_desc_f *in[7] = {i1, i2, i3, i4, i5, i6, i7};
  void *idx[7];
  long base[7];
  int n = fidx(DF(a), in, idx, base);
  xmpc_rt_gather(DF(x), DF(a), n, idx, base);
}
void xmp_scatter_(xmp_desc_f *x, xmp_desc_f *a, xmp_desc_f *i1, xmp_desc_f *i2, xmp_desc_f *i3, xmp_desc_f *i4,
                  xmp_desc_f *i5, xmp_desc_f *i6, xmp_desc_f *i7) {
  xmp_desc_f *in[7] = {i1, i2, i3, i4, i5, i6, i7};
  void *idx[7];
  long base[7];
  int n = fidx(DF(x), in, idx, base);
  xmpc_rt_scatter(DF(x), DF(a), n, idx, base);
}
void xmp_pack_(xmp_desc_f *v, xmp_desc_f *a, xmp_desc_f *m) { xmp_pack(DF(v), DF(a), DF(m)); }
void xmp_unpack_(xmp_desc_f *a, xmp_desc_f *v, xmp_desc_f *m) { xmp_unpack(DF(a), DF(v), DF(m)); }
void xmp_transpose_(xmp_desc_f *b, xmp_desc_f *a, int *opt) { xmp_transpose(DF(b), DF(a), *opt); }
void xmp_matmul_(xmp_desc_f *x, xmp_desc_f *a, xmp_desc_f *b) { xmp_matmul(DF(x), DF(b), DF(a)); }
void xmp_sort_up_(xmp_desc_f *a, xmp_desc_f *b) { xmp_sort_up(DF(a), DF(b)); }
void xmp_sort_down_(xmp_desc_f *a, xmp_desc_f *b) { xmp_sort_down(DF(a), DF(b)); }

/* The library's functions under the names the translator calls where a unit does not
 * declare them (backends/src/fortran/library.rs): `xmp_node_num()` becomes a call of
 * `xmpf_lib_node_num`, which the translator declares with the library's type, as
 * Omni's front end types the library without a declaration. */
#define FLIB(n) extern __typeof__(xmp_##n##_) xmpf_lib_##n##_ __attribute__((alias("xmp_" #n "_")));
FLIB(get_mpi_comm)
FLIB(num_nodes)
FLIB(node_num)
FLIB(all_num_nodes)
FLIB(all_node_num)
FLIB(wtime)
FLIB(wtick)
FLIB(array_ndims)
FLIB(array_lbound)
FLIB(array_ubound)
FLIB(array_lsize)
FLIB(array_ushadow)
FLIB(array_lshadow)
FLIB(array_lead_dim)
FLIB(array_gtol)
FLIB(align_axis)
FLIB(align_offset)
FLIB(align_replicated)
FLIB(align_template)
FLIB(template_fixed)
FLIB(template_ndims)
FLIB(template_lbound)
FLIB(template_ubound)
FLIB(dist_format)
FLIB(dist_blocksize)
FLIB(dist_gblockmap)
FLIB(dist_nodes)
FLIB(dist_axis)
FLIB(nodes_ndims)
FLIB(nodes_index)
FLIB(nodes_size)
FLIB(nodes_equiv)
FLIB(nodes_rank)
FLIB(nodes_attr)
FLIB(test_async)

/* ------------------------------------------------- XcalableACC persistent halos */

/* `reflect_init (a) [width(...)] [acc]`: widths in Fortran order as xmpf_reflect_. */
void xmpf_reflect_init_(const i8 *h, LOCARGS, const int *ndims, const int *has_width, const i8 *wlo, const i8 *whi, const int *periodic,
                        LOCLENS) {
  const xmpc_loc *loc = LOC;
  int n = *ndims, p[MAXD];
  long l[MAXD], u[MAXD];
  for (int d = 0; d < n; d++) {
    l[n - 1 - d] = (long)wlo[d];
    u[n - 1 - d] = (long)whi[d];
    p[n - 1 - d] = periodic[d];
  }
  xmpc_reflect_init(loc, (xmpc_array *)H(h), *has_width ? l : NULL, *has_width ? u : NULL, p);
}

/* `reflect_do (a) [async(id)] [acc]` */
void xmpf_reflect_do_(const i8 *h, LOCARGS, const int *async_id, LOCLENS) {
  const xmpc_loc *loc = LOC;
  xmpc_reflect_do(loc, (xmpc_array *)H(h), *async_id);
}

/* Checking mode (-fcheck=xmp, docs/checking.md): called after xmpf_init; a process
 * stopped by a gfortran runtime error (-fcheck=bounds: it prints the file, line,
 * array and index, then exits) names its rank and aborts the job. In C: at exit,
 * the Rust runtime's thread-local state is gone. */
int xs_mpi_active(void);
static int check_rank = -1;
static void check_exit(void) {
  if (!xs_mpi_active()) return;
  fprintf(stderr, "[rank %d] xmpc runtime error: checking mode (-fcheck=xmp): this process stopped on the error above\n", check_rank);
  fflush(NULL);
  xmpc_rt_abort(1);
}
void xmpf_check_on_(void) {
  check_rank = xmp_all_node_num() - 1;
  atexit(check_exit);
}
