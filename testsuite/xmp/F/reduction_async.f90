! xmpc-test: np=1,2,3,4
! async reductions: started at the directive, final after wait_async; two ids in
! flight at once, an array, .eqv. and a location reduction with async
program reduction_async
  implicit none
  include 'xmp_lib.h'
  integer :: me, np, j, k, err, loc
  integer(8) :: s
  real(8) :: v(3), mx
  logical :: l
  me = xmp_node_num()
  np = xmp_num_nodes()
  s = me
  v = [dble(me), dble(me * me), 1d0]
  mx = mod(me * 7, 5)
  loc = me
  l = me /= 2
!$xmp reduction(+: s) async(1)
!$xmp reduction(+: v) async(2)
!$xmp reduction(.eqv.: l) async(2)
!$xmp reduction(firstmax: mx /loc/) async(1)
  ! unrelated work while the reductions are in flight
  k = 0
  do err = 1, 1000
    k = k + mod(err, 7)
  end do
!$xmp wait_async(2)
!$xmp wait_async(1)
  err = 0
  if (s /= int(np, 8) * (np + 1) / 2) err = err + 1
  if (v(1) /= dble(np * (np + 1) / 2)) err = err + 1
  if (v(2) /= dble(np * (np + 1) * (2 * np + 1) / 6)) err = err + 1
  if (v(3) /= dble(np)) err = err + 1
  ! .eqv. of (me /= 2) over all nodes: false only on node 2, so the result is
  ! true unless node 2 takes part
  if (l .neqv. (np < 2)) err = err + 1
  if (mx /= dble(maxval([(mod(j * 7, 5), j = 1, np)]))) err = err + 1
  if (loc /= findloc([(mod(j * 7, 5), j = 1, np)], int(mx), 1)) err = err + 1
  if (err /= 0) then
    print *, 'ERROR', me, err
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program reduction_async
