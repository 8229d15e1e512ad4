! xmpc-test: np=1,2,4
! gmove: distributed <- local, distributed <- distributed (shifted), local <- distributed
! (strided), scalar <- element
program gmove
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 20
  integer :: i, err, x
  integer :: a(n), b(n), loc(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: a, b
  err = 0
  do i = 1, n
    loc(i) = 7 * i
  end do
  ! distributed <- local
!$xmp gmove
  a(:) = loc(:)
!$xmp loop on t(i) reduction(+:err)
  do i = 1, n
    if (a(i) /= 7 * i) err = err + 1
  end do
  ! shifted copy between distributed arrays
!$xmp loop on t(i)
  do i = 1, n
    b(i) = 0
  end do
!$xmp gmove
  b(1:n-3) = a(4:n)
!$xmp loop on t(i) reduction(+:err)
  do i = 1, n - 3
    if (b(i) /= 7 * (i + 3)) err = err + 1
  end do
  ! local <- distributed, with a stride
  loc = 0
!$xmp gmove
  loc(1:10) = a(1:n:2)
  do i = 1, 10
    if (loc(i) /= 7 * (2 * i - 1)) err = err + 1
  end do
  ! scalar <- element
!$xmp gmove
  x = a(n)
  if (x /= 7 * n) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program gmove
