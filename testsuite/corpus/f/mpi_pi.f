c     Plain MPI in fixed form (include 'mpif.h'): computes pi by the
c     midpoint rule, each rank a strided share, then reduce and bcast.
c
c     xmpc-test: np=4
      program mpipi
      implicit none
      include 'mpif.h'
      integer ierr, rank, nprocs, i, n
      double precision h, x, sum, mypi, pi, pi25dt
      parameter (pi25dt = 3.141592653589793238462643d0)
      call mpi_init(ierr)
      call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
      call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
      if (rank .eq. 0) n = 100000
      call mpi_bcast(n, 1, MPI_INTEGER, 0,
     &               MPI_COMM_WORLD, ierr)
      h = 1.0d0 / n
      sum = 0.0d0
      do 20 i = rank + 1, n, nprocs
         x = h * (dble(i) - 0.5d0)
         sum = sum + 4.0d0 / (1.0d0 + x * x)
   20 continue
      mypi = h * sum
      call mpi_reduce(mypi, pi, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &                MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) then
         if (abs(pi - pi25dt) .gt. 1.0d-8) then
            write(*, *) 'FAIL', pi
            call mpi_abort(MPI_COMM_WORLD, 1, ierr)
         endif
         write(*, *) 'PASS'
      endif
      call mpi_finalize(ierr)
      end
