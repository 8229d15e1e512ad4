! xmpc-test: np=4
! bcast from q(2) on q: only q's nodes take part
program bcast_on
  implicit none
  include 'xmp_lib.h'
  integer :: x, err
!$xmp nodes p(4)
!$xmp nodes q(2) = p(3:4)
  err = 0
  x = 100 + xmp_node_num()
!$xmp task on q
!$xmp bcast (x) from q(2) on q
!$xmp end task
  if (xmp_node_num() >= 3 .and. x /= 104) err = err + 1
  if (xmp_node_num() < 3 .and. x /= 100 + xmp_node_num()) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program bcast_on
