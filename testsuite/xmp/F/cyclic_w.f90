! xmpc-test: np=1,2,4
! cyclic(3) distribution: each index is visited by exactly one node
program cyclic_w
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 50
  integer :: i, err
  integer :: seen(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(cyclic(3)) onto p
  seen = 0
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    seen(i) = seen(i) + 1
    if (mod((i - 1) / 3, xmp_num_nodes()) + 1 /= xmp_node_num()) err = err + 1
  end do
!$xmp reduction(+:seen, err)
  do i = 1, n
    if (seen(i) /= 1) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program cyclic_w
