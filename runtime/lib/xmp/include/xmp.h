/* XcalableMP user API (what XMP programs `#include <xmp.h>`), implemented by the
 * xmpc runtime (libxmpc_rt.a). Names and signatures follow Omni's xmp.h.
 * Dimension numbers of the inquiry functions are 1-based; they return 0 on success.
 * Node numbers are 1-based (xmp_node_num() counts the executing nodes: inside a
 * task, the task's nodes). */
#ifndef XMP_H
#define XMP_H
#include <stddef.h>
/* The local view (coarrays, sync_all, lock, post/wait, atomics). */
#include "xmpc_coarray.h"

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
/* Format codes (Omni's values); cyclic(w) answers XMP_CYCLIC. */
#define XMP_NOT_DISTRIBUTED 2100
#define XMP_BLOCK 2101
#define XMP_CYCLIC 2102
#define XMP_GBLOCK 2103
int xmp_dist_format(xmp_desc_t d, int dim, int *format);
int xmp_dist_blocksize(xmp_desc_t d, int dim, int *blocksize);
int xmp_dist_nodes(xmp_desc_t d, xmp_desc_t *dn);
int xmp_nodes_ndims(xmp_desc_t d, int *ndims);
int xmp_nodes_index(xmp_desc_t d, int dim, int *index);
int xmp_nodes_size(xmp_desc_t d, int dim, int *size);
int xmp_nodes_rank(xmp_desc_t d, int *rank);

/* Mapping inquiry (XMP 1.4 library chapter). Array dims in the array's order,
 * template and node dims in round order (the reverse of the square brackets). */
int xmp_align_axis(xmp_desc_t d, int dim, int *axis);
int xmp_align_offset(xmp_desc_t d, int dim, int *offset);
int xmp_align_replicated(xmp_desc_t d, int dim, int *replicated);
/* Local index (in the allocated block, shadow included) of a global index. */
int xmp_array_gtol(xmp_desc_t d, int dim, int g_idx, int *l_idx);
int xmp_dist_axis(xmp_desc_t d, int dim, int *axis);
int xmp_dist_gblockmap(xmp_desc_t d, int dim, int *map);
/* q = p(...): p and, per p dim, the 1-based lower/upper/stride selected. */
int xmp_nodes_equiv(xmp_desc_t d, xmp_desc_t *dn, int lb[], int ub[], int st[]);
#define XMP_ENTIRE_NODES 2000
#define XMP_EXECUTING_NODES 2001
#define XMP_PRIMARY_NODES 2002
#define XMP_EQUIVALENCE_NODES 2003
int xmp_nodes_attr(xmp_desc_t d, int *attr);
/* 1 once async communication `async_id` is complete (completes it if needed). */
int xmp_test_async(int async_id);
/* Omni's C extension: the 0-based node number among the executing nodes. */
int xmpc_node_num(void);

/* Intrinsic procedures on distributed arrays (arguments: xmp_desc_of(array)).
 * Collective over the executing nodes; 0-based indices; row-major element order. */
/* x[i] = a[idx_1[i], ..., idx_n[i]] (n = rank of a; x, idx_k of one shape) */
void xmp_gather(xmp_desc_t x, xmp_desc_t a, ...);
/* x[idx_1[i], ..., idx_n[i]] = a[i] (n = rank of x; a, idx_k of one shape) */
void xmp_scatter(xmp_desc_t x, xmp_desc_t a, ...);
/* x = a . b (rank 2) */
void xmp_matmul(xmp_desc_t x, xmp_desc_t a, xmp_desc_t b);
/* b[i][j] = a[j][i]; opt does not change the result */
void xmp_transpose(xmp_desc_t b, xmp_desc_t a, int opt);
/* v[k] = the k-th element of a whose mask element is non-zero */
void xmp_pack(xmp_desc_t v, xmp_desc_t a, xmp_desc_t mask);
/* the k-th element of a whose mask element is non-zero = v[k] */
void xmp_unpack(xmp_desc_t a, xmp_desc_t v, xmp_desc_t mask);
/* b = the elements of a (rank 1) in ascending / descending order */
void xmp_sort_up(xmp_desc_t a, xmp_desc_t b);
void xmp_sort_down(xmp_desc_t a, xmp_desc_t b);

/* MPI interface. xmp_finalize releases the runtime's MPI objects but leaves MPI up
 * (an MPI main calls MPI_Finalize after it); xmp_finalize_mpi finalizes MPI. */
void xmp_finalize(void);
void xmp_finalize_mpi(void);
void xmp_init_mpi(int *argc, char ***argv);
#if !defined(MPI_VERSION) && defined(__has_include)
#if __has_include(<mpi.h>)
#include <mpi.h>
#endif
#endif
#ifdef MPI_VERSION
/* An MPI main calling XMP code: MPI_Init, then xmp_init(MPI_COMM_WORLD). */
void xmp_init(MPI_Comm comm);
/* The communicator of the executing nodes (inside a task: the task's nodes). */
MPI_Comm xmp_get_mpi_comm(void);
#endif

#ifdef __cplusplus
}
#endif
#endif /* XMP_H */
