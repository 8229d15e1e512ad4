! xmpc-test: np=1,2,3,4
! Omni's XMP 1.x collectives: co_sum/co_max/co_min(source, result [, result_image])
! (positional and keywords; result only on result_image, unchanged elsewhere; source
! unchanged), source= in the one-argument forms and in co_broadcast
program caf_omni_coll
  integer :: q(3), s(3), mx(0:1, 3), k, ri
  integer(8) :: n8
  integer, parameter :: w(3) = [1, 2, 1], mn(3) = [1, 2, 11]
  real(8) :: r, rs, bc(4)
  me = this_image()
  np = num_images()
  q = [me, 2 * me, 10 + me]
  s = -1
  call co_sum(q, s)
  if (any(s /= [np * (np + 1) / 2, np * (np + 1), 10 * np + np * (np + 1) / 2])) then
    print *, 'ERROR line 15: co_sum(q, s)', me, s
    error stop 1
  end if
  if (any(q /= [me, 2 * me, 10 + me])) then
    print *, 'ERROR line 19: source changed', me, q
    error stop 1
  end if
  ri = np
  mx = -7
  call co_max(q, mx(0, :), ri)
  call co_min(result=mx(1, :), source=q, result_image=1)
  do k = 1, 3
    if (me == np .and. mx(0, k) /= q(k) + (np - me) * w(k)) then
      print *, 'ERROR line 28: co_max', me, mx(0, :)
      error stop 1
    end if
    if (me /= np .and. mx(0, k) /= -7) then
      print *, 'ERROR line 32: co_max result elsewhere', me, mx(0, :)
      error stop 1
    end if
    if (me == 1 .and. mx(1, k) /= mn(k)) then
      print *, 'ERROR line 36: co_min', me, mx(1, :)
      error stop 1
    end if
    if (me /= 1 .and. mx(1, k) /= -7) then
      print *, 'ERROR line 40: co_min result elsewhere', me, mx(1, :)
      error stop 1
    end if
  end do
  if (any(q /= [me, 2 * me, 10 + me])) then
    print *, 'ERROR line 45: source changed', me, q
    error stop 1
  end if
  r = 0.5d0 * me
  rs = 0
  call co_sum(r, rs)
  if (abs(rs - 0.25d0 * np * (np + 1)) > 1d-12 .or. r /= 0.5d0 * me) then
    print *, 'ERROR line 52: co_sum(r, rs)', me, r, rs
    error stop 1
  end if
  n8 = me
  call co_max(source=n8, result_image=1)
  if (me == 1 .and. n8 /= np) then
    print *, 'ERROR line 58: co_max(source=)', me, n8
    error stop 1
  end if
  bc = me
  call co_broadcast(source=bc, source_image=np)
  if (any(bc /= np)) then
    print *, 'ERROR line 64: co_broadcast(source=)', me, bc
    error stop 1
  end if
  ! the Fortran 2018 form with a literal result image is left as it is
  k = me
  call co_sum(k, 1)
  if (me == 1 .and. k /= np * (np + 1) / 2) then
    print *, 'ERROR line 71: co_sum(k, 1)', me, k
    error stop 1
  end if
  sync all
  if (me == 1) print '(a)', 'PASS'
end program caf_omni_coll
