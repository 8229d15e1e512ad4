! Himeno benchmark, hand-written MPI Fortran: the baseline for the XMP Fortran
! versions, the twin of himeno_mpi.c (sizes: himeno_f.h; arrays p(i, j, k), i
! contiguous). A PK x PJ process grid over the k and j dimensions (i stays whole and
! contiguous). Each process holds its block plus one halo layer in j and k, in
! global indices: p(MIMAX, j0-1:j1+1, k0-1:k1+1). Halo exchange with MPI_Sendrecv:
! j halos first (an MPI_Type_vector of i-runs, no packing loop) over the owned k
! range, then k halos (contiguous planes that include the j halos, which fills the
! corners the diagonal terms need).
!   compile: mpif90 -O2 [-DSIZE_MIDDLE] -I. himeno_mpi.F90 -o himeno_mpi_f
!   usage:   mpiexec -n P himeno_mpi_f [NN PJ]   (default 100 iterations, PJ = 1)
!   PJ = 1: planes along k only (himeno_xmp_1d); PJ = P: j only (all halos strided).
! Prints the same lines as himeno_seq.F90; `halo` is the time of the halo exchange.
! Written as an expert would (issue 22: the first version, 14 allocatables, took
! 2.5-2.9x the sequential time on one process): the arrays share one pool, each
! starting 80 reals (320 bytes, 5 cache lines) further modulo 4 KiB than the one
! before, so the stencil's 22 streams do not fall into one L1 set (separate
! allocates are page-aligned mmaps: every array at the same address modulo 4 KiB);
! the sweep is a subroutine of explicit-shape dummies (which Fortran lets the
! compiler take as distinct), as the sequential program's static arrays are.
#include "himeno_f.h"
program himeno_mpi
  use mpi
  implicit none
  integer, parameter :: mimax = MIMAX, mjmax = MJMAX, mkmax = MKMAX
  integer, parameter :: imax = mimax - 1, jmax = mjmax - 1, kmax = mkmax - 1
  integer, parameter :: P = 1, BND = 2, WRK1 = 3, WRK2 = 4, A0 = 5, A1 = 6, A2 = 7, A3 = 8, &
    B0 = 9, B1 = 10, B2 = 11, C0 = 12, C1 = 13, C2 = 14, NARR = 14
  real, allocatable :: mem(:)
  integer(8) :: o(NARR), sz, stride
  integer :: nn, pj, pk, np, rank, ierr, cart, jplane, plane, q
  integer :: dims(2), coords(2), up, down, left, right, j0, j1, lnj, k0, k1, lnk
  integer :: jlo, jhi, klo, khi, n
  logical :: periods(2) = .false.
  real :: gosa, lgosa
  real(8) :: t0, t1, th, halo, sum, gsum, ghalo
  real(8) :: cpu0, cpu1
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  nn = iarg(1, 100)
  pj = iarg(2, 1)
  if (pj < 1 .or. mod(np, pj) /= 0) then
    write (0, '(a,i0,a,i0,a)') 'himeno_mpi_f: PJ=', pj, ' does not divide ', np, ' processes'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  pk = np / pj
  dims = [pk, pj]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Comm_rank(cart, rank, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_shift(cart, 0, 1, up, down, ierr)
  call MPI_Cart_shift(cart, 1, 1, left, right, ierr)
  call split(mkmax, pk, coords(1), k0, lnk)
  call split(mjmax, pj, coords(2), j0, lnj)
  k1 = k0 + lnk - 1
  j1 = j0 + lnj - 1
  ! each array is (mimax, j0-1:j1+1, k0-1:k1+1), at mem(o(q)); o(q+1) - o(q) is sz
  ! rounded up to 4 KiB plus 320 bytes
  sz = int(mimax, 8) * (lnj + 2) * (lnk + 2)
  stride = (sz + 1023) / 1024 * 1024 + 80
  allocate (mem(NARR * stride))
  call advise_huge(mem(1), 4 * NARR * stride)
  do q = 1, NARR
    o(q) = (q - 1) * stride + 1
  end do
  mem = 0
  ! lnk runs of mimax: a j layer over the owned k range
  call MPI_Type_vector(lnk, mimax, mimax * (lnj + 2), MPI_REAL, jplane, ierr)
  call MPI_Type_commit(jplane, ierr)
  plane = mimax * (lnj + 2)
  call init(mem(o(P)), mem(o(BND)), mem(o(A0)), mem(o(A1)), mem(o(A2)), mem(o(A3)), mem(o(B0)), mem(o(B1)), &
    mem(o(B2)), mem(o(C0)), mem(o(C1)), mem(o(C2)))
  klo = max(k0, 2)
  khi = min(k1, kmax - 1)
  jlo = max(j0, 2)
  jhi = min(j1, jmax - 1)
  gosa = 0
  halo = 0
  call MPI_Barrier(cart, ierr)
  t0 = MPI_Wtime()
  call cpu_time(cpu0)
  do n = 1, nn
    th = MPI_Wtime()
    if (pj > 1) then
      call MPI_Sendrecv(mem(at(1, j0, k0)), 1, jplane, left, 0, mem(at(1, j1 + 1, k0)), 1, jplane, right, 0, cart, &
        MPI_STATUS_IGNORE, ierr)
      call MPI_Sendrecv(mem(at(1, j1, k0)), 1, jplane, right, 1, mem(at(1, j0 - 1, k0)), 1, jplane, left, 1, cart, &
        MPI_STATUS_IGNORE, ierr)
    end if
    call MPI_Sendrecv(mem(at(1, j0 - 1, k0)), plane, MPI_REAL, up, 2, mem(at(1, j0 - 1, k1 + 1)), plane, MPI_REAL, &
      down, 2, cart, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(mem(at(1, j0 - 1, k1)), plane, MPI_REAL, down, 3, mem(at(1, j0 - 1, k0 - 1)), plane, MPI_REAL, &
      up, 3, cart, MPI_STATUS_IGNORE, ierr)
    halo = halo + (MPI_Wtime() - th)
    call jacobi(mem(o(P)), mem(o(A0)), mem(o(A1)), mem(o(A2)), mem(o(A3)), mem(o(B0)), mem(o(B1)), mem(o(B2)), &
      mem(o(C0)), mem(o(C1)), mem(o(C2)), mem(o(WRK1)), mem(o(WRK2)), mem(o(BND)), lgosa)
    call MPI_Allreduce(lgosa, gosa, 1, MPI_REAL, MPI_SUM, cart, ierr)
  end do
  call MPI_Barrier(cart, ierr)
  t1 = MPI_Wtime()
  call cpu_time(cpu1)
  sum = total(mem(o(P)))
  call MPI_Reduce(sum, gsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, cart, ierr)
  call MPI_Reduce(halo, ghalo, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, cart, ierr)
  if (rank == 0) then
    write (*, '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0)') 'himeno mpi-f ', mimax, 'x', mjmax, 'x', mkmax, ' iter ', nn, &
      ' procs ', np, ' pj ', pj
    call put('time', '(f20.6)', t1 - t0)
    call put('cpu', '(f20.6)', cpu1 - cpu0)
    call put('halo', '(f20.6)', ghalo)
    call put('gosa', '(es16.9)', dble(gosa))
    call put('checksum', '(es16.9)', gsum)
    call put('mflops', '(f20.1)', 34.0d0 * (imax - 2) * (jmax - 2) * (kmax - 2) * nn / (t1 - t0) * 1d-6)
  end if
  call MPI_Type_free(jplane, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Finalize(ierr)
contains
  ! index in mem of p(i, j, k)
  integer(8) function at(i, j, k)
    integer, intent(in) :: i, j, k
    at = o(P) + (i - 1) + int(mimax, 8) * ((j - (j0 - 1)) + int(lnj + 2, 8) * (k - (k0 - 1)))
  end function at

  subroutine init(p, bnd, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2)
    real, dimension(mimax, j0 - 1:j1 + 1, k0 - 1:k1 + 1) :: p, bnd, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2
    integer :: i, j, k
    do k = k0, k1
      do j = j0, j1
        do i = 1, mimax
          a0(i, j, k) = 1.0
          a1(i, j, k) = 1.0
          a2(i, j, k) = 1.0
          a3(i, j, k) = 1.0 / 6.0
          b0(i, j, k) = 0.0
          b1(i, j, k) = 0.0
          b2(i, j, k) = 0.0
          c0(i, j, k) = 1.0
          c1(i, j, k) = 1.0
          c2(i, j, k) = 1.0
          p(i, j, k) = real((k - 1) * (k - 1)) / real((kmax - 1) * (kmax - 1))
          bnd(i, j, k) = 1.0
        end do
      end do
    end do
  end subroutine init

  ! one Jacobi sweep over the owned interior; g: local sum of squared residuals
  subroutine jacobi(p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, wrk2, bnd, g)
    real, dimension(mimax, j0 - 1:j1 + 1, k0 - 1:k1 + 1) :: p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, wrk2, bnd
    real, intent(out) :: g
    real, parameter :: omega = 0.8
    real :: s0, ss
    integer :: i, j, k
    g = 0
    do k = klo, khi
      do j = jlo, jhi
        do i = 2, imax - 1
          s0 = a0(i, j, k) * p(i + 1, j, k) + a1(i, j, k) * p(i, j + 1, k) + a2(i, j, k) * p(i, j, k + 1) &
             + b0(i, j, k) * (p(i + 1, j + 1, k) - p(i + 1, j - 1, k) - p(i - 1, j + 1, k) + p(i - 1, j - 1, k)) &
             + b1(i, j, k) * (p(i, j + 1, k + 1) - p(i, j - 1, k + 1) - p(i, j + 1, k - 1) + p(i, j - 1, k - 1)) &
             + b2(i, j, k) * (p(i + 1, j, k + 1) - p(i - 1, j, k + 1) - p(i + 1, j, k - 1) + p(i - 1, j, k - 1)) &
             + c0(i, j, k) * p(i - 1, j, k) + c1(i, j, k) * p(i, j - 1, k) + c2(i, j, k) * p(i, j, k - 1) &
             + wrk1(i, j, k)
          ss = (s0 * a3(i, j, k) - p(i, j, k)) * bnd(i, j, k)
          g = g + ss * ss
          wrk2(i, j, k) = p(i, j, k) + omega * ss
        end do
      end do
    end do
    do k = klo, khi
      do j = jlo, jhi
        do i = 2, imax - 1
          p(i, j, k) = wrk2(i, j, k)
        end do
      end do
    end do
  end subroutine jacobi

  real(8) function total(p)
    real, dimension(mimax, j0 - 1:j1 + 1, k0 - 1:k1 + 1) :: p
    integer :: i, j, k
    total = 0
    do k = k0, k1
      do j = j0, j1
        do i = 1, mimax
          total = total + p(i, j, k)
        end do
      end do
    end do
  end function total

  ! Huge pages advised on the 2 MiB-aligned interior of the pool before its first
  ! touch (as xmpc's runtime does for its arrays): a stencil streaming many arrays
  ! otherwise takes a TLB miss per 4 KiB page and stream, each a two-level walk
  ! under virtualisation.
  subroutine advise_huge(first, bytes)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_intptr_t, c_size_t, c_int
    real(4), target, intent(in) :: first
    integer(8), intent(in) :: bytes
    interface
      integer(c_int) function madvise(addr, length, advice) bind(C, name='madvise')
        import :: c_intptr_t, c_size_t, c_int
        integer(c_intptr_t), value :: addr
        integer(c_size_t), value :: length
        integer(c_int), value :: advice
      end function madvise
    end interface
    integer(c_intptr_t), parameter :: huge = 2 * 1024 * 1024
    integer(c_int), parameter :: madv_hugepage = 14
    integer(c_intptr_t) :: lo, hi
    integer(c_int) :: rc
    lo = transfer(c_loc(first), lo)
    hi = (lo + bytes) / huge * huge
    lo = (lo + huge - 1) / huge * huge
    if (hi > lo) rc = madvise(lo, int(hi - lo, c_size_t), madv_hugepage)
  end subroutine advise_huge

  ! the XMP block rule: ceil(n/P) per part; 1-based start lo and length len of part r
  subroutine split(n, parts, r, lo, len)
    integer, intent(in) :: n, parts, r
    integer, intent(out) :: lo, len
    integer :: c
    c = (n + parts - 1) / parts
    lo = r * c + 1
    len = max(0, min(c, n - r * c))
  end subroutine split

  integer function iarg(k, def)
    integer, intent(in) :: k, def
    character(32) :: a
    iarg = def
    if (command_argument_count() >= k) then
      call get_command_argument(k, a)
      read (a, *) iarg
    end if
  end function iarg

  subroutine put(key, f, x)
    character(*), intent(in) :: key, f
    real(8), intent(in) :: x
    character(40) :: b
    write (b, f) x
    write (*, '(a,1x,a)') key, trim(adjustl(b))
  end subroutine put
end program himeno_mpi
