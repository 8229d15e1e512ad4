! xmpc-test: np=1,2,4
! an array aligned with a cyclic(4) template, a 2-D loop (block, cyclic(4))
program cyclic_w_array
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 37
  integer :: i, s
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(cyclic(4)) onto p
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i + 1
  end do
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
  if (s /= n * (n + 1) / 2 + n) then
    print *, 'ERROR', s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program cyclic_w_array
