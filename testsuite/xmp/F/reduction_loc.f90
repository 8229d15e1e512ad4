! xmpc-test: np=1,2,4
! firstmax / lastmin / max with location variables, on a loop and as a directive
program reduction_loc
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 24
  integer :: i, imax, imin, ifirst, ilast, jloc, err
  real(8) :: a(n), vmax, vmin
  integer :: v, w
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
  do i = 1, n
    a(i) = mod(i * 5, 7)
  end do
  ! values: max 6 first at i = 4 (4*5=20 mod 7 = 6), last at i = 18; min 0 at 7, 14, 21
  vmax = -1; imax = 0; vmin = 100; imin = 0
!$xmp loop on t(i) reduction(firstmax: vmax /imax/) reduction(lastmin: vmin /imin/)
  do i = 1, n
    if (a(i) > vmax) then
      vmax = a(i); imax = i
    end if
    if (a(i) <= vmin) then
      vmin = a(i); imin = i
    end if
  end do
  err = 0
  if (vmax /= 6 .or. imax /= 4) err = err + 1
  if (vmin /= 0 .or. imin /= 21) err = err + 1
  ! node k offers value 10 - |k - 2|, location (k, 2k): the maximum is node 2's
  v = 10 - abs(xmp_node_num() - 2)
  ifirst = xmp_node_num()
  jloc = 2 * xmp_node_num()
!$xmp reduction(max: v /ifirst, jloc/)
  if (xmp_num_nodes() >= 2) then
    if (v /= 10 .or. ifirst /= 2 .or. jloc /= 4) err = err + 1
  end if
  ! ties: lastmax takes the largest location
  w = 1
  ilast = xmp_node_num()
!$xmp reduction(lastmax: w /ilast/)
  if (w /= 1 .or. ilast /= xmp_num_nodes()) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err, vmax, imax, vmin, imin, v, ifirst, jloc, ilast
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program reduction_loc
