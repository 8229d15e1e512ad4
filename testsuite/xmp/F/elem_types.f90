! xmpc-test: np=1,2,4
! aligned arrays of several element types: integer(8), real, complex(8), logical
program elem_types
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 20
  integer :: i, err
  integer(8) :: a(n)
  real :: b(n)
  complex(8) :: c(n)
  logical :: d(n)
  complex(8) :: cs
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: a, b, c, d
!$xmp shadow c(1:1)
  err = 0
  cs = (0.0d0, 0.0d0)
!$xmp loop on t(i)
  do i = 1, n
    a(i) = int(i, 8) * 3000000000_8
    b(i) = i * 0.5
    c(i) = cmplx(i, -i, 8)
    d(i) = mod(i, 2) == 0
  end do
!$xmp reflect (c)
!$xmp loop on t(i) reduction(+:err, cs)
  do i = 2, n - 1
    if (a(i) / 3000000000_8 /= i) err = err + 1
    if (b(i) /= i * 0.5) err = err + 1
    if (c(i - 1) /= cmplx(i - 1, 1 - i, 8)) err = err + 1
    if (d(i) .neqv. (mod(i, 2) == 0)) err = err + 1
    cs = cs + c(i)
  end do
  if (cs /= cmplx(sum([(i, i = 2, n - 1)]), -sum([(i, i = 2, n - 1)]), 8)) err = err + 1
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program elem_types
