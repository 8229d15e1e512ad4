! bcast from the first and the last node, task / end task on one node, and a
! tasks block with two tasks (both on node 1 when run on one node).
!
! xmpc-test: np=4
program bcast_tasks
  implicit none
  include 'xmp_lib.h'
  integer :: v, w(4), me, nn, s, t1, t2
!$xmp nodes p(*)

  me = xmp_node_num()
  nn = xmp_num_nodes()

  v = 0
  if (me == 1) v = 42
!$xmp bcast (v) from p(1)
  if (v /= 42) stop 1

  w(:) = me
!$xmp bcast (w) from p(nn)
  if (any(w /= nn)) stop 1

  s = 0
!$xmp task on p(1)
  s = 1
!$xmp end task
!$xmp reduction (+: s)
  if (s /= 1) stop 1

  t1 = 0
  t2 = 0
!$xmp tasks
!$xmp task on p(1)
  t1 = 10
!$xmp end task
!$xmp task on p(nn)
  t2 = 100
!$xmp end task
!$xmp end tasks
  s = t1 + t2
!$xmp reduction (+: s)
  if (s /= 110) stop 1

!$xmp barrier
  if (me == 1) print *, 'PASS'
end program bcast_tasks
