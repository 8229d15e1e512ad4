! xmpc-test: np=1,2,3,4
! gmove with an array aligned with a cyclic template (lower bound 0, n not a
! multiple of the node count): cyclic <- block, block <- cyclic (shifted),
! cyclic <- cyclic (overlapping shift, reversed), local <- cyclic (strided),
! cyclic <- local, scalar <- element, element <- scalar. Every owner's element is
! checked against its formula.
program gmove_cyclic
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 23
  integer :: i, err, cnt, x
  integer :: b(n), c(0:n-1), loc(n), w(8)
!$xmp nodes p(*)
!$xmp template tb(n)
!$xmp template tc(0:n-1)
!$xmp distribute tb(block) onto p
!$xmp distribute tc(cyclic) onto p
!$xmp align b(i) with tb(i)
!$xmp align c(i) with tc(i)
  err = 0
!$xmp loop on tb(i)
  do i = 1, n
    b(i) = 10 * i + 1
  end do
  ! cyclic <- block, whole arrays: c(i) = b(i + 1)
!$xmp gmove
  c(:) = b(:)
  cnt = 0
!$xmp loop on tc(i) reduction(+:err, cnt)
  do i = 0, n - 1
    cnt = cnt + 1
    if (c(i) /= 10 * (i + 1) + 1) err = err + 1
  end do
  if (cnt /= n) err = err + 1000
  ! block <- cyclic, shifted: b(i) = c(i + 1) = 10 * (i + 2) + 1
!$xmp gmove
  b(1:n-3) = c(2:n-2)
!$xmp loop on tb(i) reduction(+:err)
  do i = 1, n
    if (i <= n - 3) then
      if (b(i) /= 10 * (i + 2) + 1) err = err + 1
    else
      if (b(i) /= 10 * i + 1) err = err + 1
    end if
  end do
  ! cyclic <- cyclic, overlapping (right side read before any store)
!$xmp gmove
  c(1:n-1) = c(0:n-2)
!$xmp loop on tc(i) reduction(+:err)
  do i = 0, n - 1
    if (i == 0) then
      if (c(i) /= 11) err = err + 1
    else
      if (c(i) /= 10 * i + 1) err = err + 1
    end if
  end do
  ! cyclic <- block, reversed: c(i) = b(n - i)
!$xmp loop on tb(i)
  do i = 1, n
    b(i) = 3 * i * i
  end do
!$xmp gmove
  c(n-1:0:-1) = b(1:n)
!$xmp loop on tc(i) reduction(+:err)
  do i = 0, n - 1
    if (c(i) /= 3 * (n - i) * (n - i)) err = err + 1
  end do
  ! local <- cyclic, strided: w(k) = c(3 * (k - 1))
  w = -1
!$xmp gmove
  w(1:8) = c(0:n-1:3)
  do i = 1, 8
    if (w(i) /= 3 * (n - 3 * (i - 1))**2) err = err + 1
  end do
  ! scalar <- element, element <- scalar
!$xmp gmove
  x = c(n-2)
  if (x /= 3 * 4) err = err + 1
  x = -77
!$xmp gmove
  c(5) = x
  ! cyclic <- local (every node holds loc)
  do i = 1, n
    loc(i) = i - 50
  end do
!$xmp gmove
  c(6:n-1) = loc(1:n-6)
!$xmp loop on tc(i) reduction(+:err)
  do i = 0, n - 1
    if (i == 5) then
      if (c(i) /= -77) err = err + 1
    else if (i >= 6) then
      if (c(i) /= i - 5 - 50) err = err + 1
    else
      if (c(i) /= 3 * (n - i) * (n - i)) err = err + 1
    end if
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    if (xmp_node_num() == 1) print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program gmove_cyclic
