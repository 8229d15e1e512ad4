! XcalableMP Fortran library (xmpc): `include 'xmp_lib.h'` in a program unit.
! Valid in free and fixed form. Descriptors: type(xmp_desc), from xmp_desc_of(x)
! of a node set, template or aligned array (the translator gives it) or from the
! inquiry routines. Inquiry routines return 0 on success; array dims are Fortran's,
! template/node dims as declared. The translator also types these functions where
! this file is not included (docs/fortran.md, "The XMP library").
      type xmp_desc
        sequence
        integer(8) :: desc
      end type xmp_desc
      integer xmp_node_num, xmp_num_nodes
      integer xmp_all_node_num, xmp_all_num_nodes
      double precision xmp_wtime, xmp_wtick
      external xmp_node_num, xmp_num_nodes
      external xmp_all_node_num, xmp_all_num_nodes
      external xmp_wtime, xmp_wtick
      type(xmp_desc) xmp_desc_of
      external xmp_desc_of
      integer xmp_get_mpi_comm, xmp_test_async
      external xmp_get_mpi_comm, xmp_test_async
      integer xmp_array_ndims, xmp_array_lbound, xmp_array_ubound
      integer xmp_array_lsize, xmp_array_lshadow, xmp_array_ushadow
      integer xmp_array_lead_dim, xmp_array_gtol
      external xmp_array_ndims, xmp_array_lbound, xmp_array_ubound
      external xmp_array_lsize, xmp_array_lshadow, xmp_array_ushadow
      external xmp_array_lead_dim, xmp_array_gtol
      integer xmp_align_axis, xmp_align_offset, xmp_align_replicated
      integer xmp_align_template
      external xmp_align_axis, xmp_align_offset, xmp_align_replicated
      external xmp_align_template
      integer xmp_template_fixed, xmp_template_ndims
      integer xmp_template_lbound, xmp_template_ubound
      external xmp_template_fixed, xmp_template_ndims
      external xmp_template_lbound, xmp_template_ubound
      integer xmp_dist_format, xmp_dist_blocksize, xmp_dist_gblockmap
      integer xmp_dist_nodes, xmp_dist_axis
      external xmp_dist_format, xmp_dist_blocksize, xmp_dist_gblockmap
      external xmp_dist_nodes, xmp_dist_axis
      integer xmp_nodes_ndims, xmp_nodes_index, xmp_nodes_size
      integer xmp_nodes_rank, xmp_nodes_equiv, xmp_nodes_attr
      external xmp_nodes_ndims, xmp_nodes_index, xmp_nodes_size
      external xmp_nodes_rank, xmp_nodes_equiv, xmp_nodes_attr
      integer XMP_NOT_DISTRIBUTED, XMP_BLOCK, XMP_CYCLIC, XMP_GBLOCK
      parameter (XMP_NOT_DISTRIBUTED = 2100, XMP_BLOCK = 2101)
      parameter (XMP_CYCLIC = 2102, XMP_GBLOCK = 2103)
      integer XMP_ENTIRE_NODES, XMP_EXECUTING_NODES
      integer XMP_PRIMARY_NODES, XMP_EQUIVALENCE_NODES
      parameter (XMP_ENTIRE_NODES = 2000, XMP_EXECUTING_NODES = 2001)
      parameter (XMP_PRIMARY_NODES = 2002)
      parameter (XMP_EQUIVALENCE_NODES = 2003)
! subroutines: xmp_gather, xmp_scatter, xmp_pack, xmp_unpack,
! xmp_transpose, xmp_matmul, xmp_sort_up, xmp_sort_down, xmp_exit
      external xmp_gather, xmp_scatter, xmp_pack, xmp_unpack
      external xmp_transpose, xmp_matmul, xmp_sort_up, xmp_sort_down
      external xmp_exit
