! xmpc-test: np=4
! reduction, bcast and barrier `on` node subsets p(lo:hi) (literal bounds, built
! once), a subset with run-time bounds, and 2-D subsets q(:, *), q(1, *) (`*`: this
! node's own index): only the members take part, the others keep their values.
program on_subset
  implicit none
  include 'xmp_lib.h'
  integer :: me, x, y, z, w, k, it, err
!$xmp nodes p(4)
!$xmp nodes q(2, 2)
  err = 0
  me = xmp_node_num()
  do it = 1, 3
    x = me * 10
!$xmp reduction(+:x) on p(2:3)
    if (me == 2 .or. me == 3) then
      if (x /= 50) err = err + 1
    else
      if (x /= me * 10) err = err + 1
    end if
  end do
  y = me * 100
!$xmp bcast (y) from p(3) on p(2:4)
  if (me == 1) then
    if (y /= 100) err = err + 1
  else
    if (y /= 300) err = err + 1
  end if
  k = 3
  z = me
!$xmp reduction(max:z) on p(1:k)
  if (me <= 3) then
    if (z /= 3) err = err + 1
  else
    if (z /= 4) err = err + 1
  end if
! q(i, j) is node i + 2 * (j - 1); `*` is the executing node's own index (as in C
! and Omni): q(:, *) is the column holding this node, nodes 1 and 2 or 3 and 4
  w = me
!$xmp reduction(+:w) on q(:, *)
  if (me <= 2) then
    if (w /= 3) err = err + 1
  else
    if (w /= 7) err = err + 1
  end if
! q(1, *) is one node, q(1, j) of this node's column j: only nodes 1 and 3 are members
! of theirs, and each reduces alone
  w = me * 10
!$xmp reduction(max:w) on q(1, *)
  if (w /= me * 10) err = err + 1
!$xmp barrier on p(1:2)
!$xmp barrier on q(*, 2)
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program on_subset
