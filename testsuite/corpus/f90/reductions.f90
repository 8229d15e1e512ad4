! Reductions on a cyclic distribution: + and max on the loop directive, .and.,
! .or. and firstmax (with its location) as reduction directives.
!
! xmpc-test: np=4
program reductions
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 100
  integer :: a(n), i, isum, imax, iloc, esum, emax, eloc
  logical :: allpos, anybig
  real(8) :: x(n), xmax, ex
!$xmp nodes p(4)
!$xmp template t(n)
!$xmp distribute t(cyclic) onto p
!$xmp align a(i) with t(i)
!$xmp align x(i) with t(i)

!$xmp loop on t(i)
  do i = 1, n
    a(i) = mod(i * 7, 31)
    x(i) = dble(a(i))
  end do

  ! Expected values, computed redundantly.
  esum = 0
  emax = -1
  eloc = 0
  do i = 1, n
    esum = esum + mod(i * 7, 31)
    if (mod(i * 7, 31) > emax) then
      emax = mod(i * 7, 31)
      eloc = i
    end if
  end do
  ex = dble(emax)

  isum = 0
  imax = -1
!$xmp loop on t(i) reduction(+: isum)
  do i = 1, n
    isum = isum + a(i)
  end do

!$xmp loop on t(i) reduction(max: imax)
  do i = 1, n
    imax = max(imax, a(i))
  end do

  allpos = .true.
  anybig = .false.
!$xmp loop on t(i)
  do i = 1, n
    allpos = allpos .and. (a(i) >= 0)
    anybig = anybig .or. (a(i) > 29)
  end do
!$xmp reduction (.and.: allpos)
!$xmp reduction (.or.: anybig)

  ! Local first maximum, then the global first one with its index.
  xmax = -1.0d0
  iloc = n + 1
!$xmp loop on t(i)
  do i = 1, n
    if (x(i) > xmax) then
      xmax = x(i)
      iloc = i
    end if
  end do
!$xmp reduction (firstmax: xmax /iloc/)

  if (isum /= esum .or. imax /= emax .or. .not. allpos .or. .not. anybig &
      .or. xmax /= ex .or. iloc /= eloc) then
    if (xmp_node_num() == 1) print *, 'FAIL', isum, esum, imax, emax, xmax, iloc, eloc
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program reductions
