! xmpc-test: np=1,2,4
! align a(*, j) with t(j): the first dimension is kept whole on every owner
program align_star
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 6, m = 18
  integer :: i, j, err
  real :: a(n, m)
!$xmp nodes p(*)
!$xmp template t(m)
!$xmp distribute t(block) onto p
!$xmp align a(*, j) with t(j)
  err = 0
!$xmp loop on t(j)
  do j = 1, m
    do i = 1, n
      a(i, j) = real(i * j)
    end do
  end do
!$xmp loop on t(j) reduction(+:err)
  do j = 1, m
    if (sum(a(:, j)) /= real(j * n * (n + 1) / 2)) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program align_star
