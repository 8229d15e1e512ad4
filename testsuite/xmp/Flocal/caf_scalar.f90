! xmpc-test: np=1,2,4
! scalar coarrays: each image puts its number into its right neighbour's x and
! gets its left neighbour's y; the checks derive the neighbours themselves
program caf_scalar
  implicit none
  integer :: x[*], y[*]
  real(8) :: r[*]
  integer :: me, n, left, right, got
  me = this_image()
  n = num_images()
  right = mod(me, n) + 1
  left = mod(me - 2 + n, n) + 1
  x = -1
  y = 100 * me
  r = 0.5d0 * me
  sync all
  x[right] = me
  got = y[left]
  sync all
  if (x /= left) then
    print *, 'ERROR line 20: x', me, x, left
    error stop 1
  end if
  if (got /= 100 * left) then
    print *, 'ERROR line 24: got', me, got
    error stop 1
  end if
  if (r[right] /= 0.5d0 * right) then
    print *, 'ERROR line 28: r', me, r[right]
    error stop 1
  end if
  sync all
  if (me == 1) print *, 'PASS'
end program caf_scalar
