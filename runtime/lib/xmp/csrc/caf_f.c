/* Fortran coarrays (docs/local-view.md): a file that uses coarrays is compiled with
 * gfortran -fcoarray=lib and the program is linked with xmpc's own libcaf (caf_lib.c,
 * through -Wl,--wrap) or with OpenCoarrays' libcaf_mpich; both share MPI_COMM_WORLD
 * with the XMP runtime (image i is node i).
 *
 * Who starts and ends MPI: gfortran's main() calls _gfortran_caf_init (MPI_Init_thread
 * unless MPI is up, then a dup of MPI_COMM_WORLD) before the main program; xmpf_init
 * calls it again (a no-op then; it starts MPI when the main program's file was not
 * compiled with -fcoarray=lib but another file was). At the end xmpf_stop(0)
 * releases the XMP runtime's MPI objects first, then _gfortran_caf_finalize (an
 * implied sync all, frees its windows, MPI_Finalize), then the XMP runtime finds
 * MPI finalized and leaves it. A program without coarrays links no libcaf: the weak
 * references stay null and nothing here runs.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void _gfortran_caf_init(int *argc, char ***argv) __attribute__((weak));
void _gfortran_caf_finalize(void) __attribute__((weak));

void xmpf_caf_init(void) {
  if (_gfortran_caf_init) {
    int argc = 0;
    char **argv = NULL;
    _gfortran_caf_init(&argc, &argv);
  }
}

/* 1 when libcaf is linked (it has now finalized MPI), else 0. */
int xmpf_caf_finalize(void) {
  if (!_gfortran_caf_finalize) return 0;
  _gfortran_caf_finalize();
  return 1;
}

/* ---------------------------------------------------------------- Omni's helpers
 * (include/xmp_coarray.h). The driver links coarray programs with
 * -Wl,--wrap=_gfortran_caf_register,--wrap=_gfortran_caf_deregister (and sync_memory) so the bytes
 * of coarray data each image registers are counted here. */
typedef void *caf_token_t;
/* gfortran's caf_register_t: the coarray kinds whose size is in bytes */
enum { CAF_REGTYPE_COARRAY_STATIC = 0, CAF_REGTYPE_COARRAY_ALLOC = 1, CAF_REGTYPE_COARRAY_ALLOC_ALLOCATE_ONLY = 8 };

void __real__gfortran_caf_register(size_t, int, caf_token_t *, void *, int *, char *, size_t) __attribute__((weak));
void __real__gfortran_caf_deregister(caf_token_t *, int, int *, char *, size_t) __attribute__((weak));
/* xmpc's own libcaf (caf_lib.c): used when no other libcaf is linked (the __real_
 * symbols are then null) */
void xmpc_caf_register(size_t, int, caf_token_t *, void *, int *, char *, size_t);
void xmpc_caf_deregister(caf_token_t *, int, int *, char *, size_t);
void xmpc_caf_sync_memory(int *, char *, size_t);

/* Counted as Omni's allocator counts (a stack): a coarray freed while a later one is
 * still allocated stays counted, as garbage, until every later one is freed (Omni's
 * ALLOC/allo_pipo3). The memory itself is freed at once. */
struct caf_rec {
  caf_token_t token;
  size_t bytes;
  int freed;
  struct caf_rec *next;
};
static struct caf_rec *caf_recs; /* most recent first */
static size_t caf_bytes, caf_garbage;

#include <stdlib.h>

/* MPICH 4.0.2 (Debian 12) gives wrong remote memory in a window made by
 * MPI_Win_allocate when a process's size is not a multiple of 16 bytes (a get from
 * rank 1 of an 8-byte window reads rank 0's bytes; measured, docs/local-view.md):
 * OpenCoarrays allocates each coarray's window with its exact size, so a scalar
 * coarray went wrong. Sizes (bytes, or lock/event counts) are rounded up to a
 * multiple of 64 here; the program uses only the bytes it asked for. */
static size_t caf_pad(size_t n) { return n == 0 ? 0 : (n + 63) & ~(size_t)63; }

void __wrap__gfortran_caf_register(size_t size, int type, caf_token_t *token, void *desc, int *stat, char *errmsg,
                                   size_t errmsg_len) {
  if (__real__gfortran_caf_register) __real__gfortran_caf_register(caf_pad(size), type, token, desc, stat, errmsg, errmsg_len);
  else xmpc_caf_register(size, type, token, desc, stat, errmsg, errmsg_len);
  if ((stat && *stat != 0) || !token) return;
  if (type != CAF_REGTYPE_COARRAY_STATIC && type != CAF_REGTYPE_COARRAY_ALLOC &&
      type != CAF_REGTYPE_COARRAY_ALLOC_ALLOCATE_ONLY)
    return;
  struct caf_rec *r = malloc(sizeof *r);
  if (!r) return;
  r->token = *token;
  r->bytes = size;
  r->freed = 0;
  r->next = caf_recs;
  caf_recs = r;
  caf_bytes += size;
}

void __wrap__gfortran_caf_deregister(caf_token_t *token, int type, int *stat, char *errmsg, size_t errmsg_len) {
  caf_token_t t = token ? *token : NULL;
  if (__real__gfortran_caf_deregister) __real__gfortran_caf_deregister(token, type, stat, errmsg, errmsg_len);
  else xmpc_caf_deregister(token, type, stat, errmsg, errmsg_len);
  if (stat && *stat != 0) return;
  for (struct caf_rec *r = caf_recs; r; r = r->next) {
    if (r->token == t && !r->freed) {
      r->freed = 1;
      caf_garbage += r->bytes;
      break;
    }
  }
  while (caf_recs && caf_recs->freed) {
    struct caf_rec *r = caf_recs;
    caf_bytes -= r->bytes;
    caf_garbage -= r->bytes;
    caf_recs = r->next;
    free(r);
  }
}

int xmpf_coarray_allocated_bytes_(void) { return caf_bytes > (size_t)INT32_MAX ? INT32_MAX : (int)caf_bytes; }
int xmpf_coarray_garbage_bytes_(void) { return caf_garbage > (size_t)INT32_MAX ? INT32_MAX : (int)caf_garbage; }
void xmpf_coarray_msg_(const int *on) { (void)on; }
/* The same, typed by the translator (backends/src/fortran/library.rs) when a unit
 * calls them without declaring them, as Omni's front end does; Omni's inquiries of its
 * communication layer answer as its MPI-3 one-sided build does. */
int xmpf_lib_coarray_allocated_bytes_(void) { return xmpf_coarray_allocated_bytes_(); }
int xmpf_lib_coarray_garbage_bytes_(void) { return xmpf_coarray_garbage_bytes_(); }
int xmpf_lib_coarray_malloc_bytes_(void) { return xmpf_coarray_allocated_bytes_(); }
int xmpf_lib_coarray_uses_fjrdma_(void) { return 0; }
int xmpf_lib_coarray_uses_gasnet_(void) { return 0; }
int xmpf_lib_coarray_uses_mpi3_onesided_(void) { return 1; }

/* sync memory (stat=s): OpenCoarrays 2.10.1 leaves s unset on success; the
 * standard sets it to 0. */
void __real__gfortran_caf_sync_memory(int *, char *, size_t) __attribute__((weak));
void __wrap__gfortran_caf_sync_memory(int *stat, char *errmsg, size_t errmsg_len) {
  if (stat) *stat = 0;
  if (__real__gfortran_caf_sync_memory) __real__gfortran_caf_sync_memory(stat, errmsg, errmsg_len);
  else xmpc_caf_sync_memory(stat, errmsg, errmsg_len);
}

/* A task body that uses coarrays calls this first (backends/src/fortran/mod.rs): with
 * xmpc's libcaf its images are the task's nodes; with another libcaf (OpenCoarrays,
 * whose register is then the __real_ one) they would be the whole program's, a wrong
 * answer or a hang. The driver refuses that link; this stops a program linked by hand.
 * mark: 'xmpc-own-libcaf:XMP0450:FILE:LINE:COL;' */
#include <stdio.h>
#include <mpi.h>
/* runtime/lib/xmp/src/err.rs: MPI_Abort once the launcher can have forwarded stderr */
void xmpc_rt_abort(int code) __attribute__((noreturn));
void xmpf_caf_in_task_(const char *mark, size_t len) {
  if (!__real__gfortran_caf_register) return;
  const char *p = memchr(mark, ':', len);
  p = p ? memchr(p + 1, ':', len - (size_t)(p + 1 - mark)) : NULL;
  size_t off = p ? (size_t)(p + 1 - mark) : 0;
  int n = (int)(len - off);
  if (n > 0 && mark[len - 1] == ';') n--;
  fprintf(stderr, "%.*s: error[XMP0450]: coarray feature inside a `task` body, but the program is linked with another libcaf than xmpc's (OpenCoarrays): its images are not the task's nodes; relink with xmpc (XMPC_CAF unset)\n", n,
          mark + off);
  fflush(stderr);
  xmpc_rt_abort(1);
}

/* A coarray local_alias of an aligned array (backends/src/fortran/local_alias.rs): the
 * next coarray allocated is the array's local block (`bytes` bytes at `addr`). Only
 * xmpc's libcaf can do it (the translator refuses it for another libcaf). */
void xmpc_caf_adopt(void *addr, size_t bytes);
void xmpf_caf_adopt_(void *addr, const long long *bytes) {
  if (__real__gfortran_caf_register) {
    fprintf(stderr, "error[XMP0450]: a coarray local_alias needs xmpc's libcaf, but the program is linked with another (OpenCoarrays)\n");
    fflush(stderr);
    xmpc_rt_abort(1);
  }
  xmpc_caf_adopt(addr, (size_t)*bytes);
}
