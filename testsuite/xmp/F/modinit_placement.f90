! xmpc-test: np=1,2 flags=-fopenmp
! The call of a module's XMP set-up (`xmpf_modinit_<m>`) goes before the first
! executable statement of each procedure that uses the module: after statement-function
! definitions (part of the specification) and before the `!$omp parallel do` that
! belongs to the first DO (NICAM-DC's and CCS-QCD's procedures; issue 40, cause 1).
module grid
  implicit none
  integer, parameter :: n = 8
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
contains
  subroutine twice(x)
    real :: x, f, y
    f(y) = y * 2.0
    x = f(x)
  end subroutine twice
  subroutine fill(x)
    real :: x(n)
    integer :: i
!$omp parallel do
    do i = 1, n
      x(i) = i
    end do
  end subroutine fill
end module grid

program modinit_placement
  use grid
  implicit none
  include 'xmp_lib.h'
  real :: x, v(n)
  integer :: i, s, err
  err = 0
  x = 1.5
  call twice(x)
  if (x /= 3.0) err = err + 1
  call fill(v)
  if (sum(v) /= 36.0) err = err + 1
  s = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
  if (s /= 36) err = err + 1
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program modinit_placement
