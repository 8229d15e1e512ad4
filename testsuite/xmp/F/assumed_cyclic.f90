! xmpc-test: np=1,2,4
! an assumed-shape dummy aligned with a cyclic template dimension: the whole
! array is stored on every node, the callee uses the caller's array
module assumed_cyclic_m
contains
  subroutine fill(a, n)
    integer :: n
    integer :: a(:)
    integer :: i
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(cyclic) onto p
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
    do i = 1, n
      a(i) = 3 * i
    end do
  end subroutine fill
end module assumed_cyclic_m
program assumed_cyclic
  use assumed_cyclic_m
  include 'xmp_lib.h'
  integer, parameter :: n = 10
  integer :: a(n), s, i
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(cyclic) onto p
!$xmp align a(i) with t(i)
  call fill(a, n)
  s = 0
!$xmp loop on t(i) reduction(+: s)
  do i = 1, n
    s = s + a(i)
  end do
  if (s /= 3 * n * (n + 1) / 2) then
    print *, 'ERROR', s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program assumed_cyclic
