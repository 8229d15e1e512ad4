! xmpc-test: np=2,4
! task on p(k) nocomm inside a loop over k: each node runs its own task once
program task_nocomm
  implicit none
  include 'xmp_lib.h'
  integer :: k, ran, mine, err
!$xmp nodes p(*)
  ran = 0
  mine = 0
  do k = 1, xmp_num_nodes()
!$xmp task on p(k) nocomm
    ran = ran + 1
    mine = k
!$xmp end task
  end do
  err = 0
  if (ran /= 1 .or. mine /= xmp_node_num()) err = 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', ran, mine
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program task_nocomm
