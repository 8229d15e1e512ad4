! xmpc-test: np=2,4
! tasks ... end tasks with two tasks on disjoint halves
program tasks
  implicit none
  include 'xmp_lib.h'
  integer :: err, half, who
!$xmp nodes p(*)
  err = 0
  who = 0
  half = xmp_num_nodes() / 2
!$xmp tasks
!$xmp task on p(1:half)
  who = 1
!$xmp end task
!$xmp task on p(half+1:2*half)
  who = 2
!$xmp end task
!$xmp end tasks
  if (xmp_node_num() <= half .and. who /= 1) err = err + 1
  if (xmp_node_num() > half .and. who /= 2) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program tasks
