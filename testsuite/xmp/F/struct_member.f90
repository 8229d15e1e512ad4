! xmpc-test: np=1,2,4
! A distributed array component of a derived type (Omni: align b%a(i) with t(i), b the
! type): every variable of the type gets its component distributed; loop, shadow +
! reflect (c%a), reduction and gmove of components; the other components stay plain
program struct_member
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 11
  type b
    integer :: k
    real(8) :: a(n)
    real(8) :: w(3)
  end type b
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align b%a(i) with t(i)
!$xmp shadow b%a(1)
!$xmp align x(i) with t(i)
  type(b) :: c, d
  real(8) :: x(n), loc(3)
  integer :: i, err, cnt
  real(8) :: s
  err = 0
  cnt = 0
  c%k = 7
  c%w = (/ 1.0d0, 2.0d0, 3.0d0 /)
!$xmp loop on t(i)
  do i = 1, n
    c%a(i) = i
    d%a(i) = 10 * i
    x(i) = -i
    cnt = cnt + 1
  end do
!$xmp reflect (c%a, d%a)
  s = 0
!$xmp loop on t(i) reduction(+:s, err)
  do i = 2, n - 1
    if (c%a(i - 1) + c%a(i + 1) /= 2 * i) err = err + 1
    if (d%a(i - 1) + d%a(i + 1) /= 20 * i) err = err + 1
    s = s + c%a(i) + d%a(i)
  end do
!$xmp reduction(+:cnt)
  ! a section of a component into a distributed array and into a local array
!$xmp gmove
  x(1:3) = c%a(6:8)
!$xmp gmove
  loc(1:3) = d%a(n - 2:n)
!$xmp loop on t(i) reduction(+:err)
  do i = 1, n
    if (i <= 3) then
      if (x(i) /= i + 5) err = err + 1
    else
      if (x(i) /= -i) err = err + 1
    end if
  end do
  do i = 1, 3
    if (loc(i) /= 10 * (n - 3 + i)) err = err + 1
  end do
  if (c%k /= 7 .or. c%w(3) /= 3.0d0) err = err + 1
  if (err /= 0 .or. cnt /= n .or. s /= 11 * (n * (n - 1) / 2 - 1)) then
    print *, 'ERROR', err, cnt, s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program struct_member
