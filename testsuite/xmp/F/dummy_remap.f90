! xmpc-test: np=4
! an explicit-shape aligned dummy whose template is cyclic while the actual argument
! is block (Omni's reduction/F/func): the dummy is remapped at entry and copied back
! at every return; a dummy mapped like its actual is used in place
real function asum(a, n)
!$xmp nodes p(4)
!$xmp template t(12)
!$xmp distribute t(cyclic) onto p
  real a(12)
!$xmp align a(i) with t(i)
  asum = 0
!$xmp loop on t(i)
  do i = 1, n
    asum = asum + a(i)
  end do
!$xmp reduction(+:asum)
  return
end function asum

subroutine triple(x, n, early)
  integer n
  logical early
  real x(12)
!$xmp nodes p(4)
!$xmp template t(12)
!$xmp distribute t(cyclic(2)) onto p
!$xmp align x(i) with t(i)
!$xmp loop on t(i)
  do i = 1, n
    x(i) = x(i) * 3
  end do
  if (early) return
!$xmp loop on t(i)
  do i = 1, n
    x(i) = x(i) + 1000
  end do
end subroutine triple

program dummy_remap
  include 'xmp_lib.h'
  real a(12), s, asum
  integer err
!$xmp nodes p(4)
!$xmp template t(12)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
  do i = 1, 12
    a(i) = i
  end do
  err = 0
  s = asum(a, 12)
  if (s /= 78.0) err = err + 1
  call triple(a, 12, .true.)
!$xmp loop on t(i) reduction(+:err)
  do i = 1, 12
    if (a(i) /= 3 * i) err = err + 1
  end do
  call triple(a, 12, .false.)
!$xmp loop on t(i) reduction(+:err)
  do i = 1, 12
    if (a(i) /= 9 * i + 1000) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program dummy_remap
