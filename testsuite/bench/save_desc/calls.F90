! Cost of a procedure call whose local aligned arrays are set up at every call,
! with and without `save_desc` (testsuite/bench/save_desc/run.sh). Each call: a
! loop over two arrays of N elements, a reflect (shadow 1), a reduction.
program calls
  implicit none
  include 'xmp_lib.h'
  integer :: k, ncall
  real(8) :: t0, t(3), s, ref
  character(len=16) :: arg
  ncall = 2000
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) ncall
  end if
  ! warm-up, and all three give the same sum
  call plain(s)
  ref = s
  call saved_desc(s)
  if (s /= ref) print *, 'ERROR saved_desc', s, ref
  call saved_all(s)
  if (s /= ref) print *, 'ERROR saved_all', s, ref
!$xmp barrier
  t0 = xmp_wtime()
  do k = 1, ncall
    call plain(s)
  end do
!$xmp barrier
  t(1) = xmp_wtime() - t0
  t0 = xmp_wtime()
  do k = 1, ncall
    call saved_desc(s)
  end do
!$xmp barrier
  t(2) = xmp_wtime() - t0
  t0 = xmp_wtime()
  do k = 1, ncall
    call saved_all(s)
  end do
!$xmp barrier
  t(3) = xmp_wtime() - t0
  if (xmp_node_num() == 1) then
    write (*, '(a, i0, a, 3(1x, f10.2))') 'np=', xmp_num_nodes(), ' us/call plain save_desc save+save_desc:', &
      1d6 * t / ncall
  end if
contains
  subroutine plain(s)
    real(8) :: s
    integer :: i
    real(8) :: a(N), b(N)
!$xmp nodes p(*)
!$xmp template t(N)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp align b(i) with t(i)
!$xmp shadow a(1)
#include "body.inc"
  end subroutine plain
  subroutine saved_desc(s)
    real(8) :: s
    integer :: i
    real(8) :: a(N), b(N)
!$xmp nodes p(*)
!$xmp template t(N)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp align b(i) with t(i)
!$xmp shadow a(1)
!$xmp save_desc :: p, t, a, b
#include "body.inc"
  end subroutine saved_desc
  subroutine saved_all(s)
    real(8) :: s
    integer :: i
    real(8), save :: a(N), b(N)
!$xmp nodes p(*)
!$xmp template t(N)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp align b(i) with t(i)
!$xmp shadow a(1)
!$xmp save_desc :: p, t, a, b
#include "body.inc"
  end subroutine saved_all
end program calls
