! XcalableMP Fortran library (xmpc): `include 'xmp_lib.h'` in a program unit.
      integer xmp_node_num, xmp_num_nodes
      integer xmp_all_node_num, xmp_all_num_nodes
      double precision xmp_wtime, xmp_wtick
      external xmp_node_num, xmp_num_nodes
      external xmp_all_node_num, xmp_all_num_nodes
      external xmp_wtime, xmp_wtick
