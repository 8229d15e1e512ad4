! xmpc-test: np=1,2,4
! a program ending with a plain `stop` after its work: status 0
program stop_zero
  implicit none
  include 'xmp_lib.h'
  integer :: x
!$xmp nodes p(*)
  x = 1
!$xmp reduction(+:x)
  if (x /= xmp_num_nodes()) then
    print *, 'ERROR', x
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
  stop
end program stop_zero
