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
#endif
