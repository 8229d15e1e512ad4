! xmpc-test: np=4
! task on a node, on a node range; inside, the task's nodes execute
program task
  implicit none
  include 'xmp_lib.h'
  integer :: err, ran, s
!$xmp nodes p(4)
  err = 0
  ran = 0
!$xmp task on p(2)
  ran = ran + 1
  if (xmp_node_num() /= 1 .or. xmp_num_nodes() /= 1) err = err + 1
!$xmp end task
!$xmp task on p(2:4)
  ran = ran + 10
  s = 1
!$xmp reduction(+:s)
  if (s /= 3) err = err + 1
  if (xmp_num_nodes() /= 3) err = err + 1
!$xmp end task
  select case (xmp_node_num())
  case (1)
    if (ran /= 0) err = err + 1
  case (2)
    if (ran /= 11) err = err + 1
  case default
    if (ran /= 10) err = err + 1
  end select
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program task
