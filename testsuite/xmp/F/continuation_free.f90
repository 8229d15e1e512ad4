! xmpc-test: np=1,2,4
! directives continued over lines with & (free form)
program continuation_free
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 22
  integer :: i, s, m
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) &
!$xmp   onto p
!$xmp align a(i) &
!$xmp&  with t(i)
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
  s = 0
  m = 0
!$xmp loop on t(i) &
!$xmp   reduction(+:s) &
!$xmp   reduction(max:m)
  do i = 1, n
    s = s + a(i)
    m = max(m, a(i))
  end do
  if (s /= n * (n + 1) / 2 .or. m /= n) then
    print *, 'ERROR', s, m
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program continuation_free
