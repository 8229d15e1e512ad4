! Himeno benchmark (Poisson, 19-point Jacobi), plain sequential Fortran: the reference
! for the Fortran versions. Arrays p(i, j, k), i contiguous (sizes: himeno_f.h), the
! arithmetic of the original Fortran benchmark; it is himeno_seq.c with the
! dimensions reversed (checksums agree, gosa to float rounding).
!   compile: gfortran -O2 [-DSIZE_MIDDLE] -I. himeno_seq.F90 -o himeno_seq_f
!   usage:   himeno_seq_f [NN]   (iterations, default 100)
! Prints: time <s of the NN iterations>, halo 0, gosa <last residual>,
! checksum <sum of p>, mflops.
#include "himeno_f.h"
program himeno_seq
  implicit none
  integer, parameter :: mimax = MIMAX, mjmax = MJMAX, mkmax = MKMAX
  integer, parameter :: imax = mimax - 1, jmax = mjmax - 1, kmax = mkmax - 1
  real, parameter :: omega = 0.8
  real :: p(mimax, mjmax, mkmax), bnd(mimax, mjmax, mkmax), wrk1(mimax, mjmax, mkmax), wrk2(mimax, mjmax, mkmax)
  real :: a0(mimax, mjmax, mkmax), a1(mimax, mjmax, mkmax), a2(mimax, mjmax, mkmax), a3(mimax, mjmax, mkmax)
  real :: b0(mimax, mjmax, mkmax), b1(mimax, mjmax, mkmax), b2(mimax, mjmax, mkmax)
  real :: c0(mimax, mjmax, mkmax), c1(mimax, mjmax, mkmax), c2(mimax, mjmax, mkmax)
  integer :: nn, n, i, j, k
  integer(8) :: t0, t1, rate
  real(8) :: cpu0, cpu1
  real :: gosa, s0, ss
  real(8) :: t, sum
  character(32) :: arg
  nn = 100
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) nn
  end if
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
  call system_clock(t0, rate)
  call cpu_time(cpu0)
  do n = 1, nn
    gosa = 0
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
    do k = 2, kmax - 1
      do j = 2, jmax - 1
        do i = 2, imax - 1
          p(i, j, k) = wrk2(i, j, k)
        end do
      end do
    end do
  end do
  call system_clock(t1)
  call cpu_time(cpu1)
  t = dble(t1 - t0) / dble(rate)
  sum = 0
  do k = 1, mkmax
    do j = 1, mjmax
      do i = 1, mimax
        sum = sum + p(i, j, k)
      end do
    end do
  end do
  write (*, '(a,i0,a,i0,a,i0,a,i0,a)') 'himeno seq-f ', mimax, 'x', mjmax, 'x', mkmax, ' iter ', nn, ' procs 1'
  call put('time', '(f20.6)', t)
  call put('cpu', '(f20.6)', cpu1 - cpu0)
  write (*, '(a)') 'halo 0'
  call put('gosa', '(es16.9)', dble(gosa))
  call put('checksum', '(es16.9)', sum)
  call put('mflops', '(f20.1)', 34.0d0 * (imax - 2) * (jmax - 2) * (kmax - 2) * nn / t * 1d-6)
contains
  subroutine put(key, f, x)
    character(*), intent(in) :: key, f
    real(8), intent(in) :: x
    character(40) :: b
    write (b, f) x
    write (*, '(a,1x,a)') key, trim(adjustl(b))
  end subroutine put
end program himeno_seq
