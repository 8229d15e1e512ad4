! xmpc-test: np=1,3,4
! co_max and co_min of integers, reals and arrays
program caf_comaxmin
  implicit none
  integer :: me, np, i, imax, imin, v(3)
  real :: x, y
  me = this_image()
  np = num_images()
  imax = mod(me * 7, 5) + me
  imin = imax
  call co_max(imax)
  call co_min(imin)
  if (imax /= maxval([(mod(i * 7, 5) + i, i = 1, np)]) .or. imin /= minval([(mod(i * 7, 5) + i, i = 1, np)])) then
    print *, 'ERROR line 14: max/min', me, imax, imin
    error stop 1
  end if
  x = -1.5 * me
  y = x
  call co_max(x)
  call co_min(y, result_image=np)
  if (x /= -1.5) then
    print *, 'ERROR line 21: x', me, x
    error stop 1
  end if
  if (me == np .and. y /= -1.5 * np) then
    print *, 'ERROR line 25: y', me, y
    error stop 1
  end if
  v = [me, -me, 10 - me]
  call co_max(v)
  if (any(v /= [np, -1, 9])) then
    print *, 'ERROR line 31: v', me, v
    error stop 1
  end if
  if (me == 1) print *, 'PASS'
end program caf_comaxmin
