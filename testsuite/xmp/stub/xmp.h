/* Minimal stand-in for <xmp.h>, used only to syntax-check the conformance programs
 * with `gcc -fsyntax-only -Itestsuite/xmp/stub` before translation. */
#ifndef XMP_STUB_H
#define XMP_STUB_H
typedef void *xmp_desc_t;
int xmp_node_num(void);
int xmp_num_nodes(void);
int xmp_all_node_num(void);
int xmp_all_num_nodes(void);
double xmp_wtime(void);
double xmp_wtick(void);
void xmp_exit(int);
void *xmp_malloc(xmp_desc_t, ...);
#define xmp_desc_of(x) ((xmp_desc_t)&(x))
int xmp_array_ndims(xmp_desc_t, int *);
int xmp_array_lbound(xmp_desc_t, int, int *);
int xmp_array_ubound(xmp_desc_t, int, int *);
int xmp_template_ndims(xmp_desc_t, int *);
int xmp_template_lbound(xmp_desc_t, int, int *);
int xmp_template_ubound(xmp_desc_t, int, int *);
int xmp_nodes_ndims(xmp_desc_t, int *);
int xmp_nodes_size(xmp_desc_t, int, int *);
#define XMP_NOT_DISTRIBUTED 2100
#define XMP_BLOCK 2101
#define XMP_CYCLIC 2102
#define XMP_GBLOCK 2103
#define XMP_PRIMARY_NODES 2002
#define XMP_EQUIVALENCE_NODES 2003
int xmp_dist_format(xmp_desc_t, int, int *);
int xmp_dist_blocksize(xmp_desc_t, int, int *);
int xmp_dist_axis(xmp_desc_t, int, int *);
int xmp_dist_gblockmap(xmp_desc_t, int, int *);
int xmp_align_axis(xmp_desc_t, int, int *);
int xmp_align_offset(xmp_desc_t, int, int *);
int xmp_align_replicated(xmp_desc_t, int, int *);
int xmp_array_gtol(xmp_desc_t, int, int, int *);
int xmp_nodes_equiv(xmp_desc_t, xmp_desc_t *, int *, int *, int *);
int xmp_nodes_attr(xmp_desc_t, int *);
int xmp_test_async(int);
int xmpc_node_num(void);
void xmp_gather(xmp_desc_t, xmp_desc_t, ...);
void xmp_scatter(xmp_desc_t, xmp_desc_t, ...);
void xmp_matmul(xmp_desc_t, xmp_desc_t, xmp_desc_t);
void xmp_transpose(xmp_desc_t, xmp_desc_t, int);
void xmp_pack(xmp_desc_t, xmp_desc_t, xmp_desc_t);
void xmp_unpack(xmp_desc_t, xmp_desc_t, xmp_desc_t);
void xmp_sort_up(xmp_desc_t, xmp_desc_t);
void xmp_sort_down(xmp_desc_t, xmp_desc_t);
#endif
