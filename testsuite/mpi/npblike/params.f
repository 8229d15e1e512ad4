c     NPB-like Fortran program for the skeleton wrappers (tests/skeleton_cli.rs):
c     an include file with mpif.h and a COMMON block (2), a subroutine with a
c     COMMON block of its own (3), parameters broadcast from rank 0 that decide
c     the loop and the message size (5), a kept hot loop (1), a routine of
c     another file that communicates (report.f). Prints CHECK OK on every rank
c     and rank 0 the sum of N over the ranks.
      program params
      include 'params.h'
      integer n, iters, it, ierr
      logical ok
      call mpi_init(ierr)
      call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
      call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
      n = 0
      iters = 0
      if (me .eq. 0) then
         n = 500
         iters = 3
      endif
      call mpi_bcast(n, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      call mpi_bcast(iters, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      ok = .true.
      do it = 1, iters
         call exchange(n, it, ok)
      enddo
      call report(n)
      if (ok) then
         write (*, '(a,i4,a)') ' rank', me, ' CHECK OK'
      else
         write (*, '(a,i4,a)') ' rank', me, ' CHECK FAILED'
      endif
      call mpi_finalize(ierr)
      end

      subroutine exchange(n, it, ok)
      include 'params.h'
      integer n, it, i, right, left, ierr
      integer*8 h, k
      logical ok
      double precision x(1000), y(1000)
      integer calls
      common /counts/ calls
      integer status(MPI_STATUS_SIZE)
      h = 0
      do k = 1, n * 2000
         h = mod(h * 31 + k, 1000003)
      enddo
      right = mod(me + 1 + np * int(mod(h, 2_8)), np)
      left = mod(me + np - 1, np)
      do i = 1, n
         x(i) = me + it + i
      enddo
      calls = calls + 1
      call mpi_sendrecv(x, n, MPI_DOUBLE_PRECISION, right, 0,
     >                  y, n, MPI_DOUBLE_PRECISION, left, 0,
     >                  MPI_COMM_WORLD, status, ierr)
      ok = ok .and. y(1) .eq. left + it + 1
     >        .and. y(n) .eq. left + it + n
     >        .and. calls .eq. it
      end
