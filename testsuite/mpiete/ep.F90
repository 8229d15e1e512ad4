! EP-like kernel (NPB EP style): each rank draws its share of 2**m pairs of
! uniform numbers from one global linear congruential stream (NPB's randlc,
! jumped ahead to the rank's segment), keeps the pairs inside the unit circle,
! turns them into Gaussian deviates (Marsaglia polar method) and counts them
! in annuli. Sums and counts are combined with MPI_Allreduce.
!
! usage: ep [m] [batches]    (default m = 22, batches = 16)
! Self-check: sum of the annulus counts = accepted pairs; for m <= 20 rank 0
! redoes the whole stream sequentially and must get the same counts; else the
! acceptance ratio must be within 5 sigma of pi/4.
!
! mpiete_region_begin/end mark the predicted region (libxmpc_mpiete; the
! blocks are found and timed by `xmpc --blocks --instrument=...`).
program ep
  use mpi
  implicit none
  integer :: rank, np, ierr, m, nbatch, b, i, l, nargs
  integer(8) :: npairs, mine, first, per, k
  double precision, parameter :: a = 1220703125.0d0, s0 = 271828183.0d0
  double precision :: x, t1, t2, u, v, w, f, sx, sy, gsx, gsy, seed, an
  double precision :: q(0:9), gq(0:9), cq(0:9), s2(2), g2(2)
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  m = 22
  nbatch = 16
  nargs = command_argument_count()
  if (nargs >= 1) then
    call get_command_argument(1, arg)
    read(arg, *) m
  end if
  if (nargs >= 2) then
    call get_command_argument(2, arg)
    read(arg, *) nbatch
  end if
  npairs = 2_8**m
  per = npairs / np
  first = per * rank
  mine = per
  if (rank == np - 1) mine = npairs - first
  ! jump the stream to this rank's first pair: seed * a**(2*first)
  seed = s0
  an = a
  k = 2 * first
  do while (k > 0)
    if (mod(k, 2_8) == 1) x = randlc(seed, an)
    t1 = an
    x = randlc(t1, an)
    an = t1
    k = k / 2
  end do
  sx = 0.0d0
  sy = 0.0d0
  q = 0.0d0
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call mpiete_region_begin()
  do b = 1, nbatch
    do k = (mine * (b - 1)) / nbatch + 1, (mine * b) / nbatch
      u = 2.0d0 * randlc(seed, a) - 1.0d0
      v = 2.0d0 * randlc(seed, a) - 1.0d0
      w = u * u + v * v
      if (w <= 1.0d0 .and. w > 0.0d0) then
        f = sqrt(-2.0d0 * log(w) / w)
        t1 = u * f
        t2 = v * f
        l = int(max(abs(t1), abs(t2)))
        if (l <= 9) q(l) = q(l) + 1.0d0
        sx = sx + t1
        sy = sy + t2
      end if
    end do
  end do
  call MPI_Allreduce(q, gq, 10, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  s2 = (/ sx, sy /)
  call MPI_Allreduce(s2, g2, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  gsx = g2(1)
  gsy = g2(2)
  call mpiete_region_end()

  if (rank == 0) then
    if (m <= 20) then
      ! independent sequential recount of the whole stream
      seed = s0
      cq = 0.0d0
      do k = 1, npairs
        u = 2.0d0 * randlc(seed, a) - 1.0d0
        v = 2.0d0 * randlc(seed, a) - 1.0d0
        w = u * u + v * v
        if (w <= 1.0d0 .and. w > 0.0d0) then
          f = sqrt(-2.0d0 * log(w) / w)
          l = int(max(abs(u * f), abs(v * f)))
          if (l <= 9) cq(l) = cq(l) + 1.0d0
        end if
      end do
      do i = 0, 9
        if (cq(i) /= gq(i)) then
          print '(a,i0,a,f14.0,a,f14.0)', 'EP FAILED: annulus ', i, ': ', gq(i), ' /= ', cq(i)
          call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
        end if
      end do
    else
      x = sum(gq) / dble(npairs)
      if (abs(x - atan(1.0d0)) > 5.0d0 * sqrt(0.25d0 / dble(npairs))) then
        print *, 'EP FAILED: acceptance ratio ', x
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
      end if
    end if
    print '(a,i0,a,i0,a,f12.0,a,es12.4,a,es12.4)', 'EP m=', m, ' np=', np, ' accepted=', sum(gq), &
      ' sx=', gsx, ' sy=', gsy
    print '(a)', 'EP VERIFIED'
  end if
  call MPI_Finalize(ierr)

contains

  ! NPB randlc: x = a * x mod 2**46, returns x / 2**46 (exact in doubles)
  double precision function randlc(x, a)
    double precision, intent(inout) :: x
    double precision, intent(in) :: a
    double precision, parameter :: r23 = 0.5d0**23, r46 = r23 * r23, t23 = 2.0d0**23, t46 = t23 * t23
    double precision :: a1, a2, x1, x2, z, t3, t4, t1
    t1 = r23 * a
    a1 = aint(t1)
    a2 = a - t23 * a1
    t1 = r23 * x
    x1 = aint(t1)
    x2 = x - t23 * x1
    t1 = a1 * x2 + a2 * x1
    t3 = aint(r23 * t1)
    z = t1 - t23 * t3
    t3 = t23 * z + a2 * x2
    t4 = aint(r46 * t3)
    x = t3 - t46 * t4
    randlc = r46 * x
  end function randlc
end program ep
