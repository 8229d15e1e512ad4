! xmpc-test: np=1,2,4
! gblock(*): the mapping array is computed at run time and given by
! template_fix(gblock(m)) (a zero-size block on 2 and 4 nodes); loop, reflect, reduction
program gblock_star
  implicit none
  include 'xmp_lib.h'
  integer :: i, n, np, me, k, lo, hi, err, cnt
  integer, allocatable :: m(:)
  real(8), allocatable :: a(:)
  real(8) :: s
!$xmp nodes p(*)
!$xmp template t(:)
!$xmp distribute t(gblock(*)) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(1)
  np = xmp_num_nodes()
  me = xmp_node_num()
  allocate(m(np))
  do k = 1, np
    m(k) = 2 * k + 1
  end do
  if (np > 1) m(2) = 0
  n = sum(m)
!$xmp template_fix(gblock(m)) t(n)
  allocate(a(n))
  lo = sum(m(1:me - 1)) + 1
  hi = lo + m(me) - 1
  err = 0
  cnt = 0
!$xmp loop on t(i)
  do i = 1, n
    if (i < lo .or. i > hi) err = err + 1
    a(i) = 3 * i
    cnt = cnt + 1
  end do
!$xmp reflect (a)
  s = 0
!$xmp loop on t(i) reduction(+:s, err)
  do i = 2, n - 1
    if (a(i - 1) + a(i + 1) /= 6 * i) err = err + 1
    s = s + a(i)
  end do
!$xmp reduction(+:cnt)
  if (err /= 0 .or. cnt /= n .or. s /= 3 * (n * (n - 1) / 2 - 1)) then
    print *, 'ERROR', err, cnt, s
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program gblock_star
