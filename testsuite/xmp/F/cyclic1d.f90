! xmpc-test: np=1,2,4
! cyclic distribution: owner-computes loop and a sum reduction
program cyclic1d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 37
  integer :: i, s, cnt
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(cyclic) onto p
!$xmp align a(i) with t(i)
  s = 0
  cnt = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i * i
    cnt = cnt + 1
  end do
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
  ! node k owns i = k, k+P, ...
  if (cnt /= (n - xmp_node_num()) / xmp_num_nodes() + 1) then
    print *, 'ERROR count', xmp_node_num(), cnt
    call exit(1)
  end if
  if (s /= n * (n + 1) * (2 * n + 1) / 6) then
    print *, 'ERROR sum', s
    call exit(1)
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program cyclic1d
