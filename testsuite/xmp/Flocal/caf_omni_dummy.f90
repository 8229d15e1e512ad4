! xmpc-test: np=2,3
! Omni's coarray dummies of external procedures called without an explicit interface
! (gfortran requires one): a function with scalar and array coarray dummies, a
! subroutine that uses a module, called from the main program and from a procedure
module caf_omni_dummy_m
  integer, save :: aaa[*]
end module caf_omni_dummy_m

real function foo(n0, a2, m0)
  integer m0
  integer n0[*]
  real a2(3, m0)[*]
  k = n0[m0]
  foo = k * a2(2, m0)[1]
end function foo

subroutine zz(c)
  use caf_omni_dummy_m
  integer :: c[*]
  aaa[2] = c[1] + 1
end subroutine zz

subroutine caller(r)
  real :: r, b(12)[*]
  integer :: nn[*]
  nn = -this_image()
  b = 2.0 * this_image()
  sync all
  r = foo(nn, b, 2)
end subroutine caller

program caf_omni_dummy
  use caf_omni_dummy_m
  integer :: n[*], ccc[*]
  real :: a1(300)[*], r
  me = this_image()
  do i = 1, 300
    a1(i) = real(me + 10 * i)
  end do
  n = -me
  ccc = 10 * me
  aaa = 0
  sync all
  ans = foo(n, a1, 2)
  if (abs(ans - (-2.0) * real(1 + 10 * 5)) > 1e-4) then
    print *, 'ERROR line 46: foo', me, ans
    error stop 1
  end if
  if (me == 1) call zz(ccc)
  call caller(r)
  if (abs(r - (-2.0) * 2.0) > 1e-4) then
    print *, 'ERROR line 52: caller', me, r
    error stop 1
  end if
  sync all
  if (me == 2 .and. aaa /= 11) then
    print *, 'ERROR line 57: zz', me, aaa
    error stop 1
  end if
  sync all
  if (me == 1) print '(a)', 'PASS'
end program caf_omni_dummy
