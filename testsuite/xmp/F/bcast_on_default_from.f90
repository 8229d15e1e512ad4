! xmpc-test: np=4
! bcast ... on p(2:3) without from sends from the first node of the on set, p(2), as
! in Omni (it used to take the first executing node, p(1), and abort: not in the set)
program bcast_on_default_from
  implicit none
  include 'xmp_lib.h'
  integer :: x, me, err
!$xmp nodes p(4)
  err = 0
  me = xmp_node_num()
  x = 100 + me
!$xmp bcast (x) on p(2:3)
  if (me >= 2 .and. me <= 3 .and. x /= 102) err = err + 1
  if ((me < 2 .or. me > 3) .and. x /= 100 + me) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program bcast_on_default_from
