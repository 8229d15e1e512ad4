! xmpc-test: np=1,2,4
! a distributed loop whose body has a sequential inner loop with cycle and exit
program loop_inner_seq
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 16
  integer :: i, k, s, e
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
  do i = 1, n
    a(i) = 0
    do k = 1, 100
      if (mod(k, 2) == 0) cycle
      if (k > i) exit
      a(i) = a(i) + k
    end do
  end do
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n
    if (i == 3) cycle
    s = s + a(i)
  end do
  e = 0
  do i = 1, n
    if (i == 3) cycle
    do k = 1, i, 2
      e = e + k
    end do
  end do
  if (s /= e) then
    print *, 'ERROR', s, e
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program loop_inner_seq
