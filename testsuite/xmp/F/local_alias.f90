! xmpc-test: np=1,2,4
! local_alias (Omni's bounds): `la` names the local section of the aligned array,
! shadows included, 0-based in distributed dimensions (la(0) is the lower shadow
! element), with the declared bounds in the others; writes through either name
! are seen through the other; an allocatable global array is aliased at its
! allocate
program local_alias
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 16
  integer :: a(n)
  integer :: b(2:4, n)
  real(8), allocatable :: c(:)
  integer :: la(:)
  integer :: lb(0:, 0:)
  real(8) :: lc(:)
  integer :: i, j, err, lo, hi, nl
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp align b(*, i) with t(i)
!$xmp align c(i) with t(i)
!$xmp shadow a(1)
!$xmp shadow b(0, 2)
!$xmp local_alias la => a
!$xmp local_alias lb => b
!$xmp local_alias lc => c
  err = 0
  lo = huge(0)
  hi = -huge(0)
!$xmp loop on t(i)
  do i = 1, n
    a(i) = 10 * i
    do j = 2, 4
      b(j, i) = 100 * i + j
    end do
    lo = min(lo, i)
    hi = max(hi, i)
  end do
  nl = hi - lo + 1
  ! bounds: 0:nl+1 (shadow 1 each side); b: 2:4 and 0:nl+3 (shadow 2 each side)
  if (lbound(la, 1) /= 0 .or. ubound(la, 1) /= nl + 1) err = err + 1
  if (lbound(lb, 1) /= 2 .or. ubound(lb, 1) /= 4) err = err + 1
  if (lbound(lb, 2) /= 0 .or. ubound(lb, 2) /= nl + 3) err = err + 1
  do i = lo, hi
    if (la(i - lo + 1) /= 10 * i) err = err + 1
    do j = 2, 4
      if (lb(j, i - lo + 2) /= 100 * i + j) err = err + 1
    end do
  end do
!$xmp reflect (a)
!$xmp reflect (b)
  ! the shadow elements through the alias
  if (lo > 1) then
    if (la(0) /= 10 * (lo - 1)) err = err + 1
    if (lb(3, 0) /= 100 * (lo - 2) + 3) err = err + 1
    if (lb(4, 1) /= 100 * (lo - 1) + 4) err = err + 1
  end if
  if (hi < n) then
    if (la(nl + 1) /= 10 * (hi + 1)) err = err + 1
    if (lb(2, nl + 3) /= 100 * (hi + 2) + 2) err = err + 1
  end if
  ! a write through the alias is a write to the global array
  la(1) = -1
  la(nl) = la(nl) + 1
  lb(3, 2) = -3
  if (a(lo) /= -1 .or. a(hi) /= 10 * hi + 1) err = err + 1
  if (b(3, lo) /= -3) err = err + 1
  ! an allocatable global array: aliased at its allocate
  allocate(c(n))
  if (lbound(lc, 1) /= 0 .or. size(lc) /= nl) err = err + 1
!$xmp loop on t(i)
  do i = 1, n
    c(i) = 0.5d0 * i
  end do
  do i = 0, nl - 1
    if (lc(i) /= 0.5d0 * (lo + i)) err = err + 1
  end do
  deallocate(c)
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program local_alias
