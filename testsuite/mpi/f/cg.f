c     CG-like solver (fixed form): conjugate gradients on
c     tridiag(-1,2,-1) of order n, rows split over the ranks; one halo
c     exchange of p (MPI_Sendrecv) and two dot products (MPI_Allreduce)
c     per iteration, a fixed number of iterations. Self-check: rank 0
c     reruns the iterations serially.
c     Usage: cg [n [iters]]
      program cg
      implicit none
      include 'mpif.h'
      integer nmax
      parameter (nmax = 2000000)
      double precision x(0:nmax+1), r(0:nmax+1), p(0:nmax+1)
      double precision q(0:nmax+1)
      double precision rho, rhoold, pq, alpha, local, ref
      double precision t0, t1, tc0, tcomp
      integer n, iters, rank, nprocs, m, first, left, right, it, i
      integer ierr
      character*32 arg

      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
      n = 1000
      iters = 50
      if (command_argument_count() .ge. 1) then
         call get_command_argument(1, arg)
         read (arg, *) n
      end if
      if (command_argument_count() .ge. 2) then
         call get_command_argument(2, arg)
         read (arg, *) iters
      end if
      left = rank - 1
      if (rank .eq. 0) left = MPI_PROC_NULL
      right = rank + 1
      if (rank .eq. nprocs - 1) right = MPI_PROC_NULL
      tcomp = 0

      m = n / nprocs
      if (rank .lt. mod(n, nprocs)) m = m + 1
      first = rank * (n / nprocs) + min(rank, mod(n, nprocs))
      local = 0
      do 10 i = 0, m + 1
         x(i) = 0
         r(i) = 0
         p(i) = 0
         q(i) = 0
   10 continue
      do 20 i = 1, m
         r(i) = 1 + dble(mod(first + i, 7)) / 7
         p(i) = r(i)
         local = local + r(i) * r(i)
   20 continue
      call MPI_ALLREDUCE(local, rho, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &     MPI_COMM_WORLD, ierr)

      call MPI_BARRIER(MPI_COMM_WORLD, ierr)
      t0 = MPI_WTIME()
      do 100 it = 1, iters
         call MPI_SENDRECV(p(m), 1, MPI_DOUBLE_PRECISION, right, 0,
     &        p(0), 1, MPI_DOUBLE_PRECISION, left, 0, MPI_COMM_WORLD,
     &        MPI_STATUS_IGNORE, ierr)
         call MPI_SENDRECV(p(1), 1, MPI_DOUBLE_PRECISION, left, 1,
     &        p(m + 1), 1, MPI_DOUBLE_PRECISION, right, 1,
     &        MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
         tc0 = MPI_WTIME()
         local = 0
         do 30 i = 1, m
            q(i) = 2 * p(i) - p(i - 1) - p(i + 1)
            local = local + p(i) * q(i)
   30    continue
         tcomp = tcomp + (MPI_WTIME() - tc0)
         call MPI_ALLREDUCE(local, pq, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &        MPI_COMM_WORLD, ierr)
         tc0 = MPI_WTIME()
         alpha = rho / pq
         rhoold = rho
         local = 0
         do 40 i = 1, m
            x(i) = x(i) + alpha * p(i)
            r(i) = r(i) - alpha * q(i)
            local = local + r(i) * r(i)
   40    continue
         tcomp = tcomp + (MPI_WTIME() - tc0)
         call MPI_ALLREDUCE(local, rho, 1, MPI_DOUBLE_PRECISION,
     &        MPI_SUM, MPI_COMM_WORLD, ierr)
         tc0 = MPI_WTIME()
         do 50 i = 1, m
            p(i) = r(i) + rho / rhoold * p(i)
   50    continue
         tcomp = tcomp + (MPI_WTIME() - tc0)
  100 continue
      call MPI_BARRIER(MPI_COMM_WORLD, ierr)
      t1 = MPI_WTIME()
      if (rank .eq. 0) then
         call serial(n, iters, ref)
         write (*, '(a,i0,a,i0,a,i0,a,es20.12,a,es20.12)') 'cg n=', n,
     &        ' iters=', iters, ' np=', nprocs, ' rho=', rho,
     &        ' serial=', ref
         if (abs(rho - ref) .le. 1d-8 * abs(ref)) then
            write (*, '(a)') 'CHECK OK'
         else
            write (*, '(a)') 'CHECK FAILED'
         end if
      end if
c$bsim keep
      if (rank .eq. 0) write (*, '(a,f12.6,a,f12.6)') 'time_s=',
     &     t1 - t0, ' compute_s=', tcomp
      call MPI_FINALIZE(ierr)
      end

c     Serial CG of the same system: the reference.
      subroutine serial(n, iters, rho)
      implicit none
      integer, intent(in) :: n, iters
      integer i, it
      double precision rho, rhoold, pq, alpha
      double precision x(0:n+1), r(0:n+1), p(0:n+1), q(0:n+1)
      rho = 0
      do 10 i = 0, n + 1
         x(i) = 0
         r(i) = 0
         p(i) = 0
         q(i) = 0
   10 continue
      do 20 i = 1, n
         r(i) = 1 + dble(mod(i, 7)) / 7
         p(i) = r(i)
         rho = rho + r(i) * r(i)
   20 continue
      do 100 it = 1, iters
         pq = 0
         do 30 i = 1, n
            q(i) = 2 * p(i) - p(i - 1) - p(i + 1)
            pq = pq + p(i) * q(i)
   30    continue
         alpha = rho / pq
         rhoold = rho
         rho = 0
         do 40 i = 1, n
            x(i) = x(i) + alpha * p(i)
            r(i) = r(i) - alpha * q(i)
            rho = rho + r(i) * r(i)
   40    continue
         do 50 i = 1, n
            p(i) = r(i) + rho / rhoold * p(i)
   50    continue
  100 continue
      end
