c     Another file of params.f: a routine that communicates, called from a
c     file that cannot see it (a skeleton must keep the call, not comment it
c     out inside a compute block: NPB LU's `call ssor(itmax)`).
      subroutine report(n)
      include 'params.h'
      integer n, total, ierr
      call mpi_allreduce(n, total, 1, MPI_INTEGER, MPI_SUM,
     >                   MPI_COMM_WORLD, ierr)
      if (me .eq. 0) write (*, '(a,i8)') ' SUM', total
      end
