/* XcalableMP local view in C (coarrays, sync, lock/unlock, post/wait, atomics) over
 * MPI-3 one-sided communication: the user API of XMP/C 1.4 (also reached through
 * <xmp.h>) and the ABI the translator's coarray lowering calls
 * (backends/src/c/coarray.rs). Implemented in runtime/lib/xmp/csrc/coarray.c, part of
 * libxmpc_rt.a. See docs/local-view.md.
 *
 * Images: image numbers given to xmpc_co_* are 0-based and count the executing
 * nodes (inside a task, the task's nodes), as xmpc_this_image() does. Coarrays are
 * registered collectively over all processes; a coarray is found from any address
 * inside it, so a section is named by the local address of its first element. */
#ifndef XMPC_COARRAY_H
#define XMPC_COARRAY_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* A lock variable: declare it as a coarray (`xmp_lock_t l:[*];`), zero = free. */
typedef struct xmp_lock { long _owner; } xmp_lock_t;

/* ---- user API (XMP/C 1.4 local-view library; `status` may be NULL) ---- */
void xmp_sync_all(int *status);
void xmp_sync_memory(int *status);
void xmp_sync_images(int num, int *image_set, int *status); /* 0-based images */
void xmp_sync_images_all(int *status);
void xmp_sync_image(int image, int *status);                 /* 0-based image */
int xmpc_this_image(void);   /* 0-based */
int xmp_this_image(void);    /* 1-based */
int xmp_num_images(void);

/* ---- translator ABI ---- */
/* Registers [base, base+bytes) as a coarray: collective over all processes, in the
 * same order on each (called from the per-file init). */
void xmpc_co_register(void *base, size_t bytes);
/* An allocated coarray of `bytes` (same on every process), zeroed: MPI_Win_allocate.
 * Collective over all processes; xmpc_co_dealloc frees it (collective). */
void *xmpc_co_alloc(size_t bytes);
void xmpc_co_dealloc(void *base);
/* A section: `nd` dimensions (0 = one element), per dim the element count and the
 * distance in bytes between consecutive elements. `elem` bytes per element. */
typedef struct xmpc_co_sec {
  int nd;
  size_t elem;
  long cnt[8];
  long str[8];
} xmpc_co_sec;
/* dst[...]:[image] = src[...] ; dst lies in a coarray (this image's address). The
 * source has as many elements as the target, or one (broadcast). */
void xmpc_co_put(const char *file, int line, int image, void *dst, const xmpc_co_sec *ds,
                 const void *src, const xmpc_co_sec *ss);
/* dst[...] = src[...]:[image] ; src lies in a coarray. */
void xmpc_co_get(const char *file, int line, int image, void *dst, const xmpc_co_sec *ds,
                 const void *src, const xmpc_co_sec *ss);
/* The image number of cosubscripts (first cosubscript fastest): `n` codims, sizes of
 * the first n-1, the n cosubscripts. Checked against the number of images. */
int xmpc_co_image(const char *file, int line, int n, const long *cosize, const long *cosub);
/* `#pragma xmp lock/unlock(l:[image])` on an xmp_lock_t coarray element. */
void xmpc_co_lock(const char *file, int line, xmp_lock_t *l, int image);
void xmpc_co_unlock(const char *file, int line, xmp_lock_t *l, int image);
/* `#pragma xmp post(p[k], tag)` / `wait(p[k], tag)` / `wait(p[k])` / `wait`:
 * `world` = the world rank of node p[k] (xmpc_nodes_world_rank), -1 = any node;
 * has_tag 0 = any tag. */
void xmpc_co_post(const char *file, int line, int world, int tag);
void xmpc_co_wait(const char *file, int line, int world, int has_tag, int tag);
/* xmp_atomic_define(a:[image], v) / xmp_atomic_ref(&v, a:[image]) on an int coarray
 * element; image -1 = this image. */
void xmpc_co_atomic_define(const char *file, int line, int *a, int image, int v);
void xmpc_co_atomic_ref(const char *file, int line, int *v, int *a, int image);

#ifdef __cplusplus
}
#endif
#endif /* XMPC_COARRAY_H */
