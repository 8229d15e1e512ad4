! xmpc-test: np=1,2,4
! reflect width(/periodic/1:1): the halo wraps around
program reflect_periodic
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 16
  integer :: i, err, l, r
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(1:1)
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
!$xmp reflect (a) width(/periodic/1:1)
!$xmp loop on t(i)
  do i = 1, n
    l = i - 1
    if (l < 1) l = n
    r = i + 1
    if (r > n) r = 1
    if (a(i - 1) /= l .or. a(i + 1) /= r) err = err + 1
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program reflect_periodic
