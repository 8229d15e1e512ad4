! xmpc-test: np=2,3
! Omni's scalar complex coarrays (gfortran 12 miscompiles them, XMP0451): in a main
! program or procedure xmpc makes them arrays of one element, `v(1)[4,*]`, and every
! reference `v(1)`: assignment, coindexed put and get, expressions, intrinsics
subroutine sub(ok)
  logical :: ok
  complex :: w[*]
  w = cmplx(this_image(), -this_image())
  sync all
  ok = w[1] == (1.0, -1.0) .and. abs(w) > 0.0
  sync all
end subroutine sub

program caf_omni_complex
  complex(8) :: v[2, *], vv
  logical :: ok
  me = this_image()
  v = (1.23d4, 5.67d8) * me
  vv = v * v
  sync all
  if (me == 2) v[1, 1] = vv
  sync all
  if (me == 1 .and. abs(v - ((1.23d4, 5.67d8) * 2) ** 2) > 1d-6 * abs(v)) then
    print *, 'ERROR line 23: v[1,1] = vv', me, v
    error stop 1
  end if
  if (me == 2 .and. v /= (1.23d4, 5.67d8) * 2) then
    print *, 'ERROR line 27: v', me, v
    error stop 1
  end if
  call sub(ok)
  if (.not. ok) then
    print *, 'ERROR line 32: sub', me
    error stop 1
  end if
  sync all
  if (me == 1) print '(a)', 'PASS'
end program caf_omni_complex
