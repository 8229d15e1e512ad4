! xmpc-test: np=1,2,4
! block distribution of a size not divisible by the node count (some nodes own less)
program block_uneven
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 7
  integer :: i, cnt, s
  real(8) :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(1:1)
  cnt = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
    cnt = cnt + 1
  end do
!$xmp reflect (a)
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = 2, n
    s = s + int(a(i - 1))
  end do
!$xmp reduction(+:cnt)
  if (cnt /= n .or. s /= n * (n - 1) / 2) then
    print *, 'ERROR', cnt, s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program block_uneven
