! xmpc-test: np=1,2,3,4
! XcalableACC in Fortran: reflect (a) acc, reduction (...) acc, bcast (...) acc and
! gmove acc on data inside an acc data region; host reflect_init/reflect_do too
program xacc_comm
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 20
  integer :: i, err, key, np, me
  integer :: a(n), b(n), r(n)
  real(8) :: s, mx
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp template tc(n)
!$xmp distribute t(block) onto p
!$xmp distribute tc(cyclic) onto p
!$xmp align a(i) with t(i)
!$xmp align b(i) with tc(i)
!$xmp shadow a(2:2)
  err = 0
  np = xmp_num_nodes()
  me = xmp_node_num()
  key = 7 * me
!$xmp loop (i) on t(i)
  do i = 1, n
    a(i) = 5 * i
  end do
  r = 0
  s = 0
  mx = 0
!$acc data copy(a, b, r, key)
!$xmp reflect (a) width(/periodic/2:2) acc
!$xmp bcast (key) from p(np) acc
!$xmp gmove acc
  b(:) = a(:)
!$xmp gmove acc
  r(:) = b(:)
!$xmp loop (i) on t(i)
!$acc parallel loop reduction(+:s) reduction(max:mx)
  do i = 1, n
    s = s + a(i - 2) + a(i + 2)
    mx = max(mx, dble(a(i - 1)))
  end do
!$xmp reduction (+:s) acc
!$xmp reduction (max:mx) acc
!$acc end data
  if (key /= 7 * np) err = err + 1
  do i = 1, n
    if (r(i) /= 5 * i) err = err + 1
  end do
  ! periodic width 2: every element counted twice on each side
  if (s /= 2 * 5 * (n * (n + 1) / 2)) err = err + 1
  if (mx /= 5 * n) err = err + 1
  ! host persistent halo
!$xmp reflect_init (a) width(1:0)
!$xmp loop (i) on t(i)
  do i = 1, n
    a(i) = -i
  end do
!$xmp reflect_do (a)
!$xmp loop (i) on t(i)
  do i = 2, n
    if (a(i - 1) /= -(i - 1)) err = err + 1
  end do
!$xmp reduction (+:err)
  if (err /= 0) then
    if (me == 1) print *, 'ERROR', err
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program xacc_comm
