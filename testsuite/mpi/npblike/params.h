c     MPI and the process grid, as NPB's mpinpb.h: an include file that includes
c     mpif.h and declares a COMMON block (causes 2 and 3 of issue 38).
      include 'mpif.h'
      integer me, np
      common /procs/ me, np
