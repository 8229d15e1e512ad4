! xmpc-test: np=1,2,4
! DO loops counting downwards under `loop` (Omni runs them; xmpc stopped them at run
! time with "loop step -1 must be positive"): block and cyclic dimensions, a `*`
! dimension inside a block one, steps -1, -2 and -3, a labelled DO. Every node runs
! each of its iterations once, from the largest index down; none runs another's.
program loop_down
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 23, m = 10
  integer :: a(n), b(n), c(m, n)
  integer :: i, j, err, last, cnt, want
!$xmp nodes p(*)
!$xmp template tb(n)
!$xmp template tc(n)
!$xmp template t2(m, n)
!$xmp distribute tb(block) onto p
!$xmp distribute tc(cyclic) onto p
!$xmp distribute t2(*, block) onto p
!$xmp align a(i) with tb(i)
!$xmp align b(i) with tc(i)
!$xmp align c(j, i) with t2(j, i)
  err = 0
  cnt = 0
!$xmp loop on tb(i)
  do i = 1, n
    a(i) = 0
  end do
!$xmp loop on tc(i)
  do i = 1, n
    b(i) = 0
  end do
!$xmp loop (j, i) on t2(j, i)
  do i = 1, n
    do j = 1, m
      c(j, i) = 0
    end do
  end do
  ! block, step -1: each index below the one before
  last = huge(last)
!$xmp loop on tb(i)
  do i = n, 1, -1
    if (i >= last) err = err + 1
    last = i
    a(i) = a(i) + i
    cnt = cnt + 1
  end do
  ! block, step -3 from n - 1 (n-1, n-4, ..., 4)
!$xmp loop on tb(i)
  do i = n - 1, 2, -3
    a(i) = a(i) + 1000
    cnt = cnt + 1
  end do
  ! cyclic, step -2, a labelled DO (n, n-2, ..., 1)
  last = huge(last)
!$xmp loop on tc(i)
  do 20 i = n, 1, -2
    if (i >= last) err = err + 1
    last = i
    b(i) = b(i) + i
    cnt = cnt + 1
20 continue
  ! block outer and `*` inner, both downwards
!$xmp loop (j, i) on t2(j, i)
  do i = n, 1, -1
    do j = m, 1, -2
      c(j, i) = c(j, i) + 100 * i + j
      cnt = cnt + 1
    end do
  end do
!$xmp reduction(+:cnt)
  if (cnt /= n + (n - 1 - 4) / 3 + 1 + (n + 1) / 2 + n * (m / 2)) err = err + 1
!$xmp loop on tb(i)
  do i = 1, n
    want = i
    if (i >= 4 .and. mod(n - 1 - i, 3) == 0) want = want + 1000
    if (a(i) /= want) err = err + 1
  end do
!$xmp loop on tc(i)
  do i = 1, n
    want = 0
    if (mod(n - i, 2) == 0) want = i
    if (b(i) /= want) err = err + 1
  end do
!$xmp loop (j, i) on t2(j, i)
  do i = 1, n
    do j = 1, m
      want = 0
      if (mod(m - j, 2) == 0) want = 100 * i + j
      if (c(j, i) /= want) err = err + 1
    end do
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', xmp_node_num(), err, cnt
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program loop_down
