! Himeno benchmark in XcalableMP Fortran, 1-D decomposition: the k dimension (last,
! slowest: whole i-j planes) is block-distributed; shadow p(0, 0, 1) (contiguous
! planes). The Fortran twin of himeno_xmp_1d.c (sizes: himeno_f.h).
!   compile: xmpc -O2 [-DSIZE_MIDDLE] -I. himeno_xmp_1d.F90 -o himeno_xmp_1d_f
!   usage:   mpiexec -n P himeno_xmp_1d_f [NN]   (iterations, default 100)
! Prints the same lines as himeno_seq.F90; `halo` is the time of the reflects.
#include "himeno_f.h"
program himeno_xmp_1d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: mimax = MIMAX, mjmax = MJMAX, mkmax = MKMAX
  integer, parameter :: imax = mimax - 1, jmax = mjmax - 1, kmax = mkmax - 1
  real, parameter :: omega = 0.8
  real :: p(mimax, mjmax, mkmax), bnd(mimax, mjmax, mkmax), wrk1(mimax, mjmax, mkmax), wrk2(mimax, mjmax, mkmax)
  real :: a0(mimax, mjmax, mkmax), a1(mimax, mjmax, mkmax), a2(mimax, mjmax, mkmax), a3(mimax, mjmax, mkmax)
  real :: b0(mimax, mjmax, mkmax), b1(mimax, mjmax, mkmax), b2(mimax, mjmax, mkmax)
  real :: c0(mimax, mjmax, mkmax), c1(mimax, mjmax, mkmax), c2(mimax, mjmax, mkmax)
!$xmp nodes n(*)
!$xmp template t(mimax, mjmax, mkmax)
!$xmp distribute t(*, *, block) onto n
!$xmp align (i, j, k) with t(i, j, k) :: p, bnd, wrk1, wrk2, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2
!$xmp shadow p(0, 0, 1)
  integer :: nn, n, i, j, k
  real :: gosa, s0, ss
  real(8) :: t0, t1, th, halo, sum
  real(8) :: cpu0, cpu1
  character(32) :: arg
  nn = 100
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) nn
  end if
!$xmp loop (i, j, k) on t(i, j, k)
  do k = 1, mkmax
    do j = 1, mjmax
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
        wrk1(i, j, k) = 0.0
        wrk2(i, j, k) = 0.0
        bnd(i, j, k) = 1.0
      end do
    end do
  end do
  gosa = 0
  halo = 0
!$xmp barrier
  t0 = xmp_wtime()
  call cpu_time(cpu0)
  do n = 1, nn
    th = xmp_wtime()
!$xmp reflect (p)
    halo = halo + (xmp_wtime() - th)
    gosa = 0
!$xmp loop (i, j, k) on t(i, j, k) reduction(+:gosa)
    do k = 2, kmax - 1
      do j = 2, jmax - 1
        do i = 2, imax - 1
          s0 = a0(i, j, k) * p(i + 1, j, k) + a1(i, j, k) * p(i, j + 1, k) + a2(i, j, k) * p(i, j, k + 1) &
             + b0(i, j, k) * (p(i + 1, j + 1, k) - p(i + 1, j - 1, k) - p(i - 1, j + 1, k) + p(i - 1, j - 1, k)) &
             + b1(i, j, k) * (p(i, j + 1, k + 1) - p(i, j - 1, k + 1) - p(i, j + 1, k - 1) + p(i, j - 1, k - 1)) &
             + b2(i, j, k) * (p(i + 1, j, k + 1) - p(i - 1, j, k + 1) - p(i + 1, j, k - 1) + p(i - 1, j, k - 1)) &
             + c0(i, j, k) * p(i - 1, j, k) + c1(i, j, k) * p(i, j - 1, k) + c2(i, j, k) * p(i, j, k - 1) &
             + wrk1(i, j, k)
          ss = (s0 * a3(i, j, k) - p(i, j, k)) * bnd(i, j, k)
          gosa = gosa + ss * ss
          wrk2(i, j, k) = p(i, j, k) + omega * ss
        end do
      end do
    end do
!$xmp loop (i, j, k) on t(i, j, k)
    do k = 2, kmax - 1
      do j = 2, jmax - 1
        do i = 2, imax - 1
          p(i, j, k) = wrk2(i, j, k)
        end do
      end do
    end do
  end do
!$xmp barrier
  t1 = xmp_wtime()
  call cpu_time(cpu1)
  sum = 0
!$xmp loop (i, j, k) on t(i, j, k) reduction(+:sum)
  do k = 1, mkmax
    do j = 1, mjmax
      do i = 1, mimax
        sum = sum + p(i, j, k)
      end do
    end do
  end do
!$xmp reduction(max:halo)
  if (xmp_node_num() == 1) then
    write (*, '(a,i0,a,i0,a,i0,a,i0,a,i0)') 'himeno xmp-f-1d ', mimax, 'x', mjmax, 'x', mkmax, ' iter ', nn, &
      ' procs ', xmp_num_nodes()
    call put('time', '(f20.6)', t1 - t0)
    call put('cpu', '(f20.6)', cpu1 - cpu0)
    call put('halo', '(f20.6)', halo)
    call put('gosa', '(es16.9)', dble(gosa))
    call put('checksum', '(es16.9)', sum)
    call put('mflops', '(f20.1)', 34.0d0 * (imax - 2) * (jmax - 2) * (kmax - 2) * nn / (t1 - t0) * 1d-6)
  end if
contains
  subroutine put(key, f, x)
    character(*), intent(in) :: key, f
    real(8), intent(in) :: x
    character(40) :: b
    write (b, f) x
    write (*, '(a,1x,a)') key, trim(adjustl(b))
  end subroutine put
end program himeno_xmp_1d
