/* XMP-dev work-sharing runtime (runtime/lib/workshare, linked into libxmpc_rt.a):
 * the calls xmpc generates for `#pragma xmp device ...`, and the inquiry functions.
 * Hand-written; the Rust side is runtime/lib/workshare/src/ffi.rs. See docs/xmp-dev.md. */
#ifndef XMPC_DEV_H
#define XMPC_DEV_H
#include <stddef.h>
#include "xmpc_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define XMPC_DEV_SYNC_IN 600  /* local -> replicated (and the GPU), as Omni's _XMP_N_GPUSYNC_IN */
#define XMPC_DEV_SYNC_OUT 601 /* replicated (and the GPU) -> local */

/* A task body: iterations lo..=hi; `red` holds the task's reduction slots (8 bytes each). */
typedef void (*xmpc_dev_task_fn)(long lo, long hi, void *args, void *red);

typedef struct xmpc_dev_loop_desc {
    const char *name;      /* "file:line" of the directive: one weight state per loop */
    long lo, hi;           /* this node's iterations (global indices) */
    xmpc_dev_task_fn cpu;  /* CPU task body */
    xmpc_dev_task_fn gpu;  /* GPU task body (launches the kernel) */
    void *args;            /* the loop's argument struct */
    int nred;              /* reductions: op 0 sum, 1 prod, 2 max, 3 min; */
    const int *red_ops;    /*   type 0 double, 1 float, 2 int, 3 long */
    const int *red_types;
    void *red_out;         /* nred slots of 8 bytes: the result over all tasks */
    double bytes_per_iter; /* bytes of the replicated arrays one iteration touches */
    int nwrite;            /* replicated arrays the loop writes, by rows: */
    void *const *wrep;     /*   the replicated copy */
    const long *woff;      /*   global index of its row 0 */
    const long *wrow;      /*   bytes per row */
} xmpc_dev_loop_desc;

void *xmpc_dev_replicate(const xmpc_loc *loc, void *local, size_t bytes);
void xmpc_dev_replicate_end(const xmpc_loc *loc, void *rep);
void xmpc_dev_sync(const xmpc_loc *loc, void *rep, int dir);
void xmpc_dev_loop(const xmpc_loc *loc, const xmpc_dev_loop_desc *d);
void xmpc_dev_reset_weight(const xmpc_loc *loc, double w);
void xmpc_dev_reset_weight_auto(const xmpc_loc *loc);
/* inside a GPU task body */
unsigned long long xmpc_dev_ptr(const xmpc_loc *loc, void *rep);
unsigned long long xmpc_dev_red_begin(const xmpc_loc *loc, void *red, int nred);
void xmpc_dev_red_end(const xmpc_loc *loc, void *red, int nred, unsigned long long dred);
void xmpc_dev_launch(const xmpc_loc *loc, const char *kernel, long n, void **params, int nparams);
void xmpc_dev_register_fatbin(const xmpc_loc *loc, const void *image);
/* inquiry: the last device loop's CPU part and GPU part times (s), its weight, the
 * cost of the last re-split (s) */
double xmp_cpu_wtime(void);
double xmp_gpu_wtime(void);
double xmpc_dev_weight(void);
double xmpc_dev_resplit_cost(void);

static inline long xmpc_dev_dim_alloc(const xmpc_array *a, int d)
{
    xmpc_dim m;
    xmpc_array_dim(a, d, &m);
    return m.alloc;
}

#ifdef __cplusplus
}
#endif
#endif
