! xmpc-test: np=1,2,4
! call xmp_exit(0) ends the program with status 0 on every node
program xmp_exit_test
  implicit none
  include 'xmp_lib.h'
!$xmp nodes p(*)
!$xmp barrier
  if (xmp_node_num() == 1) print *, 'PASS'
  call xmp_exit(0)
  print *, 'ERROR not reached'
end program xmp_exit_test
