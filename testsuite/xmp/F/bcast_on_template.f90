! xmpc-test: np=4
! on t(...) in bcast/reduction/barrier names the nodes owning those template indices
! (was refused: "unknown node set"); p(2:) is nodes 2..4 (was taken as all of p)
program bcast_on_template
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 16
  integer :: x, s, me, np, err
!$xmp nodes p(4)
!$xmp template t(n)
!$xmp distribute t(block) onto p
  err = 0
  me = xmp_node_num()
  np = xmp_num_nodes()
  x = me
!$xmp bcast (x) on t(n/2+1:n)
  if (me > np/2 .and. x /= np/2 + 1) err = err + 1
  if (me <= np/2 .and. x /= me) err = err + 1
  x = me
!$xmp bcast (x) from p(np) on t(:)
  if (x /= np) err = err + 1
  s = me
!$xmp reduction(+:s) on t(1:n/2)
  if (me <= np/2 .and. s /= 3) err = err + 1
  if (me > np/2 .and. s /= me) err = err + 1
  s = me
!$xmp reduction(+:s) on p(2:)
  if (me >= 2 .and. s /= 9) err = err + 1
  if (me == 1 .and. s /= 1) err = err + 1
!$xmp barrier on t(1)
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program bcast_on_template
