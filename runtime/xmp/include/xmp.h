/* XcalableMP user API (what XMP programs `#include <xmp.h>`), implemented by the
 * xmpc runtime (libxmpc_rt.a). Names and signatures follow Omni's xmp.h.
 * Dimension numbers of the inquiry functions are 1-based; they return 0 on success.
 * Node numbers are 1-based (xmp_node_num() counts the executing nodes: inside a
 * task, the task's nodes). */
#ifndef XMP_H
#define XMP_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An array, template or node set descriptor. */
typedef void *xmp_desc_t;

int xmp_node_num(void);
int xmp_num_nodes(void);
int xmp_all_node_num(void);
int xmp_all_num_nodes(void);
double xmp_wtime(void);
double xmp_wtick(void);
/* XMP-dev: the last device loop's slowest CPU / GPU task time (0 without devices). */
double xmp_cpu_wtime(void);
double xmp_gpu_wtime(void);
/* Finalizes and exits with `status`. */
void xmp_exit(int status) __attribute__((noreturn));

/* The descriptor of the distributed array whose local block starts at `local`
 * (the translator may also rewrite xmp_desc_of(a) to the descriptor directly). */
xmp_desc_t xmp_desc_of(const void *local);
/* Sets the extents of an array aligned through a pointer (`double *a;` + align),
 * allocates its local block (zeroed, 64-byte aligned) and returns it. The sizes
 * are ints, one per array dimension. */
void *xmp_malloc(xmp_desc_t d, ...);

int xmp_array_ndims(xmp_desc_t d, int *ndims);
int xmp_array_lbound(xmp_desc_t d, int dim, int *lbound);
int xmp_array_ubound(xmp_desc_t d, int dim, int *ubound);
size_t xmp_array_type_size(xmp_desc_t d);
int xmp_array_gsize(xmp_desc_t d, int dim);
int xmp_array_lsize(xmp_desc_t d, int dim, int *lsize);
int xmp_array_lshadow(xmp_desc_t d, int dim, int *lshadow);
int xmp_array_ushadow(xmp_desc_t d, int dim, int *ushadow);
int xmp_array_laddr(xmp_desc_t d, void **laddr);
int xmp_array_lead_dim(xmp_desc_t d, int size[]);
int xmp_align_template(xmp_desc_t d, xmp_desc_t *dt);
int xmp_template_fixed(xmp_desc_t d, int *fixed);
int xmp_template_ndims(xmp_desc_t d, int *ndims);
int xmp_template_lbound(xmp_desc_t d, int dim, int *lbound);
int xmp_template_ubound(xmp_desc_t d, int dim, int *ubound);
int xmp_template_gsize(xmp_desc_t d, int dim);
/* Format codes: 0 dup, 1 block, 2 cyclic, 3 gblock (XMPC_DIST_*). */
int xmp_dist_format(xmp_desc_t d, int dim, int *format);
int xmp_dist_blocksize(xmp_desc_t d, int dim, int *blocksize);
int xmp_dist_nodes(xmp_desc_t d, xmp_desc_t *dn);
int xmp_nodes_ndims(xmp_desc_t d, int *ndims);
int xmp_nodes_index(xmp_desc_t d, int dim, int *index);
int xmp_nodes_size(xmp_desc_t d, int dim, int *size);
int xmp_nodes_rank(xmp_desc_t d, int *rank);

#ifdef __cplusplus
}
#endif
#endif /* XMP_H */
