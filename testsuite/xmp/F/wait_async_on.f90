! xmpc-test: np=1,2,4
! `wait_async(id) on p` / `on t(...)`: the asynchronous reduction and reflect are
! complete after the wait of the nodes that started them
program wait_async_on
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 16
  integer :: i, me, np, err
  integer(8) :: s
  real(8) :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(1)
  me = xmp_node_num()
  np = xmp_num_nodes()
  err = 0
  s = me
!$xmp reduction(+: s) async(1)
!$xmp wait_async(1) on p
  if (s /= int(np, 8) * (np + 1) / 2) err = err + 1
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
!$xmp reflect (a) async(2)
!$xmp wait_async(2) on t(:)
!$xmp loop on t(i)
  do i = 2, n - 1
    if (a(i - 1) /= i - 1 .or. a(i + 1) /= i + 1) err = err + 1
  end do
!$xmp reduction(+: err)
  if (err /= 0) then
    print *, 'ERROR', me, err
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program wait_async_on
